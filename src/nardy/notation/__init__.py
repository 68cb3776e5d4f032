"""Interoperability codecs: GNU Backgammon Position ID, XGID and friends (NOTATION.md)."""

from nardy.notation.match_id import (
    CubeOwner,
    GameState,
    MatchState,
    Resignation,
    decode_match_id,
    encode_match_id,
)
from nardy.notation.position_id import position_from_id, position_id
from nardy.notation.position_text import parse_position
from nardy.notation.xgid import CubeAction, Xgid, format_xgid, parse_xgid, position_from_xgid

__all__ = [
    "CubeAction",
    "CubeOwner",
    "GameState",
    "MatchState",
    "Resignation",
    "Xgid",
    "decode_match_id",
    "encode_match_id",
    "format_xgid",
    "parse_position",
    "parse_xgid",
    "position_from_id",
    "position_from_xgid",
    "position_id",
]
