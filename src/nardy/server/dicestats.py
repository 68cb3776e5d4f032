"""The public page of the dice the server has dealt (issue 10 point 5, docs/dice.md "The
dice dealt"): how often each face and each of the 21 rolls came up over every game, the
share of doubles, and χ² tests against fair dice.

Kept cheap however many games there are: each game's counts are tallied once per change
(``dice_tallies``, a row of 21 counters per game, written with the game's action count), so
a refresh derives only the rolls dealt since the last one, in the games that have moved, and
then sums 21 columns in the database; and the figures are cached for :data:`FRESH_FOR` seconds, so a
crowd of visitors costs one refresh per interval, per process."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from nardy.core.fair_dice import ROLLS, FairDiceError, statistics_from_counts
from nardy.server import gamedice
from nardy.server.store.store import Store

FRESH_FOR = 10.0
"""Seconds the figures are shown before they are counted again, unless the server's
configuration says otherwise (``NARDY_DICE_STATS_SECONDS``)."""
BATCH = 500
"""Games tallied per database read and transaction while catching up."""

log = logging.getLogger(__name__)


def tally(rolls: list[tuple[int, int]]) -> list[int]:
    """How often each roll of ``ROLLS`` (either order) is among ``rolls``."""
    index = {roll: i for i, roll in enumerate(ROLLS)}
    counts = [0] * len(ROLLS)
    for d1, d2 in rolls:
        counts[index[(max(d1, d2), min(d1, d2))]] += 1
    return counts


def _counted(game_id: str, dice: dict[str, Any], before: list[int] | None) -> list[int]:
    """The game's tally: the one before (if any) and the rolls dealt since. Stored dice that
    are not a valid state count nothing (such a game cannot be restored either: counting it
    would show rolls nobody can verify)."""
    before = before or [0] * len(ROLLS)
    try:
        new = tally(gamedice.rolls_dealt(dice, skip=sum(before)))
    except (FairDiceError, KeyError, TypeError) as exc:
        log.warning("the stored dice of game %s are not counted: %s", game_id, exc)
        return before
    return [a + b for a, b in zip(before, new, strict=True)]


def catch_up(store: Store) -> int:
    """Tally every game that has dealt dice since its last tally, each at most once, a batch
    per transaction, deriving only the rolls dealt since; how many games were tallied."""
    done = 0
    after = ""
    while batch := store.untallied_dice(after, BATCH):
        store.tally_dice([(g, seq, _counted(g, dice, before)) for g, seq, dice, before in batch])
        done += len(batch)
        after = batch[-1][0]
    return done


def figures(per_roll: list[int]) -> dict[str, Any]:
    """The page's figures from the 21 counts: the core's statistics (counts per face and per
    roll, the χ² tests) with the doubles and what fair dice would give."""
    stats = statistics_from_counts(dict(zip(ROLLS, per_roll, strict=True)))
    doubles = sum(n for (high, low), n in zip(ROLLS, per_roll, strict=True) if high == low)
    return {
        **stats.to_json(),
        "doubles": doubles,
        "doubles-share": doubles / stats.rolls if stats.rolls else None,
        # each face 1/6 of the dice; each double 1/36 of the rolls, any other roll 2/36
        "expected": {"face": 1 / 6, "double": 1 / 36, "non-double": 2 / 36, "doubles": 1 / 6},
    }


class DiceStats:
    """The figures of the public dice page, cached for ``fresh_for`` seconds. Blocking (the
    database): call it off the event loop."""

    def __init__(
        self,
        store: Store,
        fresh_for: float = FRESH_FOR,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.fresh_for = fresh_for
        self.clock = clock
        self._lock = threading.Lock()
        self._figures: dict[str, Any] | None = None
        self._at = 0.0

    def current(self) -> dict[str, Any]:
        """The figures, counted again when the cached ones are older than ``fresh_for``."""
        with self._lock:  # one refresh at a time: the others wait and take its result
            if self._figures is None or self.clock() - self._at >= self.fresh_for:
                catch_up(self.store)
                self._figures = figures(self.store.dice_totals())
                self._at = self.clock()
            return self._figures
