"""Rollouts: the cubeless value of a position estimated by playing it out many times.

A rollout plays ``games`` games from one position, the net choosing every play (at 0-ply by
default, as GNU Backgammon's rollouts do), and averages the results: the five cubeless
probabilities of :mod:`nardy.engine.net` (win, win gammon, win backgammon, lose gammon, lose
backgammon) and the cubeless money equity, each with its standard error. A game either runs to
its end or is *truncated* after ``truncate`` plays, where the net's evaluation of the last
position reached stands in for the rest of the game.

The position is either **on roll** (the result is for the side about to roll) or reached
**after a play** (``after_play=True``: the result is for the side that has just moved, the
opponent rolling first), which is how candidate plays are compared.

Two kinds of variance reduction, both unbiased:

* **stratified dice** — the first roll of the games runs through the 36 rolls in blocks, each
  roll once per block of 36 games; within each block of 1296 games every first roll meets each
  of the 36 second rolls once. With 36 games (truncated after one play) the rollout is exactly
  the 1-ply evaluation, with 1296 games after two plays exactly the 2-ply one. Each block's
  order is shuffled by the seed, so a partial block is an unbiased sample too;
* **luck** — before every roll the 0-ply net values the best play of each of the 21 rolls;
  the luck of the roll thrown is its value minus the average over all 36 rolls, which has
  expectation zero. Each game's result minus the luck summed over its rolls (all five
  outputs, from the rollout's side) has the same mean as the result and a much smaller
  variance, because it removes most of what the dice decided (GNU Backgammon's "variance
  reduction"). It costs the 21 rolls' plays at every turn, about eight times a plain game;
  the first two plays, which every game starts alike (from the rollout's position, then
  from one of the 21 its first roll leads to), are worked out once a rollout, not once a
  game (a quarter of a game of ten plays; :class:`KeptPlays`).

The mean probabilities are clipped to what probabilities can be (the luck correction can
push an average a little below 0 or above 1): each within [0, 1], a gammon no likelier than
the win or loss it is part of, a backgammon no likelier than its gammon. The equity is the
plain mean of the games' equities, unclipped and unbiased.

The standard errors are those of independent games (the spread of the games' results over
``√games``; undefined, NaN, for a single game); with stratified dice the true error is a
little smaller, so they are conservative. Every game's dice come from the seed and the
game's number alone: a rollout is the same with any number of processes (``jobs``). The
lookahead treats every roll as an ordinary roll, as :mod:`nardy.engine.evaluator` does:
acey-deucey's 1-2 bonus and long nardy's last roll are not played.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import multiprocessing.pool
import os
import signal
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from nardy.core import CHECKERS, OFF, Position, variant
from nardy.engine.errors import EngineError
from nardy.engine.evaluator import ROLLS, Evaluator, Pair, consistent, evaluator
from nardy.engine.features import F32
from nardy.engine.net import OUTPUTS, equity, flip

ROLL_WEIGHTS = np.array([w for _, _, w in ROLLS], dtype=np.float64)
"""The probability of each of the 21 rolls of :data:`~nardy.engine.evaluator.ROLLS`."""
F64 = npt.NDArray[np.float64]
ProgressCallback = Callable[[int, list[float]], None]
"""How :func:`rollouts` reports: the games finished over all its rollouts, and each rollout's
running mean equity."""
EnoughCallback = Callable[[list[F64]], bool]
"""How :func:`rollouts` asks whether its rollouts have played enough games: each rollout's
games so far, a row of five outputs a game (from its side, before the results' clipping)."""
_ROLL_INDEX = {(a, b): i for i, (a, b, _) in enumerate(ROLLS)}

STRATUM = 36
"""Games per block in which every first roll comes once."""
SECOND_STRATUM = STRATUM * STRATUM
"""Games per block in which every pair of first and second rolls comes once."""
CHUNK = 2
"""Games a worker process plays per task: a task's result is what the progress bar can show,
and a game costs 0.05-1.5 s (truncated or not, with or without the luck correction), so the
bar moves at least every second or so; in one process it moves after every game."""
Z95 = 1.959964
"""The two-sided 95% quantile of the normal distribution."""


def roll_index(d1: int, d2: int) -> int:
    """The row of a roll (either order) in :data:`~nardy.engine.evaluator.ROLLS`."""
    return _ROLL_INDEX[min(d1, d2), max(d1, d2)]


def best_plays(ev: Evaluator, position: Position) -> tuple[list[Pair], F32]:
    """For each of the 21 rolls, the play the net picks at 0-ply in ``position`` (the side on
    roll moving) and the five probabilities it gives that play, for the mover.

    What :meth:`Evaluator.on_roll` averages at 1-ply, kept per roll: the luck of a roll is its
    row's equity minus the average (weighted by :data:`ROLL_WEIGHTS`) of all rows. A roll with
    no legal move leaves the position as it is."""
    return ev.best_plays(position.variant, [(position.mine, position.theirs)])


# -- the result ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class RolloutResult:
    """What a rollout found, for the side it was asked about (on roll, or the mover).

    ``outputs`` are the mean five probabilities and ``errors`` their standard errors;
    ``equity`` is the cubeless money equity with its standard error ``equity_error``, and
    ``equities`` each game's (variance-reduced) equity, in the order of the games, so that
    rollouts with the same dice can be compared game by game (:func:`difference`).
    ``truncate`` is 0 for games played to the end."""

    outputs: F32
    errors: F32
    equity: float
    equity_error: float
    games: int
    truncate: int
    seed: int
    ply: int
    reduced: bool
    equities: F64

    @property
    def confidence95(self) -> float:
        """Half the width of the 95% confidence interval of the equity."""
        return Z95 * self.equity_error


def difference(a: RolloutResult, b: RolloutResult) -> tuple[float, float]:
    """The equity of ``a`` minus ``b`` and its standard error, from the game-by-game
    differences of two rollouts made together by :func:`rollouts` (game ``i`` of each rolls
    the same dice while the games go alike); NaN for a single game.

    Pairing narrows the error only as far as the two rollouts' games are correlated. Without
    the luck correction the shared dice decide much of both results and the paired error is
    well below :func:`unpaired_error`; with it most of what the dice decided is already taken
    out of each game, the games of two plays are little correlated, and the paired error is
    about the unpaired one. It is the right error either way."""
    if len(a.equities) != len(b.equities):
        raise EngineError("rollouts of different lengths cannot be paired")
    diff = a.equities - b.equities
    n = len(diff)
    error = float(diff.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return float(diff.mean()), error


def unpaired_error(a: RolloutResult, b: RolloutResult) -> float:
    """The standard error ``a``'s equity minus ``b``'s would have were their games independent:
    what :func:`difference`'s paired error is to be compared with."""
    return math.hypot(a.equity_error, b.equity_error)


def probabilities(outputs: F64) -> F32:
    """Mean outputs made possible: each within [0, 1], a gammon no likelier than the win (or
    loss) it is part of, a backgammon no likelier than its gammon."""
    row: F32 = consistent(outputs.astype(np.float32)[None, :])[0]
    return row


def processes(jobs: int | None, tasks: int) -> int:
    """The worker processes worth starting for ``tasks`` tasks: ``jobs`` (None: every core),
    but no more than the cores or the tasks, and at least one."""
    cores = os.cpu_count() or 1
    return max(1, min(jobs or cores, cores, tasks))


def rollout_processes(jobs: int | None, positions: int, games: int) -> int:
    """The processes :func:`rollouts` runs for ``positions`` rollouts of ``games`` games each:
    :func:`processes` for its tasks of :data:`CHUNK` games."""
    return processes(jobs, positions * -(-games // CHUNK))


@dataclass(frozen=True, slots=True)
class _Task:
    """A rollout as the workers see it: picklable, without the evaluator."""

    variant: str
    mine: bytes
    theirs: bytes
    flip: bool  # after a play: rolled out from the opponent's side, the result flipped
    games: int
    truncate: int
    seed: int
    ply: int
    reduce: bool


def rollout(
    position: Position,
    *,
    games: int = SECOND_STRATUM,
    truncate: int = 0,
    seed: int = 0,
    ply: int = 0,
    reduce_variance: bool = True,
    after_play: bool = False,
    jobs: int | None = None,
    ev: Evaluator | None = None,
    progress: ProgressCallback | None = None,
) -> RolloutResult:
    """Roll ``position`` out ``games`` times; see :func:`rollouts`."""
    return rollouts(
        [position],
        games=games,
        truncate=truncate,
        seed=seed,
        ply=ply,
        reduce_variance=reduce_variance,
        after_play=after_play,
        jobs=jobs,
        ev=ev,
        progress=progress,
    )[0]


def rollouts(
    positions: Sequence[Position],
    *,
    games: int = SECOND_STRATUM,
    truncate: int = 0,
    seed: int = 0,
    ply: int = 0,
    reduce_variance: bool = True,
    after_play: bool = False,
    jobs: int | None = None,
    ev: Evaluator | None = None,
    progress: ProgressCallback | None = None,
    enough: EnoughCallback | None = None,
    kept: KeptPlays | None = None,
) -> list[RolloutResult]:
    """Roll each position out ``games`` times with the same dice (game ``i`` of every
    rollout rolls the same numbers while the games go alike), so that differences between
    the positions — candidate plays, with ``after_play`` — are measured more precisely.

    ``truncate`` ends each game after that many plays (0: play to the end); ``ply`` is the
    lookahead of the plays inside (0, the default, is the net alone); ``reduce_variance``
    subtracts each roll's luck. ``jobs`` processes share the games (None: every core; never
    more than the cores or the tasks, :func:`processes`). ``ev`` defaults to the variant's
    shipped evaluator. ``progress`` is called as games finish (after each game in one
    process, each :data:`CHUNK` in several) with the games finished so far over all the
    rollouts and each rollout's running mean equity (NaN before its first game).

    ``enough`` stops the rollouts early: it is asked, each time every rollout has finished
    another :data:`STRATUM` games (the games are played in that order, block by block), with
    each rollout's games so far (one row of five outputs a game); where it says so, the
    results are those games'. A block of 36 games rolls each first roll once, so every
    stop is at the end of a block.

    ``kept`` holds plays worked out by earlier rollouts with the same evaluator and keeps
    this one's (:class:`KeptPlays`); without it a rollout keeps its games' first two plays
    for its other games. In a pool each worker keeps its own first two plays."""
    if games < 1:
        raise EngineError(f"a rollout needs at least one game, not {games}")
    if truncate < 0:
        raise EngineError(f"truncate is a number of plays (0: none), not {truncate}")
    if not positions:
        return []
    ev = ev or evaluator(positions[0].variant)
    tasks = []
    for position in positions:
        ev.check(position.variant)
        start = position.swap() if after_play else position
        tasks.append(
            _Task(
                position.variant.key,
                start.mine,
                start.theirs,
                after_play,
                games,
                truncate,
                seed,
                ply,
                reduce_variance,
            )
        )
    # Game by game over the rollouts, so that their first games are finished first: a
    # progress bar moves alike for all of them, and ``enough`` can stop them early.
    work = [
        (t, lo, min(lo + CHUNK, games)) for lo in range(0, games, CHUNK) for t in range(len(tasks))
    ]
    samples = [np.empty((games, OUTPUTS), dtype=np.float64) for _ in tasks]
    done = np.zeros((len(tasks), games), dtype=bool)
    sums = [0.0] * len(tasks)
    counts = [0] * len(tasks)
    asked = 0  # the games ``enough`` was last asked about
    results = _run(ev, tasks, work, jobs, KeptPlays() if kept is None else kept)
    try:
        for t, lo, block in results:
            samples[t][lo : lo + len(block)] = block
            done[t, lo : lo + len(block)] = True
            sums[t] += float(equity(block.astype(np.float32)).sum())
            counts[t] += len(block)
            if progress is not None:
                means = [s / n if n else math.nan for s, n in zip(sums, counts, strict=True)]
                progress(sum(counts), means)
            if enough is not None:
                blocks = _common(done) // STRATUM * STRATUM  # whole blocks only
                if blocks > asked:
                    asked = blocks
                    if enough([s[:blocks] for s in samples]):
                        return [
                            _summary(s[:blocks], task)
                            for s, task in zip(samples, tasks, strict=True)
                        ]
    except KeyboardInterrupt:
        # Stopped (Ctrl-C): the workers are gone with the pool; what is finished stands.
        # The games every rollout finished keep the results paired game by game.
        common = done.all(axis=0)
        partial = None
        if common.any():
            partial = [_summary(s[common], task) for s, task in zip(samples, tasks, strict=True)]
        raise RolloutInterrupted(partial, int(done.sum()), games * len(tasks)) from None
    finally:
        results.close()  # the pool stops with it, also when stopped between two results
    return [_summary(s, task) for s, task in zip(samples, tasks, strict=True)]


def _common(done: npt.NDArray[np.bool_]) -> int:
    """How many of their first games every rollout has finished (``done``: a row a rollout,
    a column a game)."""
    unfinished = np.flatnonzero(~done.all(axis=0))
    return int(unfinished[0]) if len(unfinished) else done.shape[1]


class RolloutInterrupted(KeyboardInterrupt):
    """A rollout stopped by Ctrl-C before its end, with what it had found: ``results``, the
    rollouts over the games each of them finished (the same games for all, so that they
    stay paired; None when no game was finished by all), and the games ``finished`` of the
    ``total`` asked, over all the rollouts."""

    def __init__(self, results: list[RolloutResult] | None, finished: int, total: int) -> None:
        super().__init__(f"rollout interrupted after {finished} of {total} games")
        self.results = results
        self.finished = finished
        self.total = total


def _summary(samples: F64, task: _Task) -> RolloutResult:
    n = len(samples)
    equities = equity(samples.astype(np.float32)).astype(np.float64)  # per game
    if n > 1:
        errors = samples.std(axis=0, ddof=1) / math.sqrt(n)
        equity_error = float(equities.std(ddof=1) / math.sqrt(n))
    else:
        errors = np.full(OUTPUTS, math.nan)
        equity_error = math.nan
    return RolloutResult(
        probabilities(samples.mean(axis=0)),
        errors.astype(np.float32),
        float(equities.mean()),
        equity_error,
        n,
        task.truncate,
        task.seed,
        task.ply,
        task.reduce,
        equities,
    )


_K = TypeVar("_K")
_V = TypeVar("_V")

OPENING_PLAYS = 2
"""The plays at the start of a rollout's games that it keeps for its other games unless
told otherwise (:class:`KeptPlays`)."""


class KeptPlays:
    """The plays rollouts' games have worked out, kept for the games that meet the same
    positions: those of each game's first ``plays`` plays (each with all 21 rolls' best
    plays where the luck is corrected). Every game of a rollout starts from its position,
    and its second play from one of the 21 positions its first roll leads to, so the
    first two plays are most of the same work done again in each game of ten plays (the
    default keeps those, a few dozen entries a rollout). A rollout of the same positions
    and dice with longer games (:func:`nardy.engine.analysis.confirmed`'s second) plays
    its games' first plays as the shorter one did, so keeping all of them halves it.

    Kept by the variant and position (and a choice by its dice and ply too), so for one
    evaluator only; what is kept is what the same call returns, so the games are the same
    with or without it."""

    def __init__(self, plays: int = OPENING_PLAYS) -> None:
        self.plays = plays
        self._best: dict[tuple[str, Pair], tuple[list[Pair], F32]] = {}
        self._chosen: dict[tuple[str, Pair, int, int, int], Pair] = {}

    @property
    def positions(self) -> int:
        """The positions (and rolls, for a play chosen) kept."""
        return len(self._best) + len(self._chosen)

    def best_plays(self, ev: Evaluator, position: Position, play: int) -> tuple[list[Pair], F32]:
        """:func:`best_plays` of ``position``, met at a game's play ``play`` (0: its first)."""
        key = (position.variant.key, (position.mine, position.theirs))
        return self._once(self._best, key, play, lambda: best_plays(ev, position))

    def choose(
        self, ev: Evaluator, position: Position, d1: int, d2: int, ply: int, play: int
    ) -> Pair:
        """The play the net makes with a roll at ``ply``, met at a game's play ``play``.
        Kept by the dice in their order (a tie between two plays goes to the first the
        generator lists, and its order follows the dice's) and by the ply: one keeper may
        serve rollouts at several plies."""
        key = (position.variant.key, (position.mine, position.theirs), d1, d2, ply)
        return self._once(self._chosen, key, play, lambda: _choose(ev, position, d1, d2, ply))

    def _once(self, kept: dict[_K, _V], key: _K, play: int, work: Callable[[], _V]) -> _V:
        """``work()``, kept under ``key`` where ``play`` is one of the plays kept."""
        if play >= self.plays:
            return work()
        if key not in kept:
            kept[key] = work()
        return kept[key]


# -- the workers ---------------------------------------------------------------------------------

_Unit = tuple[int, int, int]  # task, first game, end


def _run(
    ev: Evaluator, tasks: list[_Task], units: list[_Unit], jobs: int | None, kept: KeptPlays
) -> Generator[tuple[int, int, F64]]:
    """The results of every unit, in any order: game by game in this process (``kept``
    keeping its plays), or unit by unit in a pool of :func:`processes`."""
    jobs = processes(jobs, len(units))
    if jobs <= 1:
        for t, lo, hi in units:
            for i in range(lo, hi):
                yield t, i, _play_games(ev, tasks[t], i, i + 1, kept)
        return
    with worker_pool(jobs, _start_worker, (ev, tasks)) as pool:
        yield from pool.imap_unordered(_work, units)


_THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@contextlib.contextmanager
def worker_pool(
    jobs: int, initializer: Callable[..., None], initargs: tuple[Any, ...]
) -> Iterator[multiprocessing.pool.Pool]:
    """A pool of ``jobs`` fresh worker processes, each set up by ``initializer(*initargs)``
    (how the evaluator reaches them). They are spawned rather than forked, with one BLAS
    thread each: the matrix products here are small, and several threads per process would
    only fight over the cores."""
    saved = {name: os.environ.get(name) for name in _THREAD_VARIABLES}
    os.environ.update(dict.fromkeys(_THREAD_VARIABLES, "1"))
    try:
        context = multiprocessing.get_context("spawn")
        pool = context.Pool(jobs, initializer=_ignore_interrupts, initargs=(initializer, initargs))
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    with pool:
        yield pool


def _ignore_interrupts(initializer: Callable[..., None], initargs: tuple[Any, ...]) -> None:
    """A worker's start: Ctrl-C reaches every process of the terminal's group, but only the
    parent is to handle it (it stops the pool), so a worker ignores it rather than print a
    traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    initializer(*initargs)


_worker: tuple[Evaluator, list[_Task], KeptPlays] | None = None


def _start_worker(ev: Evaluator, tasks: list[_Task]) -> None:
    global _worker
    _worker = (ev, tasks, KeptPlays())


def _work(unit: _Unit) -> tuple[int, int, F64]:
    assert _worker is not None, "the pool's initializer sets the worker up"
    ev, tasks, kept = _worker
    t, lo, hi = unit
    return t, lo, _play_games(ev, tasks[t], lo, hi, kept)


def _play_games(ev: Evaluator, task: _Task, lo: int, hi: int, kept: KeptPlays) -> F64:
    """Games ``lo`` to ``hi - 1`` of a rollout: one row of five outputs each."""
    start = Position(variant(task.variant), task.mine, task.theirs)
    rows = np.empty((hi - lo, OUTPUTS), dtype=np.float64)
    for i in range(lo, hi):
        row = _play_game(ev, start, _dice(task.seed, i), task, kept)[None, :]
        rows[i - lo] = flip(row)[0] if task.flip else row[0]
    return rows


def _dice(seed: int, game: int) -> Iterator[tuple[int, int]]:
    """The rolls of game ``game``: the first two stratified, the rest at random."""
    block, j = divmod(game, SECOND_STRATUM)
    stratum, k = divmod(j, STRATUM)
    # Shuffled by the seed: the first rolls of each stratum of 36 games are a permutation of
    # the 36 rolls, and the second rolls of the games sharing a first roll within a block
    # are one too (one game per stratum each).
    first = int(np.random.default_rng([seed, 1, block, stratum]).permutation(STRATUM)[k])
    second = int(np.random.default_rng([seed, 2, block, first]).permutation(STRATUM)[stratum])
    yield first // 6 + 1, first % 6 + 1
    yield second // 6 + 1, second % 6 + 1
    rng = np.random.default_rng([seed, 0, game])
    while True:
        yield from ((a, b) for a, b in rng.integers(1, 7, size=(32, 2)).tolist())


def _play_game(
    ev: Evaluator,
    start: Position,
    dice: Iterator[tuple[int, int]],
    task: _Task,
    kept: KeptPlays,
) -> F32:
    """One game from ``start`` (its side on roll first): the result for that side, or the
    net's value where the game is truncated, minus the luck of its rolls when reducing."""
    v = start.variant
    if start.outcome() is not None:
        return ev.on_roll(start)  # exact
    position = start
    luck = np.zeros((1, OUTPUTS), dtype=np.float32)  # for the first roller
    first = True  # the first roller is on roll
    plays = 0
    while True:
        d1, d2 = next(dice)
        if task.reduce:
            chosen, rows = kept.best_plays(ev, position, plays)
            r = roll_index(d1, d2)
            swing = rows[r : r + 1] - (ROLL_WEIGHTS @ rows)[None, :].astype(np.float32)
            # Seen from the other side a swing in wins changes sign and the gammon columns
            # trade places: flip(a) - flip(b) is that, the constant 1 of flip cancelling.
            luck += swing if first else flip(swing) - flip(np.zeros_like(swing))
            reached, value = chosen[r], rows[r : r + 1]
        if not task.reduce or task.ply > 0:
            reached = kept.choose(ev, position, d1, d2, task.ply, plays)
            value = ev.after(v, [reached], 0)
        plays += 1
        mine, theirs = reached
        if mine[OFF] == CHECKERS or plays == task.truncate:
            result: F32 = ((value if first else flip(value)) - luck)[0]
            return result
        position = Position(v, theirs, mine)
        first = not first


def _choose(ev: Evaluator, position: Position, d1: int, d2: int, ply: int) -> Pair:
    """The play the net makes with a roll at ``ply``."""
    if ply > 0:  # the move filter: a rollout makes thousands of plays
        return ev.rank(position, d1, d2, ply, same_depth=False)[0].after
    v = position.variant
    pairs = list(v.play_paths(position.mine, position.theirs, d1, d2))
    if not pairs:
        return position.mine, position.theirs
    if len(pairs) == 1:
        return pairs[0]
    return pairs[int(np.argmax(equity(ev.after(v, pairs, 0))))]
