"""What happened: one frozen value per thing that happens in a game, and its JSON form.

``apply`` (:meth:`nardy.core.game.Game.apply` and the same on ``Match``, ``Chouette`` and
``Consultation``) returns the events an action caused, in order. Everything that happens by
itself appears here too: a turn that passes with no legal move, the last roll of long nardy,
an automatic double on a tied opening, the next game of a match. Every roll of the dice is an
event (:class:`OpeningRolled`, :class:`DiceRolled`), so a log of events replays a game
without rolling anything.

Players are seats (0 or 1) of the game; a chouette or consultation adds events naming its
participants.
"""

from dataclasses import dataclass
from typing import Any, ClassVar

from nardy.core.actions import Player
from nardy.core.wire import from_json, to_json


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``kind`` is the event's JSON ``type``."""

    kind: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        """The wire form: ``{"type": kind, fields...}`` (tuples as lists)."""
        return to_json(self, self.kind)


@dataclass(frozen=True, slots=True)
class OpeningRolled(Event):
    """One round of the opening roll (RULES.md 1.1, 3.1): player 0's die and player 1's.
    ``first`` is the player who starts, None on a tie (the players roll again)."""

    kind = "opening-rolled"
    dice: tuple[int, int]
    first: int | None


@dataclass(frozen=True, slots=True)
class AutomaticDouble(Event):
    """A tied opening roll doubled the centred cube to ``value`` (RULES.md 1.5)."""

    kind = "automatic-double"
    value: int


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    """``player`` rolled ``dice`` (in the order rolled)."""

    kind = "dice-rolled"
    player: int
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class DoubleChosen(Event):
    """Acey-deucey: ``player`` named the double ``die``-``die`` after the 1-2 (RULES.md 2)."""

    kind = "double-chosen"
    player: int
    die: int


@dataclass(frozen=True, slots=True)
class CheckerMoved(Event):
    """One single move of ``player``: ``start`` to ``end`` (mover's numbering) with ``die``;
    ``hit`` when it sent a blot to the bar."""

    kind = "checker-moved"
    player: int
    start: int
    end: int
    die: int
    hit: bool


@dataclass(frozen=True, slots=True)
class MoveUndone(Event):
    """``player`` took back the single move ``start`` to ``end``."""

    kind = "move-undone"
    player: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class PlayConfirmed(Event):
    """``player``'s turn ended with ``play`` (canonical notation) for ``dice``."""

    kind = "play-confirmed"
    player: int
    dice: tuple[int, int]
    play: str


@dataclass(frozen=True, slots=True)
class NoLegalMove(Event):
    """``player`` could not move with ``dice``: the turn passed by itself."""

    kind = "no-legal-move"
    player: int
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class CubeOffered(Event):
    """``player`` doubled: the cube would go to ``value``."""

    kind = "cube-offered"
    player: int
    value: int


@dataclass(frozen=True, slots=True)
class Beavered(Event):
    """``player`` took and redoubled at once, keeping the cube: it goes to ``value`` if the
    doubler takes the beaver."""

    kind = "beavered"
    player: int
    value: int


@dataclass(frozen=True, slots=True)
class CubeTaken(Event):
    """``player`` took: the cube is on ``value``."""

    kind = "cube-taken"
    player: int
    value: int


@dataclass(frozen=True, slots=True)
class CubePassed(Event):
    """``player`` passed and lost the game at ``value``, the cube before the double."""

    kind = "cube-passed"
    player: int
    value: int


@dataclass(frozen=True, slots=True)
class LastRoll(Event):
    """Long nardy (RULES.md 3.4): ``player``, who moved second, gets one final roll."""

    kind = "last-roll"
    player: int


@dataclass(frozen=True, slots=True)
class RollAgain(Event):
    """Acey-deucey: ``player`` played the named double and rolls again (RULES.md 2)."""

    kind = "roll-again"
    player: int


@dataclass(frozen=True, slots=True)
class ResignationOffered(Event):
    """``player`` offered to resign at ``level`` (1 single, 2 gammon, 3 backgammon)."""

    kind = "resignation-offered"
    player: int
    level: int


@dataclass(frozen=True, slots=True)
class ResignationAccepted(Event):
    """``player`` accepted the resignation at ``level``."""

    kind = "resignation-accepted"
    player: int
    level: int


@dataclass(frozen=True, slots=True)
class ResignationDeclined(Event):
    """``player`` declined the resignation at ``level``: play goes on."""

    kind = "resignation-declined"
    player: int
    level: int


@dataclass(frozen=True, slots=True)
class Surrendered(Event):
    """Long nardy: ``player`` gave up (RULES.md 3.4)."""

    kind = "surrendered"
    player: int


@dataclass(frozen=True, slots=True)
class Forfeited(Event):
    """``player`` lost by forfeit: their clock ran out (``reason`` ``"time"``) or they were
    absent and the opponent claimed the game (``"absent"``); a :class:`GameOver` follows."""

    kind = "forfeited"
    player: int
    reason: str


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended: ``winner`` (None for a draw), the result ``kind`` (single, gammon,
    backgammon, oin, mars, pass, resign, forfeit, draw), the ``cube``, the ``points`` won and, for a
    resignation, the ``level`` it was scored as."""

    kind = "game-over"
    winner: int | None
    result: str
    cube: int
    points: int
    level: str | None = None


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """A match or session started game ``number`` (1 for the first) at ``score``;
    ``crawford`` marks the Crawford game, ``first`` the player on roll when no opening roll
    decides it (a long-nardy series)."""

    kind = "game-started"
    number: int
    score: tuple[int, int]
    crawford: bool
    first: int | None


@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    """``player`` left the money session, series or chouette."""

    kind = "player-left"
    player: Player


@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    """Chouette: ``player`` sat down at the end of the team line."""

    kind = "player-joined"
    player: str


@dataclass(frozen=True, slots=True)
class VoteCast(Event):
    """Chouette: team member ``player`` voted for (``agree``) or against doubling the box;
    the double is offered (a :class:`CubeOffered` follows) once every member still in has
    voted for it, and a vote against ends the vote (RULES.md 1.7)."""

    kind = "vote-cast"
    player: str
    agree: bool


@dataclass(frozen=True, slots=True)
class DoubleAnswered(Event):
    """Chouette: team member ``player`` took (``take``) or passed the box's double; once all
    have answered, the members who passed pay and leave the game (RULES.md 1.7)."""

    kind = "double-answered"
    player: str
    take: bool


@dataclass(frozen=True, slots=True)
class Proposed(Event):
    """Consultation: ``player`` of ``side`` proposed ``text`` to their own side only."""

    kind = "proposed"
    player: str
    side: int
    text: str


EVENTS: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        OpeningRolled,
        AutomaticDouble,
        DiceRolled,
        DoubleChosen,
        CheckerMoved,
        MoveUndone,
        PlayConfirmed,
        NoLegalMove,
        CubeOffered,
        Beavered,
        CubeTaken,
        CubePassed,
        LastRoll,
        RollAgain,
        ResignationOffered,
        ResignationAccepted,
        ResignationDeclined,
        Surrendered,
        Forfeited,
        GameOver,
        GameStarted,
        PlayerLeft,
        PlayerJoined,
        VoteCast,
        DoubleAnswered,
        Proposed,
    )
}
"""Every event class by its JSON ``type``."""


def event_from_json(obj: Any) -> Event:
    """The event a JSON object describes; raises :class:`InvalidInputError` for anything
    malformed."""
    return from_json(obj, EVENTS, "event")
