"""The server under load (bench/load.py): starting one, finding one already running, and
reading its processes' CPU and memory from /proc.

A figure of the load benchmark is only worth something if it is the server's: so the run
refuses to start its own server on a port another process already answers on, and refuses to
report once a process of the server it measures has gone (exited, or its pid now names a
different process).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
PROBE = "/api/session"
"""A cheap endpoint: the idle round trip of the reference, and the server's sign of life."""


class Refusal(Exception):
    """The run cannot report figures: the message says why (the exit status is ``status``)."""

    status = 2


class PortTaken(Refusal):
    """Another process answers on the port the benchmark's own server was to use."""

    status = 2


class ServerDied(Refusal):
    """A process of the measured server is gone: figures would not be the server's."""

    status = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def answers(port: int) -> bool:
    """Whether anything accepts a TCP connection on ``port`` of 127.0.0.1."""
    with socket.socket() as s:
        s.settimeout(1.0)
        return s.connect_ex((HOST, port)) == 0


@dataclass(frozen=True, slots=True)
class Pid:
    """One process, named by its pid and its start time (so a reused pid is not mistaken
    for it)."""

    pid: int
    started: int

    @staticmethod
    def of(pid: int) -> Pid | None:
        fields = _stat(pid)
        return None if fields is None else Pid(pid, int(fields[19]))

    def alive(self) -> bool:
        fields = _stat(self.pid)
        return fields is not None and int(fields[19]) == self.started and fields[0] != "Z"


def _stat(pid: int) -> list[str] | None:
    """/proc/PID/stat's fields after the command (state first), or None if it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def process_tree(root: int) -> list[int]:
    """``root`` and every process below it (uvicorn's workers, a bots' pool)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def listeners(port: int) -> list[int]:
    """The pids holding a listening TCP socket on ``port`` (only those /proc lets this user
    see): the server's processes when it is not one the benchmark started."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A":
                    inodes.add(f"socket:[{fields[9]}]")
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            fds = Path(f"/proc/{entry}/fd")
            if any(os.readlink(fds / fd) in inodes for fd in os.listdir(fds)):
                pids.append(int(entry))
    return pids


class ServerProcesses:
    """The processes of the measured server: CPU and memory together, and a check that none
    of them has gone since they were counted."""

    def __init__(self, pids: list[int], root: subprocess.Popen[bytes] | None = None) -> None:
        self.root = root
        self.pids = [p for pid in pids if (p := Pid.of(pid)) is not None]
        if not self.pids:
            raise ServerDied("the server has no process to measure")

    def check(self) -> None:
        """Raise :class:`ServerDied` if a process of the server is gone."""
        if self.root is not None and (code := self.root.poll()) is not None:
            raise ServerDied(f"the server (pid {self.root.pid}) exited with status {code}")
        for p in self.pids:
            if not p.alive():
                raise ServerDied(f"the server's process {p.pid} is gone")

    def refresh(self) -> None:
        """Check, then count the processes that have appeared below the root since (the
        workers of several processes start after the first answers)."""
        self.check()
        if self.root is not None:
            known = {p.pid for p in self.pids}
            for pid in process_tree(self.root.pid):
                if pid not in known and (p := Pid.of(pid)) is not None:
                    self.pids.append(p)

    def cpu_seconds(self) -> float:
        """User + system CPU seconds the server's processes have used."""
        total = 0
        for p in self.pids:
            if (fields := _stat(p.pid)) is not None:
                total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
        return total / os.sysconf("SC_CLK_TCK")

    def rss_bytes(self) -> int:
        """The resident memory of the server's processes together."""
        total = 0
        for p in self.pids:
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{p.pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
        return total


class Database:
    """A fresh PostgreSQL database for one run, created on the server ``admin_url`` names
    and dropped at the end; or, for ``sqlite``, the server's own file in its data directory."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.url: str | None = None
        self.name: str | None = None

    def __enter__(self) -> Database:
        if self.spec != "sqlite":
            import sqlalchemy as sa

            admin_url = sa.engine.make_url(self.spec).set(drivername="postgresql+psycopg")
            self.name = f"nardy_load_{secrets.token_hex(4)}"
            admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
            with admin.connect() as c:
                c.execute(sa.text(f'CREATE DATABASE "{self.name}"'))
            admin.dispose()
            self.url = admin_url.set(database=self.name).render_as_string(hide_password=False)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.name is not None:
            import sqlalchemy as sa

            admin_url = sa.engine.make_url(self.spec).set(drivername="postgresql+psycopg")
            admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
            with admin.connect() as c:
                c.execute(sa.text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
            admin.dispose()


@contextlib.contextmanager
def own_server(
    data_dir: Path,
    *,
    port: int | None = None,
    database_url: str | None = None,
    processes: int = 1,
    redis_url: str | None = None,
) -> Iterator[tuple[int, ServerProcesses]]:
    """``nardy serve`` of this tree on 127.0.0.1 (``port``, else a free one) until the block
    ends; refused (:class:`PortTaken`) if another process answers on that port first, and
    (:class:`ServerDied`) if the process that answers is not the one started here."""
    port = free_port() if port is None else port
    if answers(port):
        raise PortTaken(f"another process answers on {HOST}:{port}; not starting a server there")
    args = [sys.executable, "-m", "nardy.cli.main", "serve", "--host", HOST, "--port", str(port)]
    args += ["--data-dir", str(data_dir)]
    if database_url is not None:
        args += ["--database-url", database_url]
    if processes != 1:
        args += ["--workers", str(processes)]
    if redis_url is not None:
        args += ["--redis-url", redis_url]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "NARDY_AUTH_RATE": "1000000/1"}
    env["NARDY_SOCKETS_PER_ADDRESS"] = "1000000"  # every player of the benchmark is 127.0.0.1
    for variable in ("NARDY_DATABASE_URL", "NARDY_REDIS_URL", "NARDY_WORKERS"):
        env.pop(variable, None)
    log_path = data_dir / "server.log"
    with open(log_path, "ab") as log:
        process = subprocess.Popen(
            args, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise ServerDied("the server exited at start: " + log_path.read_text()[-2000:])
            try:
                httpx.get(f"http://{HOST}:{port}{PROBE}", timeout=1, trust_env=False)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise ServerDied("the server did not start in 60 s") from None
                time.sleep(0.1)
        tree = set(process_tree(process.pid))
        strangers = set(listeners(port)) - tree
        if strangers:
            raise PortTaken(f"processes {sorted(strangers)} answer on {HOST}:{port}, not ours")
        yield port, ServerProcesses(sorted(tree), root=process)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=15)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def running_server(port: int, pids: list[int] | None) -> ServerProcesses:
    """A server already running on ``port`` of 127.0.0.1: its processes are ``pids``, else
    those listening on the port and everything below them."""
    try:
        httpx.get(f"http://{HOST}:{port}{PROBE}", timeout=5, trust_env=False)
    except httpx.HTTPError as exc:
        raise ServerDied(f"no server answers on {HOST}:{port}: {exc}") from None
    if not pids:
        found = listeners(port)
        if not found:
            raise Refusal(
                f"cannot see the processes listening on {HOST}:{port}; name them with --server-pid"
            )
        pids = sorted({p for pid in found for p in process_tree(pid)})
    return ServerProcesses(pids)
