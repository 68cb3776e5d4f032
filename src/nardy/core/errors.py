"""The errors the rules core raises. All are ``ValueError`` subclasses, as in python-chess."""


class NardyError(ValueError):
    """Base class of every error that nardy raises for bad input."""


class InvalidPositionError(NardyError):
    """A position that cannot occur in the variant (wrong checker count, a shared point…)."""


class IllegalPlayError(NardyError):
    """A play (or single move) that the rules do not allow in this position with these dice."""


class InvalidDiceError(NardyError):
    """Dice outside 1-6."""


class NotationError(NardyError):
    """Text that is not the notation it claims to be (a move, a Position ID, an XGID…)."""


class UnknownVariantError(NardyError):
    """A variant name that nardy does not know."""
