"""Interoperability codecs: GNU Backgammon Position ID, XGID and friends (NOTATION.md)."""

from nardy.notation.position_id import position_from_id, position_id
from nardy.notation.position_text import parse_position

__all__ = ["parse_position", "position_from_id", "position_id"]
