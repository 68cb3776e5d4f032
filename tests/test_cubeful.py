"""Cube decisions looked ahead (nardy.engine.cubeful, issue 20's cube target): the values of
playing on and of a double taken averaged over the rolls to come, as GNU Backgammon's
cubeful n-ply evaluation makes them. Properties of any reasonable net, not one net's
figures."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import pos

from nardy.cli.engine import context_stakes, read_position
from nardy.core import variant
from nardy.core.dice import FixedDice
from nardy.core.game import Game
from nardy.core.settings import Settings
from nardy.engine.analysis import cube_analysis, evaluate, load_evaluator
from nardy.engine.cube import Action, MoneyRules, Owner
from nardy.engine.cubeful import decision_ahead, doubled, may_double
from nardy.engine.neural import NeuralBot
from nardy.engine.stakes import Stakes
from nardy.notation import parse_position

TWO_THREE_AWAY = "zZyYAQxwt8EZAA:cAlgAAAACAAE"
"""bench/gnubg_agreement.py, a 3-point match: X 1-0 up (2-away, 3-away), 69% to win by
gnubg, nardy's net 66-67%. Janowski's model doubles on those chances (gnubg's 0-ply
doubled in the match); gnubg's 2-ply says no double, the double taken worth 0.21 EMG less
than playing on: the trailer's recube would play for the match whenever the game turns."""


@pytest.mark.parametrize("ply", [1, 2])
def test_the_trailers_recube_stops_the_double_at_two_away_three_away(ply: int) -> None:
    position = parse_position(TWO_THREE_AWAY)
    stakes = context_stakes(read_position(TWO_THREE_AWAY, position.variant))
    _, decision = cube_analysis(position, stakes, ply)
    assert decision.action is Action.NO_DOUBLE
    assert decision.double_take is not None
    assert decision.no_double - decision.double_take > 0.1  # gnubg: 0.211
    # The model alone, on the same chances, sees the two about level.
    model = stakes.decision(evaluate(position, ply), position)
    assert model.double_take is not None
    assert abs(model.no_double - model.double_take) < 0.05
    # What the double is worth when passed is no lookahead's business.
    assert decision.double_pass == model.double_pass == 1.0


def test_the_bot_and_the_analysis_decide_the_cube_alike() -> None:
    position = parse_position(TWO_THREE_AWAY)
    game = Game(
        Settings(match_length=3), FixedDice([3, 1]), score=(1, 0), first_player=0, position=position
    )
    stakes = Stakes.of(game, 0)
    for level in ("expert", "world-class"):
        bot = NeuralBot(level)
        d = bot.cube_decision(game)
        _, analysed = cube_analysis(position, stakes, bot.level.ply)
        assert d.action is analysed.action is Action.NO_DOUBLE
        assert d.no_double == pytest.approx(analysed.no_double, abs=1e-6)
        assert d.double_take == pytest.approx(analysed.double_take, abs=1e-6)
        assert not bot.should_double(game, 0)


def test_where_the_cube_cannot_turn_or_the_race_is_on_the_model_decides() -> None:
    ev = load_evaluator(variant("backgammon"))
    contact = parse_position(TWO_THREE_AWAY)
    race = pos("backgammon", {1: 3, 2: 3, 3: 3, 5: 2, 8: 2}, {1: 4, 2: 4, 4: 3, 6: 2})
    assert race.is_race() and not contact.is_race()
    stakes = context_stakes(read_position(TWO_THREE_AWAY, contact.variant))
    theirs = doubled(stakes)  # the opponent owns the cube: he may redouble, not we
    assert not may_double(theirs) and may_double(stakes)
    for position, at in ((contact, theirs), (race, stakes)):
        model = at.decision(evaluate(position, 1, ev), position)
        assert decision_ahead(ev, position, at, model, 1) is model
    crawford = Stakes.at(Settings(match_length=3), (2, 0), 0, crawford=True)
    assert not may_double(crawford)


def test_money_play_keeps_the_model_units() -> None:
    """For money the equities are per the current cube: a double passed is +1, a double
    taken the lookahead's value at twice the stake, divided by the cube again."""
    position = parse_position(TWO_THREE_AWAY.split(":")[0])
    ev = load_evaluator(position.variant)
    for cube in (1, 2):
        stakes = Stakes(cube, Owner.CENTRED if cube == 1 else Owner.ME)
        model = stakes.decision(evaluate(position, 1, ev), position)
        ahead = decision_ahead(ev, position, stakes, model, 1)
        assert ahead.double_pass == 1.0 and ahead.double_take is not None
        assert -3.0 <= ahead.no_double <= 3.0 and -6.0 <= ahead.double_take <= 6.0
        # The cube's value does not change the normalised decision.
        if cube == 1:
            first = ahead
        else:
            assert ahead.double_take == pytest.approx(first.double_take, abs=1e-4)
            assert np.isfinite(ahead.no_double)


def test_under_the_jacoby_rule_a_gammon_won_at_once_counts_single() -> None:
    """X, on roll, two checkers on his 2-point and the rest off, O on the bar with none off
    (contact, so the lookahead decides): most rolls win at once, a gammon. With the cube
    centred under the Jacoby rule that is a single game: double, pass (as the model says),
    never too good to double."""
    position = pos("backgammon", {2: 2}, {25: 1, 6: 14})
    assert not position.is_race()
    ev = load_evaluator(position.variant)
    for jacoby, action in ((True, Action.DOUBLE), (False, Action.TOO_GOOD)):
        stakes = Stakes(money=MoneyRules(jacoby=jacoby))
        model = stakes.decision(evaluate(position, 1, ev), position)
        ahead = decision_ahead(ev, position, stakes, model, 1)
        assert ahead.action is action, (jacoby, ahead.text)
        assert ahead.no_double <= 1.0 + 1e-9 or not jacoby
