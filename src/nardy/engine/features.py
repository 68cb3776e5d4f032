"""The neural evaluator's inputs: a backgammon position as a float32 vector.

A position is encoded *after* a play, from the mover's side, with the opponent to roll next.
Each side is 26 counts in its owner's numbering (0 = off, 1-24 = points, 25 = bar), as in
:class:`~nardy.core.position.Position`; the geometry is backgammon's (my point ``p`` is the
opponent's ``25 - p``), shared by nackgammon and acey-deucey. Long nardy is not encoded.

The vector (:data:`INPUTS` = 208 values) is, for the mover then for the opponent:

* per point 1-24 of that side's own numbering, four Tesauro-style truncated unary inputs:
  ``n >= 1``, ``n >= 2``, ``n >= 3`` and ``(n - 3) / 2`` for ``n > 3`` (96 inputs);
* the bar (with acey-deucey checkers not yet entered) halved, and the checkers off over 15;

then the expert features, mover first where there are two:

* pip counts over 100 (2 inputs) and the pip lead over 50 (1);
* a race flag: no checker of either side can meet one of the other's any more (1);
* blots exposed to direct shots (a checker 1-6 pips behind, the bar counted), over 5 (2);
* home-board points made (two or more checkers on points 1-6), over 6 (2);
* the longest prime, consecutive points made anywhere on the board, over 6 (2);
* checkers in the other side's home board (anchors and stragglers), over 5 (2).

Everything is vectorised over a batch: :func:`encode` takes two ``(N, 26)`` uint8 arrays.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from nardy.core.position import BAR, CHECKERS, OFF, Side

RAW_PER_SIDE = 24 * 4 + 2
"""Raw inputs per side: four per point, the bar and the checkers off."""
EXPERT = 12
"""Expert inputs: pips (3), race (1), exposed blots (2), home points (2), primes (2),
back checkers (2)."""
INPUTS = 2 * RAW_PER_SIDE + EXPERT
"""Length of one encoded position."""

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]

_PIP_WEIGHTS = np.arange(26, dtype=np.float32)  # a checker on index p has p pips to go


def sides_array(sides: Iterable[Side]) -> U8:
    """Sides (bytes of 26 counts each) as an ``(N, 26)`` uint8 array."""
    data = b"".join(sides)
    return np.frombuffer(data, dtype=np.uint8).reshape(-1, 26)


def _raw(side: U8) -> F32:
    """The 98 raw inputs of one side in its own numbering, per row."""
    n = side[:, 1:25].astype(np.float32)
    units = np.empty((side.shape[0], 24, 4), dtype=np.float32)
    units[:, :, 0] = n >= 1
    units[:, :, 1] = n >= 2
    units[:, :, 2] = n >= 3
    units[:, :, 3] = np.maximum(n - 3.0, 0.0) / 2.0
    waiting = CHECKERS - side.sum(axis=1, dtype=np.int32)
    bar = (side[:, BAR].astype(np.float32) + waiting) / 2.0
    off = side[:, OFF].astype(np.float32) / CHECKERS
    return np.concatenate([units.reshape(-1, 96), bar[:, None], off[:, None]], axis=1)


def _longest_run(made: npt.NDArray[np.bool_]) -> npt.NDArray[np.int32]:
    """Per row, the longest run of consecutive True values."""
    total = np.cumsum(made, axis=1, dtype=np.int32)
    # At each column, the count up to the last False column so far: subtracting it leaves
    # the length of the run ending there.
    base = np.maximum.accumulate(np.where(made, 0, total), axis=1)
    longest: npt.NDArray[np.int32] = np.max(total - base, axis=1, initial=0)
    return longest


def _exposed(blots: npt.NDArray[np.bool_], shooters: npt.NDArray[np.bool_]) -> F32:
    """Blots hit by a direct shot: ``blots[:, p]`` for points 1-24 (column p - 1) of a side
    moving downward; ``shooters[:, q]`` for q = 0-24 in the same numbering (0: the shooters'
    bar), moving upward. A blot on p is exposed if a shooter stands on p - 6 .. p - 1."""
    hit = np.zeros_like(blots)
    for d in range(1, 7):
        # blot at p (column p - 1) and shooter at q = p - d (column p - d of shooters)
        hit[:, d - 1 :] |= shooters[:, : 25 - d]
    exposed: F32 = (blots & hit).sum(axis=1).astype(np.float32)
    return exposed


def encode(mine: U8, theirs: U8) -> F32:
    """Encode a batch: row i is the position with the mover's side ``mine[i]`` (just moved)
    and the opponent's ``theirs[i]``, each ``(N, 26)`` in its owner's numbering."""
    mine = np.ascontiguousarray(mine, dtype=np.uint8)
    theirs = np.ascontiguousarray(theirs, dtype=np.uint8)
    rows = mine.shape[0]
    out = np.empty((rows, INPUTS), dtype=np.float32)
    out[:, :RAW_PER_SIDE] = _raw(mine)
    out[:, RAW_PER_SIDE : 2 * RAW_PER_SIDE] = _raw(theirs)
    e = out[:, 2 * RAW_PER_SIDE :]

    my_wait = CHECKERS - mine.sum(axis=1, dtype=np.int32)
    their_wait = CHECKERS - theirs.sum(axis=1, dtype=np.int32)
    my_pips = (mine.astype(np.float32) @ _PIP_WEIGHTS) + 25.0 * my_wait
    their_pips = (theirs.astype(np.float32) @ _PIP_WEIGHTS) + 25.0 * their_wait
    e[:, 0] = my_pips / 100.0
    e[:, 1] = their_pips / 100.0
    e[:, 2] = (their_pips - my_pips) / 50.0

    # The rearmost checker of each side in its own numbering (25 for the bar or waiting).
    idx = np.arange(26, dtype=np.int32)
    my_back = np.where(my_wait > 0, 25, np.max(np.where(mine[:, 1:] > 0, idx[1:], 0), axis=1))
    their_back = np.where(
        their_wait > 0, 25, np.max(np.where(theirs[:, 1:] > 0, idx[1:], 0), axis=1)
    )
    e[:, 3] = (my_back + their_back) <= 25  # my p meets their q on my 25 - q: p > 25 - q

    # Both sides in my numbering: their point q is my 25 - q; their bar is "my 0".
    op = theirs[:, 24:0:-1]  # column p - 1 is my point p
    op_from_bar = np.concatenate([((theirs[:, BAR] + their_wait) > 0)[:, None], op > 0], axis=1)
    my_points = mine[:, 1:25]
    e[:, 4] = _exposed(my_points == 1, op_from_bar) / 5.0
    # Their blots, seen from their side: my checkers in their numbering shoot upward.
    me_theirs = mine[:, 24:0:-1]
    me_from_bar = np.concatenate([((mine[:, BAR] + my_wait) > 0)[:, None], me_theirs > 0], axis=1)
    e[:, 5] = _exposed(theirs[:, 1:25] == 1, me_from_bar) / 5.0

    e[:, 6] = (mine[:, 1:7] >= 2).sum(axis=1) / 6.0
    e[:, 7] = (theirs[:, 1:7] >= 2).sum(axis=1) / 6.0
    e[:, 8] = np.minimum(_longest_run(my_points >= 2), 6) / 6.0
    e[:, 9] = np.minimum(_longest_run(theirs[:, 1:25] >= 2), 6) / 6.0
    e[:, 10] = mine[:, 19:25].sum(axis=1) / 5.0
    e[:, 11] = theirs[:, 19:25].sum(axis=1) / 5.0
    return out


def encode_sides(pairs: Iterable[tuple[Side, Side]]) -> F32:
    """Encode ``(mine, theirs)`` pairs of bytes, as :meth:`Variant.play_paths` keys them."""
    items = list(pairs)
    return encode(sides_array(m for m, _ in items), sides_array(t for _, t in items))
