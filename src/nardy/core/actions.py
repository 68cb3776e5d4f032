"""What a player can do: one frozen value per action, and its JSON form (the wire format).

Every driver of a game — the terminal client, a server, the record replayer, the ``.mat``
importer, the bots — expresses what a player wants as one of these values and hands it to
``apply`` (:meth:`nardy.core.game.Game.apply`, and the same on ``Match``, ``Chouette`` and
``Consultation``). Each action names the acting ``player``: the seat (0 or 1) in a game or a
match, the participant's name in a chouette or a consultation.

The JSON form is a small object with the action's ``type`` and its fields, for example
``{"type": "move", "player": 0, "from": 24, "to": 18}``; :func:`action_from_json` reads it
back and refuses anything malformed with an :class:`~nardy.core.errors.InvalidInputError`.
This module is the one place where the action vocabulary is written.
"""

from dataclasses import dataclass
from typing import Any, ClassVar

from nardy.core.wire import from_json, to_json

Player = int | str
"""A seat (0 or 1) in a game or match; a participant's name in a chouette or consultation."""


@dataclass(frozen=True, slots=True)
class Action:
    """Something a player does. ``kind`` is the action's JSON ``type``."""

    kind: ClassVar[str]
    player: Player

    def to_json(self) -> dict[str, Any]:
        """The wire form: ``{"type": kind, "player": ..., other fields}``."""
        return to_json(self, self.kind)


@dataclass(frozen=True, slots=True)
class RollOpening(Action):
    """Roll the opening (each player one die; ties roll again) or long nardy's lot."""

    kind = "roll-opening"


@dataclass(frozen=True, slots=True)
class Double(Action):
    """Offer the cube before rolling (RULES.md 1.5)."""

    kind = "double"


@dataclass(frozen=True, slots=True)
class Take(Action):
    """Accept the double (or, as the doubler, the beaver); in a chouette one member's take."""

    kind = "take"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Refuse the double (or the beaver); the game is lost at the cube's value before it."""

    kind = "pass"


@dataclass(frozen=True, slots=True)
class Beaver(Action):
    """Take and at once redouble, keeping the cube (money play with beavers)."""

    kind = "beaver"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Roll the two dice of a turn."""

    kind = "roll"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """One single move, one checker by one die, from ``start`` to ``end`` in the mover's
    numbering (25 the bar or, in acey-deucey, off the board; 0 off)."""

    kind = "move"
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Undo(Action):
    """Take back the last single move of this turn."""

    kind = "undo"


@dataclass(frozen=True, slots=True)
class Confirm(Action):
    """End the turn with the single moves made ("pick up the dice", RULES.md 1.9)."""

    kind = "confirm"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """A whole play in move notation (``"24/18 13/10"``; ``""`` when no move is possible),
    made at once from the start of the turn; it ends the turn."""

    kind = "play"
    moves: str


@dataclass(frozen=True, slots=True)
class Resign(Action):
    """Offer to resign a single (1), gammon (2) or backgammon (3) on one's turn."""

    kind = "resign"
    level: int = 1


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Accept the resignation offered."""

    kind = "accept"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Decline the resignation offered: play goes on."""

    kind = "decline"


@dataclass(frozen=True, slots=True)
class Surrender(Action):
    """Long nardy: give up on one's turn, scored from the checkers as they stand (3.4)."""

    kind = "surrender"


@dataclass(frozen=True, slots=True)
class ChooseDouble(Action):
    """Acey-deucey: after playing the 1-2, name the double (``die`` 1-6) to play next."""

    kind = "choose-double"
    die: int


@dataclass(frozen=True, slots=True)
class Forfeit(Action):
    """``player`` loses by forfeit, taken by a referee (a server), never offered to a player:
    their clock ran out (``reason`` ``"time"``) or they left and the opponent claimed the
    game after the grace period (``"absent"``). In a match it loses the match; in money play
    (or an unlimited series) the game at the cube's value, and an absent player also leaves
    the session."""

    kind = "forfeit"
    reason: str = "time"


FORFEIT_REASONS = ("time", "absent")
"""Why a player forfeits: the clock ran out, or they were gone and the game was claimed."""


@dataclass(frozen=True, slots=True)
class Vote(Action):
    """Chouette: a team member's vote for (``agree``) or against doubling the box (1.7)."""

    kind = "vote"
    agree: bool = True


@dataclass(frozen=True, slots=True)
class Propose(Action):
    """Consultation: a member's private suggestion to their own side."""

    kind = "propose"
    text: str


@dataclass(frozen=True, slots=True)
class Leave(Action):
    """End a money session (or unlimited series) by leaving it; in a chouette, leave it
    between games."""

    kind = "leave"


@dataclass(frozen=True, slots=True)
class Join(Action):
    """Chouette: sit down at the end of the team line (between games)."""

    kind = "join"


ACTIONS: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        RollOpening,
        Double,
        Take,
        Pass,
        Beaver,
        Roll,
        Move,
        Undo,
        Confirm,
        Play,
        Resign,
        Accept,
        Decline,
        Surrender,
        ChooseDouble,
        Forfeit,
        Vote,
        Propose,
        Leave,
        Join,
    )
}
"""Every action class by its JSON ``type``."""


def action_from_json(obj: Any) -> Action:
    """The action a JSON object describes; raises :class:`InvalidInputError` for anything
    that is not exactly an action (unknown type, missing or extra fields, wrong types)."""
    return from_json(obj, ACTIONS, "action")
