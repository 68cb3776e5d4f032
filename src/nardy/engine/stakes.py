"""What a game is played for, seen from one player, and what the net's probabilities are
worth there: the one measure by which the bot, ``hint``, ``analyze`` and the move filter of
the lookahead rank checker plays (issue 12: a play the hint recommends is never an error at
the same ply).

In money play a play's value is the cubeless money equity per unit of cube (a backgammon
worth its setting); in a match it is the cubeless match winning chance at the score through
the match equity table (:func:`nardy.engine.cube.mwc_cubeless`), expressed as
money-equivalent equity (EMG, :func:`~nardy.engine.cube.mwc_to_emg`), so that gammons count
what they are worth at the score: nothing for the leader of the Crawford game who needs one
point, double for the trailer who needs two.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from nardy.core import Position
from nardy.core.game import Game, cube_limit
from nardy.core.scoring import counts_gammons
from nardy.core.settings import Settings
from nardy.engine.cube import (
    CUBE_AT_LIMIT,
    DEAD_CUBE,
    Action,
    CubeDecision,
    CubeState,
    MatchState,
    MoneyRules,
    Owner,
    cube_decision,
    game_rules,
    mwc_cubeless,
    mwc_to_emg,
    relative_owner,
    resignation_points,
)
from nardy.engine.features import F32
from nardy.engine.net import LOSE_BACKGAMMON, WIN_BACKGAMMON, equity

F64 = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Stakes:
    """What the game is played for, seen from one player: money (``match`` None) with its
    rules, or a match at a score, and the cube's value and owner. It turns the net's five
    probabilities into normalised equity (EMG) and prices an equity difference."""

    cube: int = 1
    owner: Owner = Owner.CENTRED
    money: MoneyRules = field(default_factory=MoneyRules)
    match: MatchState | None = None
    cube_in_use: bool = True
    """False where the game has no cube (the settings, or no cube decisions to judge)."""
    gammons: bool = True
    """False where every result counts one stake whatever its kind: long nardy with
    ``ending=oin`` (RULES.md 3), where a mars counts single (:func:`counts_gammons`)."""

    @classmethod
    def at(
        cls,
        settings: Settings,
        score: tuple[int, int],
        player: int,
        crawford: bool,
        cube: int = 1,
        owner: int | None = None,
    ) -> Stakes:
        """The stakes of a game under ``settings`` from ``player``'s side (0 or 1): the
        match ``score`` before it (players 0 and 1), whether it is the Crawford game, and
        the cube's value and owner (player 0 or 1, None while centred)."""
        money, match = game_rules(settings, score, player, crawford)
        in_use = bool(settings.cube) and not crawford
        owned = relative_owner(owner, player)
        return cls(cube, owned, money, match, in_use, counts_gammons(settings))

    @classmethod
    def of(cls, game: Game, player: int) -> Stakes:
        """The stakes of ``game`` now, from ``player``'s side."""
        return cls.at(
            game.settings, game.score, player, game.crawford, game.cube.value, game.cube.owner
        )

    def swap(self) -> Stakes:
        """The same stakes seen from the opponent."""
        owner = {Owner.ME: Owner.OPPONENT, Owner.OPPONENT: Owner.ME}.get(self.owner, self.owner)
        match = self.match
        if match is not None:
            match = replace(match, score_me=match.score_opp, score_opp=match.score_me)
        return replace(self, owner=owner, match=match)

    def counted(self, outputs: F32) -> F32:
        """The probabilities as the game counts them: without gammons (and backgammons)
        where every result is one stake (:attr:`gammons`)."""
        if self.gammons:
            return outputs
        single = outputs.copy()
        single[..., 1:] = 0.0
        return single

    def equities(self, outputs: F32) -> F64:
        """Normalised equity (EMG) of each row of five probabilities, for their owner."""
        outputs = self.counted(outputs)
        if self.match is None:
            extra = 3 - self.money.backgammon_value  # net.equity counts a backgammon triple
            values: F64 = equity(outputs).astype(np.float64)
            return values - extra * (outputs[:, WIN_BACKGAMMON] - outputs[:, LOSE_BACKGAMMON])
        match, cube = self.match, self.cube
        return np.array(
            [mwc_to_emg(mwc_cubeless(row, match, cube), match, cube) for row in outputs],
            dtype=np.float64,
        )

    def equity(self, outputs: F32) -> float:
        """Normalised equity of one row of five probabilities."""
        return float(self.equities(outputs[None, :])[0])

    def mwc(self, outputs: F32) -> float | None:
        """The cubeless match winning chance of five probabilities (None for money)."""
        if self.match is None:
            return None
        return mwc_cubeless(self.counted(outputs), self.match, self.cube)

    def result_equity(self, points: int) -> float:
        """The normalised equity (EMG) of the game ending now with this player winning
        ``points`` per unit of cube (negative: losing them): the points themselves for
        money, the match winning chance at the score they lead to, as EMG, in a match."""
        if self.match is None:
            return float(points)
        m, c = self.match, self.cube
        if points >= 0:
            mwc = m.equity_after(m.away_me - points * c, m.away_opp)
        else:
            mwc = m.equity_after(m.away_me, m.away_opp + points * c)
        return mwc_to_emg(mwc, m, c)

    def resignation_points(self, level: int) -> int:
        """What resigning a single (1), gammon (2) or backgammon (3) gives the opponent per
        unit of cube (RULES.md 1.4): a gammon or backgammon counts single under the Jacoby
        rule while the cube is centred, and a backgammon counts its setting's value."""
        rules = self.money if self.match is None else self.match
        return resignation_points(level, rules, self.owner)

    @property
    def unit(self) -> float:
        """What one unit of normalised equity is worth: points (the cube) for money, match
        winning chance for a match (half the swing between winning and losing a single
        game at this cube, gnubg's ``eq2mwc``)."""
        if self.match is None:
            return float(self.cube)
        m, c = self.match, self.cube
        win = m.equity_after(m.away_me - c, m.away_opp)
        lose = m.equity_after(m.away_me, m.away_opp - c)
        return (win - lose) / 2.0

    @property
    def cube_dead(self) -> bool:
        """Whether the cube's limit (RULES.md 1.5, :func:`~nardy.core.game.cube_limit`) keeps
        the player on roll from doubling. In a match the cube is dead for him when a single
        game won at the current cube already wins him the match (his score plus the cube
        reaches the length), so doubling can gain him nothing; GNU Backgammon offers no
        double then (``GetDPEq``). In a 1-point match it is dead from the start; the
        Crawford game, where no one may double, is :attr:`cube_in_use`'s business. In money
        play the cube stops at :data:`~nardy.core.game.MONEY_CUBE_LIMIT`."""
        away = None if self.match is None else self.match.away_me
        return cube_limit(self.cube, away) is not None

    def decision(self, outputs: F32, position: Position, *, doubled: bool = False) -> CubeDecision:
        """The cube decision of the side on roll in ``position`` with these probabilities.

        Where the cube is dead for him it is "No double: the cube is dead" (at the money
        limit "No double: the cube is at 4096"), without the double's equities, unless he
        has ``doubled`` already: then it is his opponent's take or pass that is to be
        decided, and the equities are all there. No beaver is offered past the money limit."""
        d = cube_decision(
            self.counted(outputs),
            CubeState(self.cube, self.owner),
            money=None if self.match is not None else self.money,
            match=self.match,
            race=position.is_race(),
            pips=position.pips()[0],
        )
        if doubled or d.action is Action.UNAVAILABLE or not self.cube_dead:
            return d
        return replace(
            d,
            double_take=None,
            double_pass=None,
            double_beaver=None,
            action=Action.UNAVAILABLE,
            response=None,
            take_point=None,
            cash_point=None,
            mwc_double_take=None,
            mwc_double_pass=None,
            reason=DEAD_CUBE if self.match is not None else CUBE_AT_LIMIT,
        )
