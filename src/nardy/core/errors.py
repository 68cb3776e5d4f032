"""The errors the rules core raises. All are ``ValueError`` subclasses, as in python-chess.

Every error carries a stable machine-readable :attr:`NardyError.code` (an :class:`ErrorCode`)
beside its human text (``str(error)``), so that a client can act on a refusal — disable a
button, translate the message — without parsing English.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class ErrorCode(enum.StrEnum):
    """Why something was refused, as a program reads it (the wire form is the value)."""

    INVALID_INPUT = "invalid-input"
    """Malformed input: not an action, a point out of range, notation that does not parse."""
    NOT_YOUR_TURN = "not-your-turn"
    """A real action, taken by a player whose decision it is not."""
    WRONG_PHASE = "wrong-phase"
    """An action the game does not wait for now (rolling with dice on the table…)."""
    NOT_ALLOWED_BY_SETTINGS = "not-allowed-by-settings"
    """An action the game's settings or state rule out (no cube, Crawford, cube owned…)."""
    ILLEGAL_MOVE = "illegal-move"
    """A move or play that the rules do not allow with these dice."""
    AMBIGUOUS_PLAY = "ambiguous-play"
    """Notation that fits more than one legal play."""
    INVALID_POSITION = "invalid-position"
    """A position that cannot occur in the variant."""
    INVALID_SETTINGS = "invalid-settings"
    """Settings that the rules do not allow together."""
    UNKNOWN_VARIANT = "unknown-variant"
    """A variant name nardy does not know."""
    DICE_EXHAUSTED = "dice-exhausted"
    """A fixed list of dice (a replay) ran out."""


class RefusalReason(enum.StrEnum):
    """Which rule (or which missing die or checker) refuses a single move, as a program reads
    it: a client says it in its reader's language from this and the refusal's ``details``
    (the numbers named beside each), never from the English text."""

    DICE_PLAYED = "dice-played"
    """Every die of the roll is played already."""
    LARGER_DIE = "larger-die"
    """Only one die can be played and it must be the larger (``die``), RULES.md 1.3."""
    BOTH_DICE = "both-dice"
    """The move would leave the other die unplayable where both can be played."""
    MOST_DICE = "most-dice"
    """The move would play fewer dice than possible (``most``: how many can be)."""
    NO_CHECKER = "no-checker"
    """The mover has no checker on ``point``."""
    NO_DIE = "no-die"
    """No die left takes a checker from ``from`` to ``to``."""
    HEAD = "head"
    """Long nardy's head rule: ``limit`` checkers (1, or 2 on some opening doubles) leave the
    head per turn, RULES.md 3.2."""
    NO_BAR = "no-bar"
    """The variant has no bar."""
    BAR_FIRST = "bar-first"
    """A checker on the bar enters first, RULES.md 1.2."""
    NOT_ON_BAR = "not-on-bar"
    """The mover has no checker on the bar."""
    BEAR_OFF_EARLY = "bear-off-early"
    """Bearing off waits until every checker is in the home board."""
    BEAR_OFF_HIGHEST = "bear-off-highest"
    """A die larger than needed bears off only from the highest point (``point``)."""
    BLOCKED = "blocked"
    """Backgammon's point ``point`` is held by two or more of the opponent's checkers."""
    TAKEN = "taken"
    """Long nardy's point ``point`` has an opponent's checker on it."""
    SIX_BLOCK = "six-block"
    """Long nardy's six-block rule: six points in a row need an opponent's checker ahead."""


class NardyError(ValueError):
    """Base class of every error that nardy raises for bad input.

    ``code`` says what kind of refusal it is; a subclass fixes its own, and a raiser may
    name a more precise one (``GameError("...", code=ErrorCode.NOT_YOUR_TURN)``).
    """

    code: ErrorCode = ErrorCode.INVALID_INPUT
    reason: RefusalReason | None = None
    """For a refused single move, the rule (or the missing die or checker) that refuses it."""
    details: dict[str, int]
    """The numbers ``reason`` names (a point, a die); empty without a reason."""

    def __init__(
        self,
        message: str = "",
        *,
        code: ErrorCode | None = None,
        reason: RefusalReason | None = None,
        details: dict[str, int] | None = None,
    ) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.reason = reason
        self.details = dict(details or {})

    def to_json(self) -> dict[str, Any]:
        """The refusal as a client receives it: ``{"code": ..., "message": ...}``, with
        ``reason`` and ``details`` where a rule refused a single move."""
        body: dict[str, Any] = {"code": self.code.value, "message": str(self)}
        if self.reason is not None:
            body |= {"reason": self.reason.value, "details": dict(self.details)}
        return body


class InvalidInputError(NardyError):
    """Input that is not what it claims to be: a malformed action, a value out of range."""


class InvalidPositionError(NardyError):
    """A position that cannot occur in the variant (wrong checker count, a shared point…)."""

    code = ErrorCode.INVALID_POSITION


class IllegalPlayError(NardyError):
    """A play (or single move) that the rules do not allow in this position with these dice."""

    code = ErrorCode.ILLEGAL_MOVE


class AmbiguousPlayError(IllegalPlayError):
    """Move notation that describes more than one legal play: the message lists them."""

    code = ErrorCode.AMBIGUOUS_PLAY


class InvalidDiceError(NardyError):
    """Dice outside 1-6."""


class NotationError(NardyError):
    """Text that is not the notation it claims to be (a move, a Position ID, an XGID…)."""


class UnknownVariantError(NardyError):
    """A variant name that nardy does not know."""

    code = ErrorCode.UNKNOWN_VARIANT


@contextmanager
def reading(what: str) -> Iterator[None]:
    """Reading data that should be ``what`` (a game snapshot…): what is missing or of the
    wrong type raises :class:`InvalidInputError` saying so; nardy's own errors pass as
    they are."""
    try:
        yield
    except NardyError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise InvalidInputError(f"not {what}: {exc!r}") from None
