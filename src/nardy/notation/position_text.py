"""Reading a position from whatever a player pastes: a Position ID, ``PositionID:MatchID``,
or an XGID (NOTATION.md)."""

from __future__ import annotations

from nardy.core import NotationError, Position, Variant, variant
from nardy.notation.position_id import position_from_id


def parse_position(text: str, variant_name: str | Variant = "backgammon") -> Position:
    """The position, from the side on roll, that ``text`` names in ``variant_name``."""
    v = variant(variant_name)
    text = text.strip()
    if text.upper().startswith("XGID="):
        from nardy.notation.xgid import position_from_xgid

        return position_from_xgid(text, v)
    position_part, _, match_part = text.partition(":")
    if match_part:
        from nardy.notation.match_id import decode_match_id

        decode_match_id(match_part)  # only checked here: the cube and score do not move checkers
    if not position_part:
        raise NotationError("empty position: give a Position ID, PositionID:MatchID or an XGID")
    return position_from_id(position_part, v)
