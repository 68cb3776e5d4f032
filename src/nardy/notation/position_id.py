"""GNU Backgammon Position ID, and nardy's extensions of it (NOTATION.md, "Positions").

The ID is 80 bits: for each side, points 1-24 in that side's own numbering and then the bar,
each as that many 1-bits followed by a 0-bit; padded with zeros, packed least significant bit
first into 10 bytes and written in base64 without padding (14 characters). The side NOT on
roll comes first — that is what every GNU Backgammon build writes, whatever its manual says.
Checkers counted on no point and not on the bar are borne off.

Long nardy uses the same layout (its bar always empty), each side in its own numbering.

Acey-deucey extension: checkers still waiting to enter are neither on the board nor borne off,
so nardy appends ``-`` and two hexadecimal digits, the waiting checkers of the side not on roll
and then of the side on roll (``AAAAAAAAAAAAAA-ff`` is the start). Without the suffix no
checker is waiting, so every backgammon ID is also a valid acey-deucey ID.
"""

from __future__ import annotations

import base64
import binascii

from nardy.core import CHECKERS, InvalidPositionError, NotationError, Position, Variant, variant
from nardy.core.position import Side

ID_LENGTH = 14
_ALPHABET = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def encode_sides(on_roll: Side, opponent: Side) -> str:
    """The 14-character ID of two sides (each in its own numbering), without any suffix."""
    bits = 0
    n = 0
    for side in (opponent, on_roll):
        for point in range(1, 26):
            count = side[point]
            bits |= ((1 << count) - 1) << n
            n += count + 1
    return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii")[:ID_LENGTH]


def decode_sides(text: str) -> tuple[Side, Side]:
    """(on roll, opponent) on points 1-24 and bar from a 14-character ID; off left at 0."""
    if len(text) != ID_LENGTH or not set(text) <= _ALPHABET:
        raise NotationError(
            f"{text!r} is not a Position ID: expected 14 characters of A-Z a-z 0-9 + /"
        )
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except binascii.Error as exc:  # pragma: no cover - the alphabet check catches these
        raise NotationError(f"{text!r} is not valid base64: {exc}") from None
    bits = int.from_bytes(raw, "little")
    sides: list[list[int]] = [[0] * 26, [0] * 26]
    side, point = 0, 1
    for _ in range(80):
        if side == 2:
            if bits:
                raise NotationError(f"{text!r}: bits set after both sides are complete")
            break
        if bits & 1:
            sides[side][point] += 1
            if sum(sides[side]) > CHECKERS:
                raise NotationError(f"{text!r}: more than {CHECKERS} checkers for one side")
        else:
            point += 1
            if point == 26:
                side, point = side + 1, 1
        bits >>= 1
    if side != 2:
        raise NotationError(f"{text!r}: the ID ends before both sides are complete")
    opponent, on_roll = sides
    return bytes(on_roll), bytes(opponent)


def position_id(pos: Position) -> str:
    """The Position ID of ``pos`` (with the acey-deucey suffix when checkers are waiting)."""
    text = encode_sides(pos.mine, pos.theirs)
    waiting_theirs, waiting_mine = pos.waiting(False), pos.waiting(True)
    if waiting_theirs or waiting_mine:
        text += f"-{waiting_theirs:x}{waiting_mine:x}"
    return text


def position_from_id(text: str, variant_name: str | Variant = "backgammon") -> Position:
    """The validated position of a Position ID in ``variant_name``'s geometry."""
    v = variant(variant_name)
    body, _, suffix = text.strip().partition("-")
    on_roll, opponent = decode_sides(body)
    waiting = (0, 0)
    if suffix:
        if not v.enters_from_outside:
            raise NotationError(f"{text!r}: the waiting-checkers suffix is for acey-deucey only")
        if len(suffix) != 2 or any(c not in "0123456789abcdef" for c in suffix.lower()):
            raise NotationError(f"{text!r}: the suffix must be two hexadecimal digits")
        waiting = (int(suffix[1], 16), int(suffix[0], 16))
    mine, theirs = (
        _with_off(side, w, text) for side, w in ((on_roll, waiting[0]), (opponent, waiting[1]))
    )
    pos = Position(v, mine, theirs)
    try:
        v.validate(pos)
    except InvalidPositionError as exc:
        raise NotationError(f"{text!r} is not a {v.name} position: {exc}") from None
    return pos


def _with_off(side: Side, waiting: int, text: str) -> Side:
    off = CHECKERS - sum(side) - waiting
    if off < 0:
        raise NotationError(f"{text!r}: more than {CHECKERS} checkers for one side")
    return bytes([off]) + side[1:]


__all__ = ["decode_sides", "encode_sides", "position_from_id", "position_id"]
