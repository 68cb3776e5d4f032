"""The neural evaluator's inputs: a backgammon position as a float32 vector.

A position is encoded *after* a play, from the mover's side, with the opponent to roll next.
Each side is 26 counts in its owner's numbering (0 = off, 1-24 = points, 25 = bar), as in
:class:`~nardy.core.position.Position`; the geometry is backgammon's (my point ``p`` is the
opponent's ``25 - p``), shared by nackgammon and acey-deucey (whose checkers not yet entered
count as on the bar everywhere below). Long nardy is not encoded.

The vector (:data:`INPUTS` = 224 values) is, for the mover then for the opponent:

* per point 1-24 of that side's own numbering, four Tesauro-style truncated unary inputs:
  ``n >= 1``, ``n >= 2``, ``n >= 3`` and ``(n - 3) / 2`` for ``n > 3`` (96 inputs);
* the bar (with acey-deucey checkers not yet entered) halved, and the checkers off over 15;

then the expert features, mover first where there are two:

* pip counts over 100 (2 inputs) and the pip lead over 50 (1);
* a race flag: no checker of either side can meet one of the other's any more (1);
* blots exposed to direct shots (a checker 1-6 pips behind, the bar counted), over 5 (2);
* home-board points made (two or more checkers on points 1-6), over 6 (2);
* the longest prime, consecutive points made anywhere on the board, over 6 (2);
* checkers in the other side's home board (anchors and stragglers), over 5 (2);
* shots: the share of the 36 rolls of the other side that hit at least one blot of this side,
  direct or indirect (intermediate points are not checked for blocks), the bar's checkers
  shooting too (2);
* escapes: the share of the 36 rolls with which this side's rearmost checker could move its
  whole roll past the other side's points in front of it (2);

and, from index :data:`BASE_INPUTS` = 212 on, the positional inputs in gnubg's spirit (each
for the mover, then for the opponent; "made" means two or more checkers):

* containment: the escapes input (the same table of the 36 rolls) for the side's rearmost
  checker standing on the worst point for it among the points from the rearmost checker's
  own (the bar for a checker on it) down to the ace point; 1 for a side with no checker left
  on the board or the bar (2);
* timing: the pips the side can play without breaking a made point, over 100: every checker
  on a point holding one, every checker above the first two on a made point, and every
  checker on the bar, played down to the ace point (``p - 1`` pips from point ``p``, 24 from
  the bar); the first two of a made point count nothing (2);
* mobility: the number of single-die moves, summed over the dice 1-6: for die ``d``, the
  points (the bar included) holding a checker of the side whose point ``d`` pips further on is
  on the board (bearing off not counted) and not made by the other side; while the side has
  a checker on the bar only the bar's moves count, as in backgammon; over 60 (2);
* backbone: the side's made points in the other side's half (its points 13-24: the other's
  outfield and home board), over 6 (2);
* forward anchor: the advancement of the side's most advanced made point in the other's home
  board (its points 19-24), ``(25 - p) / 6`` for point ``p``, 0 with none (2);
* pip loss to hits: the pips the side can expect to lose to the other side's next roll, over
  24: for each of the 36 rolls, the ``25 - p`` pips travelled by the costliest blot (on point
  ``p``) the roll hits, direct or indirect as in shots (intermediate points not checked, the
  bar's checkers shooting too), 0 for a roll that hits none, averaged over the 36 rolls (2).

Inputs are only ever appended, so a net trained on the first ``N`` inputs reads the prefix of
today's vector unchanged (:meth:`nardy.engine.net.Net.forward` takes its own columns).

Everything is vectorised over a batch: :func:`encode` takes two ``(N, 26)`` uint8 arrays.
The numpy code here is the definition; where the C extension ``nardy.engine._features`` is
built, :func:`encode` answers from it, bit for bit the same (:mod:`nardy.core.fastpath`).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from nardy.core import fastpath
from nardy.core.position import BAR, CHECKERS, OFF, Side
from nardy.engine.errors import EngineError

RAW_PER_SIDE = 24 * 4 + 2
"""Raw inputs per side: four per point, the bar and the checkers off."""
EXPERT = 16
"""Expert inputs: pips (3), race (1), exposed blots (2), home points (2), primes (2),
back checkers (2), shots (2), escapes (2)."""
POSITIONAL = 12
"""Positional inputs, appended after the expert ones: containment (2), timing (2), mobility
(2), backbone (2), forward anchor (2), pip loss to hits (2)."""
BASE_INPUTS = 2 * RAW_PER_SIDE + EXPERT
"""The length of the encoding before the positional inputs (the shipped net's inputs)."""
INPUTS = BASE_INPUTS + POSITIONAL
"""Length of one encoded position."""
RACE_INPUT = 2 * RAW_PER_SIDE + 3
"""The index of the race flag (1 in a race): which class's net values a row."""

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]

_PIP_WEIGHTS = np.arange(26, dtype=np.float32)  # a checker on index p has p pips to go


def sides_array(sides: Iterable[Side]) -> U8:
    """Sides (bytes of 26 counts each) as an ``(N, 26)`` uint8 array."""
    data = b"".join(sides)
    return np.frombuffer(data, dtype=np.uint8).reshape(-1, 26)


def _unary_table() -> F32:
    """``table[n]``: the four truncated unary inputs of a point holding ``n`` checkers."""
    n = np.arange(CHECKERS + 1, dtype=np.float32)
    table: F32 = np.stack([n >= 1, n >= 2, n >= 3, np.maximum(n - 3.0, 0.0) / 2.0], axis=1)
    return table.astype(np.float32)


def _roll_table() -> F32:
    """``table[d - 1, r]``: 1 if roll ``r`` of the 36 moves one checker exactly ``d`` pips
    (one die, both dice, or two to four steps of a double)."""
    table = np.zeros((24, 36), dtype=np.float32)
    for r in range(36):
        a, b = r // 6 + 1, r % 6 + 1
        reach = {a, b, a + b} if a != b else {a * k for k in range(1, 5)}
        for d in reach:
            table[d - 1, r] = 1.0
    return table


def _roll_masks() -> npt.NDArray[np.int64]:
    """``masks[d]``: the rolls (bit ``r`` of 36) that move one checker exactly ``d`` pips."""
    table = _roll_table()
    masks = np.zeros(25, dtype=np.int64)
    for d in range(1, 25):
        masks[d] = sum(1 << r for r in range(36) if table[d - 1, r])
    return masks


def _bitmask(bits: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Each row of up to 32 booleans as an integer, column ``k`` in bit ``k``."""
    packed = np.packbits(bits, axis=1, bitorder="little")
    padded = np.zeros((bits.shape[0], 4), dtype=np.uint8)
    padded[:, : packed.shape[1]] = packed
    return padded.view("<u4")[:, 0].astype(np.int64)


def _escape_table() -> F32:
    """``table[mask]``: the share of the 36 rolls with which a checker can move its whole
    roll when bit ``k`` of ``mask`` says the point ``k + 1`` pips ahead is blocked. A die's
    landing point must be open; with two dice, at least one order must land on open points."""
    masks = np.arange(1 << 12)

    def open_(d: int) -> npt.NDArray[np.bool_]:
        return np.full(masks.shape, True) if d > 12 else ((masks >> (d - 1)) & 1) == 0

    count = np.zeros(masks.shape, dtype=np.int32)
    for a in range(1, 7):
        for b in range(1, 7):
            if a == b:
                count += open_(a) & open_(2 * a) & open_(3 * a) & open_(4 * a)
            else:
                count += open_(a + b) & (open_(a) | open_(b))
    table: F32 = (count / 36.0).astype(np.float32)
    return table


def _roll_reaches() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int32]]:
    """The 21 distinct rolls as ``(reach, weight)``: ``reach[k]`` the distances 1-24 that roll
    ``k`` moves one checker (as :func:`_roll_table`; padded with 0, "no distance"),
    ``weight[k]`` its rolls of 36 (2 for two different dice, 1 for a double)."""
    reach = np.zeros((21, 4), dtype=np.intp)
    weight = np.zeros(21, dtype=np.int32)
    k = 0
    for a in range(1, 7):
        for b in range(a, 7):
            distances = [a, b, a + b] if a != b else [a * n for n in range(1, 5)]
            reach[k, : len(distances)] = distances
            weight[k] = 1 if a == b else 2
            k += 1
    return reach, weight


_UNARY = _unary_table()
_ROLL_MASKS = _roll_masks()
_ESCAPES = _escape_table()
_REACH, _REACH_WEIGHT = _roll_reaches()
_POINTS = np.arange(26, dtype=np.int32)
_TO_ACE = _POINTS[:24]  # a spare on point p can play p - 1 pips before the ace point
_ADVANCE = _POINTS[6:0:-1]  # an anchor on point 19 + i is 6 - i points advanced
_MOVER = [0, *range(4, EXPERT + POSITIONAL, 2)]  # 2 and 3: pip lead, race flag
"""Where the per-side expert and positional inputs of the mover go, from the first expert
input on (pips, exposed blots, home points, prime, back checkers, shots, escapes, containment,
timing, mobility, backbone, forward anchor, pip loss); the opponent's are one further on."""


def longest_run(made: npt.NDArray[np.bool_]) -> npt.NDArray[np.int32]:
    """Per row, the longest run of consecutive True values."""
    total = np.cumsum(made, axis=1, dtype=np.int32)
    # At each column, the count up to the last False column so far: subtracting it leaves
    # the length of the run ending there.
    base = np.maximum.accumulate(np.where(made, 0, total), axis=1)
    longest: npt.NDArray[np.int32] = np.max(total - base, axis=1, initial=0)
    return longest


def raw_inputs(side: U8, out: F32 | None = None) -> F32:
    """The :data:`RAW_PER_SIDE` raw inputs of one side in its own numbering, per row (into
    ``out`` if given): four per point, the bar (with checkers waiting to enter) halved, and
    the checkers off over 15."""
    rows = side.shape[0]
    raw = np.empty((rows, RAW_PER_SIDE), dtype=np.float32) if out is None else out
    waiting = CHECKERS - side.sum(axis=1, dtype=np.int32)
    raw[:, :96] = _UNARY[side[:, 1:25]].reshape(rows, 96)
    raw[:, 96] = (side[:, BAR] + waiting) / 2.0
    raw[:, 97] = side[:, OFF] / CHECKERS
    return raw


def _side_inputs(a: U8, b: U8, raw: F32) -> tuple[F32, npt.NDArray[np.int32]]:
    """Side ``a``'s raw inputs (written into ``raw``), its thirteen expert and positional
    inputs (in :data:`_MOVER` order) and its rearmost checker, each row of ``a`` against the
    other side ``b`` (both in their owners' numbering)."""
    rows = a.shape[0]
    waiting = CHECKERS - a.sum(axis=1, dtype=np.int32)
    b_waiting = CHECKERS - b.sum(axis=1, dtype=np.int32)
    entering = a[:, BAR] + waiting  # checkers on the bar or not yet entered
    raw_inputs(a, raw)
    e = np.empty((rows, 13), dtype=np.float32)
    e[:, 0] = (a.astype(np.float32) @ _PIP_WEIGHTS + 25.0 * waiting) / 100.0

    # The other side in a's numbering (column p - 1 is a's point p); it moves upward from its
    # bar, a's "0". As bit masks: shooters on bits 0 (the bar) to 24, a's blots on bits 1-24.
    other = b[:, 24:0:-1]
    shooters = np.empty((rows, 25), dtype=bool)
    shooters[:, 0] = (b[:, BAR] + b_waiting) > 0
    shooters[:, 1:] = other > 0
    shooter_bits = _bitmask(shooters)
    blot_bits = _bitmask(a[:, 1:25] == 1) << 1
    direct = np.zeros(rows, dtype=np.int64)
    hitting = np.zeros(rows, dtype=np.int64)
    for d in range(1, 25):
        ahead = shooter_bits << d  # a shooter's bit moved d points on, onto its target
        if d <= 6:
            direct |= ahead
        hitting |= np.where(ahead & blot_bits, _ROLL_MASKS[d], 0)
    e[:, 1] = np.bitwise_count(direct & blot_bits) / 5.0
    e[:, 5] = np.bitwise_count(hitting) / 36.0

    made = a[:, 1:25] >= 2
    e[:, 2] = made[:, :6].sum(axis=1) / 6.0
    e[:, 3] = np.minimum(longest_run(made), 6) / 6.0
    e[:, 4] = a[:, 19:25].sum(axis=1) / 5.0

    on_board = np.max(np.where(a[:, 1:25] > 0, _POINTS[1:25], 0), axis=1)
    back = np.where(entering > 0, 25, on_board)
    # Bit k of the mask: the point k + 1 pips in front of the back checker is blocked. With
    # the blocks reversed (a's point p on bit 24 - p), the point k + 1 pips in front of the
    # back checker is on bit 25 - back + k.
    blocks = _bitmask((other >= 2)[:, ::-1])
    e[:, 6] = _ESCAPES[(blocks >> (25 - back)) & 0xFFF]

    # Containment: the escapes from each point q = 1..25 (column q - 1), the worst of those
    # at or in front of the back checker.
    from_each = _ESCAPES[(blocks[:, None] >> (25 - _POINTS[1:26])) & 0xFFF]
    e[:, 7] = np.min(np.where(_POINTS[1:26] <= back[:, None], from_each, 1.0), axis=1)

    counts = a[:, 1:25].astype(np.int32)
    spares = np.where(counts >= 2, counts - 2, counts)  # a made point keeps its first two
    e[:, 8] = (spares @ _TO_ACE + 24 * entering) / 100.0

    # Mobility, as bit masks (bit q: a's point q): open_bits << d has bit q set where the
    # point d pips below q is open. Entering, die d lands on a's point 25 - d (bits 19-24).
    on_bits = _bitmask(counts > 0) << 1
    open_bits = _bitmask(other < 2) << 1
    moves = sum(np.bitwise_count(on_bits & (open_bits << d)).astype(np.int32) for d in range(1, 7))
    e[:, 9] = np.where(entering > 0, np.bitwise_count(open_bits >> 19), moves) / 60.0

    e[:, 10] = np.count_nonzero(made[:, 12:], axis=1) / 6.0
    e[:, 11] = np.max(np.where(made[:, 18:], _ADVANCE, 0), axis=1) / 6.0

    # Pip loss: per distinct roll, the blots it hits as a bit mask (the shooters moved by each
    # distance it reaches; column 0 of ``moved``, "no distance", is empty), and the lowest
    # of them (bit p: a's point p), which has travelled furthest, 25 - p pips.
    moved = np.zeros((rows, 25), dtype=np.int64)
    moved[:, 1:] = shooter_bits[:, None] << _POINTS[1:25]
    hit = np.bitwise_or.reduce(moved[:, _REACH], axis=2) & blot_bits[:, None]
    lowest = np.bitwise_count((hit & -hit) - 1).astype(np.int32)  # its lowest bit's index
    e[:, 12] = np.where(hit != 0, 25 - lowest, 0) @ _REACH_WEIGHT / 864.0
    return e, back


_compiled = fastpath.load("nardy.engine._features", "encodings")


def compiled_encode(kind: int, width: int, mine: U8, theirs: U8) -> F32 | None:
    """The compiled encoding ``kind`` (0 this module's, 1 long nardy's) of ``width`` inputs,
    or None where it is not in use."""
    if _compiled is None:
        return None
    if mine.ndim != 2 or mine.shape[1:] != (26,) or theirs.shape != mine.shape:
        raise EngineError(f"expected two (N, 26) arrays, got {mine.shape} and {theirs.shape}")
    out = np.empty((mine.shape[0], width), dtype=np.float32)
    _compiled.encode(
        kind,
        np.ascontiguousarray(mine, dtype=np.uint8),
        np.ascontiguousarray(theirs, dtype=np.uint8),
        out,
    )
    return out


def encode(mine: U8, theirs: U8) -> F32:
    """Encode a batch: row i is the position with the mover's side ``mine[i]`` (just moved)
    and the opponent's ``theirs[i]``, each ``(N, 26)`` in its owner's numbering."""
    out = compiled_encode(0, INPUTS, mine, theirs)
    return reference_encode(mine, theirs) if out is None else out


def reference_encode(mine: U8, theirs: U8) -> F32:
    """:func:`encode` in numpy: the definition the compiled encoding follows."""
    rows = mine.shape[0]
    # Both sides at once: rows 0..N-1 are the mover against the opponent, N..2N-1 the reverse.
    a = np.concatenate([mine, theirs]).astype(np.uint8, copy=False)
    b = np.concatenate([theirs, mine]).astype(np.uint8, copy=False)
    raw = np.empty((2 * rows, RAW_PER_SIDE), dtype=np.float32)
    side, back = _side_inputs(a, b, raw)
    out = np.empty((rows, INPUTS), dtype=np.float32)
    out[:, :RAW_PER_SIDE] = raw[:rows]
    out[:, RAW_PER_SIDE : 2 * RAW_PER_SIDE] = raw[rows:]
    e = out[:, 2 * RAW_PER_SIDE :]
    e[:, _MOVER] = side[:rows]
    e[:, [i + 1 for i in _MOVER]] = side[rows:]
    e[:, 2] = (side[rows:, 0] - side[:rows, 0]) * 2.0  # the mover's pip lead over 50
    e[:, 3] = (back[:rows] + back[rows:]) <= 25  # my p meets their q on my 25 - q: p > 25 - q
    return out


def encode_sides(pairs: Iterable[tuple[Side, Side]]) -> F32:
    """Encode ``(mine, theirs)`` pairs of bytes, as :meth:`Variant.play_paths` keys them."""
    items = list(pairs)
    return encode(sides_array(m for m, _ in items), sides_array(t for _, t in items))
