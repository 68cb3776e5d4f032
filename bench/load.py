"""Load on the play server: many 7-point matches at once, of realistic ages, each with two
WebSocket players at a human pace.

    python bench/load.py --games 50 --duration 30                       # quick: 1-3 minutes
    python bench/load.py --games 1000 --duration 60
    python bench/load.py --games 20 --at 1,300,1000 --duration 20       # cost per action by age
    python bench/load.py --games 500 --processes 2 \\
        --database postgresql://postgres@127.0.0.1:5432/postgres --redis-url redis://127.0.0.1:6379
    python bench/load.py --target 8000 --games 50                       # a server already running

A run starts its own ``nardy serve`` of this tree on 127.0.0.1 (SQLite in a temporary data
directory; or ``--database postgresql://...``: a fresh database created on that server and
dropped afterwards; ``--processes N`` with ``--redis-url``), or measures one already running
(``--target PORT``, its processes found by the port they listen on, or ``--server-pid``).

The client (``--clients`` processes, one asyncio loop each) sets up ``--games`` games as people
do: two guests (``POST /api/guest``), a seek created by one and joined by the other, a socket
each. Then, each round:

1. **Aging.** Every game is played as fast as the server answers (at most
   ``--age-concurrency`` games at once, 50 actions at a time each, in turn, so that every
   game is rolled early: the server withdraws a match nobody starts in 10 minutes, which a
   game aged after all the others could wait for) until its match reaches an action number
   drawn for it from ``--ages`` (default ``uniform:0-1000``: a game met at a random moment of
   a 7-point match; a match that ends first is followed by a new one, aged from its start).
2. **The window.** Every game plays at a human pace: each action (a random legal single move,
   a roll, a confirm, a take: what the state's awaiting names) after a think time drawn
   uniformly from ``--think`` (0.5-3 s). After ``--warmup`` seconds, ``--duration`` seconds
   are measured.

``--at 1,300,1000`` makes one round per age instead, every game aged to exactly that action
number (the same games, aged further each round), and ends with each age's message bytes and
server CPU per action against the first's.

Each round prints: the mean action number measured at, the actions a second, the latency from
an action sent to the *opponent's* socket hearing its ``events`` (p50 / p99), the idle HTTP
round trip (``GET /api/session`` before the games are set up, and again during the window)
and the latencies as multiples of it, the server's CPU per action (its processes' user +
system time, /proc) and as a multiple of a ping's (the reference: after set-up, every game
sends ``ping`` at the same pace for ``--ping`` seconds, 10 by default, and the server's CPU a
ping answered is the floor of its WebSocket layer: a message in, parsed and answered, no
game), the bytes the sockets received per action (on the wire, and the
messages' characters), the server's RSS per game, and the client's own CPU and event-loop lag
(a client that is the bottleneck shows there). It refuses to report (status 3) when a process
of the server died during the run, and (status 2) when another process answers on the port
its own server was to use.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import resource
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from load_play import Ages, Plan, Queue, Tally, client_process
from load_server import (
    HOST,
    PROBE,
    Database,
    Refusal,
    ServerProcesses,
    own_server,
    running_server,
)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def round_trips(
    port: int, count: int, server: ServerProcesses, pause: float = 0.0, until: float = 1e300
) -> list[float]:
    """Seconds of up to ``count`` cheap HTTP requests one after another (fewer if
    time.monotonic reaches ``until``), checking the server's processes between them."""
    times = []
    with httpx.Client(base_url=f"http://{HOST}:{port}", timeout=30, trust_env=False) as client:
        for _ in range(count):
            if time.monotonic() + pause >= until:
                break
            server.check()
            started = time.perf_counter()
            try:
                client.get(PROBE)
            except httpx.HTTPError:
                server.check()
                raise
            times.append(time.perf_counter() - started)
            if pause:
                time.sleep(pause)
    return times


@dataclass(frozen=True, slots=True)
class Figures:
    """One round's measurement, as printed."""

    ages: Ages
    games: int
    held: int
    tallies: list[Tally]
    seconds: float
    cpu: float
    rss: int
    rss_idle: int
    idle_ms: float
    idle_cores: float
    """The server's CPU with no game set up (its timers and housekeeping), in cores."""
    loaded_ms: float
    ping_ms: float | None
    """The reference window's server CPU per ping answered, less the idle server's (None:
    not measured, ``--ping 0``)."""
    clients: int
    aged_actions: int
    aged_seconds: float
    load: tuple[float, float]
    """The machine's 1-minute load average at the window's start and end."""

    @property
    def actions(self) -> int:
        return sum(len(t.seqs) for t in self.tallies)

    def per_action(self, total: float) -> float:
        return total / max(1, self.actions)

    @property
    def cpu_ms(self) -> float:
        return 1000 * self.per_action(self.cpu)

    @property
    def net_cpu_ms(self) -> float:
        """Server CPU per action less what the idle server uses in the same time."""
        return 1000 * self.per_action(self.cpu - self.idle_cores * self.seconds)

    @property
    def wire(self) -> float:
        return self.per_action(sum(t.wire for t in self.tallies))

    @property
    def text(self) -> float:
        return self.per_action(sum(t.text for t in self.tallies))

    @property
    def mean_seq(self) -> float:
        seqs = [s for t in self.tallies for s in t.seqs]
        return statistics.fmean(seqs) if seqs else float("nan")

    def lines(self) -> Iterator[str]:
        latencies = [x for t in self.tallies for x in t.latencies]
        p50, p99 = (1000 * quantile(latencies, q) for q in (0.5, 0.99))
        sizes = [float(x) for t in self.tallies for x in t.events_sizes]
        targets = [x for t in self.tallies for x in t.aged_targets]
        lags = [x for t in self.tallies for x in t.lags]
        client_cpu = sum(t.cpu for t in self.tallies)
        errors = sum((t.errors for t in self.tallies), Counter[str]())
        yield f"ages {self.ages}: {self.held} of {self.games} games held"
        yield (
            f"  aging: {self.aged_actions} actions in {self.aged_seconds:.0f} s "
            f"({self.aged_actions / max(self.aged_seconds, 1e-9):.0f}/s), mean target "
            f"{statistics.fmean(targets) if targets else float('nan'):.0f}"
        )
        yield (
            f"  machine: load average {self.load[0]:.1f} at the window's start, "
            f"{self.load[1]:.1f} at its end, {os.cpu_count()} cores"
        )
        yield f"  mean action number measured at: {self.mean_seq:.0f}"
        yield (
            f"  actions: {self.actions} in {self.seconds:.1f} s = "
            f"{self.actions / self.seconds:.1f}/s"
        )
        yield (
            f"  latency action -> opponent's events: p50 {p50:.1f} ms, p99 {p99:.1f} ms; "
            f"idle HTTP round trip {self.idle_ms:.2f} ms (during the window "
            f"{self.loaded_ms:.2f} ms): p50 {p50 / self.idle_ms:.1f}x, "
            f"p99 {p99 / self.idle_ms:.1f}x idle"
        )
        yield (
            f"  server CPU: {self.cpu_ms:.2f} ms an action ({self.cpu / self.seconds:.2f} "
            f"cores; less its idle {self.idle_cores:.3f} cores: {self.net_cpu_ms:.2f} ms an action)"
        )
        if self.ping_ms is not None and self.ping_ms > 0:
            yield (
                f"  reference: {self.ping_ms:.3f} ms of server CPU a ping answered (a message "
                f"in and one out on the same sockets, no game; less idle); an action costs "
                f"{self.net_cpu_ms / self.ping_ms:.1f}x that"
            )
        elif self.ping_ms is not None:
            # The pings' CPU did not rise above the idle server's: too few pings for the
            # clock's ticks (a small run), or noise from elsewhere on the machine.
            yield (
                f"  reference: not measured ({self.ping_ms:.3f} ms of server CPU a ping "
                f"answered, less idle: no more than the idle server's); no ratio"
            )
        yield (
            f"  received per action (both players' sockets): {self.wire:.0f} bytes on the "
            f"wire, {self.text:.0f} characters of messages; events message p50 "
            f"{quantile(sizes, 0.5):.0f}, p99 {quantile(sizes, 0.99):.0f} characters"
        )
        yield (
            f"  server RSS {self.rss / 2**20:.0f} MiB (idle {self.rss_idle / 2**20:.0f}): "
            f"{(self.rss - self.rss_idle) / max(1, self.held) / 1024:.0f} KiB a game"
        )
        busy = client_cpu / self.seconds
        lag = quantile(lags, 0.99)
        warning = ""
        if busy > 0.8 * self.clients:
            warning = "  <- the client may be the bottleneck: add --clients"
        elif lag > 0.05:
            warning = "  <- the client's loop wakes late: a loaded machine, or a busy client"
        yield (
            f"  client: {busy:.2f} cores in {self.clients} process(es) "
            f"({1000 * self.per_action(client_cpu):.2f} ms an action), event-loop lag p99 "
            f"{1000 * lag:.1f} ms{warning}"
        )
        yield "  errors: " + (", ".join(f"{k} x{v}" for k, v in errors.most_common()) or "none")


class Clients:
    """The client processes and the queues to and from them."""

    def __init__(self, plan: Plan, count: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.outbox: Queue = context.Queue()
        self.inboxes: list[Queue] = []
        self.processes = []
        for i in range(count):
            share = plan.games // count + (i < plan.games % count)
            inbox: Queue = context.Queue()
            self.inboxes.append(inbox)
            process = context.Process(
                target=client_process,
                args=(Plan(**{**_fields(plan), "games": share}), i, inbox, self.outbox),
                daemon=True,
            )
            process.start()
            self.processes.append(process)

    def collect(self, kind: str, server: ServerProcesses, timeout: float) -> list[Any]:
        """One ``kind`` message from every client process, watching the server meanwhile."""
        got: list[Any] = []
        deadline = time.monotonic() + timeout
        while len(got) < len(self.processes):
            server.check()
            for process in self.processes:
                if process.exitcode not in (None, 0):
                    raise Refusal(f"a client process failed (status {process.exitcode})")
            try:
                message = self.outbox.get(timeout=0.5)
            except queue.Empty:
                if time.monotonic() > deadline:
                    raise Refusal(f"the clients did not finish {kind} in {timeout:.0f} s") from None
                continue
            if message[0] != kind:
                raise Refusal(f"a client sent {message[0]} instead of {kind}")
            got.append(message)
        return got

    def send(self, *command: Any) -> None:
        for inbox in self.inboxes:
            inbox.put(command)

    def stop(self) -> None:
        """Let the client processes close their games and end (they wait for a command)."""
        self.send("stop")
        for process in self.processes:
            process.join(timeout=10)
        self.terminate()

    def terminate(self) -> None:
        """End the client processes now: a run refused or interrupted wants nothing more of
        them, and one in its measuring window would play on to the window's end."""
        for process in self.processes:
            if process.is_alive():
                process.terminate()
                process.join(timeout=5)


def _fields(plan: Plan) -> dict[str, Any]:
    return {name: getattr(plan, name) for name in plan.__dataclass_fields__}


def measure(args: argparse.Namespace, port: int, server: ServerProcesses) -> list[Figures]:
    """Set up the games, then age and measure each round; every figure is the server's as
    long as :meth:`ServerProcesses.check` passes after it."""
    cpu0, wall0 = server.cpu_seconds(), time.monotonic()
    time.sleep(args.idle)
    idle_cores = (server.cpu_seconds() - cpu0) / (time.monotonic() - wall0)
    idle = round_trips(port, 200, server)
    idle_ms = 1000 * quantile(idle, 0.5)
    rss_idle = server.rss_bytes()
    rounds = tuple(args.at) if args.at else (args.ages,)
    plan = Plan(
        port=port,
        games=args.games,
        think=args.think,
        match_length=args.match_length,
        seed=args.seed,
        rounds=rounds,
        age_concurrency=args.age_concurrency,
    )
    count = max(1, min(args.clients, args.games))
    started = time.monotonic()
    clients = Clients(plan, count)
    figures: list[Figures] = []
    try:
        ready = clients.collect("set-up", server, args.setup_timeout)
        held = sum(m[2] for m in ready)
        say(f"set up {held} of {args.games} games in {time.monotonic() - started:.1f} s")
        ping_ms: float | None = None
        if args.ping:
            ping_ms = ping_reference(args, clients, server, idle_cores)
        else:
            clients.send("skip")
        for ages in rounds:
            aged = clients.collect("aged", server, args.age_timeout)
            aged_actions, aged_seconds = sum(m[2] for m in aged), max(m[3] for m in aged)
            say(f"aged to {ages}: {aged_actions} actions in {aged_seconds:.0f} s")
            server.refresh()
            start = time.monotonic() + 0.5
            begin, end = start + args.warmup, start + args.warmup + args.duration
            clients.send("go", begin, end)
            time.sleep(max(0.0, begin - time.monotonic()))
            cpu0, wall0, load0 = server.cpu_seconds(), time.monotonic(), os.getloadavg()[0]
            say(f"measuring {args.duration:.0f} s")
            loaded = round_trips(port, 10**6, server, pause=0.25, until=end)
            time.sleep(max(0.0, end - time.monotonic()))
            cpu1, wall1 = server.cpu_seconds(), time.monotonic()
            rss = server.rss_bytes()
            server.check()
            tallies = [m[2] for m in clients.collect("tally", server, 120)]
            if not any(t.seqs for t in tallies):
                errors = sum((t.errors for t in tallies), Counter[str]())
                raise Refusal(f"no action was measured in the window of ages {ages}: {errors}")
            figure = Figures(
                ages=ages,
                games=args.games,
                held=sum(t.held for t in tallies),
                tallies=tallies,
                seconds=wall1 - wall0,
                cpu=cpu1 - cpu0,
                rss=rss,
                rss_idle=rss_idle,
                idle_ms=idle_ms,
                idle_cores=idle_cores,
                loaded_ms=1000 * quantile(loaded, 0.5),
                ping_ms=ping_ms,
                clients=count,
                aged_actions=aged_actions,
                aged_seconds=aged_seconds,
                load=(load0, os.getloadavg()[0]),
            )
            # The server lived through this window: its figures stand whatever comes after
            # (a later death stops the run before the next round's are printed).
            if not figures:
                print_header(args)
            figures.append(figure)
            for line in figure.lines():
                print(line, flush=True)
    except BaseException:
        clients.terminate()
        raise
    clients.stop()
    server.check()
    return figures


def ping_reference(
    args: argparse.Namespace, clients: Clients, server: ServerProcesses, idle_cores: float
) -> float:
    """The reference an action's CPU is compared with: every game pings at the same pace
    for ``--ping`` seconds (after a second's start), the server's CPU read over that window;
    ms a ping answered, less the idle server's CPU. Refuses where the pings went unanswered
    (the server is not keeping up: the reference would be none)."""
    begin = time.monotonic() + 1.0 + args.think[1]  # every game is pinging by then
    end = begin + args.ping
    clients.send("ping", begin, end)
    say(f"reference: pings at the same pace for {args.ping:.0f} s")
    time.sleep(max(0.0, begin - time.monotonic()))
    cpu0, wall0 = server.cpu_seconds(), time.monotonic()
    time.sleep(max(0.0, end - time.monotonic()))
    cpu, wall = server.cpu_seconds() - cpu0, time.monotonic() - wall0
    pinged = clients.collect("pinged", server, 60 + args.think[1])
    sent, answered = sum(m[2] for m in pinged), sum(m[3] for m in pinged)
    if sent == 0 or answered < 0.95 * sent:
        raise Refusal(f"the reference's pings were not answered: {answered} of {sent}")
    return 1000 * (cpu - idle_cores * wall) / sent


def say(text: str) -> None:
    print(f"... {text}", file=sys.stderr, flush=True)


def print_header(args: argparse.Namespace) -> None:
    low, high = args.think
    where = f"a server on {HOST}:{args.target}" if args.target else (
        f"{_database_name(args.database)}, {args.processes} process(es)"
    )  # fmt: skip
    print(f"{where}; {args.games} games of {args.match_length} points, think {low}-{high} s, "
          f"warm-up {args.warmup:.0f} s, {args.duration:.0f} s measured a round")  # fmt: skip


def summary(figures: list[Figures]) -> int:
    """The rounds against the first (when there are several); the exit status: 1 where a
    game was lost."""
    if len(figures) > 1:
        first = figures[0]
        print("by age (against the first):")
        print(
            "  age | mean action | wire bytes / action | chars / action | server CPU ms / action"
            " | less idle"
        )
        for f in figures:
            print(
                f"  {f.ages} | {f.mean_seq:.0f} | {f.wire:.0f} ({f.wire / first.wire:.2f}x) | "
                f"{f.text:.0f} ({f.text / first.text:.2f}x) | "
                f"{f.cpu_ms:.2f} ({f.cpu_ms / first.cpu_ms:.2f}x) | "
                f"{f.net_cpu_ms:.2f} ({f.net_cpu_ms / first.net_cpu_ms:.2f}x)"
            )
    lost = any(t.errors for f in figures for t in f.tallies)
    return 1 if lost else 0


def _database_name(spec: str) -> str:
    """The database as a report names it: no user or password."""
    if spec == "sqlite":
        return "SQLite"
    return "PostgreSQL (a fresh database on " + spec.split("@")[-1].split("/")[0] + ")"


def run(args: argparse.Namespace) -> int:
    # A run stopped from outside (timeout, kill) still stops its server and drops its
    # database: SIGTERM unwinds like Ctrl-C.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per player, twice
    if args.target:
        server = running_server(args.target, args.server_pid)
        return summary(measure(args, args.target, server))
    data_dir = Path(tempfile.mkdtemp(prefix="nardy-load-"))
    try:
        with (
            Database(args.database) as database,
            own_server(
                data_dir,
                port=args.port,
                database_url=database.url,
                processes=args.processes,
                redis_url=args.redis_url,
            ) as (port, server),
        ):
            figures = measure(args, port, server)
        return summary(figures)
    finally:
        print_server_errors(data_dir / "server.log")
        shutil.rmtree(data_dir, ignore_errors=True)


def print_server_errors(log: Path, most: int = 40) -> None:
    """What the server's log says went wrong, before its data directory goes: how many
    errors and tracebacks it holds, and the last of them with up to ``most`` lines from the
    line its logger wrote (why a game was refused ``busy``, say)."""
    try:
        lines = log.read_text(errors="replace").splitlines()
    except OSError:
        return
    wrong = [i for i, line in enumerate(lines) if "ERROR" in line or "Traceback" in line]
    if not wrong:
        return
    print(f"the server's log has {len(wrong)} errors; the last, and what follows it:",
          file=sys.stderr)  # fmt: skip
    first = max(0, wrong[-1] - 1)  # a traceback follows the line its logger wrote
    for line in lines[first : first + most]:
        print(f"  {line}", file=sys.stderr)


def parse_think(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    try:
        bounds = (float(low), float(high or low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--think is MIN-MAX seconds, not {text!r}") from None
    if not 0 <= bounds[0] <= bounds[1] <= 60:
        raise argparse.ArgumentTypeError(f"--think is MIN-MAX with 0 <= MIN <= MAX <= 60: {text}")
    return bounds


def parse_ages(text: str) -> Ages:
    try:
        return Ages.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_at(text: str) -> list[Ages]:
    return [parse_ages(part) for part in text.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games (1-5000)")
    parser.add_argument(
        "--ages",
        type=parse_ages,
        default=Ages(0, 1000),
        help="action numbers games are aged to: uniform:LOW-HIGH or N",
    )
    parser.add_argument("--at", type=parse_at, help="one round per age, e.g. 1,300,1000")
    parser.add_argument(
        "--think",
        type=parse_think,
        default=(0.5, 3.0),
        help="MIN-MAX seconds before each action in the window",
    )
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument(
        "--database",
        default="sqlite",
        help="sqlite, or postgresql://... (a fresh database on that server)",
    )
    parser.add_argument("--processes", type=int, default=1, help="server processes")
    parser.add_argument("--redis-url", help="the bus, for --processes > 1")
    parser.add_argument("--port", type=int, help="the port of the server started here")
    parser.add_argument(
        "--target",
        type=int,
        metavar="PORT",
        help="measure the server already running on 127.0.0.1:PORT",
    )
    parser.add_argument(
        "--server-pid",
        type=int,
        action="append",
        help="with --target: its processes (default: found by its port)",
    )
    parser.add_argument("--clients", type=int, default=1, help="client processes")
    parser.add_argument("--age-concurrency", type=int, default=64, help="games aged at once")
    parser.add_argument("--match-length", type=int, default=7)
    parser.add_argument("--setup-timeout", type=float, default=600.0)
    parser.add_argument("--age-timeout", type=float, default=1800.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--idle", type=float, default=3.0, help="seconds the idle server's CPU is read over"
    )
    parser.add_argument(
        "--ping",
        type=float,
        default=10.0,
        help="seconds of the reference window, every game pinging at the same pace (0: none)",
    )
    args = parser.parse_args()  # fmt: skip
    if not 1 <= args.games <= 5000 or not 1 <= args.duration <= 600:
        parser.error("--games is 1-5000 and --duration 1-600")
    if not 0 <= args.ping <= 600:
        parser.error("--ping is 0-600 seconds")
    if not 1 <= args.processes <= 16 or not 1 <= args.clients <= 32:
        parser.error("--processes is 1-16 and --clients 1-32")
    if args.processes > 1 and (args.redis_url is None or args.database == "sqlite"):
        parser.error("--processes > 1 needs --redis-url and a postgresql:// --database")
    try:
        sys.exit(run(args))
    except Refusal as exc:
        print(f"bench/load.py: refusing to report: {exc}", file=sys.stderr)
        sys.exit(exc.status)


if __name__ == "__main__":
    main()
