"""Interoperability codecs: GNU Backgammon Position ID, XGID and friends (NOTATION.md)."""

from nardy.notation.match_id import MatchState, decode_match_id, encode_match_id
from nardy.notation.position_id import position_from_id, position_id
from nardy.notation.position_text import parse_position
from nardy.notation.xgid import Xgid, format_xgid, parse_xgid, position_from_xgid

__all__ = [
    "MatchState",
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
