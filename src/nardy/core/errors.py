"""The errors the rules core raises. All are ``ValueError`` subclasses, as in python-chess."""


class NardyError(ValueError):
    """Base class of every error that nardy raises for bad input."""


class InvalidPositionError(NardyError):
    """A position that cannot occur under the variant's rules (wrong checker count, shared point…)."""


class IllegalPlayError(NardyError):
    """A play (or single move) that the rules do not allow in this position with these dice."""


class InvalidDiceError(NardyError):
    """Dice outside 1-6."""


class NotationError(NardyError):
    """Text that does not parse as the notation it claims to be (a move, a Position ID, an XGID…)."""


class UnknownVariantError(NardyError):
    """A variant name that nardy does not know."""
