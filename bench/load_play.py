"""The players of the load benchmark (bench/load.py): guests that set up 7-point matches as
people do, age them fast to a chosen action number, then play them at a human pace.

One client process holds many games on one asyncio loop. Each player has its own socket;
the sockets count the bytes they receive (on the wire: frames, compressed) and the
characters of the messages those bytes carry.

The protocol: version 2 (docs/protocol.md: ``state.board.awaiting`` names who acts and the
legal single moves, ``state.you.actions`` what the viewer may send, each state the viewer's
own) and, until every server speaks it, version 1 (``state.awaiting``, one state for all),
told apart by the ``welcome``'s ``v``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing.queues
import random
import re
import secrets
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import httpx
from load_server import HOST
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

ANSWER_TIMEOUT = 60.0
"""Seconds an action may wait for its events before it counts as lost (the game is
dropped)."""
EVENTS_HEAD = re.compile(r'\{"v":(\d+),"type":"events","seq":(\d+),')
"""The start of an ``events`` message as the server writes it: a version 1 state is the same
for both players, so the second player's socket reads only this."""


# -- what the game waits for, in either version of the protocol ------------------------------


@dataclass(frozen=True, slots=True)
class Turn:
    """What a game waits for, as a state says: who may act (each seat's actions), the legal
    single moves of the seat to move; ``viewer`` is the seat whose own state it is (version
    2: its entry in ``actors`` is what it may send) or None (version 1: everyone's state)."""

    seq: int
    finished: bool
    actors: dict[int, tuple[str, ...]]
    moves: tuple[tuple[int, int], ...]
    viewer: int | None = None

    @property
    def actor(self) -> int:
        """The seat that acts next (the first named, where both may: the opening roll)."""
        return min(self.actors)

    @staticmethod
    def merged(turns: list[Turn]) -> Turn:
        """One turn from each seat's own (version 2): a seat's actions are those its own
        state gives it (``you.actions``), others' as ``board.awaiting`` names them."""
        actors: dict[int, tuple[str, ...]] = {}
        for turn in turns:
            for seat, kinds in turn.actors.items():
                if seat != turn.viewer:
                    actors.setdefault(seat, kinds)
        for turn in turns:
            if turn.viewer is not None:
                actors.pop(turn.viewer, None)
                if turn.viewer in turn.actors:
                    actors[turn.viewer] = turn.actors[turn.viewer]
        return Turn(
            min(t.seq for t in turns),
            any(t.finished for t in turns),
            actors,
            next((t.moves for t in turns if t.moves), ()),
        )


def turn_of(version: int, state: dict[str, Any]) -> Turn:
    """The :class:`Turn` of a room's state sent under protocol ``version`` (1 or 2). In
    version 2 the state is one viewer's: its seat acts where ``state.you.actions`` is not
    empty, with those actions, whatever ``board.awaiting`` (null before the first game) says
    of it."""
    viewer = None
    if version == 1:
        awaiting = state.get("awaiting")
    else:
        board = state.get("board")
        awaiting = None if board is None else board.get("awaiting")
        you = state["you"]
        viewer = you["seat"] if isinstance(you["seat"], int) else None
    actors = {}
    moves: tuple[tuple[int, int], ...] = ()
    if awaiting is not None:
        actors = {a["player"]: tuple(a["actions"]) for a in awaiting["actors"]}
        moves = tuple((m["from"], m["to"]) for m in awaiting.get("moves") or ())
    if viewer is not None:
        actors.pop(viewer, None)
        if state["you"]["actions"]:
            actors[viewer] = tuple(state["you"]["actions"])
    return Turn(state["seq"], state["status"] == "finished", actors, moves, viewer)


def choose(turn: Turn, seat: int, rng: random.Random) -> dict[str, Any]:
    """A legal action for ``seat``: take a double, roll, a random legal single move,
    confirm; never double or resign (so the cube stays in the middle and matches run long)."""
    kinds = turn.actors[seat]
    for kind in ("roll-opening", "take", "roll"):
        if kind in kinds:
            return {"type": kind}
    if "move" in kinds and turn.moves:
        start, end = rng.choice(turn.moves)
        return {"type": "move", "from": start, "to": end}
    if "confirm" in kinds:
        return {"type": "confirm"}
    if "choose-double" in kinds:
        return {"type": "choose-double", "die": rng.randint(1, 6)}
    raise ValueError(f"nothing this player knows how to do among {kinds}")


# -- what the sockets receive --------------------------------------------------------------


@dataclass(slots=True)
class Meter:
    """What every socket of this process has received: bytes on the wire, characters of
    messages, messages; and while ``measuring``, the size of each ``events`` message."""

    wire: int = 0
    text: int = 0
    messages: int = 0
    measuring: bool = False
    events_sizes: list[int] = field(default_factory=list)

    def reading(self) -> tuple[int, int, int]:
        return self.wire, self.text, self.messages


METER = Meter()


class CountedConnection(ClientConnection):
    """A client socket that counts the bytes it receives into :data:`METER`."""

    def data_received(self, data: bytes) -> None:
        METER.wire += len(data)
        super().data_received(data)


class Lost(Exception):
    """A game can no longer be played: refused, unanswered, its socket closed."""


class Seat:
    """One player's socket: a reader that keeps the latest state it parsed and the highest
    action number it heard, and wakes whoever waits for an action number (or a refusal),
    with the time the message arrived."""

    def __init__(self, ws: ClientConnection, welcome: dict[str, Any]) -> None:
        self.ws = ws
        self.seat: int = welcome["seat"]
        self.version: int = welcome["v"]
        # Version 1 sends both players the same state: seat 1 reads only each events
        # message's number, so the client parses each state once.
        self.parses = self.version != 1 or self.seat == 0
        self.state: dict[str, Any] = welcome["state"]
        self.heard: int = self.state["seq"]
        self.waiting: tuple[int, asyncio.Future[tuple[float, dict[str, Any]]]] | None = None
        self.reader = asyncio.create_task(self._read())

    def turn(self) -> Turn:
        return turn_of(self.version, self.state)

    def expect(self, seq: int) -> asyncio.Future[tuple[float, dict[str, Any]]]:
        future: asyncio.Future[tuple[float, dict[str, Any]]] = (
            asyncio.get_running_loop().create_future()
        )
        self.waiting = (seq, future)
        return future

    async def _read(self) -> None:
        try:
            async for data in self.ws:
                arrived = time.perf_counter()
                text = data if isinstance(data, str) else data.decode()
                METER.text += len(text)
                METER.messages += 1
                head = None if self.parses else EVENTS_HEAD.match(text)
                if head:
                    message: dict[str, Any] = {"type": "events", "seq": int(head[2])}
                else:
                    message = json.loads(text)
                if message["type"] == "events" and METER.measuring:
                    METER.events_sizes.append(len(text))
                if "state" in message:
                    self.state = message["state"]
                    self.heard = max(self.heard, self.state["seq"])
                elif message["type"] == "events":
                    self.heard = max(self.heard, message["seq"])
                if self.waiting is None:
                    continue
                seq, future = self.waiting
                if self.heard >= seq or message["type"] in ("refused", "error"):
                    self.waiting = None
                    if not future.done():
                        future.set_result((arrived, message))
        finally:
            if self.waiting is not None and not self.waiting[1].done():
                self.waiting[1].set_exception(Lost("the socket closed"))

    async def close(self) -> None:
        with contextlib.suppress(Exception):
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
            max_size=2**24,
            proxy=None,
            create_connection=CountedConnection,
        )
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 120))
        if welcome["type"] != "welcome":
            raise Lost(f"the room did not welcome: {welcome}")
        return Seat(ws, welcome)


class Game:
    """A 7-point match (``match_length``) between two guests, played from both sockets; a
    match that ends is followed by a new one between the same guests."""

    def __init__(self, guests: tuple[Guest, Guest], match_length: int, rng: random.Random) -> None:
        self.guests = guests
        self.match_length = match_length
        self.rng = rng
        self.seats: list[Seat] = []
        self.matches = 0
        self.actions = 0
        """Actions this client has played in the game, all matches together."""

    async def start(self) -> None:
        """A seek by the first guest, joined by the second; both sockets, in seat order."""
        for seat in self.seats:
            await seat.close()
        settings = {"settings": {"match-length": self.match_length}}
        game = await self.guests[0].post("/api/games", settings)
        await self.guests[1].post(f"/api/games/{game['id']}/join")
        seats = [await self.guests[0].socket(game["id"]), await self.guests[1].socket(game["id"])]
        self.seats = sorted(seats, key=lambda s: s.seat)
        self.matches += 1

    @property
    def seq(self) -> int:
        """The action number the match has reached (as its sockets heard it)."""
        return min(s.heard for s in self.seats)

    def turn(self) -> Turn:
        """What the game waits for: from both seats' own states (version 2: each is the
        viewer's), or from the state every socket shares (version 1: seat 0 reads it)."""
        if not self.seats[1].parses:
            return self.seats[0].turn()
        return Turn.merged([seat.turn() for seat in self.seats])

    async def step(self) -> tuple[float, float, int] | None:
        """One action by the seat the game waits for, once both sockets heard it: when it was
        sent, when the opponent's socket heard it, its number. None: the match had ended,
        and a new one was started instead."""
        turn = self.turn()
        if turn.finished:
            await self.start()
            return None
        if not turn.actors:
            raise Lost(f"nobody-to-act at action {turn.seq}")
        actor = self.seats[turn.actor]
        other = self.seats[1 - turn.actor]
        action = choose(turn, actor.seat, self.rng)
        target = turn.seq + 1
        mine, theirs = actor.expect(target), other.expect(target)
        sent = time.perf_counter()
        await actor.ws.send(json.dumps({"type": "action", "action": action, "ref": target}))
        try:
            _, reply = await asyncio.wait_for(mine, ANSWER_TIMEOUT)
            if reply["type"] not in ("events", "state"):
                raise Lost(f"{reply['type']}:{reply.get('code')}")
            arrived, _ = await asyncio.wait_for(theirs, ANSWER_TIMEOUT)
        except TimeoutError:
            raise Lost(f"no-answer-in-{ANSWER_TIMEOUT:.0f}s") from None
        finally:
            theirs.cancel()
            other.waiting = actor.waiting = None
        self.actions += 1
        return sent, arrived, target

    async def age(self, target: int, most: int) -> bool:
        """Play as fast as the server answers until the current match has reached action
        ``target`` (a match that ends first is followed by a new one, aged from its start),
        ``most`` actions at a time: whether it has."""
        for _ in range(most):
            if self.seq >= target:
                break
            await self.step()
        return self.seq >= target

    async def close(self) -> None:
        for seat in self.seats:
            await seat.close()


@dataclass(slots=True)
class Tally:
    """What one client process saw in a measurement window (``aged``: in the aging before
    it)."""

    latencies: list[float] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)
    wire: int = 0
    text: int = 0
    messages: int = 0
    events_sizes: list[int] = field(default_factory=list)
    cpu: float = 0.0
    lags: list[float] = field(default_factory=list)
    held: int = 0
    matches: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    aged_actions: int = 0
    aged_seconds: float = 0.0
    aged_targets: list[int] = field(default_factory=list)


async def play(
    game: Game,
    think: tuple[float, float],
    window: tuple[float, float],
    tally: Tally,
) -> bool:
    """Play ``game`` at a human pace (a think time drawn uniformly from ``think`` before each
    action) until the window ends (time.monotonic), tallying the actions sent within it.
    False: the game was lost."""
    begin, end = window
    low, high = think
    rng = game.rng
    await asyncio.sleep(rng.uniform(0, high))  # the games' actions do not come in step
    while time.monotonic() < end:
        if high > 0:
            await asyncio.sleep(rng.uniform(low, high))
        sent_at = time.monotonic()
        if sent_at >= end:
            break
        played = await game.step()
        if played is None:
            tally.matches += 1
        elif begin <= sent_at:
            sent, arrived, seq = played
            tally.latencies.append(arrived - sent)
            tally.seqs.append(seq)
    return True


async def lag_probe(window: tuple[float, float], lags: list[float]) -> None:
    """How late this process's event loop wakes a 50 ms sleep during the window: a busy
    client delays the latencies it measures, and this says by how much."""
    begin, end = window
    await asyncio.sleep(max(0.0, begin - time.monotonic()))
    while (now := time.monotonic()) < end:
        await asyncio.sleep(0.05)
        lags.append(time.monotonic() - now - 0.05)


async def measure_window(
    games: list[Game], think: tuple[float, float], window: tuple[float, float], tally: Tally
) -> None:
    """Play every game through the window; the sockets' counts and this process's CPU are
    read at its start and end."""
    begin, end = window

    async def guarded(game: Game) -> bool:
        try:
            return await play(game, think, window, tally)
        except Exception as exc:
            tally.errors[_kind(exc)] += 1
            return False

    async def readings() -> None:
        await asyncio.sleep(max(0.0, begin - time.monotonic()))
        before, cpu = METER.reading(), time.process_time()
        METER.measuring = True
        await asyncio.sleep(max(0.0, end - time.monotonic()))
        METER.measuring = False
        after = METER.reading()
        tally.cpu = time.process_time() - cpu
        tally.wire, tally.text, tally.messages = (a - b for a, b in zip(after, before, strict=True))
        tally.events_sizes = METER.events_sizes[:]
        METER.events_sizes.clear()

    results = await asyncio.gather(
        *(guarded(g) for g in games), readings(), lag_probe(window, tally.lags)
    )
    kept = [g for g, ok in zip(games, results, strict=False) if ok]
    tally.held = len(kept)
    games[:] = kept


async def ping_window(
    games: list[Game], think: tuple[float, float], window: tuple[float, float]
) -> tuple[int, int]:
    """The reference for an action's cost: every game's first seat sends ``ping`` at the
    same human pace (``think``) through the window, and the server answers ``pong``: a
    message received, parsed and answered on the same sockets, with no game behind it. The
    pings sent within the window, and the messages this process's sockets received in it
    (the pongs)."""
    begin, end = window
    low, high = think
    sent = 0

    async def pinging(game: Game) -> None:
        nonlocal sent
        await asyncio.sleep(game.rng.uniform(0, high))
        while (now := time.monotonic()) < end:
            if now >= begin:
                sent += 1
            await game.seats[0].ws.send('{"type":"ping"}')
            await asyncio.sleep(game.rng.uniform(low, high))

    async def counted() -> int:
        await asyncio.sleep(max(0.0, begin - time.monotonic()))
        before = METER.messages
        await asyncio.sleep(max(0.0, end - time.monotonic()) + 0.5)  # the last answers
        return METER.messages - before

    *_, answered = await asyncio.gather(
        *(pinging(g) for g in games), counted(), return_exceptions=True
    )
    return sent, answered if isinstance(answered, int) else 0


def _kind(exc: BaseException) -> str:
    if isinstance(exc, Lost):
        return str(exc)[:120]
    return f"client:{type(exc).__name__}:{exc}"[:120]


# -- one client process ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ages:
    """The action numbers games are aged to before a window: drawn uniformly from ``low``
    to ``high`` (both included; equal: every game exactly there)."""

    low: int
    high: int

    @staticmethod
    def parse(text: str) -> Ages:
        """``uniform:LOW-HIGH`` or ``N``."""
        body = text.removeprefix("uniform:")
        low, _, high = body.partition("-")
        try:
            ages = Ages(int(low), int(high or low))
        except ValueError:
            raise ValueError(f"ages are uniform:LOW-HIGH or N, not {text!r}") from None
        if not 0 <= ages.low <= ages.high <= 20_000 or (body == text and high):
            raise ValueError(f"ages are uniform:LOW-HIGH or N with 0 <= LOW <= HIGH: {text!r}")
        return ages

    def draw(self, rng: random.Random) -> int:
        return rng.randint(self.low, self.high)

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"uniform:{self.low}-{self.high}"


@dataclass(frozen=True, slots=True)
class Plan:
    """What every client process is asked to do: set up ``games`` games on ``port``, then
    for each round age them (``rounds``, at most ``age_concurrency`` games at once) and play
    them at a human pace (``think`` seconds, low and high) through the window it is given."""

    port: int
    games: int
    think: tuple[float, float]
    match_length: int
    seed: int
    rounds: tuple[Ages, ...]
    age_concurrency: int


if TYPE_CHECKING:
    Queue = multiprocessing.queues.Queue[Any]
else:  # not subscriptable at run time
    Queue = multiprocessing.queues.Queue
"""The queues between the benchmark and its client processes (tuples: a kind, then data)."""


AGE_STEP = 50
"""Actions a game is aged by before the other games waiting to be aged have their turn."""


async def age_all(
    games: list[Game], ages: Ages, concurrency: int, index: int
) -> tuple[list[Game], Tally]:
    """Age every game to an action number drawn from ``ages`` (``concurrency`` games at
    once); the games still held, and the tally of the round begun."""
    tally = Tally()
    started = time.monotonic()
    aging = asyncio.Semaphore(concurrency)
    base = sum(g.actions for g in games)

    async def aged(game: Game, target: int) -> bool:
        # A few actions at a time, then the next game's turn (the semaphore wakes its
        # waiters in order): every game is rolled early, where one aged whole after the
        # others could wait past the server's expiry of a match nobody starts (10 minutes).
        done = False
        while not done:
            async with aging:
                try:
                    done = await game.age(target, AGE_STEP)
                except Exception as exc:
                    tally.errors["aging:" + _kind(exc)] += 1
                    return False
        return True

    async def progress() -> None:
        while True:
            await asyncio.sleep(15)
            done = sum(g.actions for g in games) - base
            elapsed = time.monotonic() - started
            print(f"... client {index}: {done} actions aged in {elapsed:.0f} s",
                  file=sys.stderr, flush=True)  # fmt: skip

    tally.aged_targets = [ages.draw(g.rng) for g in games]
    reporter = asyncio.create_task(progress())
    kept = await asyncio.gather(*map(aged, games, tally.aged_targets))
    reporter.cancel()
    tally.aged_actions = sum(g.actions for g in games) - base
    tally.aged_seconds = time.monotonic() - started
    return [g for g, ok in zip(games, kept, strict=True) if ok], tally


async def client_main(plan: Plan, index: int, inbox: Queue, outbox: Queue) -> None:
    """One client process: set its games up, ping through the reference window (``("ping",
    begin, end)`` on ``inbox``; ``("skip",)``: none), then for each round age the games, say
    so, wait for the window (``("go", begin, end)``) and play through it."""
    loop = asyncio.get_running_loop()
    transport = httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=20))
    rng = random.Random(f"{plan.seed}:{index}")
    limit = asyncio.Semaphore(20)
    errors: Counter[str] = Counter()

    async def set_up(game: Game) -> Game | None:
        async with limit:
            try:
                for guest in game.guests:
                    await guest.post("/api/guest")
                await game.start()
                return game
            except Exception as exc:
                errors["setup:" + _kind(exc)] += 1
                return None

    made = await asyncio.gather(
        *(
            set_up(Game((Guest(transport, plan.port), Guest(transport, plan.port)),
                        plan.match_length, random.Random(rng.random())))
            for _ in range(plan.games)
        )
    )  # fmt: skip
    games = [g for g in made if g is not None]
    outbox.put(("set-up", index, len(games), errors))
    command = await loop.run_in_executor(None, inbox.get)
    if command[0] == "ping":
        outbox.put(("pinged", index, *await ping_window(games, plan.think, command[1:])))
    for ages in plan.rounds:
        games, tally = await age_all(games, ages, plan.age_concurrency, index)
        outbox.put(("aged", index, tally.aged_actions, tally.aged_seconds))
        command = await loop.run_in_executor(None, inbox.get)
        if command[0] != "go":
            break
        await measure_window(games, plan.think, (command[1], command[2]), tally)
        outbox.put(("tally", index, tally))
    for game in games:
        await game.close()
    await transport.aclose()


def client_process(plan: Plan, index: int, inbox: Queue, outbox: Queue) -> None:
    """The body of one client process (uvloop's loop where it is installed)."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(client_main(plan, index, inbox, outbox))
    else:
        uvloop.run(client_main(plan, index, inbox, outbox))
