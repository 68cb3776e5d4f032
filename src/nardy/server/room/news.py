"""The news of a room between the server processes that hold it: a closed set of kinds,
each a small frozen value, with one :func:`parse` and one :func:`encode` (as
:mod:`nardy.server.protocol` has for the sockets).

A process tells its own sockets of whatever it commits at once; the news goes out on the
game's bus channel (:func:`nardy.server.bus.game_channel`) afterwards, for the other
processes. Every piece carries its ``origin``, the token of the process that sent it, so
that a process skips its own news when the bus echoes it. News is never the only way a
change travels: the database holds every action, and a process that may have missed news
(a :class:`Gap`, or the bus down) reads the game from it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from nardy.core.actions import Player
from nardy.server import protocol
from nardy.server.chat import said_of
from nardy.server.store.store import ChatLine


class NewsError(ValueError):
    """A message on a game's channel that is not news of a room (of another version of the
    server, or damaged): dropped."""


@dataclass(frozen=True, slots=True)
class Events:
    """Action number ``seq`` was committed: the action and its events (core wire forms),
    the game's clock after it (:meth:`~nardy.server.clocks.ClockState.to_json`; None: the
    game has none) and whether a checkpoint was written with it. A process that holds the
    game at action ``seq - 1`` applies the action itself and checks that it gives the same
    events; at a checkpoint it takes the stored one (it holds the next game's dice, drawn
    where the action was committed: the bus never carries a seed). ``checkpoint`` None: news
    that does not say (of an older server), which the process reads from the database."""

    origin: str | None
    seq: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    clock: dict[str, Any] | None = None
    checkpoint: bool | None = None


@dataclass(frozen=True, slots=True)
class ChatLineSaid:
    """A chat line stored with its database id (which orders the lines and tells one heard
    twice)."""

    origin: str | None
    id: int
    said: protocol.Said

    @classmethod
    def of(cls, origin: str, line: ChatLine) -> ChatLineSaid:
        return cls(origin, line.id, said_of(line))


@dataclass(frozen=True, slots=True)
class Mute:
    """A user stopped (or started again) hearing the room's chat."""

    origin: str | None
    user: int
    muted: bool


@dataclass(frozen=True, slots=True)
class Presence:
    """Whether the process ``origin`` has a socket of the player in ``seat``."""

    origin: str | None
    seat: int
    here: bool


@dataclass(frozen=True, slots=True)
class Watching:
    """The process ``origin`` has ``spectators`` spectators' sockets in the room."""

    origin: str | None
    spectators: int


@dataclass(frozen=True, slots=True)
class RematchOffered:
    """The player in ``seat`` offers a rematch of the finished match."""

    origin: str | None
    seat: int


@dataclass(frozen=True, slots=True)
class RematchStarted:
    """Everyone seated agreed: the rematch is the game ``game``."""

    origin: str | None
    game: str


@dataclass(frozen=True, slots=True)
class Seeded:
    """The player in ``seat`` gave their own ``seed`` for the dice (public, as every state
    shows it), stored while the game was at action ``seq``; it changes the dice's
    commitment, never the numbering of the actions. ``seed`` None: news that does not say
    (of an older server), which the process reads from the database."""

    origin: str | None
    seq: int
    seat: int = 0
    seed: str | None = None


@dataclass(frozen=True, slots=True)
class Reload:
    """Something changed that is not an action (the game started, people sat down at a
    table or left it, at action ``seq``): read the game's row again."""

    origin: str | None
    seq: int


@dataclass(frozen=True, slots=True)
class Gap:
    """News of this room may be lost (the bus lost its connection, or ``origin`` could not
    publish for a while): read the whole game again, chat included."""

    origin: str | None = None


News = (
    Events
    | ChatLineSaid
    | Mute
    | Presence
    | Watching
    | RematchOffered
    | RematchStarted
    | Seeded
    | Reload
    | Gap
)


def encode(news: News) -> dict[str, Any]:
    """The JSON object the bus carries."""
    body: dict[str, Any]
    match news:
        case Events(_, seq, action, events, clock, checkpoint):
            body = {
                "kind": "events",
                "seq": seq,
                "action": action,
                "events": events,
                "clock": clock,
                "checkpoint": checkpoint,
            }
        case ChatLineSaid(_, line_id, said):
            body = {"kind": "chat", "id": line_id, **said.to_json()}
        case Mute(_, user, muted):
            body = {"kind": "mute", "user": user, "muted": muted}
        case Presence(_, seat, here):
            body = {"kind": "presence", "seat": seat, "here": here}
        case Watching(_, spectators):
            body = {"kind": "watching", "spectators": spectators}
        case RematchOffered(_, seat):
            body = {"kind": "rematch-offered", "seat": seat}
        case RematchStarted(_, game):
            body = {"kind": "rematch", "game": game}
        case Seeded(_, seq, seat, seed):
            body = {"kind": "seeded", "seq": seq, "seat": seat, "seed": seed}
        case Reload(_, seq):
            body = {"kind": "reload", "seq": seq}
        case Gap():
            body = {"kind": "gap"}
    body["from"] = news.origin
    return body


def _int(data: Mapping[str, Any], name: str) -> int:
    value = data.get(name)
    if type(value) is not int:
        raise NewsError(f"{name!r} is not an integer: {value!r}")
    return value


def _text(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str):
        raise NewsError(f"{name!r} is not text: {value!r}")
    return value


def _bool(data: Mapping[str, Any], name: str) -> bool:
    value = data.get(name)
    if not isinstance(value, bool):
        raise NewsError(f"{name!r} is not true or false: {value!r}")
    return value


def _seat(value: object) -> Player | None:
    if value is None or type(value) is int or isinstance(value, str):
        return value
    raise NewsError(f"not a seat: {value!r}")


def parse(data: Mapping[str, Any]) -> News:
    """The news a bus message holds; :class:`NewsError` for anything else."""
    origin = data.get("from")
    if origin is not None and not isinstance(origin, str):
        raise NewsError(f"'from' is not a process token: {origin!r}")
    match data.get("kind"):
        case "events":
            action, events = data.get("action"), data.get("events")
            if not isinstance(action, dict) or not isinstance(events, list):
                raise NewsError("events news needs an action object and an events list")
            clock = data.get("clock")
            if clock is not None and not isinstance(clock, dict):
                raise NewsError(f"'clock' is not a clock's state: {clock!r}")
            checkpoint = None if data.get("checkpoint") is None else _bool(data, "checkpoint")
            return Events(origin, _int(data, "seq"), action, events, clock, checkpoint)
        case "chat":
            said = protocol.Said(
                _seat(data.get("seat")),
                _text(data, "username"),
                _text(data, "text"),
                _text(data, "at"),
            )
            return ChatLineSaid(origin, _int(data, "id"), said)
        case "mute":
            return Mute(origin, _int(data, "user"), _bool(data, "muted"))
        case "presence":
            return Presence(origin, _int(data, "seat"), _bool(data, "here"))
        case "watching":
            return Watching(origin, _int(data, "spectators"))
        case "rematch-offered":
            return RematchOffered(origin, _int(data, "seat"))
        case "rematch":
            return RematchStarted(origin, _text(data, "game"))
        case "seeded":
            seed = data.get("seed")
            if seed is None:
                return Seeded(origin, _int(data, "seq"))
            return Seeded(origin, _int(data, "seq"), _int(data, "seat"), _text(data, "seed"))
        case "reload":
            return Reload(origin, _int(data, "seq"))
        case "gap":
            return Gap(origin)
        case kind:
            raise NewsError(f"unknown news {kind!r}")
