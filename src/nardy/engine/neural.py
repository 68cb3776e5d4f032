"""The neural bot: checker play by a self-trained net at 0-ply.

:class:`NeuralBot` encodes the position every legal play reaches (from the mover's side,
:mod:`nardy.engine.features`), evaluates them all in one batch with the net
(:mod:`nardy.engine.net`) and plays the one with the highest cubeless money equity. A play
that bears off the last checker is scored exactly (1, 2 or 3 points) instead of by the net.

It plays backgammon, and nackgammon and acey-deucey positions through the same net (it was
trained on backgammon only; their geometry and encoding are the same). Long nardy is not
supported. Acey-deucey's named double is the one whose best play the net values highest.
Cube and resignation decisions are :class:`~nardy.engine.bots.HeuristicBot`'s for now (the
Keith count in a race, a lead rule in contact): the net has no cube model yet.

The shipped weights are ``nardy/engine/weights/backgammon.npz`` (trained by ``train/td.py``,
see docs/engine.md).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import numpy as np

from nardy.core import CHECKERS, OFF, Play, Position, ResultKind, Variant
from nardy.core.game import Game
from nardy.core.position import Side
from nardy.engine.bots import HeuristicBot
from nardy.engine.features import F32, encode_sides
from nardy.engine.net import OUTPUTS, Net, equity

WEIGHTS = "backgammon.npz"
"""The shipped net's file name in the ``nardy.engine.weights`` package."""
VARIANTS = frozenset({"backgammon", "nackgammon", "acey-deucey"})
"""The variants the net can evaluate (backgammon's geometry, with a bar)."""


@functools.cache
def default_net() -> Net:
    """The shipped net, loaded once per process."""
    with resources.as_file(resources.files("nardy.engine.weights") / WEIGHTS) as path:
        return Net.load(path)


@functools.cache
def load_net(path: str) -> Net:
    """The net saved at ``path``, loaded once per process."""
    return Net.load(path)


def terminal_outputs(v: Variant, mine: Side, theirs: Side) -> F32:
    """The exact outputs of a position where the mover has borne off every checker."""
    kind = v.result_kind(theirs, mine)
    out = np.zeros(OUTPUTS, dtype=np.float32)
    out[0] = 1.0
    out[1] = kind in (ResultKind.GAMMON, ResultKind.BACKGAMMON)
    out[2] = kind is ResultKind.BACKGAMMON
    return out


def evaluate_after(net: Net, v: Variant, after: Sequence[tuple[Side, Side]]) -> F32:
    """The net's outputs ``(N, 5)`` for positions reached by plays, from the mover's side
    (the mover has just played); finished games get their exact result."""
    outputs = net.forward(encode_sides(after))
    for i, (mine, theirs) in enumerate(after):
        if mine[OFF] == CHECKERS:
            outputs[i] = terminal_outputs(v, mine, theirs)
    return outputs


def best_index(net: Net, v: Variant, after: Sequence[tuple[Side, Side]]) -> tuple[int, F32]:
    """The index of the play with the highest equity among ``after``, and all outputs."""
    outputs = evaluate_after(net, v, after)
    return int(np.argmax(equity(outputs))), outputs


class NeuralBot:
    """Plays the legal play whose resulting position the net values highest (0-ply).

    ``net`` defaults to the shipped weights. Cube and resignation decisions are delegated to
    :class:`~nardy.engine.bots.HeuristicBot`. Deterministic;
    ``seed`` is accepted so that it builds like the other bots.
    """

    name = "neural"

    def __init__(self, net: Net | None = None, seed: int | str | None = None) -> None:
        del seed
        self.net = net if net is not None else default_net()
        self._heuristic = HeuristicBot()

    @classmethod
    def load(cls, path: str | Path | None = None) -> NeuralBot:
        """A bot with the net saved at ``path`` (None: the shipped net)."""
        return cls(load_net(str(path)) if path else None)

    def _check(self, v: Variant) -> None:
        if v.key not in VARIANTS:
            raise ValueError(f"the neural bot plays {', '.join(sorted(VARIANTS))}, not {v.key}")

    def choose(self, position: Position, d1: int, d2: int) -> tuple[Side, Side]:
        """The (mine, theirs) reached by the chosen play, still from the mover's side."""
        v = position.variant
        self._check(v)
        paths = list(v.play_paths(position.mine, position.theirs, d1, d2))
        if len(paths) == 1:
            return paths[0]
        return paths[best_index(self.net, v, paths)[0]]

    def evaluate(self, position: Position) -> float:
        """Cubeless equity of ``position`` for the side that has just moved ("mine")."""
        self._check(position.variant)
        after = [(position.mine, position.theirs)]
        return float(equity(evaluate_after(self.net, position.variant, after))[0])

    def choose_play(self, position: Position, d1: int, d2: int) -> Play:
        """The chosen play (the one :meth:`choose` reaches) as a legal :class:`Play`."""
        plays = position.legal_plays(d1, d2)
        if len(plays) == 1:
            return plays[0]
        mine, theirs = self.choose(position, d1, d2)
        return next(p for p in plays if p.position.mine == mine and p.position.theirs == theirs)

    def choose_double(self, position: Position) -> int:
        """Acey-deucey: the double whose best play the net values highest."""

        def best(die: int) -> float:
            plays = position.legal_plays(die, die)
            after = [(p.position.mine, p.position.theirs) for p in plays]
            return float(np.max(equity(evaluate_after(self.net, position.variant, after))))

        self._check(position.variant)
        return max(range(1, 7), key=best)

    # -- the cube and resignations: the heuristic's for now ----------------------------------

    def should_double(self, game: Game, player: int) -> bool:
        return self._heuristic.should_double(game, player)

    def should_take(self, game: Game, player: int) -> bool:
        return self._heuristic.should_take(game, player)

    def should_beaver(self, game: Game, player: int) -> bool:
        return self._heuristic.should_beaver(game, player)

    def accept_resignation(self, game: Game, player: int, level: int) -> bool:
        return self._heuristic.accept_resignation(game, player, level)
