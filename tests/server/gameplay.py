"""Playing over the WebSocket in tests: a seat's socket that follows the room's state, and
a simple policy that always sends one of the actions the state says are open."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection

from nardy.server.room.actor import Room
from nardy.server.room.member import Member
from nardy.server.room.registry import Rooms
from nardy.server.store.store import GameRow, Store
from tests.server.serverutil import Client, ServerProcess, receive

Policy = Callable[[dict[str, Any], int], dict[str, Any]]

ACTIONS_PER_SECOND = 150
"""How fast a seat's actions go at most: under the socket's limit of 200 messages a second
(:data:`nardy.server.sockets.MESSAGE_RATE`), which a fast server lets a test reach."""


class Seat:
    """One client's socket in a room, with the last state it heard."""

    def __init__(self, client: Client, game_id: str, origin: str | None = None) -> None:
        self.ws: ClientConnection = client.ws(game_id, origin)
        welcome = receive(self.ws)
        assert welcome["type"] == "welcome", welcome
        self.seat: int | None = welcome["seat"]
        self.state: dict[str, Any] = welcome["state"]
        self.heard: list[dict[str, Any]] = [welcome]
        self._refs = itertools.count(1)
        self._sent: deque[float] = deque(maxlen=ACTIONS_PER_SECOND)

    @property
    def seq(self) -> int:
        return int(self.state["seq"])

    def next(self, timeout: float = 10) -> dict[str, Any]:
        """The next message, its state remembered."""
        message = receive(self.ws, timeout)
        self.heard.append(message)
        if "state" in message:
            self.state = message["state"]
        return message

    def until(self, seq: int, timeout: float = 10) -> None:
        """Read until the state is at action ``seq``."""
        while self.seq < seq:
            self.next(timeout)

    def send_raw(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def act(self, action: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
        """Send an action; the reply that carries its ``ref``: the ``events`` message of its
        acceptance, the ``refused`` or the ``error``."""
        if len(self._sent) == ACTIONS_PER_SECOND:  # paced, as a client is, under the limit
            time.sleep(max(0.0, self._sent[0] + 1.0 - time.monotonic()))
        self._sent.append(time.monotonic())
        ref = next(self._refs)
        self.send_raw({"type": "action", "action": action, "ref": ref})
        while True:
            message = self.next(timeout)
            if message["type"] in ("events", "refused", "error") and message["ref"] == ref:
                return message

    def awaited(self) -> list[str]:
        """The action kinds open to this seat now (the state's ``you.actions``)."""
        return list(self.state["you"]["actions"])

    @property
    def moves(self) -> list[dict[str, Any]]:
        """The legal next single moves now (the board's ``awaiting``)."""
        board = self.state["board"]
        return [] if board is None else list(board["awaiting"]["moves"])

    def close(self) -> None:
        self.ws.close()


_names = (f"u{n:05d}" for n in itertools.count())


def new_name() -> str:
    """A user name no other test of this process has signed up with."""
    return next(_names)


def players(server: ServerProcess, other: ServerProcess | None = None) -> tuple[Client, Client]:
    """Two newly signed-up players, the second on ``other`` if given (another process)."""
    a, b = Client(server), Client(other or server)
    a.sign_up(new_name())
    b.sign_up(new_name())
    return a, b


def seek(a: Client, settings: dict[str, Any] | None = None, clock: Any = None) -> str:
    """A seek by ``a`` (one point by default, with this clock if any); its game id."""
    body: dict[str, Any] = {"settings": settings or {"match-length": 1}}
    if clock is not None:
        body["clock"] = clock
    r = a.post("/api/games", body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def join(b: Client, game: str) -> None:
    """``b`` joins the seek, and the game is under way."""
    r = b.post(f"/api/games/{game}/join")
    assert r.status_code == 200 and r.json()["status"] == "playing", r.text


def start_game(
    server: ServerProcess,
    settings: dict[str, Any] | None = None,
    clock: Any = None,
    other: ServerProcess | None = None,
) -> tuple[Client, Client, str]:
    """Two signed-up players in a game under way: the first created the seek (with this
    clock, if any), the second (on ``other``, if given) joined it."""
    a, b = players(server, other)
    game = seek(a, settings, clock)
    join(b, game)
    return a, b, game


def sit(a: Client, b: Client, game: str) -> list[Seat]:
    """Both players' sockets in the game, in seat order."""
    both = [Seat(a, game), Seat(b, game)]
    assert [s.seat for s in both] == [0, 1]
    return both


def roll_opening(seats: list[Seat]) -> Seat:
    """Roll the opening; the seat that moves first."""
    reply = seats[0].act({"type": "roll-opening"})
    assert reply["type"] == "events", reply
    for s in seats:
        s.until(reply["seq"])
    return next(s for s in seats if s.awaited())


@contextlib.asynccontextmanager
async def playing_room(
    path: Path, settings: dict[str, Any], clock: dict[str, Any] | None = None
) -> AsyncIterator[tuple[Store, GameRow, Room]]:
    """A game two guests are playing, in process: a new SQLite store at ``path`` (closed
    afterwards, its rooms closed first), the game's row (``seats`` holds the guests' ids) and
    its room."""
    store = Store.open(f"sqlite:///{path}")
    try:
        a = store.create_user("a", None, {}, guest=True)
        b = store.create_user("b", None, {}, guest=True)
        row = store.create_game(
            "g", settings, a.id, (a.id, b.id), status="playing", private=False, clock=clock
        )
        rooms = Rooms(store)
        room = await rooms.get(row.id)
        assert room is not None and room.match is not None
        yield store, row, room
        await rooms.close()
    finally:
        store.close()


def queued(member: Member) -> list[dict[str, Any]]:
    """The messages waiting in an in-process room member's queue, taken out."""
    messages = []
    while not member.queue.empty():
        item = member.queue.get_nowait()
        assert isinstance(item, str)
        messages.append(json.loads(item))
    return messages


async def settle() -> None:
    """Let the rooms' followers (and the threads the database runs in) catch up."""
    for _ in range(50):
        await asyncio.sleep(0.01)


def wait_for(seat: Seat, kind: str, timeout: float = 10) -> dict[str, Any]:
    """Read ``seat``'s socket until a message of this type arrives; that message."""
    deadline = time.monotonic() + timeout
    while True:
        message = seat.next(max(0.1, deadline - time.monotonic()))
        if message["type"] == kind:
            return message


def public(state: dict[str, Any]) -> dict[str, Any]:
    """A state as every viewer sees it alike: without who is looking (``you``), the time it
    was taken at (how long the running clock has run) and who is connected (absent
    players, how many watch)."""
    state = {k: v for k, v in state.items() if k not in ("absent", "spectators", "you")}
    clock = state.get("clock")
    if clock is not None:
        state["clock"] = {k: v for k, v in clock.items() if k != "elapsed"}
    return state


def plain(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Roll, take, decline, and move the first legal single move; never double or resign
    (``state`` is the one ``seat`` sees)."""
    kinds = state["you"]["actions"]
    for kind in ("roll-opening", "take", "decline", "roll"):
        if kind in kinds:
            return {"type": kind}
    if "move" in kinds:
        first = state["board"]["awaiting"]["moves"][0]
        return {"type": "move", "from": first["from"], "to": first["to"]}
    if "confirm" in kinds:
        return {"type": "confirm"}
    if "choose-double" in kinds:
        return {"type": "choose-double", "die": 6}
    raise AssertionError(f"nothing to do with {kinds}")


def resigning(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """:func:`plain`, except that seat 0 resigns a single game at its first chance and seat 1
    accepts: a match over within a few turns."""
    kinds = state["you"]["actions"]
    if "accept" in kinds:
        return {"type": "accept"}
    if seat == 0 and "resign" in kinds:
        return {"type": "resign", "level": 1}
    return plain(state, seat)


def play_out(seats: list[Seat], policy: Policy = plain, limit: int = 5000) -> int:
    """Both seats play by ``policy`` until the match is over; the number of actions."""
    actions = 0
    while seats[0].state["status"] != "finished":
        actors = [s for s in seats if s.awaited()]
        assert actors, seats[0].state["board"]
        seat = actors[0]
        assert seat.seat is not None
        reply = seat.act(policy(seat.state, seat.seat))
        assert reply["type"] == "events", reply
        for other in seats:
            other.until(seat.seq)
        actions += 1
        assert actions < limit
    return actions


def finished_match(a: Client, b: Client, policy: Policy = plain) -> str:
    """A 1-point match between ``a`` (seat 0) and ``b``, played to the end over the sockets by
    ``policy``: by default :func:`plain` (the first legal move each time: errors enough for
    an analysis to mark)."""
    game = seek(a)
    join(b, game)
    seats = [Seat(a, game), Seat(b, game)]
    play_out(seats, policy)
    for seat in seats:
        seat.close()
    return game
