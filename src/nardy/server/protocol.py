"""The WebSocket protocol of a game room, version 2: the closed set of messages a client
sends and the server sends, parsed in one place (:func:`parse`) and written in one place
(:func:`encode`). ``docs/protocol.md`` documents every message.

A client message is a JSON object of at most :data:`MAX_MESSAGE` bytes with a ``type`` and
an optional ``ref`` (a client's number or short string, echoed in the replies it causes).
The action inside an ``action`` message is the core's wire form, read into the core's
:class:`~nardy.core.actions.Action` here, once, at the edge.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from nardy.core.actions import Action, Player, action_from_json
from nardy.core.errors import NardyError
from nardy.server.jsontext import JSONTextError, decode

VERSION = 2
MAX_MESSAGE = 8 * 1024
"""The largest client message, in bytes (the longest action is a few hundred)."""


class ProtocolError(ValueError):
    """A client message that is not one of the protocol's; ``code`` is ``malformed``,
    ``unknown-type`` or ``too-large``, sent back in an ``error`` message."""

    def __init__(self, code: str, message: str, ref: Ref = None) -> None:
        super().__init__(message)
        self.code = code
        self.ref = ref


Ref = int | str | None


# -- what a client sends ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ActionMessage:
    """Do something in the game: ``{"type": "action", "action": {core action}}``, read by
    the core. The action's ``player`` may be left out (``named`` false: it is read as seat
    0 until the room puts in the sender's seat); it is always the sender's seat. ``at``
    (the message's ``seq``), when given, is the action count of the state the action was
    meant for: sent again after it was applied (a double click), it is refused, not
    applied twice."""

    action: Action
    named: bool = True
    ref: Ref = None
    at: int | None = None


@dataclass(frozen=True, slots=True)
class UnreadAction:
    """An ``action`` message whose action the core cannot read (unknown type, missing or
    mistyped fields): answered ``refused`` with the core's ``code``, as a refusal of the
    game, not an ``error`` of the protocol."""

    code: str
    message: str
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class SyncMessage:
    """Send me the whole state again: ``{"type": "sync"}``."""

    ref: Ref = None


@dataclass(frozen=True, slots=True)
class PingMessage:
    """Are you there: ``{"type": "ping"}``, answered by ``pong``."""

    ref: Ref = None


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """Say something in the room: ``{"type": "chat", "text": "gg"}`` (1-300 characters)."""

    text: str
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class MuteMessage:
    """Hear the room's chat or not: ``{"type": "mute", "muted": true}``."""

    muted: bool
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class SeedMessage:
    """A player's own seed for the dice of the game about to start: ``{"type": "seed",
    "seed": "k3J9..."}`` (docs/dice.md: 1-64 printable ASCII characters, before its first
    roll)."""

    seed: str
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class ClaimMessage:
    """Claim the game of an absent opponent whose grace period is over: ``{"type":
    "claim"}``."""

    ref: Ref = None


@dataclass(frozen=True, slots=True)
class RematchMessage:
    """Offer (or accept) a rematch of the finished match: ``{"type": "rematch"}``."""

    ref: Ref = None


@dataclass(frozen=True, slots=True)
class HintMessage:
    """In a practice game against the bot, the bot's advice to its player: ``{"type":
    "hint"}`` for the decision that is theirs now (the plays of the roll, the cube before
    it, the answer to a double), ``{"type": "hint", "review": true}`` for how the bot would
    have played their last play. Answered by ``hint`` (or ``refused``)."""

    review: bool = False
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class PracticeMessage:
    """Make this game against the bot a practice game, for good: ``{"type":
    "practice"}``; everyone in the room hears the state again, now with practice on."""

    ref: Ref = None


ClientMessage = (
    ActionMessage
    | UnreadAction
    | SyncMessage
    | PingMessage
    | ChatMessage
    | MuteMessage
    | SeedMessage
    | ClaimMessage
    | RematchMessage
    | HintMessage
    | PracticeMessage
)
CHAT_LENGTH = 300

_FIELDS: dict[str, frozenset[str]] = {
    "action": frozenset({"type", "ref", "action", "seq"}),
    "sync": frozenset({"type", "ref"}),
    "ping": frozenset({"type", "ref"}),
    "chat": frozenset({"type", "ref", "text"}),
    "mute": frozenset({"type", "ref", "muted"}),
    "seed": frozenset({"type", "ref", "seed"}),
    "claim": frozenset({"type", "ref"}),
    "rematch": frozenset({"type", "ref"}),
    "hint": frozenset({"type", "ref", "review"}),
    "practice": frozenset({"type", "ref"}),
}


def _is_object(value: object) -> bool:
    return isinstance(value, dict)


def _is_chat(value: object) -> bool:
    return isinstance(value, str) and 1 <= len(value.strip()) <= CHAT_LENGTH


def _is_bool(value: object) -> bool:
    return type(value) is bool


def _is_text(value: object) -> bool:
    return isinstance(value, str)


def _field(obj: dict[str, Any], name: str, ok: Callable[[object], bool], what: str) -> Any:
    """A message's field, checked; :class:`ProtocolError` (with the message's ref) if not."""
    value = obj.get(name)
    if not ok(value):
        raise ProtocolError("malformed", what, obj.get("ref"))
    return value


def parse(data: str | bytes) -> ClientMessage:
    """The client message in ``data``; :class:`ProtocolError` for anything else."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")  # the limit counts bytes, not characters
    if len(data) > MAX_MESSAGE:
        raise ProtocolError("too-large", f"a message has at most {MAX_MESSAGE} bytes")
    try:
        obj = decode(data)
    except JSONTextError as exc:
        raise ProtocolError("malformed", f"a message is a JSON object: {exc}") from None
    if not isinstance(obj, dict):
        raise ProtocolError("malformed", "a message is a JSON object")
    ref = obj.get("ref")
    if not (
        ref is None
        or (type(ref) is int and abs(ref) < 2**53)
        or (type(ref) is str and len(ref) <= 64)
    ):
        raise ProtocolError("malformed", "ref is a number or a string of at most 64 characters")
    kind = obj.get("type")
    if not (kind is None or isinstance(kind, str)):  # a field of the wrong type
        raise ProtocolError("malformed", "type is a string", ref)
    if kind not in _FIELDS:
        raise ProtocolError("unknown-type", f"type is one of {', '.join(_FIELDS)}", ref)
    extra = sorted(set(obj) - _FIELDS[kind])
    if extra:
        raise ProtocolError(
            "malformed", f"a {kind} message has no field(s) {', '.join(extra)}", ref
        )
    if kind == "action":
        action = _field(obj, "action", _is_object, "an action message carries an action object")
        at = _field(obj, "seq", _is_count, "seq is the number of actions the action follows")
        return _action(action, ref, at)
    if kind == "chat":
        text = _field(obj, "text", _is_chat, f"chat text is 1-{CHAT_LENGTH} characters")
        return ChatMessage(text.strip(), ref)
    if kind == "mute":
        return MuteMessage(_field(obj, "muted", _is_bool, "muted is true or false"), ref)
    if kind == "seed":
        return SeedMessage(_field(obj, "seed", _is_text, "seed is a string"), ref)
    if kind == "sync":
        return SyncMessage(ref)
    if kind == "claim":
        return ClaimMessage(ref)
    if kind == "rematch":
        return RematchMessage(ref)
    if kind == "hint":
        review = obj.get("review", False)
        if not _is_bool(review):
            raise ProtocolError("malformed", "review is true or false", ref)
        return HintMessage(review, ref)
    if kind == "practice":
        return PracticeMessage(ref)
    return PingMessage(ref)


def _is_count(value: object) -> bool:
    return value is None or (type(value) is int and 0 <= value < 2**53)


def _action(obj: dict[str, Any], ref: Ref, at: int | None) -> ActionMessage | UnreadAction:
    """The core action of an action message, or the core's refusal of it."""
    named = "player" in obj
    try:
        action = action_from_json(obj if named else {**obj, "player": 0})
    except NardyError as exc:
        return UnreadAction(exc.code.value, str(exc), ref)
    return ActionMessage(action, named, ref, at)


# -- what the server sends -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Said:
    """A chat line: who said it (their seat, None for a spectator, and name) and when."""

    seat: Player | None
    username: str
    text: str
    at: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "username": self.username, "text": self.text, "at": self.at}


@dataclass(frozen=True, slots=True)
class Welcome:
    """The first message on a room's socket: who you are here, the whole state as you see
    it, the chat so far that you may read, and whether you have muted the room's chat (then
    ``chat`` is empty, and a client shows its panel as muted)."""

    game: str
    seat: Player | None
    state: dict[str, Any]
    chat: tuple[Said, ...] = ()
    muted: bool = False


@dataclass(frozen=True, slots=True)
class Chat:
    """Someone said something in the room."""

    said: Said


_COMPACT = (",", ":")
# One encoder for every message: json.dumps with separators builds a new encoder each call,
# and a room encodes several messages an action.
_encode = json.JSONEncoder(separators=_COMPACT).encode


@dataclass(frozen=True, slots=True)
class ReaderState:
    """A state as one reader sees it, ready to encode: ``shared`` is the JSON text of the
    fields every reader sees alike (an object, encoded once for a whole room), ``own`` the
    fields of this reader alone (named differently from the shared ones). Every action's
    message is sent to both seats and the spectators; the shared part is most of its bytes
    and of its encoding's cost."""

    shared: str
    own: dict[str, Any]

    @classmethod
    def shared_text(cls, shared: Mapping[str, Any]) -> str:
        """The JSON text of a state's shared fields, as :attr:`shared` holds it."""
        return _encode(dict(shared))

    def text(self) -> str:
        """The JSON text of the whole state: the shared object with the own fields added."""
        own = _encode(self.own)
        if own == "{}":
            return self.shared
        if self.shared == "{}":
            return own
        return f"{self.shared[:-1]},{own[1:]}"


@dataclass(frozen=True, slots=True)
class Events:
    """Action number ``seq`` was accepted (and committed): what happened, and the state
    after it as its reader sees it. Sent to everyone in the room; ``ref`` is the sender's
    on the socket that sent the action, None elsewhere."""

    seq: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    state: dict[str, Any] | ReaderState
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class State:
    """The whole state as its reader sees it, in answer to ``sync`` and after anything
    that is not one action (a seed, people sitting down, a reload); ``ref`` is that of the
    message that caused it, on the socket that sent it."""

    state: dict[str, Any] | ReaderState
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class Refused:
    """Your action (or chat line) was refused and changed nothing; ``code`` is the core's
    (or the room's: ``spectator``, ``not-your-seat``, ``game-over``, ``busy``,
    ``internal-error``, ``referee-only``; for a claim ``not-absent``, ``grace-period``; for
    chat ``not-signed-in``, ``chat-rate-limited``; for a hint ``not-a-bot-game``,
    ``not-practice``, ``not-your-turn``, ``no-hint``, ``hint-pending``). A single move
    refused by a rule says which as the core does (``reason``, a
    :class:`~nardy.core.errors.RefusalReason`, and the numbers it names in ``details``), for
    a client to say in its reader's words."""

    code: str
    message: str
    ref: Ref = None
    reason: str | None = None
    details: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Hint:
    """The bot's advice asked for by ``hint``, at action ``seq``: ``nardy hint --format
    json``'s document with its ``kind`` (``plays``, ``cube``, ``answer``, ``review``), sent
    to the asking socket only."""

    seq: int
    hint: dict[str, Any]
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class Error:
    """Your message was not one of the protocol's (``malformed``, ``unknown-type``,
    ``too-large``, ``rate-limited``)."""

    code: str
    message: str
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class Pong:
    """The answer to ``ping``."""

    ref: Ref = None


@dataclass(frozen=True, slots=True)
class Absent:
    """Player ``seat`` has no connection to the room: the opponent may claim the game in
    ``claim_in`` seconds if they have not come back by then."""

    seat: int
    claim_in: float


@dataclass(frozen=True, slots=True)
class Present:
    """Player ``seat``, absent, is back."""

    seat: int


@dataclass(frozen=True, slots=True)
class Watching:
    """How many spectators (signed in or not) are in the room now, on every process."""

    spectators: int


@dataclass(frozen=True, slots=True)
class RematchOffered:
    """Player ``seat`` offers a rematch of the finished match."""

    seat: int


@dataclass(frozen=True, slots=True)
class Rematch:
    """The rematch has started: its game is ``game`` (go to its room)."""

    game: str


ServerMessage = (
    Welcome
    | Events
    | State
    | Refused
    | Error
    | Pong
    | Chat
    | Absent
    | Present
    | Watching
    | RematchOffered
    | Rematch
    | Hint
)


def encode(message: ServerMessage) -> str:
    """The JSON text of a server message; every one has ``v`` and ``type``."""
    body: dict[str, Any]
    match message:
        case Welcome(game, seat, state, chat, muted):
            body = {
                "type": "welcome",
                "game": game,
                "seat": seat,
                "state": state,
                "chat": [said.to_json() for said in chat],
                "muted": muted,
            }
        case Chat(said):
            body = {"type": "chat", **said.to_json()}
        case Events(seq, action, events, state, ref):
            body = {
                "type": "events",
                "seq": seq,
                "action": action,
                "events": events,
                "state": state,
                "ref": ref,
            }
        case State(state, ref):
            body = {"type": "state", "state": state, "ref": ref}
        case Refused(code, text, ref, reason, details):
            body = {"type": "refused", "code": code, "message": text, "ref": ref}
            if reason is not None:
                body |= {"reason": reason, "details": dict(details)}
        case Error(code, text, ref):
            body = {"type": "error", "code": code, "message": text, "ref": ref}
        case Pong(ref):
            body = {"type": "pong", "ref": ref}
        case Absent(seat, claim_in):
            body = {"type": "absent", "seat": seat, "claim-in": claim_in}
        case Present(seat):
            body = {"type": "present", "seat": seat}
        case Watching(spectators):
            body = {"type": "watching", "spectators": spectators}
        case RematchOffered(seat):
            body = {"type": "rematch-offered", "seat": seat}
        case Rematch(game):
            body = {"type": "rematch", "game": game}
        case Hint(seq, hint, ref):
            body = {"type": "hint", "seq": seq, "hint": hint, "ref": ref}
    reader = body.get("state")
    if not isinstance(reader, ReaderState):
        return _encode({"v": VERSION, **body})
    # The shared part is spliced in as text, not encoded again for each reader.
    del body["state"]
    text = _encode({"v": VERSION, **body})
    return f'{text[:-1]},"state":{reader.text()}}}'
