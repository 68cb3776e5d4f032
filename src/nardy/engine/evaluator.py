"""Cubeless evaluation of positions by a variant family's net, with 0-, 1- and 2-ply lookahead.

An :class:`Evaluator` owns one net and the encoding it was trained on. It answers two kinds of
question, both batched:

* **after a play** (:meth:`Evaluator.after`): the value of positions reached by plays, from the
  side that has just moved, with the opponent to roll. At 0-ply this is the net itself; at
  ``n``-ply it is the average over the opponent's 21 rolls of the value of the opponent's best
  reply (the reply is chosen by the net at 0-ply, as GNU Backgammon does, and then valued at
  ``n - 1`` ply);
* **on roll** (:meth:`Evaluator.on_roll`): the value of a position for the side about to roll,
  the average over its 21 rolls of its best play.

Values are the five cubeless probabilities of :mod:`nardy.engine.net` (win, win gammon, win
backgammon, lose gammon, lose backgammon), always for the side named; a finished game is
valued exactly, and so (in backgammon's geometry) are endgame bear-offs and the races whose
one-sided distributions of rolls are in reach (:mod:`nardy.engine.race`), the same at every
ply. Whatever the net says, an outcome the position rules out is 0 (:func:`possible`): a
gammon once the loser has borne off, a backgammon in a race once nothing of the loser is
left in the winner's home board. In long nardy "gammon" means mars and the backgammon
outputs are always 0.

:meth:`Evaluator.rank` lists the plays of a roll best first, every one valued at the ply asked
(a decision's candidates compared at one depth), or, for a rollout's own plays, with GNU
Backgammon's move filter in spirit: every play valued at 0-ply, the best :data:`PRUNE` of
them (and only those within :data:`PRUNE_MARGIN` of the best) at 1-ply, and the best few of
those at 2-ply. A play is valued by what follows it (:meth:`Evaluator.played`,
:meth:`Variant.after_play`): usually the opponent's roll, but after acey-deucey's 1-2 played in
full the mover names a double (the best of the six, :meth:`Evaluator.named_double`), and after
a named double played in full rolls again. Inside the lookahead every roll is an ordinary
roll: the opponent's or our own 1-2 bonus two rolls ahead, and long nardy's last roll, are
not looked ahead for.

:func:`evaluator` gives the shipped evaluator of a variant (loaded once per process).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence, Sized
from dataclasses import dataclass
from importlib import resources
from types import ModuleType
from typing import Literal

import numpy as np
import numpy.typing as npt

from nardy.core import BAR, CHECKERS, OFF, Position, Variant
from nardy.core.position import Side
from nardy.core.scoring import LEVELS
from nardy.engine import bearoff, race
from nardy.engine.errors import EngineError, NoNetError
from nardy.engine.features import F32, sides_array
from nardy.engine.net import OUTPUTS, Net, equity, flip

ROLLS = bearoff.ROLLS
"""The 21 distinct rolls with their probabilities."""

PRUNE = {1: 8, 2: 3}
"""How many plays, at most, are looked at with ``n``-ply after the shallower pass."""
PRUNE_MARGIN = {1: 0.16, 2: 0.08}
"""Only plays within this much equity of the best of the shallower pass go deeper."""
MAX_PLY = 2

Pair = tuple[Side, Side]
"""A position as ``(mine, theirs)``, each side in its owner's numbering."""
Encoder = Callable[[np.ndarray, np.ndarray], F32]
Then = Literal["name", "roll"] | None
"""What follows a play (:meth:`Variant.after_play`): the mover names a double, rolls again, or
(None) the turn passes."""
NAMED_DEEPER = 3
"""How many of the six doubles, the best at 0-ply, are valued deeper when a double is named."""


def follows(v: Variant, paths: Mapping[Pair, Sized], d1: int, d2: int, chosen: bool) -> Then:
    """What follows the plays ``paths`` of a roll (:meth:`Variant.after_play`; every play of
    a roll has as many single moves as the others)."""
    moves = len(next(iter(paths.values()))) if paths else 0
    return v.after_play(d1, d2, moves, chosen)


def terminal_outputs(v: Variant, mine: Side, theirs: Side) -> F32:
    """The exact outputs of a position where the mover has borne off every checker."""
    level = LEVELS[v.result_kind(theirs, mine)]
    out = np.zeros(OUTPUTS, dtype=np.float32)
    out[0] = 1.0
    out[1] = level >= 2  # a gammon, mars or backgammon
    out[2] = level == 3
    return out


def consistent(outputs: F32) -> F32:
    """Outputs made possible, in place: each within [0, 1], a gammon no likelier than the win
    or loss it is part of, a backgammon no likelier than its gammon."""
    o = outputs
    np.clip(o, 0.0, 1.0, out=o)
    np.minimum(o[:, 1], o[:, 0], out=o[:, 1])
    np.minimum(o[:, 2], o[:, 1], out=o[:, 2])
    np.minimum(o[:, 3], 1.0 - o[:, 0], out=o[:, 3])
    np.minimum(o[:, 4], o[:, 3], out=o[:, 4])
    return o


def _back(side: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """The point of each side's rearmost checker in its own numbering (25: the bar, or an
    acey-deucey checker still to enter; 0: everything off)."""
    occupied = side[:, 1:] > 0  # points 1-24 and the bar
    last = np.where(
        occupied.any(axis=1), occupied.shape[1] - np.argmax(occupied[:, ::-1], axis=1), 0
    )
    waiting = side.sum(axis=1, dtype=np.int64) < CHECKERS
    return np.where(waiting, BAR, last).astype(np.int64)


def no_contact(mine: npt.NDArray[np.uint8], theirs: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Which rows of two ``(N, 26)`` arrays of sides (each in its own numbering, backgammon's
    geometry) are races: every checker of each side past every checker of the other
    (:meth:`Position.is_race`), so that no checker can be hit again."""
    return _back(mine) + _back(theirs) < BAR


def possible(
    v: Variant, mine: npt.NDArray[np.uint8], theirs: npt.NDArray[np.uint8], outputs: F32
) -> F32:
    """Outputs of positions just played by ``mine`` (``theirs`` to roll) with what the position
    rules out set to 0, in place, then :func:`consistent`. A side that has borne off a checker
    can lose no gammon (no mars in long nardy) nor backgammon; where the variant has no
    backgammons (long nardy: RULES.md 3.4 scores only oin and mars) none is possible; in a
    race (:func:`no_contact`) a side with no checker in the other's home board (its points
    19-24) loses no backgammon, since nothing of it can go back. The one place where a
    net's outputs become the evaluator's probabilities."""
    o = consistent(outputs)
    o[theirs[:, OFF] > 0, 1:3] = 0.0
    o[mine[:, OFF] > 0, 3:5] = 0.0
    if not v.has_backgammons:
        o[:, [2, 4]] = 0.0
    else:
        back_mine, back_theirs = _back(mine), _back(theirs)  # no_contact's, worked out once
        raced = back_mine + back_theirs < BAR
        o[raced & (back_theirs <= race.OPPONENT_HOME), 2] = 0.0
        o[raced & (back_mine <= race.OPPONENT_HOME), 4] = 0.0
    return o


Measure = Callable[[F32], npt.NDArray[np.floating]]
"""What plays are worth to the mover, one value per row of five probabilities: cubeless
money equity by default (:func:`~nardy.engine.net.equity`), or the stakes of the game
(:meth:`nardy.engine.stakes.Stakes.equities`: match winning chances at the score, as EMG).
The ranking and its move filter use the same measure, so what the filter keeps is what the
ranking would choose."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One play of a roll as the evaluator ranks it: the position it reaches (from the
    mover's side), its cubeless probabilities for the mover, the ply they come from, and
    its value by the ranking's :data:`Measure`."""

    after: Pair
    outputs: F32
    ply: int
    value: float

    @property
    def equity(self) -> float:
        """Cubeless money equity for the mover."""
        return float(equity(self.outputs[None, :])[0])


class Evaluator:
    """A net and its encoding: cubeless values of one family of variants at any ply."""

    def __init__(
        self,
        net: Net,
        encode: Encoder,
        variants: Iterable[str],
        *,
        bearoff: bool = False,
        race_net: Net | None = None,
        race_input: int | None = None,
    ) -> None:
        if race_net is not None and race_input is None:
            raise EngineError("a race net needs the index of the encoding's race flag")
        self.net = net
        self.encode = encode
        self.variants = frozenset(variants)
        # Bear-offs valued exactly by the one-sided database (backgammon's geometry), not
        # by a net: nardy.engine.bearoff.exact_bearoffs.
        self.bearoff = bearoff
        # Races (the encoding's race flag set) valued by a net of their own, if there is one.
        self.race_net = race_net
        self.race_input = race_input

    def forward(self, x: F32) -> F32:
        """The nets' outputs for encoded positions: the race net's for races where there is
        one, the main net's for the rest."""
        if self.race_net is None or self.race_input is None:
            return self.net.forward(x)
        race = x[:, self.race_input] == 1.0
        races = int(np.count_nonzero(race))
        # The fewer rows are copied out and valued again by their own net; the rest go
        # through the other net in place: copying the larger part costs more than valuing
        # the smaller one twice.
        if races == 0:
            return self.net.forward(x)
        if races == len(x):
            return self.race_net.forward(x)
        if 2 * races <= len(x):
            out = self.net.forward(x)
            out[race] = self.race_net.forward(x[race])
        else:
            out = self.race_net.forward(x)
            out[~race] = self.net.forward(x[~race])
        return out

    def check(self, v: Variant) -> None:
        """Refuse a variant this net was not trained for."""
        if v.key not in self.variants:
            raise EngineError(
                f"this evaluator plays {', '.join(sorted(self.variants))}, not {v.key}"
            )

    # -- after a play ------------------------------------------------------------------------

    def after(self, v: Variant, pairs: Sequence[Pair], ply: int = 0, *, races: bool = True) -> F32:
        """Outputs ``(N, 5)`` of positions just reached by plays, for the side that moved.

        Some positions are valued without the net and without looking ahead, the same at
        every ply: a finished game exactly; in backgammon's geometry (:attr:`bearoff`) an
        endgame bear-off by the exact database, and (``races``) a race whose distributions
        of rolls are in reach by :func:`nardy.engine.race.outputs` (where they settle only
        the win, as in a race that is over, the rest is the net's or the lookahead's). The
        lookahead asks for
        races only of the positions it was asked about, not of those it looks at on the way:
        each of those would need distributions of its own, a hundred times the cost of the
        net. Whatever the ply, the outputs are :func:`possible` for their positions."""
        if not pairs:
            return np.zeros((0, OUTPUTS), dtype=np.float32)
        mine = sides_array(m for m, _ in pairs)
        theirs = sides_array(t for _, t in pairs)
        out, known, settled = self._without_net(v, pairs, mine, theirs, races)
        live = np.flatnonzero(~known)
        if len(live) and ply <= 0:
            out[live] = self.forward(self.encode(mine[live], theirs[live]))
        elif len(live):
            opp = [(pairs[i][1], pairs[i][0]) for i in live.tolist()]
            out[live] = flip(self.on_roll_pairs(v, opp, ply))
        for i, chances in settled.items():  # what the race settles, over what the net says
            out[i] = np.where(np.isnan(chances), out[i], chances)
        return possible(v, mine, theirs, out)

    def _without_net(
        self,
        v: Variant,
        pairs: Sequence[Pair],
        mine: npt.NDArray[np.uint8],
        theirs: npt.NDArray[np.uint8],
        races: bool,
    ) -> tuple[F32, npt.NDArray[np.bool_], dict[int, F32]]:
        """What :meth:`after` values without the net: the outputs (those rows only), which
        rows they settle in whole, and the races they settle in part (NaN: the net's)."""
        out = np.empty((len(pairs), OUTPUTS), dtype=np.float32)
        known = mine[:, OFF] == CHECKERS
        settled: dict[int, F32] = {}  # races, in whole or in part
        for i in np.flatnonzero(known).tolist():
            out[i] = terminal_outputs(v, *pairs[i])
        if self.bearoff:
            exact = bearoff.exact_bearoffs(mine, theirs) & ~known
            for i in np.flatnonzero(exact).tolist():
                # The opponent rolls next; no gammon is possible (both have borne off).
                wins = 1.0 - bearoff.on_roll_wins(pairs[i][1], pairs[i][0])
                out[i] = (wins, 0.0, 0.0, 0.0, 0.0)
            known |= exact
            raced = no_contact(mine, theirs) & ~known if races else np.zeros_like(known)
            for i in np.flatnonzero(raced).tolist():
                chances = race.outputs(*pairs[i])
                if chances is not None:
                    settled[i] = chances
        known[[i for i, c in settled.items() if not np.isnan(c).any()]] = True  # in whole
        return out, known, settled

    def exact(self, v: Variant, pairs: Sequence[Pair]) -> list[bool]:
        """Whether :meth:`after` values each position just reached by a play without the net
        (a game over, an endgame bear-off, a race its distributions of rolls settle in
        whole), the same at every ply."""
        if not pairs:
            return []
        mine = sides_array(m for m, _ in pairs)
        theirs = sides_array(t for _, t in pairs)
        known: list[bool] = self._without_net(v, pairs, mine, theirs, True)[1].tolist()
        return known

    def played(
        self,
        v: Variant,
        pairs: Sequence[Pair],
        ply: int = 0,
        then: Then = None,
        measure: Measure | None = None,
    ) -> F32:
        """Outputs ``(N, 5)`` of positions just reached by plays, for the side that moved,
        by what follows the plays (``then``, :meth:`Variant.after_play`): the opponent's roll
        (None: :meth:`after`); the mover's roll again (``"roll"``, after an acey-deucey
        double named and played in full); or the double the mover names first (``"name"``,
        after a 1-2 played in full: the best of the six by ``measure``,
        :meth:`named_double`). A finished game is valued exactly whatever would follow."""
        if then is None or not pairs:
            return self.after(v, pairs, ply)
        out = np.empty((len(pairs), OUTPUTS), dtype=np.float32)
        done = [i for i, (mine, _) in enumerate(pairs) if mine[OFF] == CHECKERS]
        live = [i for i, (mine, _) in enumerate(pairs) if mine[OFF] != CHECKERS]
        for i in done:
            out[i] = terminal_outputs(v, *pairs[i])
        if live and then == "roll":
            # The mover on roll: the position seen as the opponent's just-played one, flipped.
            out[live] = flip(self.after(v, [(pairs[i][1], pairs[i][0]) for i in live], ply))
        elif live:
            for i in live:
                out[i] = self.named_double(v, pairs[i], ply, measure)[1]
        return out

    def named_double(
        self, v: Variant, pair: Pair, ply: int = 0, measure: Measure | None = None
    ) -> tuple[int, F32]:
        """Acey-deucey (RULES.md 2): the double for the mover to name in ``pair`` (a 1-2 just
        played in full) and the outputs it is worth: for each of the six, its best play,
        valued by what follows (another roll when the double is played in full). Every play
        is valued at 0-ply; the :data:`NAMED_DEEPER` best doubles' best plays at ``ply``."""
        measure = measure or equity
        mine, theirs = pair
        options: list[tuple[int, list[Pair], Then]] = []
        for die in range(1, 7):
            paths = v.play_paths(mine, theirs, die, die)
            # Nothing of it can be played: the turn passes.
            options.append((die, list(paths) or [pair], follows(v, paths, die, die, True)))
        best: list[tuple[float, int, Pair, Then, F32]] = []
        for die, plays, then in options:
            outs = self.played(v, plays, 0, then)
            values = measure(outs)
            i = int(np.argmax(values))
            best.append((float(values[i]), die, plays[i], then, outs[i]))
        best.sort(key=lambda b: -b[0])
        if ply > 0:
            deeper = []
            for _, die, play, then, _ in best[:NAMED_DEEPER]:
                outs = self.played(v, [play], ply, then)
                deeper.append((float(measure(outs)[0]), die, play, then, outs[0]))
            best = sorted(deeper, key=lambda b: -b[0])
        return best[0][1], best[0][4]

    # -- on roll -----------------------------------------------------------------------------

    def best_plays(self, v: Variant, pairs: Sequence[Pair]) -> tuple[list[Pair], F32]:
        """For each position (the side on roll to move) and each of its 21 rolls, position
        by position in :data:`ROLLS` order: the play the net picks at 0-ply and its outputs
        for the mover. A roll with no legal move leaves the position as it is."""
        groups: list[list[Pair]] = []
        for mine, theirs in pairs:
            for d1, d2, _ in ROLLS:
                paths = v.play_paths(mine, theirs, d1, d2)
                groups.append(list(paths) if paths else [(mine, theirs)])
        flat = [p for group in groups for p in group]
        outputs = self.after(v, flat, 0, races=False)
        values = equity(outputs)
        # Each roll's first play of the highest value (argmax's choice), for all the rolls
        # at once: a roll's plays lie together in ``flat``, and each roll holds its maximum.
        sizes = np.fromiter(map(len, groups), dtype=np.intp, count=len(groups))
        starts = np.cumsum(sizes) - sizes
        tops = np.flatnonzero(values == np.repeat(np.maximum.reduceat(values, starts), sizes))
        best = tops[np.searchsorted(tops, starts)]
        rows: F32 = outputs[best]
        return [flat[i] for i in best.tolist()], rows

    def on_roll_pairs(self, v: Variant, pairs: Sequence[Pair], ply: int) -> F32:
        """Outputs ``(N, 5)`` for the side on roll in each position, looking ``ply`` rolls
        ahead (at least one: a position before the roll has no static value of its own)."""
        chosen, outs = self.best_plays(v, pairs)
        if ply > 1:
            outs = self.after(v, chosen, ply - 1, races=False)
        weights = np.array([w for _, _, w in ROLLS], dtype=np.float32)
        per = outs.reshape(len(pairs), len(ROLLS), OUTPUTS)
        result: F32 = np.einsum("nro,r->no", per, weights).astype(np.float32)
        return result

    def on_roll(self, position: Position, ply: int = 1) -> F32:
        """The five probabilities for the side on roll in ``position`` (before its roll)."""
        self.check(position.variant)
        outcome = position.outcome()
        if outcome is not None:
            mover = (
                (position.mine, position.theirs)
                if outcome.winner_is_me
                else (position.theirs, position.mine)
            )
            exact = terminal_outputs(position.variant, *mover)[None, :]
            values = exact if outcome.winner_is_me else flip(exact)
        else:
            # As the opponent's just-played position, flipped: races and exact bear-offs
            # valued as the analysis values them (:meth:`after`), at one roll ahead at least.
            theirs = [(position.theirs, position.mine)]
            values = flip(self.after(position.variant, theirs, max(ply, 1)))
        row: F32 = values[0]
        return row

    # -- choosing plays ----------------------------------------------------------------------

    def rank(
        self,
        position: Position,
        d1: int,
        d2: int,
        ply: int = 0,
        measure: Measure | None = None,
        chosen: bool = False,
        *,
        same_depth: bool = True,
    ) -> list[Candidate]:
        """Every play of the roll, best first by ``measure`` (cubeless money equity by
        default). Plays reaching the same position are one candidate, valued by what follows
        them (:meth:`played`; ``chosen``: the dice are acey-deucey's double named after a
        1-2).

        With ``same_depth`` (the default: the bots, hints and analysis) every candidate is
        valued at ``ply``, so that plays are compared at one depth: a play the move filter
        would have left at 0-ply is not found a blunder for a difference of the net's with
        itself two rolls on. Without it (a rollout's own plays, where cost matters most)
        the move filter: every play at 0-ply, the best :data:`PRUNE` of them within
        :data:`PRUNE_MARGIN` at 1-ply and so on, each candidate at the deepest ply it
        reached (ties: the shallower value), by the same measure."""
        self.check(position.variant)
        if not 0 <= ply <= MAX_PLY:
            raise EngineError(f"the ply is 0-{MAX_PLY}, not {ply}")
        measure = measure or equity
        v = position.variant
        paths = v.play_paths(position.mine, position.theirs, d1, d2)
        then = follows(v, paths, d1, d2, chosen)
        pairs: list[Pair] = list(paths) or [(position.mine, position.theirs)]
        depth = ply if same_depth and len(pairs) > 1 else 0
        outs = self.played(v, pairs, depth, then, measure)
        cands = [
            Candidate(p, o, depth, float(x))
            for p, o, x in zip(pairs, outs, measure(outs), strict=True)
        ]
        for depth in range(1, ply + 1 if len(cands) > 1 and not same_depth else 1):
            cands.sort(key=lambda c: (-c.ply, -c.value))
            best = cands[0].value
            deeper = [
                i
                for i, c in enumerate(cands[: PRUNE[depth]])
                if best - c.value <= PRUNE_MARGIN[depth]
            ]
            outs = self.played(v, [cands[i].after for i in deeper], depth, then, measure)
            for i, o, x in zip(deeper, outs, measure(outs), strict=True):
                cands[i] = Candidate(cands[i].after, o, depth, float(x))
        cands.sort(key=lambda c: (-c.ply, -c.value))
        return cands


# -- the shipped evaluators --------------------------------------------------------------------

BACKGAMMON_FAMILY = ("backgammon", "nackgammon", "nackgammon-ballard")
"""The variants the backgammon net plays."""
ACEY_DEUCEY_FAMILY = ("acey-deucey",)
"""Acey-deucey shares backgammon's geometry and encoding (checkers still waiting count as on
the bar) but not its positions: its checkers start off the board, far from anything the
backgammon net was trained on, so it has a net of its own. Its 1-2 rolls, which go on with a
double and another roll, also make the one-sided bear-off database's values wrong for it."""
LONG_FAMILY = ("long",)


def family(v: Variant | str) -> tuple[tuple[str, ...], Encoder, str]:
    """The family of a variant (or its key): its variants, their encoding and the file name
    of the shipped weights in ``nardy.engine.weights``."""
    key = v if isinstance(v, str) else v.key
    if key in BACKGAMMON_FAMILY:
        from nardy.engine.features import encode

        return BACKGAMMON_FAMILY, encode, "backgammon.npz"
    if key in ACEY_DEUCEY_FAMILY:
        from nardy.engine.features import encode

        return ACEY_DEUCEY_FAMILY, encode, "acey-deucey.npz"
    if key in LONG_FAMILY:
        from nardy.engine.features_long import encode as encode_long

        return LONG_FAMILY, encode_long, "long.npz"
    raise NoNetError(f"no trained net for {key} yet")


def has_net(v: Variant | str) -> bool:
    """Whether the variant has a family and its shipped weights are installed."""
    try:
        _, _, weights = family(v)
    except ValueError:
        return False
    return _installed(weights)


@functools.cache
def _installed(weights: str) -> bool:
    return (resources.files("nardy.engine.weights") / weights).is_file()


def _features(variants: tuple[str, ...]) -> ModuleType:
    """The encoding module of a family: its inputs and the index of its race flag."""
    if variants == LONG_FAMILY:
        from nardy.engine import features_long

        return features_long
    from nardy.engine import features

    return features


def race_input(v: Variant | str) -> int:
    """The index of the race flag in the encoding of ``v``'s family."""
    index: int = _features(family(v)[0]).RACE_INPUT
    return index


def race_weights(weights: str) -> str:
    """The file name of the race net shipped beside the family's net ``weights``."""
    return weights.replace(".npz", "-race.npz")


def for_net(net: Net, v: Variant | str, race_net: Net | None = None) -> Evaluator:
    """An evaluator for ``v``'s family with the given net (and its own net for races). A net
    reads the first of the encoding's inputs (an older net, fewer: :meth:`Net.columns`); one
    that takes more than the family's encoding has was made for another family, and is
    refused here, not at its first position."""
    variants, encode, _ = family(v)
    inputs: int = _features(variants).INPUTS
    for name, given in (("net", net), ("race net", race_net)):
        if given is not None and given.inputs > inputs:
            raise EngineError(
                f"the {name} takes {given.inputs} inputs, but {variants[0]}'s encoding has "
                f"{inputs}: it was made for another variant"
            )
    return Evaluator(
        net,
        encode,
        variants,
        bearoff=variants == BACKGAMMON_FAMILY,
        race_net=race_net,
        race_input=race_input(v),
    )


@functools.cache
def _shipped(weights: str) -> Net:
    with resources.as_file(resources.files("nardy.engine.weights") / weights) as path:
        return Net.load(path)


def evaluator(v: Variant | str) -> Evaluator:
    """The shipped evaluator for a variant (or its key); the net is loaded once per process."""
    variants, _, weights = family(v)
    if not has_net(v):
        raise NoNetError(f"no trained net for {variants[0]} yet: {weights} is not installed")
    race = race_weights(weights)
    return for_net(_shipped(weights), v, _shipped(race) if _installed(race) else None)
