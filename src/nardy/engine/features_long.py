"""The neural evaluator's inputs for long nardy, and what the net's outputs mean there.

A position is encoded *after* a play, from the mover's side, with the opponent to roll next,
as in :mod:`nardy.engine.features`. Each side is 26 counts in its owner's numbering (0 = off,
1-24 = points; long nardy has no bar, index 25 is always 0). Both sides travel the same way
round the board, half a turn apart (RULES.md 3.1): my point ``p`` is the opponent's ``p + 12``
(``p <= 12``) or ``p - 12``, so my head (24) is their 12 and their head is my 12. One checker
holds a point (there is no hitting), so "held" below means one checker or more.

The vector (:data:`INPUTS` = 220 values) is, for the mover then for the opponent:

* per point 1-24 of that side's own numbering, the four truncated unary inputs of
  backgammon's encoder: ``n >= 1``, ``n >= 2``, ``n >= 3`` and ``(n - 3) / 2`` (a full head
  of 15 gives 6) (96 inputs);
* the checkers off over 15 (1);

then the expert features, mover first where there are two:

* pip counts over 200 (2; 360 at the start) and the mover's pip lead over 50 (1);
* a race flag: no checker of either side stands ahead of the other side's last checker, so
  nothing can block anything any more (1);
* checkers still on the head over 15 (2): only one may leave it a turn (RULES.md 3.2);
* checkers in each quarter of the side's own path over 15 — home 1-6, 7-12 (the other's
  starting quarter: my 12 is their head), 13-18 (the other's home), 19-24 (the starting
  quarter, head included) (8);
* blocking, for each side's points standing in the other side's way (ahead of its last
  checker on its path, which crosses my 1- and 24-points): the longest run of such points
  (a block; six is the most the six-block rule allows) over 6, and how many of the six points
  right in front of the other's last checker are held, over 6 (4);
* points held over 12 (2): spreading out builds blocks and keeps the dice playable;
* the mars (RULES.md 3.4): whether the side has borne off none yet (2); the pips its checkers
  still need to reach home, the distance to the first checker off, over 100 (2); and the mars
  margin, ``(other's pips to home - side's pips) / 50`` while the other side has borne off
  none, else 0 (2): a side that can bear off everything before the other bears off one wins
  a mars.

:func:`encode` is vectorised over a batch of two ``(N, 26)`` uint8 arrays; it answers from
the compiled encoding where that is built, bit for bit the same as the numpy definition here
(:func:`nardy.engine.features.compiled_encode`).

The net is :mod:`nardy.engine.net`'s, five outputs for the mover, read in long nardy as:
0 the mover wins (oin or mars), 1 the mover wins a mars, 3 the mover loses a mars. Long nardy
has no backgammon: outputs 2 and 4 (backgammons) are always trained toward 0 (train/td.py,
:func:`nardy.engine.evaluator.terminal_outputs`), so :func:`~nardy.engine.net.equity` is the
cubeless equity of a game with ``ending=mars`` (an oin 1 point, a mars 2).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from nardy.core.position import CHECKERS, OFF, Side
from nardy.engine.features import (
    F32,
    U8,
    compiled_encode,
    longest_run,
    raw_inputs,
    sides_array,
)

POINTS_UNARY = 24 * 4
"""The truncated unary inputs of one side's 24 points."""
RAW_PER_SIDE = POINTS_UNARY + 1
"""Raw inputs per side: four per point and the checkers off."""
EXPERT = 26
"""Expert inputs: pips (3), race (1), heads (2), quarters (8), blocks (4), points held (2),
mars (6)."""
INPUTS = 2 * RAW_PER_SIDE + EXPERT
"""Length of one encoded position."""
RACE_INPUT = 2 * RAW_PER_SIDE + 3
"""The index of the race flag (1 in a race): which class's net values a row."""
HEAD = 24
"""The head: the point every checker starts on (RULES.md 3.1)."""

# Per index of a side: pips to go (a checker on point p has p), and pips to reach home (6).
_PIPS_TO_HOME = np.stack(
    [np.arange(26, dtype=np.float32), np.maximum(np.arange(26, dtype=np.float32) - 6.0, 0.0)],
    axis=1,
)
_PIPS_TO_HOME[25] = 0.0  # the bar: always empty in long nardy
_POINT = np.arange(1, 25, dtype=np.int32)  # column c of a side's points is point c + 1


def other_numbering(side: U8) -> U8:
    """A side's points (``(N, 26)``) as the other side numbers them, as ``(N, 24)``: column
    ``c`` is the other side's point ``c + 1``. The map is its own inverse (a half turn)."""
    return np.concatenate([side[:, 13:25], side[:, 1:13]], axis=1)


def encode(mine: U8, theirs: U8) -> F32:
    """Encode a batch: row i is the long nardy position with the mover's side ``mine[i]``
    (just moved) and the opponent's ``theirs[i]``, each ``(N, 26)`` in its owner's
    numbering."""
    out = compiled_encode(1, INPUTS, mine, theirs)
    return reference_encode(mine, theirs) if out is None else out


def reference_encode(mine: U8, theirs: U8) -> F32:
    """:func:`encode` in numpy: the definition the compiled encoding follows."""
    n = mine.shape[0]
    # Both sides stacked, the mover's rows first: each figure below is one numpy call for
    # both (the per-call overhead, not the arithmetic, is the cost at these sizes).
    both = np.concatenate([mine, theirs]).astype(np.uint8, copy=False)
    out = np.empty((n, INPUTS), dtype=np.float32)
    raw = raw_inputs(both)  # backgammon's raw block: 96 point inputs, the (empty) bar, off
    for k in range(2):
        rows = raw[k * n : (k + 1) * n]
        out[:, k * RAW_PER_SIDE : k * RAW_PER_SIDE + POINTS_UNARY] = rows[:, :POINTS_UNARY]
        out[:, k * RAW_PER_SIDE + POINTS_UNARY] = rows[:, -1]
    e = out[:, 2 * RAW_PER_SIDE :]

    points = both[:, 1:25]
    pips, to_home = (both.astype(np.float32) @ _PIPS_TO_HOME).T
    none_off = both[:, OFF] == 0
    rear = np.max(np.where(points > 0, _POINT, 0), axis=1)  # the last checker (0: none)
    other_rear = np.concatenate([rear[n:], rear[:n]])
    # A side's points that stand in the other side's way: in the other's numbering (where it
    # travels from 24 down to 1), below its last checker. One checker holds a point.
    held = (other_numbering(both) > 0) & (other_rear[:, None] > _POINT)
    front = (held & ((other_rear[:, None] - 6) <= _POINT)).sum(axis=1)
    # A mars threat against the other side: how far it is from its first checker off, less
    # the pips this side needs to finish, while the other has borne off none.
    other_none_off = np.concatenate([none_off[n:], none_off[:n]])
    other_to_home = np.concatenate([to_home[n:], to_home[:n]])
    per_side = np.stack(
        [
            pips / 200.0,
            points[:, HEAD - 1] / CHECKERS,
            np.minimum(longest_run(held), 6) / 6.0,
            front / 6.0,
            (points > 0).sum(axis=1) / 12.0,
            none_off,
            to_home / 100.0,
            np.where(other_none_off, (other_to_home - pips) / 50.0, 0.0),
        ],
        axis=1,
    )
    quarters = points.reshape(2 * n, 4, 6).sum(axis=2) / CHECKERS

    e[:, 0:2] = per_side[:, 0].reshape(2, n).T
    e[:, 2] = (pips[n:] - pips[:n]) / 50.0
    e[:, 3] = ~held.reshape(2, n, 24).any(axis=(0, 2))  # the race: nobody in anybody's way
    e[:, 4:6] = per_side[:, 1].reshape(2, n).T
    e[:, 6:14] = np.concatenate([quarters[:n], quarters[n:]], axis=1)
    e[:, 14:26] = per_side[:, 2:].reshape(2, n, 6).transpose(1, 2, 0).reshape(n, 12)
    return out


def encode_sides(pairs: Iterable[tuple[Side, Side]]) -> F32:
    """Encode ``(mine, theirs)`` pairs of bytes, as :meth:`Variant.play_paths` keys them."""
    items = list(pairs)
    return encode(sides_array(m for m, _ in items), sides_array(t for _, t in items))
