"""Real server processes and clients for the server tests: ``nardy serve`` started as a
subprocess on a free port, HTTP through httpx, WebSockets through the websockets library."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``nardy serve`` in its own process, on its own port and data directory."""

    def __init__(self, data_dir: Path, database_url: str | None, *args: str, **env: str) -> None:
        self.data_dir = data_dir
        self.database_url = database_url
        self.args = args  # more options of nardy serve
        self.env = env
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), **self.env}
        env.pop("NARDY_DATABASE_URL", None)
        args = [sys.executable, "-m", "nardy.cli.main", "serve", "--port", str(self.port)]
        args += ["--data-dir", str(self.data_dir)]
        if self.database_url:
            args += ["--database-url", self.database_url]
        args += self.args
        # Its own process group, so that a kill reaches the bots' worker processes too; the
        # output goes to a file, which no orphaned worker can hold open.
        self.log = open(self.data_dir / "server.log", "a")  # noqa: SIM115
        self.process = subprocess.Popen(
            args, env=env, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.read_log()}")
            try:
                httpx.get(self.url + "/api/session", timeout=1)
                return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start in 30 s")

    def read_log(self) -> str:
        return (self.data_dir / "server.log").read_text()

    def kill(self, sig: int = signal.SIGTERM) -> None:
        """Stop the server and every process it started (SIGKILL: as in a crash)."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)  # workers left behind
        self.log.close()
        self.process = None


class Client:
    """A browser-like client: keeps the cookies and sends the CSRF token back."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=30)
        self.csrf = self.http.get("/api/session").json()["csrf"]
        self.user: dict[str, Any] | None = None

    def on(self, server: ServerProcess) -> Client:
        """The same browser (its session) talking to another server process of the site."""
        other = Client(server)
        other.http.cookies.update(self.http.cookies)
        other.csrf, other.user = self.csrf, self.user
        return other

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.http.get(path, **kw)

    def send(self, method: str, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        headers = {"x-csrf-token": self.csrf, **kw.pop("headers", {})}
        return self.http.request(method, path, json=body, headers=headers, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        return self.send("POST", path, body, **kw)

    def sign_up(self, username: str, password: str = "correct horse") -> dict[str, Any]:
        r = self.post("/api/signup", {"username": username, "password": password})
        assert r.status_code == 201, r.text
        self.user = r.json()["user"]
        return self.user

    def ws(self, game_id: str, origin: str | None = None) -> ClientConnection:
        """The room's socket as a browser opens it: with the cookies and the Origin of the
        site's page (unless another is named)."""
        url = f"ws://127.0.0.1:{self.server.port}/ws/games/{game_id}"
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        headers = {"Cookie": cookie} if cookie else {}
        origin = origin or self.server.url
        # held open across calls (a seat), not in a with block: websockets' direct form
        return connect(
            url,
            additional_headers=headers,
            origin=origin,
            open_timeout=10,
            legacy=True,  # type: ignore[arg-type]
        )


def receive(ws: ClientConnection, timeout: float = 10) -> dict[str, Any]:
    """The next server message."""
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message


def closed_with(ws: ClientConnection, timeout: float = 10) -> tuple[int, str]:
    """Read until the server closes the socket; its close code and reason."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            receive(ws, timeout)
    assert closed.value.rcvd is not None, "the server sent no close frame"
    return closed.value.rcvd.code, closed.value.rcvd.reason
