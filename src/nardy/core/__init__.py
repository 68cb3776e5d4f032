"""The rules core: positions, variants, legal plays and move notation. Standard library only."""

from nardy.core.backgammon import AceyDeucey, Backgammon, Nackgammon
from nardy.core.errors import (
    IllegalPlayError,
    InvalidDiceError,
    InvalidPositionError,
    NardyError,
    NotationError,
    UnknownVariantError,
)
from nardy.core.long_nardy import LongNardy
from nardy.core.moves import Move, Play, format_moves, parse_moves
from nardy.core.position import BAR, CHECKERS, OFF, Outcome, Position, ResultKind
from nardy.core.variant import Variant
from nardy.core.variants import VARIANTS, variant, variants

BACKGAMMON = variant("backgammon")
NACKGAMMON = variant("nackgammon")
ACEY_DEUCEY = variant("acey-deucey")
LONG_NARDY = variant("long")

__all__ = [
    "ACEY_DEUCEY",
    "BACKGAMMON",
    "BAR",
    "CHECKERS",
    "LONG_NARDY",
    "NACKGAMMON",
    "OFF",
    "VARIANTS",
    "AceyDeucey",
    "Backgammon",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidPositionError",
    "LongNardy",
    "Move",
    "Nackgammon",
    "NardyError",
    "NotationError",
    "Outcome",
    "Play",
    "Position",
    "ResultKind",
    "UnknownVariantError",
    "Variant",
    "format_moves",
    "parse_moves",
    "variant",
    "variants",
]
