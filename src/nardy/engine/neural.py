"""The neural bot: checker play, cube and resignations by a self-trained net, at six levels.

:class:`NeuralBot` ranks the legal plays of a roll with an
:class:`~nardy.engine.evaluator.Evaluator` (the variant family's net, at 0, 1 or 2 ply) and
plays the best, or — at the weaker levels — the best after Gaussian noise is added to each
play's equity, so that it makes the kind of mistakes a weaker player makes. Cube decisions
come from :mod:`nardy.engine.cube`: the net's cubeless probabilities for the player on roll,
turned into cubeful money equity (Janowski) or match-winning chances (a match equity table),
as the game's settings and score say.

The levels (:data:`LEVELS`), weakest first:

============== ===== ====== =========================================================
level          ply   noise  meant for
============== ===== ====== =========================================================
beginner       0     0.10   someone learning the game: many errors, some big
casual         0     0.07   a social player
intermediate   0     0.045  a club player
advanced       0     0      the net alone (also called ``neural``)
expert         1     0      one roll of lookahead
world-class    2     0      two rolls of lookahead (about a second a move)
============== ===== ====== =========================================================

The noise was chosen so that ``nardy analyze`` rates the noisy levels about as their names say
(GNU Backgammon's ratings: beginner 26-35 millipoints of error per decision, casual 18-26,
intermediate 12-18). Noise is in equity units (a point a game), drawn once per play considered.

It plays backgammon and nackgammon with the backgammon net (nackgammon's geometry and encoding
are backgammon's), acey-deucey and long nardy with nets of their own. Where a variant's net is
not installed, the heuristic bot (:class:`~nardy.engine.heuristic.HeuristicBot`) decides for
it at every level.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from nardy.core import Play, Position, Variant
from nardy.core.game import Game, Phase
from nardy.core.position import Side
from nardy.core.scoring import counts_gammons
from nardy.engine.cube import (
    CubeDecision,
    CubeState,
    MatchState,
    MoneyRules,
    Response,
    game_rules,
    relative_owner,
    resignation_decision,
)
from nardy.engine.cubeful import decision_ahead
from nardy.engine.errors import EngineError
from nardy.engine.evaluator import Evaluator, evaluator, for_net, has_net
from nardy.engine.heuristic import LEVELS as LEVEL_NAMES
from nardy.engine.heuristic import HeuristicBot
from nardy.engine.net import Net, flip
from nardy.engine.stakes import Stakes


@dataclass(frozen=True, slots=True)
class Level:
    """How strongly a :class:`NeuralBot` plays: the lookahead of its checker play and cube
    decisions, and the noise (standard deviation, in equity) added to each play's value."""

    name: str
    ply: int
    noise: float


LEVELS = {
    name: Level(name, ply, noise)
    for name, (ply, noise) in zip(
        LEVEL_NAMES,
        ((0, 0.10), (0, 0.07), (0, 0.045), (0, 0.0), (1, 0.0), (2, 0.0)),
        strict=True,
    )
}
"""The levels by name, weakest first (the names are :data:`nardy.engine.heuristic.LEVELS`)."""
DEFAULT_LEVEL = "advanced"


def level(name: str) -> Level:
    """The level called ``name`` (see :data:`LEVELS`; "neural" is the default level)."""
    try:
        return LEVELS[DEFAULT_LEVEL if name == "neural" else name]
    except KeyError:
        raise EngineError(f"unknown level {name!r}; known: {', '.join(LEVELS)}") from None


@dataclass(frozen=True, slots=True)
class CubeContext:
    """What the cube decisions of a game need, from one player's side (the one on roll):
    the cube, and the money rules or the match score."""

    cube: CubeState
    money: MoneyRules | None
    match: MatchState | None

    @classmethod
    def of(cls, game: Game, player: int) -> CubeContext:
        """The context of ``game`` seen from ``player``."""
        cube = CubeState(game.cube.value, relative_owner(game.cube.owner, player))
        money, match = game_rules(game.settings, game.score, player, game.crawford)
        return cls(cube, None if match else money, match)


def game_probabilities(ev: Evaluator, game: Game, player: int, ply: int) -> np.ndarray:
    """The cubeless probabilities of ``player``, taken as on roll in the game's position at
    the start of the turn, as the cube sees them: in long nardy with ``ending=oin`` a mars
    counts single, so its probabilities are dropped."""
    probs = ev.on_roll(game.position_for(player) if player != game.turn else game.turn_start, ply)
    if not counts_gammons(game.settings):
        probs = probs.copy()
        probs[1:] = 0.0
    return probs


HOPELESS = 0.01
"""The bot considers resigning only where the net gives it no more than this chance to win."""
RESIGN_MARGIN = 0.01
"""How close, in normalised equity, what a resignation gives away must be to what playing on
is worth to the opponent: the net's own error on a lost position (it sees a trace of a chance
where there is none)."""


@functools.cache
def _load_net(path: str) -> Net:
    return Net.load(path)


class NeuralBot:
    """A bot that plays by the net at a :class:`Level`.

    ``net`` replaces the shipped net (for the variant family it is used with), ``race_net``
    with it the net for races (none: ``net`` values races too); ``seed`` makes the noise of
    the weaker levels reproducible (levels without noise are deterministic).
    """

    def __init__(
        self,
        level_name: str = DEFAULT_LEVEL,
        *,
        net: Net | None = None,
        race_net: Net | None = None,
        seed: int | str | None = None,
    ) -> None:
        self.level = level(level_name)
        self.name = level_name
        self.net = net
        self.race_net = race_net  # with ``net``: races valued by a net of their own
        self._rng = random.Random(seed)
        self._heuristic = HeuristicBot()

    @classmethod
    def load(
        cls,
        path: str | Path | None = None,
        level_name: str = DEFAULT_LEVEL,
        race: str | Path | None = None,
    ) -> NeuralBot:
        """A bot with the net saved at ``path`` (None: the shipped nets) and the race net
        saved at ``race`` (None: the net plays races too); each file is read once per
        process."""
        net = _load_net(str(path)) if path else None
        race_net = _load_net(str(race)) if path and race else None
        return cls(level_name, net=net, race_net=race_net)

    def evaluator(self, position: Position) -> Evaluator:
        """The evaluator for the position's variant (the bot's own net, if it has one)."""
        v = position.variant
        return evaluator(v) if self.net is None else for_net(self.net, v, self.race_net)

    def stand_in(self, v: Variant) -> HeuristicBot | None:
        """The heuristic bot, which decides for this bot in a variant whose net is not
        installed; None where the net plays."""
        return None if self.net is not None or has_net(v) else self._heuristic

    # -- checker play ------------------------------------------------------------------------

    def choose(
        self,
        position: Position,
        d1: int,
        d2: int,
        stakes: Stakes | None = None,
        chosen: bool = False,
    ) -> tuple[Side, Side]:
        """The (mine, theirs) reached by the chosen play, still from the mover's side.

        Plays are ranked by what they are worth at ``stakes`` (money by default; in a match
        the match winning chance at the score), as ``hint`` and ``analyze`` rank them, and
        by what follows them (``chosen``: acey-deucey's named double, :meth:`Evaluator.rank`)."""
        if stand_in := self.stand_in(position.variant):
            after = stand_in.choose_play(position, d1, d2).position
            return after.mine, after.theirs
        measure = None if stakes is None else stakes.equities
        ranked = self.evaluator(position).rank(
            position, d1, d2, self.level.ply, measure, chosen=chosen
        )
        if self.level.noise and len(ranked) > 1:
            noisy = [c.value + self._rng.gauss(0.0, self.level.noise) for c in ranked]
            return ranked[int(np.argmax(noisy))].after
        return ranked[0].after

    def choose_play(
        self,
        position: Position,
        d1: int,
        d2: int,
        stakes: Stakes | None = None,
        chosen: bool = False,
    ) -> Play:
        """The chosen play (the one :meth:`choose` reaches) as a legal :class:`Play`."""
        plays = position.legal_plays(d1, d2)
        if len(plays) == 1:
            return plays[0]
        mine, theirs = self.choose(position, d1, d2, stakes, chosen)
        return next(p for p in plays if p.position.mine == mine and p.position.theirs == theirs)

    def choose_double(self, position: Position, stakes: Stakes | None = None) -> int:
        """Acey-deucey: the double whose best play is worth most at the level's ply, by
        what follows it (another roll when it is played in full): the value the ranking of
        the 1-2 gave it (:meth:`Evaluator.named_double`)."""
        if stand_in := self.stand_in(position.variant):
            return stand_in.choose_double(position)
        measure = None if stakes is None else stakes.equities
        pair = (position.mine, position.theirs)
        ev = self.evaluator(position)
        return ev.named_double(position.variant, pair, self.level.ply, measure)[0]

    # -- the cube and resignations -----------------------------------------------------------

    def cube_decision(self, game: Game) -> CubeDecision:
        """The cube decision of the player on turn in ``game``, before the roll (also the
        one a doubled player answers: the proper response is the decision's)."""
        doubler = game.turn
        position = game.turn_start
        ev = self.evaluator(position)
        ply = max(self.level.ply, 1)  # at least one roll ahead, as the analysis's cube_ply
        stakes = Stakes.of(game, doubler)
        decision = stakes.decision(game_probabilities(ev, game, doubler, ply), position)
        return decision_ahead(ev, position, stakes, decision, ply)

    def should_double(self, game: Game, player: int) -> bool:
        if stand_in := self.stand_in(game.variant):
            return stand_in.should_double(game, player)
        return self.cube_decision(game).double

    def should_take(self, game: Game, player: int) -> bool:
        if stand_in := self.stand_in(game.variant):
            return stand_in.should_take(game, player)
        decision = self.cube_decision(game)
        if game.phase is Phase.BEAVERED:
            # The doubler answers a beaver: playing on at twice the doubled stake is worth
            # 2 x double/take (in the old cube); passing loses the doubled stake, 2.
            return decision.double_take is None or decision.double_take > -1.0
        return decision.response is not Response.PASS

    def should_beaver(self, game: Game, player: int) -> bool:
        if stand_in := self.stand_in(game.variant):
            return stand_in.should_beaver(game, player)
        return self.cube_decision(game).response is Response.BEAVER

    def resign_level(self, game: Game, player: int) -> int:
        """The resignation to offer before the roll: the lowest level (1 single, 2 gammon,
        3 backgammon) that the opponent is right to accept and that gives away no more
        than playing on (within :data:`RESIGN_MARGIN`), in a position the net finds
        hopeless; 0 to play on. Offered once a turn: declined, the bot plays on."""
        v = game.variant
        # Once a turn: the game itself says whether this turn has seen an offer (so a bot
        # restored from a snapshot, as the server's, knows it too).
        if self.stand_in(v) or not v.resignation_levels or game.resignations_this_turn:
            return 0
        position = game.turn_start
        ev = self.evaluator(position)
        # The net alone first (the position as the opponent left it), which costs one
        # evaluation: most positions are far from hopeless.
        if position.outcome() is not None:
            return 0
        theirs = ev.after(v, [(position.theirs, position.mine)], 0)
        if float(flip(theirs)[0][0]) > HOPELESS:
            return 0
        stakes = Stakes.of(game, player)
        probs = game_probabilities(ev, game, player, max(self.level.ply, 1))
        play_on = -stakes.decision(probs, position).equity  # for the opponent
        for level in (1, 2, 3):
            offered = -stakes.result_equity(-stakes.resignation_points(level))
            if offered >= play_on - RESIGN_MARGIN:
                if offered <= play_on + RESIGN_MARGIN:
                    return level
                return 0
        return 0

    def accept_resignation(self, game: Game, player: int, level: int) -> bool:
        if stand_in := self.stand_in(game.variant):
            return stand_in.accept_resignation(game, player, level)
        resigner = 1 - player
        position = game.turn_start if resigner == game.turn else game.position_for(resigner)
        ev = self.evaluator(position)
        probs = game_probabilities(ev, game, resigner, max(self.level.ply, 1))
        context = CubeContext.of(game, resigner)
        return resignation_decision(
            probs,
            level,
            context.cube,
            money=context.money,
            match=context.match,
            race=position.is_race(),
            pips=position.pips()[0],
        ).accept
