"""Load on the play server: many games at once, each with two WebSocket players.

    python bench/load.py --games 1000 --think 0.5-3 --duration 30
    python bench/load.py --games 20 --think 0 --duration 10          # as fast as it goes
    python bench/load.py --games 500 --db postgres --workers 2        # needs Redis too

Starts a real ``nardy serve`` on 127.0.0.1 (a fresh SQLite data directory, or a fresh
PostgreSQL database dropped afterwards), then, in ``--clients`` other processes, sets up
``--games`` games as people do (two guests from ``POST /api/guest``, a seek created by one and
joined by the other, a socket each) and plays them: each action is one the state's
``awaiting`` names (a random legal single move, roll, confirm, take), sent after a think time
drawn uniformly from ``--think MIN-MAX`` seconds (``0``: as fast as the protocol allows, the
next action as soon as both players heard the last). A match that ends is followed by a new
one between the same guests.

After ``--warmup`` seconds it measures for ``--duration`` seconds and prints: the games held
(every action answered, both sockets open), actions per second, the latency from an action
sent to the *opponent's* socket receiving its ``events`` (p50 / p99 / max), the server's CPU
(user + system seconds of its processes over the wall time, from /proc) and resident memory,
the clients' CPU, and every error by kind. The machine is shared, so it also measures a
reference in the same run: the round trip of a trivial HTTP request (``GET /api/session``)
on the idle server before the games start, and again during the measurement; latencies are
also quoted as multiples of the idle one. ``--profile FILE`` attaches py-spy to the server
for the measurement (collapsed stacks; ``pip install py-spy``).

Everything is bounded: the games, the time (setup has ``--setup-timeout``), and the server is
stopped at the end whatever happens.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import multiprocessing
import os
import random
import re
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
ADMIN_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
EVENTS_HEAD = re.compile(r'\{"v":1,"type":"events","seq":(\d+),')
"""The start of an ``events`` message as the server writes it (nardy.server.protocol)."""
ANSWER_TIMEOUT = 30.0
"""Seconds an action may wait for its events before it counts as lost (and the game is
dropped)."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What every client process is asked to do: ``games`` games on ``port``, thinking
    ``think`` seconds (low, high) before each action, from ``start`` (time.monotonic, shared
    by every process on the machine) measuring from ``start + warmup`` for ``duration``."""

    port: int
    games: int
    think: tuple[float, float]
    start: float
    warmup: float
    duration: float
    match_length: int
    seed: int

    @property
    def window(self) -> tuple[float, float]:
        begin = self.start + self.warmup
        return begin, begin + self.duration


@dataclass(slots=True)
class Tally:
    """What one client process saw in the measurement window."""

    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    held: int = 0
    set_up: int = 0
    matches: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    cpu: float = 0.0


# -- the server and its processes ------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def process_tree(root: int) -> list[int]:
    """``root`` and every process below it (uvicorn's workers, the bots' pool)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds these processes have used."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / os.sysconf("SC_CLK_TCK")


def rss_bytes(pids: list[int]) -> int:
    """The resident memory of these processes together."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


class Database:
    """A fresh database for one run: a SQLite file in the data directory (the server's
    default) or a PostgreSQL database created here and dropped at the end."""

    def __init__(self, kind: str, admin_url: str) -> None:
        self.kind = kind
        self.admin_url = admin_url
        self.url: str | None = None
        self.name: str | None = None

    def __enter__(self) -> Database:
        if self.kind == "postgres":
            import sqlalchemy as sa

            self.name = f"nardy_load_{secrets.token_hex(4)}"
            admin = sa.create_engine(self.admin_url, isolation_level="AUTOCOMMIT")
            with admin.connect() as c:
                c.execute(sa.text(f'CREATE DATABASE "{self.name}"'))
            admin.dispose()
            url = sa.engine.make_url(self.admin_url).set(database=self.name)
            self.url = url.render_as_string(hide_password=False)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.name is not None:
            import sqlalchemy as sa

            admin = sa.create_engine(self.admin_url, isolation_level="AUTOCOMMIT")
            with admin.connect() as c:
                c.execute(sa.text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
            admin.dispose()


@contextlib.contextmanager
def running_server(
    data_dir: Path, database_url: str | None, workers: int, redis_url: str | None
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """``nardy serve`` on a free port of 127.0.0.1 until the block ends."""
    port = free_port()
    args = [sys.executable, "-m", "nardy.cli.main", "serve", "--host", HOST, "--port", str(port)]
    args += ["--data-dir", str(data_dir)]
    if database_url is not None:
        args += ["--database-url", database_url]
    if workers != 1:
        args += ["--workers", str(workers)]
    if redis_url is not None:
        args += ["--redis-url", redis_url]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "NARDY_AUTH_RATE": "1000000/1"}
    env["NARDY_SOCKETS_PER_ADDRESS"] = "1000000"  # every player of the benchmark is 127.0.0.1
    for variable in ("NARDY_DATABASE_URL", "NARDY_REDIS_URL", "NARDY_WORKERS"):
        env.pop(variable, None)
    log = open(data_dir / "server.log", "ab")  # noqa: SIM115
    process = subprocess.Popen(
        args, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(
                    "the server exited: " + (data_dir / "server.log").read_text()[-2000:]
                )
            try:
                httpx.get(f"http://{HOST}:{port}/api/session", timeout=1)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not start in 60 s") from None
                time.sleep(0.1)
        yield port, process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=15)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        log.close()


def round_trips(
    port: int, count: int, pause: float = 0.0, until: float = float("inf")
) -> list[float]:
    """Seconds of ``count`` trivial HTTP requests one after another (fewer if time.monotonic
    reaches ``until``)."""
    times = []
    with httpx.Client(base_url=f"http://{HOST}:{port}", timeout=30) as client:
        for _ in range(count):
            if time.monotonic() + pause >= until:
                break
            started = time.perf_counter()
            client.get("/api/session")
            times.append(time.perf_counter() - started)
            if pause:
                time.sleep(pause)
    return times


# -- the players -------------------------------------------------------------------------------


def choose(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """A legal action for ``seat`` from what the state awaits: take a double, roll, a random
    legal single move, confirm; never double or resign."""
    awaiting = state["awaiting"]
    kinds = next(a["actions"] for a in awaiting["actors"] if a["player"] == seat)
    for kind in ("roll-opening", "take", "roll"):
        if kind in kinds:
            return {"type": kind}
    if "move" in kinds and awaiting.get("moves"):
        move = rng.choice(awaiting["moves"])
        return {"type": "move", "from": move["from"], "to": move["to"]}
    if "confirm" in kinds:
        return {"type": "confirm"}
    if "choose-double" in kinds:
        return {"type": "choose-double", "die": rng.randint(1, 6)}
    raise ValueError(f"nothing this player knows how to do among {kinds}")


class Seat:
    """One player's socket: a reader that keeps the last state and wakes whoever waits for
    an action number (or a refusal), with the time the message arrived."""

    def __init__(self, ws: ClientConnection, welcome: dict[str, Any]) -> None:
        self.ws = ws
        # Seat 0 reads every state (the game plays from it); seat 1 only needs each events
        # message's number, read from its start, so the clients parse each state once.
        self.full = welcome["seat"] == 0
        self.seat: int = welcome["seat"]
        self.state: dict[str, Any] = welcome["state"]
        self.waiting: tuple[int, asyncio.Future[tuple[float, dict[str, Any]]]] | None = None
        self.reader = asyncio.create_task(self._read())

    def expect(self, seq: int) -> asyncio.Future[tuple[float, dict[str, Any]]]:
        future: asyncio.Future[tuple[float, dict[str, Any]]] = (
            asyncio.get_running_loop().create_future()
        )
        self.waiting = (seq, future)
        return future

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                arrived = time.perf_counter()
                head = None if self.full else EVENTS_HEAD.match(str(text))
                message: dict[str, Any] = (
                    {"type": "events", "seq": int(head[1])} if head else json.loads(text)
                )
                if "state" in message:
                    self.state = message["state"]
                if self.waiting is None:
                    continue
                seq, future = self.waiting
                kind = message["type"]
                if (kind == "events" and message["seq"] >= seq) or kind in ("refused", "error"):
                    self.waiting = None
                    if not future.done():
                        future.set_result((arrived, message))
        finally:
            if self.waiting is not None and not self.waiting[1].done():
                self.waiting[1].set_exception(ConnectionError("the socket closed"))

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


class Guest:
    """A guest's HTTP session (its own cookies) over the process's shared connections."""

    def __init__(self, transport: httpx.AsyncHTTPTransport, port: int) -> None:
        self.port = port
        token = secrets.token_urlsafe(16)
        self.http = httpx.AsyncClient(
            transport=transport, base_url=f"http://{HOST}:{port}", timeout=120, trust_env=False
        )
        self.http.cookies.set("nardy_csrf", token)
        self.csrf = token

    async def post(self, path: str, body: Any = None) -> dict[str, Any]:
        response = await self.http.post(path, json=body, headers={"x-csrf-token": self.csrf})
        if response.status_code >= 400:
            raise RuntimeError(f"POST {path}: {response.status_code} {response.text[:200]}")
        answer: dict[str, Any] = response.json()
        return answer

    async def socket(self, game_id: str) -> Seat:
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        ws = await connect(
            f"ws://{HOST}:{self.port}/ws/games/{game_id}",
            additional_headers={"Cookie": cookie},
            origin=Origin(f"http://{HOST}:{self.port}"),  # as the browser's page
            open_timeout=120,
            ping_interval=None,  # the measurement, not keep-alives, decides what is too slow
            max_size=2**20,
        )
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 120))
        assert welcome["type"] == "welcome", welcome
        return Seat(ws, welcome)


async def new_match(guests: tuple[Guest, Guest], match_length: int) -> list[Seat]:
    """A seek by the first guest, joined by the second; both sockets, in seat order."""
    game = await guests[0].post("/api/games", {"settings": {"match-length": match_length}})
    await guests[1].post(f"/api/games/{game['id']}/join")
    seats = [await guests[0].socket(game["id"]), await guests[1].socket(game["id"])]
    return sorted(seats, key=lambda s: s.seat)


async def play(
    plan: Plan, guests: tuple[Guest, Guest], seats: list[Seat], rng: random.Random, tally: Tally
) -> None:
    """Play until the window ends; a match that ends is followed by another."""
    begin, end = plan.window
    low, high = plan.think
    refs = 0
    held = True
    await asyncio.sleep(max(0.0, plan.start - time.monotonic()) + rng.uniform(0, high))
    try:
        while time.monotonic() < end:
            state = seats[0].state
            if state["status"] == "finished":
                for seat in seats:
                    await seat.close()
                seats[:] = await new_match(guests, plan.match_length)
                tally.matches += 1
                continue
            actor = next(
                s for s in seats if any(a["player"] == s.seat for a in state["awaiting"]["actors"])
            )
            other = seats[1 - actor.seat]
            action = choose(state, actor.seat, rng)
            if high > 0:
                await asyncio.sleep(rng.uniform(low, high))
            refs += 1
            target = state["seq"] + 1
            mine, theirs = actor.expect(target), other.expect(target)
            sent = time.perf_counter()
            sent_at = time.monotonic()
            await actor.ws.send(json.dumps({"type": "action", "action": action, "ref": refs}))
            _, reply = await asyncio.wait_for(mine, ANSWER_TIMEOUT)
            if reply["type"] != "events":
                tally.errors[f"{reply['type']}:{reply.get('code')}"] += 1
                theirs.cancel()
                other.waiting = None
                held = False
                return
            arrived, _ = await asyncio.wait_for(theirs, ANSWER_TIMEOUT)
            if begin <= sent_at < end:
                tally.latencies.append(arrived - sent)
                tally.actions += 1
    except TimeoutError:
        tally.errors["no-answer-in-30s"] += 1
        held = False
    except (ConnectionError, OSError) as exc:
        tally.errors[f"socket:{type(exc).__name__}"] += 1
        held = False
    except Exception as exc:
        tally.errors[f"client:{type(exc).__name__}:{exc}"[:120]] += 1
        held = False
    finally:
        tally.held += held
        for seat in seats:
            with contextlib.suppress(Exception):
                await seat.close()


async def client_main(plan: Plan, index: int, ready: Any, go: Any) -> Tally:
    """One client process: set up its games (a few at a time), say so, wait for the common
    start, then play them."""
    tally = Tally()
    transport = httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=20))
    rng = random.Random(f"{plan.seed}:{index}")
    limit = asyncio.Semaphore(20)

    async def set_up() -> tuple[tuple[Guest, Guest], list[Seat]] | None:
        async with limit:
            try:
                guests = (Guest(transport, plan.port), Guest(transport, plan.port))
                for guest in guests:
                    await guest.post("/api/guest")
                return guests, await new_match(guests, plan.match_length)
            except Exception as exc:
                tally.errors[f"setup:{type(exc).__name__}:{exc}"[:120]] += 1
                return None

    made = await asyncio.gather(*(set_up() for _ in range(plan.games)))
    games = [m for m in made if m is not None]
    tally.set_up = len(games)
    ready.put(index)
    while go.value == 0:
        await asyncio.sleep(0.02)
    plan = dataclasses.replace(plan, start=go.value)
    await asyncio.gather(*(play(plan, g, s, random.Random(rng.random()), tally) for g, s in games))
    await transport.aclose()
    return tally


def client_process(plan: Plan, index: int, ready: Any, go: Any, results: Any) -> None:
    started = time.process_time()
    try:
        import uvloop

        tally = uvloop.run(client_main(plan, index, ready, go))
    except ImportError:
        tally = asyncio.run(client_main(plan, index, ready, go))
    tally.cpu = time.process_time() - started
    results.put(tally)


# -- the run -----------------------------------------------------------------------------------


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def parse_think(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    try:
        bounds = (float(low), float(high or low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--think is MIN-MAX seconds, not {text!r}") from None
    if not 0 <= bounds[0] <= bounds[1] <= 60:
        raise argparse.ArgumentTypeError(f"--think is MIN-MAX with 0 <= MIN <= MAX <= 60: {text}")
    return bounds


def run(args: argparse.Namespace) -> int:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per player, twice
    if args.workers > 1 and args.redis_url is None:
        args.redis_url = "redis://127.0.0.1:6379/0"
    data_dir = Path(tempfile.mkdtemp(prefix="nardy-load-"))
    try:
        with (
            Database(args.db, args.postgres_url) as database,
            running_server(data_dir, database.url, args.workers, args.redis_url) as (port, server),
        ):
            return measure(args, port, server)
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


def measure(args: argparse.Namespace, port: int, server: subprocess.Popen[bytes]) -> int:
    idle = round_trips(port, 200)
    idle_p50 = quantile(idle, 0.5)
    context = multiprocessing.get_context("spawn")
    ready, results = context.Queue(), context.Queue()
    clients = max(1, min(args.clients, args.games))
    shares = [args.games // clients + (i < args.games % clients) for i in range(clients)]
    go = context.Value("d", 0.0)  # the common start (time.monotonic), once all are set up
    plan = Plan(
        port=port,
        games=0,
        think=args.think,
        start=0.0,
        warmup=args.warmup,
        duration=args.duration,
        match_length=args.match_length,
        seed=args.seed,
    )
    setup_started = time.monotonic()
    processes = [
        context.Process(
            target=client_process,
            args=(dataclasses.replace(plan, games=share), i, ready, go, results),
            daemon=True,
        )
        for i, share in enumerate(shares)
    ]
    for process in processes:
        process.start()
    for _ in processes:
        ready.get(timeout=args.setup_timeout)
    setup = time.monotonic() - setup_started
    start = time.monotonic() + 0.5
    go.value = start
    print(
        f"set up {args.games} games ({2 * args.games} guests, seeks, joins, sockets) in "
        f"{setup:.1f} s",
        flush=True,
    )
    pids = process_tree(server.pid)
    begin, end = start + args.warmup, start + args.warmup + args.duration
    time.sleep(max(0.0, begin - time.monotonic()))
    cpu0, wall0 = cpu_seconds(pids), time.monotonic()
    profiler = None
    if args.profile:
        profiler = subprocess.Popen(
            ["py-spy", "record", "--pid", str(server.pid), "--duration", str(int(args.duration)),
             "--format", "raw", "--rate", "200", "--subprocesses", "--nonblocking",
             "--output", args.profile],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
    loaded = round_trips(port, 10**6, pause=0.25, until=end)
    time.sleep(max(0.0, end - time.monotonic()))
    cpu1, wall1 = cpu_seconds(pids), time.monotonic()
    rss = rss_bytes(process_tree(server.pid))
    tallies = [results.get(timeout=ANSWER_TIMEOUT + 60) for _ in processes]
    for process in processes:
        process.join(timeout=10)
    if profiler is not None:
        profiler.wait(timeout=60)
    latencies = [x for t in tallies for x in t.latencies]
    errors = sum((t.errors for t in tallies), Counter[str]())
    held = sum(t.held for t in tallies)
    actions = sum(t.actions for t in tallies)
    wall = wall1 - wall0
    p50, p99, top = (1000 * quantile(latencies, q) for q in (0.5, 0.99, 1.0))
    ref, ref_loaded = 1000 * idle_p50, 1000 * quantile(loaded, 0.5)
    low, high = args.think
    think = "as fast as possible" if high == 0 else f"think {low}-{high} s"
    print(
        f"{args.db}, {args.workers} process(es), {args.games} games, {think}, "
        f"{clients} client processes"
    )
    print(f"games held: {held} of {args.games} (set up {sum(t.set_up for t in tallies)})")
    print(f"actions: {actions} in {wall:.1f} s = {actions / wall:.0f}/s")
    print(
        f"latency action -> opponent's events: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {top:.1f} ms"
    )
    print(
        f"reference HTTP round trip p50: idle {ref:.2f} ms, under load {ref_loaded:.2f} ms; "
        f"latency p50 = {p50 / ref:.1f}x idle reference, p99 = {p99 / ref:.1f}x"
    )
    print(
        f"server CPU {(cpu1 - cpu0) / wall:.2f} cores ({cpu1 - cpu0:.1f} s in {wall:.1f} s, "
        f"{1000 * (cpu1 - cpu0) / max(1, actions):.2f} ms an action), "
        f"RSS {rss / 2**20:.0f} MiB; clients' CPU {sum(t.cpu for t in tallies):.1f} s "
        f"(set-up included); matches restarted {sum(t.matches for t in tallies)}"
    )
    print("errors: " + (", ".join(f"{k} x{v}" for k, v in errors.most_common()) or "none"))
    return 0 if not errors else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent games (1-5000)")
    parser.add_argument(
        "--think", type=parse_think, default=(0.5, 3.0), help="MIN-MAX seconds; 0: no wait"
    )
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured (1-600)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--postgres-url", default=ADMIN_POSTGRES, help="where to CREATE DATABASE")
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--redis-url", help="for --workers > 1 (default redis://127.0.0.1:6379/0)")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--match-length", type=int, default=7)
    parser.add_argument("--setup-timeout", type=float, default=400.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", help="py-spy's collapsed stacks of the server to this file")
    args = parser.parse_args()
    if not 1 <= args.games <= 5000 or not 1 <= args.duration <= 600:
        parser.error("--games is 1-5000 and --duration 1-600")
    if not 1 <= args.workers <= 16 or not 1 <= args.clients <= 32:
        parser.error("--workers is 1-16 and --clients 1-32")
    try:
        sys.exit(run(args))
    except RuntimeError as exc:  # the server did not start: say why, as it said
        sys.exit(f"bench/load.py: {exc}")


if __name__ == "__main__":
    main()
