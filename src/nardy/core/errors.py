"""The errors the rules core raises. All are ``ValueError`` subclasses, as in python-chess.

Every error carries a stable machine-readable :attr:`NardyError.code` (an :class:`ErrorCode`)
beside its human text (``str(error)``), so that a client can act on a refusal — disable a
button, translate the message — without parsing English.
"""

from __future__ import annotations

import enum


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


class NardyError(ValueError):
    """Base class of every error that nardy raises for bad input.

    ``code`` says what kind of refusal it is; a subclass fixes its own, and a raiser may
    name a more precise one (``GameError("...", code=ErrorCode.NOT_YOUR_TURN)``).
    """

    code: ErrorCode = ErrorCode.INVALID_INPUT

    def __init__(self, message: str = "", *, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    def to_json(self) -> dict[str, str]:
        """The refusal as a client receives it: ``{"code": ..., "message": ...}``."""
        return {"code": self.code.value, "message": str(self)}


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
