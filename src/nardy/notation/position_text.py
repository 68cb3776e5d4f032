"""Reading a position from whatever a player pastes: a Position ID, ``PositionID:MatchID``,
or an XGID (NOTATION.md)."""

from __future__ import annotations

from nardy.core import NotationError, Position, Variant, variant
from nardy.notation.match_id import decode_match_id
from nardy.notation.position_id import position_from_id
from nardy.notation.xgid import PREFIX as XGID_PREFIX
from nardy.notation.xgid import position_from_xgid

_XGID_PARTS = 10
_XGID_BOARD = 26


def parse_position(text: str, variant_name: str | Variant = "backgammon") -> Position:
    """The position, from the side on roll, that ``text`` names in ``variant_name``.

    Accepts a GNU Backgammon Position ID (``4HPwATDgc/ABMA``, with nardy's acey-deucey
    suffix ``-ff`` where checkers wait to enter), ``PositionID:MatchID`` as gnubg copies it
    (the Match ID is checked, and its cube and score ignored), and an XGID with or without
    its ``XGID=`` prefix. Text that cannot be read raises :class:`NotationError` saying which
    format it was read as and what is wrong (an unknown variant name raises
    :class:`~nardy.core.UnknownVariantError`).

    >>> parse_position("4HPwATDgc/ABMA:cAkAAAAAAAAA") == parse_position("4HPwATDgc/ABMA")
    True
    """
    v = variant(variant_name)
    text = text.strip()
    if not text:
        raise NotationError("empty position: give a Position ID, PositionID:MatchID or an XGID")
    parts = text.split(":")
    # An XGID is recognised by its prefix, or without it by its shape: a 26-character board
    # and nine more fields (a Position ID is 14 characters and has at most one ':').
    if text[: len(XGID_PREFIX)].upper() == XGID_PREFIX or (
        len(parts) == _XGID_PARTS and len(parts[0]) == _XGID_BOARD
    ):
        return position_from_xgid(text, v)
    if len(parts) > 2:
        raise NotationError(
            f"{text!r} has {len(parts) - 1} ':'; expected a Position ID, optionally "
            "followed by ':' and a Match ID, or an XGID"
        )
    position_part = parts[0].strip()
    if len(parts) == 2:
        match_part = parts[1].strip()
        if not match_part:
            raise NotationError(f"{text!r}: nothing after ':' where the Match ID should be")
        decode_match_id(match_part)  # only checked here: the cube and score do not move checkers
    if not position_part:
        raise NotationError(f"{text!r}: no Position ID before the ':'")
    return position_from_id(position_part, v)
