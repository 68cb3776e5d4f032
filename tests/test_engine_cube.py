"""Cube decisions from cubeless probabilities (nardy.engine.cube): Janowski's money model
against its textbook values, the Jacoby rule and beavers, match play at the scores where
the answer is known (2-away/2-away, the Crawford game, post-Crawford), cubeless match
winning chances, resignations, and properties of every decision.

(``tests/test_cube.py`` is the rules core's cube; this file is the bot's.)
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from nardy.engine.cube import (
    Action,
    CubeState,
    MatchState,
    MoneyRules,
    Owner,
    Response,
    cube_decision,
    cube_efficiency,
    cubeless_equity,
    janowski_points,
    mwc_cubeless,
    mwc_to_emg,
    resignation_decision,
)
from nardy.engine.met import (
    DEFAULT_PARAMETERS,
    clip_curve,
    curve_at,
    match_equity,
    scale_curve,
    taut_string,
)

NO_JACOBY = MoneyRules(jacoby=False)


def gammonless(p: float) -> list[float]:
    return [p, 0.0, 0.0, 0.0, 0.0]


@st.composite
def probabilities(draw: st.DrawFn) -> list[float]:
    """Five consistent cubeless probabilities."""
    p = draw(st.floats(0.0, 1.0))
    wg = draw(st.floats(0.0, 1.0)) * p
    wbg = draw(st.floats(0.0, 1.0)) * wg
    lg = draw(st.floats(0.0, 1.0)) * (1 - p)
    lbg = draw(st.floats(0.0, 1.0)) * lg
    return [p, wg, wbg, lg, lbg]


def points(probs: list[float]) -> tuple[float, float]:
    """Janowski's W and L, written out."""
    p, wg, wbg, lg, lbg = probs
    return (p + wg + wbg) / p, (1 - p + lg + lbg) / (1 - p)


# -- money: Janowski ----------------------------------------------------------------------------


def test_a_certain_single_win_is_a_cash_not_no_double() -> None:
    """Doubling and playing on are worth the same (+1): GNU Backgammon doubles on a tie
    (FindBestCubeDecision), and so a last roll that cannot miss is "Double, pass" there, as
    here, for money and in a match."""
    certain = [1.0, 0.0, 0.0, 0.0, 0.0]
    assert cube_decision(certain).text == "Double, pass"
    match = cube_decision(certain, match=MatchState(7, 2, 3))
    assert match.text == "Double, pass" and match.no_double == pytest.approx(1.0)


def test_dead_cube_take_point_is_25_percent() -> None:
    """No gammons and a dead cube (efficiency 0): risk 1 to win 3, take with 25%."""
    d = cube_decision(gammonless(0.7), efficiency=0.0)
    assert d.take_point == pytest.approx(0.25)
    assert d.cash_point == pytest.approx(0.75)


@pytest.mark.parametrize(
    ("x", "take_point"),
    [(1.0, 0.20), (2 / 3, 3 / 14), (0.68, 0.5 / 2.34), (0.0, 0.25)],
)
def test_gammonless_take_points(x: float, take_point: float) -> None:
    """Janowski: (L - 1/2) / (W + L + x/2) with W = L = 1. A fully live cube gives 20%
    (Keeler and Spencer), x = 2/3 gives 3/14, GNU Backgammon's 0.68 about 21.4%."""
    d = cube_decision(gammonless(0.7), efficiency=x)
    assert d.take_point == pytest.approx(take_point, abs=1e-9)


def test_contact_take_point_is_about_21_5_percent() -> None:
    assert cube_decision(gammonless(0.6)).take_point == pytest.approx(0.2137, abs=5e-4)


@given(probabilities(), st.floats(0.0, 1.0))
def test_take_point_is_janowskis_formula(probs: list[float], x: float) -> None:
    """For any gammon mix: the taker's W is the doubler's L and the other way round."""
    assume(0.01 < probs[0] < 0.99)
    w, lose = points(probs)
    d = cube_decision(probs, money=NO_JACOBY, efficiency=x)
    assert d.take_point == pytest.approx(janowski_points(lose, w, x)[0], abs=1e-9)


@given(probabilities(), st.floats(0.0, 1.0))
def test_owned_cube_is_janowskis_formula(probs: list[float], x: float) -> None:
    """Janowski's owned-cube equity p(W + L + x/2) - L, below the cash point."""
    assume(0.01 < probs[0] < 0.99)
    w, lose = points(probs)
    _, cash = janowski_points(w, lose, 1.0)
    assume(probs[0] <= cash)
    d = cube_decision(probs, CubeState(2, Owner.ME), efficiency=x)
    assert d.no_double == pytest.approx(probs[0] * (w + lose + x / 2) - lose, abs=1e-9)


@given(st.floats(1.0, 3.0), st.floats(1.0, 3.0))
def test_closed_form_is_the_continuous_models_fixed_point(w: float, lose: float) -> None:
    """Owner's and opponent's live curves: each is the optimal stopping of the other's
    doubled curve (taut_string), so Janowski's closed form needs no iteration."""
    take, cash = janowski_points(w, lose, 1.0)
    own = ((0.0, cash, 1.0), (-lose, 1.0, w))
    opp = ((0.0, take, 1.0), (-lose, -1.0, w))
    new_own = taut_string(-lose, w, clip_curve(scale_curve(opp, 2.0), 1.0, above=False), None)
    new_opp = taut_string(-lose, w, None, clip_curve(scale_curve(own, 2.0), -1.0, above=True))
    for p in np.linspace(0, 1, 41):
        assert curve_at(new_own, p) == pytest.approx(curve_at(own, p), abs=1e-9)
        assert curve_at(new_opp, p) == pytest.approx(curve_at(opp, p), abs=1e-9)


def test_fully_live_cube_doubles_at_the_last_moment() -> None:
    """With x = 1 and no gammons the cube is worth most kept until the 80% cash point
    (Keeler and Spencer): below it no double beats a double, above it playing on is worth
    exactly the cash. The game is even at 50%, and the owned cube is worth a quarter there
    (Janowski: 0.5·2.5 - 1)."""
    assert cube_decision(gammonless(0.5), efficiency=1.0).no_double == pytest.approx(0.0)
    owned = cube_decision(gammonless(0.5), CubeState(2, Owner.ME), efficiency=1.0)
    assert owned.no_double == pytest.approx(0.25)
    low = cube_decision(gammonless(0.79), efficiency=1.0)
    assert low.action is Action.NO_DOUBLE
    assert low.no_double == pytest.approx(-1 + 0.59 / 0.3)
    assert low.double_take == pytest.approx(2 * (-1 + 0.59 * 2.5))
    high = cube_decision(gammonless(0.81), efficiency=1.0)
    assert high.no_double == pytest.approx(1.0)
    assert high.response is Response.PASS
    # The smallest loss of efficiency tips the balance to cashing.
    high = cube_decision(gammonless(0.81), efficiency=0.99)
    assert (high.action, high.response) == (Action.DOUBLE, Response.PASS)


def test_money_actions_by_winning_chance() -> None:
    """Gammonless, x = 0.68: too early at 60%, a double and a take at 75%, a pass at 80%
    (the taker's 20% is below his 21.4%)."""
    assert cube_decision(gammonless(0.6)).text == "No double, take"
    assert cube_decision(gammonless(0.75)).text == "Double, take"
    assert cube_decision(gammonless(0.8)).text == "Double, pass"
    low = cube_decision(gammonless(0.75))
    assert low.no_double == pytest.approx(0.68 * (-1 + 0.55 / 0.3) + 0.32 * 0.5)
    assert low.double_take == pytest.approx(2 * (0.68 * (-1 + 0.55 * 2 / 0.8) + 0.32 * 0.5))


GAMMONISH = [0.85, 0.5, 0.05, 0.02, 0.0]


def test_too_good_to_double_with_many_gammons() -> None:
    """85% with 50% gammons: the opponent would pass, but playing on wins more than 1."""
    d = cube_decision(GAMMONISH, money=NO_JACOBY)
    assert d.action is Action.TOO_GOOD
    assert d.response is Response.PASS
    assert d.text == "Too good to double, pass"
    assert d.double_pass == 1.0
    assert d.no_double > d.double_pass
    assert d.equity == d.no_double


def test_jacoby_makes_it_a_double_pass() -> None:
    """Under the Jacoby rule gammons do not count with the cube centred: cash it."""
    d = cube_decision(GAMMONISH, money=MoneyRules(jacoby=True))
    assert d.text == "Double, pass"
    assert d.no_double < 1.0
    assert d.equity == 1.0
    # Once the cube is turned the Jacoby rule no longer applies: too good to redouble.
    owned = cube_decision(GAMMONISH, CubeState(2, Owner.ME), money=MoneyRules(jacoby=True))
    assert owned.text == "Too good to redouble, pass"


def test_beaver_when_the_doubled_side_is_the_favourite() -> None:
    """A double at 40%: take, and with beavers allowed, beaver (the cube goes to 4 and
    stays with the taker); the doubler's equity is then twice the take's."""
    plain = cube_decision(gammonless(0.4))
    assert plain.text == "No double, take"
    assert plain.double_take is not None and plain.double_take < 0
    beaver = cube_decision(gammonless(0.4), money=MoneyRules(beaver=True))
    assert beaver.response is Response.BEAVER
    assert beaver.text == "No double, beaver"
    assert beaver.double_beaver == pytest.approx(2 * plain.double_take)
    # A favourite doubler is not beavered: the taker would only double his loss.
    assert cube_decision(gammonless(0.7), money=MoneyRules(beaver=True)).response is Response.TAKE


def test_redouble_wording_and_no_access() -> None:
    assert cube_decision(gammonless(0.75), CubeState(2, Owner.ME)).text == "Redouble, take"
    d = cube_decision(gammonless(0.9), CubeState(4, Owner.OPPONENT))
    assert d.action is Action.UNAVAILABLE and not d.double
    assert (d.double_take, d.double_pass, d.response, d.take_point) == (None, None, None, None)
    assert d.text == "No double: the opponent owns the cube"


@given(probabilities(), st.sampled_from(list(Owner)), st.booleans(), st.booleans())
def test_money_decision_properties(
    probs: list[float], owner: Owner, jacoby: bool, beaver: bool
) -> None:
    """Double/pass is +1; the equities stay within what a game can be worth; the taker's
    answer is the worst for the doubler; the action follows the equities."""
    rules = MoneyRules(jacoby=jacoby, beaver=beaver)
    d = cube_decision(probs, CubeState(2 if owner is not Owner.CENTRED else 1, owner), money=rules)
    assert -3.0 - 1e-9 <= d.no_double <= 3.0 + 1e-9
    assert d.no_double <= d.equity + 1e-12
    if owner is Owner.OPPONENT:
        assert d.action is Action.UNAVAILABLE
        return
    assert d.double_pass == 1.0
    assert d.double_take is not None and -6.0 - 1e-9 <= d.double_take <= 6.0 + 1e-9
    assert (d.double_beaver is not None) == beaver
    assert d.take_point is not None and 0.0 <= d.take_point <= 1.0
    assert d.cash_point == pytest.approx(1.0 - d.take_point)
    answers = [d.double_take, d.double_pass] + ([d.double_beaver] if beaver else [])
    assert d.double_value == min(v for v in answers if v is not None)
    value = d.double_value
    assert value is not None
    assert d.double == (value >= d.no_double)  # on a tie he doubles, as gnubg does
    if d.action is Action.TOO_GOOD:
        assert d.no_double > 1.0 >= value


@given(probabilities())
def test_cube_access_is_worth_something(probs: list[float]) -> None:
    """Without the Jacoby rule: owning the cube >= centred >= the opponent owning it."""
    values = [
        cube_decision(probs, CubeState(2 if o is not Owner.CENTRED else 1, o), money=NO_JACOBY)
        for o in (Owner.ME, Owner.CENTRED, Owner.OPPONENT)
    ]
    assert values[0].no_double >= values[1].no_double - 1e-9
    assert values[1].no_double >= values[2].no_double - 1e-9


def test_cube_efficiency() -> None:
    """0.68 in contact; races 0.55 + 0.00125 pips within [0.6, 0.7] (GNU Backgammon)."""
    assert cube_efficiency() == 0.68
    assert cube_efficiency(race=True, pips=40) == pytest.approx(0.6)
    assert cube_efficiency(race=True, pips=100) == pytest.approx(0.675)
    assert cube_efficiency(race=True, pips=200) == 0.7
    assert cube_efficiency(race=True) == 0.7
    # A short race takes a little heavier than a long one.
    long_race = cube_decision(gammonless(0.7), race=True, pips=120).take_point
    short_race = cube_decision(gammonless(0.7), race=True, pips=30).take_point
    assert long_race is not None and short_race is not None
    assert short_race > long_race


def test_probability_input() -> None:
    """A numpy float32 array of shape (5,) or any sequence; slightly inconsistent net
    outputs are clipped; wrong shapes and NaN are refused."""
    arr = np.array([0.7, 0.2, 0.01, 0.05, 0.0], dtype=np.float32)
    assert cube_decision(arr).no_double == pytest.approx(
        cube_decision([0.7, 0.2, 0.01, 0.05, 0.0]).no_double, abs=1e-6
    )
    assert cubeless_equity([0.6, 0.7, 0.0, 0.0, 0.0]) == pytest.approx(2 * 0.6 - 1 + 0.6)
    assert cubeless_equity(arr) == pytest.approx(0.4 + 0.2 - 0.05 + 0.01, abs=1e-6)
    assert cubeless_equity(arr, backgammon_value=2) == pytest.approx(0.55, abs=1e-6)
    with pytest.raises(ValueError, match="five"):
        cube_decision([0.5, 0.1, 0.0, 0.1])
    with pytest.raises(ValueError, match="five"):
        cube_decision([float("nan"), 0.1, 0.0, 0.1, 0.0])
    with pytest.raises(ValueError, match="efficiency"):
        cube_decision(gammonless(0.5), efficiency=1.5)
    with pytest.raises(ValueError, match="not both"):
        cube_decision(gammonless(0.5), money=MoneyRules(), match=MatchState(5))
    with pytest.raises(ValueError):
        CubeState(0)


# -- match play ------------------------------------------------------------------------------


def at(length: int, away_me: int, away_opp: int, crawford: bool = False) -> MatchState:
    return MatchState(length, length - away_me, length - away_opp, crawford)


@given(st.floats(0.05, 0.95), st.floats(0.0, 0.6), st.floats(0.0, 0.6))
def test_two_away_two_away_take_point(p: float, g_me: float, g_opp: float) -> None:
    """At 2-away/2-away a double kills the cube and any win at 2 wins the match, so
    gammons do not matter: the taker needs 1 - MET(1-away, 2-away Crawford), about 32%
    (32.26% by Kazaross-XG2)."""
    probs = [p, g_me * p, 0.0, g_opp * (1 - p), 0.0]
    d = cube_decision(probs, match=at(5, 2, 2))
    assert d.take_point == pytest.approx(1 - match_equity(1, 2), abs=1e-9)
    assert d.take_point == pytest.approx(0.3226, abs=0.002)
    assert d.response is (Response.TAKE if 1 - p >= (d.take_point or 0) else Response.PASS)


def test_two_away_two_away_actions() -> None:
    assert cube_decision(gammonless(0.6), match=at(5, 2, 2)).text == "Double, take"
    assert cube_decision(gammonless(0.7), match=at(5, 2, 2)).text == "Double, pass"


def test_crawford_game_has_no_double() -> None:
    for state in (at(5, 1, 3, crawford=True), at(7, 4, 1, crawford=True)):
        d = cube_decision([0.6, 0.3, 0.0, 0.1, 0.0], match=state)
        assert d.action is Action.UNAVAILABLE
        assert d.text == "No double: Crawford game"
        assert d.double_take is None and d.mwc_double_take is None
        assert d.mwc_no_double == pytest.approx(mwc_cubeless([0.6, 0.3, 0.0, 0.1, 0.0], state))


@pytest.mark.parametrize("away", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("p", [0.1, 0.3, 0.5, 0.6])
def test_post_crawford_trailer_doubles_at_once(away: int, p: float) -> None:
    """The leader's cube is dead and the trailer's double costs nothing: double."""
    d = cube_decision([p, 0.3 * p, 0.0, 0.2 * (1 - p), 0.0], match=at(7, away, 1))
    assert d.double, d.text


def test_post_crawford_trailer_can_be_too_good() -> None:
    """At 2-away with 70% and many gammons the leader would pass (to 1-away/1-away, 50%),
    but a gammon wins the match: play on. Without the gammons, cash."""
    assert cube_decision([0.7, 0.3, 0.0, 0.0, 0.0], match=at(7, 2, 1)).action is Action.TOO_GOOD
    assert cube_decision(gammonless(0.7), match=at(7, 2, 1)).text == "Double, pass"


@pytest.mark.parametrize("p", [0.3, 0.45, 0.5, 0.55, 0.7])
def test_post_crawford_one_away_two_away_free_drop(p: float) -> None:
    """At 1-away/2-away post-Crawford the leader passes exactly when he is the underdog
    (a pass leaves 1-away/1-away, even money): the take point is 50%."""
    d = cube_decision([p, 0.2 * p, 0.0, 0.2 * (1 - p), 0.0], match=at(5, 2, 1))
    assert d.take_point == pytest.approx(0.5)
    assert d.response is (Response.TAKE if p <= 0.5 else Response.PASS)


def test_post_crawford_one_away_three_away() -> None:
    """A pass leaves the leader at 1-away/2-away post-Crawford (1 - T(2) ~ 51.2%), a take
    loses only to a gammon or two trailer wins: with no gammons he needs 2·(1 - T(2)) - 1,
    about 2.4%."""
    d = cube_decision(gammonless(0.6), match=at(5, 3, 1))
    leader = 1 - match_equity(2, 1, crawford=False)
    assert d.take_point == pytest.approx(2 * leader - 1, abs=1e-9)
    assert d.response is Response.TAKE


def test_post_crawford_one_away_four_away_gammons_decide() -> None:
    """At 1-away/4-away the trailer needs a gammon to win at once; the leader's pass costs
    little (the free drop), so he passes an even game where the trailer wins many
    gammons and takes one where he wins none."""
    assert cube_decision([0.5, 0.0, 0.0, 0.0, 0.0], match=at(7, 4, 1)).response is Response.TAKE
    assert cube_decision([0.5, 0.2, 0.0, 0.0, 0.0], match=at(7, 4, 1)).response is Response.PASS


def test_leader_never_doubles_post_crawford() -> None:
    d = cube_decision([0.8, 0.3, 0.0, 0.0, 0.0], match=at(7, 1, 4))
    assert not d.double


def test_dead_cube_is_never_turned() -> None:
    """Owning a 2-cube at 2-away, a redouble gains nothing: any win is the match."""
    d = cube_decision([0.9, 0.5, 0.0, 0.0, 0.0], CubeState(2, Owner.ME), match=at(7, 2, 5))
    assert not d.double


def test_start_of_game_reproduces_the_table() -> None:
    """At an even game with the table's average gammon rate and cube efficiency, the
    cubeful match winning chance of the opening position is the table's entry: the table
    is this model at p = 1/2."""
    g = DEFAULT_PARAMETERS.gammon_rate
    probs = [0.5, g / 2, 0.0, g / 2, 0.0]
    for away_me, away_opp in ((5, 3), (2, 4), (7, 7), (9, 4)):
        d = cube_decision(
            probs, match=at(11, away_me, away_opp), efficiency=DEFAULT_PARAMETERS.cube_efficiency
        )
        assert d.mwc_no_double == pytest.approx(match_equity(away_me, away_opp), abs=2e-6)


def test_mwc_cubeless() -> None:
    """Each result's probability times the equity at the score it leads to."""
    assert mwc_cubeless([0.62, 0.3, 0.1, 0.2, 0.1], at(1, 1, 1)) == pytest.approx(0.62)
    probs = [0.6, 0.2, 0.05, 0.1, 0.0]
    state = at(7, 3, 4)
    expected = (
        0.4 * match_equity(2, 4)
        + 0.15 * match_equity(1, 4)
        + 0.05 * 1.0
        + 0.3 * match_equity(3, 3)
        + 0.1 * match_equity(3, 2)
    )
    assert mwc_cubeless(probs, state) == pytest.approx(expected)
    # At cube 2 a gammon or backgammon wins; a single leaves 1-away, a Crawford game.
    assert mwc_cubeless(probs, state, 2) == pytest.approx(
        0.4 * match_equity(1, 4) + 0.2 + 0.3 * match_equity(3, 2) + 0.1 * 0.0
    )
    # Post-Crawford, the scores a game leads to are post-Crawford too.
    post = at(7, 1, 3)
    assert mwc_cubeless(gammonless(0.5), post) == pytest.approx(
        0.5 + 0.5 * match_equity(1, 2, crawford=False)
    )


def test_emg() -> None:
    """Equity normalised to the cube: winning a single game at the cube is +1, losing one
    is -1, so double/pass is always +1."""
    state = at(9, 5, 3)
    win, lose = match_equity(4, 3), match_equity(5, 2)
    assert mwc_to_emg(win, state) == pytest.approx(1.0)
    assert mwc_to_emg(lose, state) == pytest.approx(-1.0)
    d = cube_decision([0.72, 0.2, 0.0, 0.05, 0.0], match=state)
    assert d.double_pass == pytest.approx(1.0)
    assert d.mwc_double_pass == pytest.approx(win)


@st.composite
def match_states(draw: st.DrawFn) -> MatchState:
    length = draw(st.integers(1, 11))
    me, opp = draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1))
    one_away = length - 1 in (me, opp)
    return MatchState(length, me, opp, crawford=one_away and draw(st.booleans()))


@given(probabilities(), match_states(), st.sampled_from([1, 2, 4, 8]), st.sampled_from(list(Owner)))
def test_match_decision_properties(
    probs: list[float], state: MatchState, value: int, owner: Owner
) -> None:
    """Match winning chances are probabilities; a pass gives the doubler the cube's
    points; the EMG of a pass is +1; the taker's answer is the worse for the doubler."""
    assume(not (owner is Owner.CENTRED and value > 1))
    assume(not (state.crawford_game and (value, owner) != (1, Owner.CENTRED)))
    d = cube_decision(probs, CubeState(value, owner), match=state)
    assert d.mwc_no_double is not None and -1e-9 <= d.mwc_no_double <= 1 + 1e-9
    if d.action is Action.UNAVAILABLE:
        assert state.crawford_game or owner is Owner.OPPONENT
        return
    assert d.mwc_double_take is not None and d.mwc_double_pass is not None
    assert -1e-9 <= d.mwc_double_take <= 1 + 1e-9
    assert d.mwc_double_pass == match_equity(
        state.away_me - value, state.away_opp, crawford=state.pre_crawford
    )
    assert d.double_take is not None and d.double_pass is not None
    assert d.double_pass == pytest.approx(1.0)
    assert d.response is (Response.TAKE if d.double_take <= d.double_pass else Response.PASS)
    mwc = d.mwc
    assert mwc is not None and mwc >= d.mwc_no_double - 1e-12


# -- resignations -----------------------------------------------------------------------------


def test_money_resignations() -> None:
    """The resigner (on roll) has 10% and loses a gammon 60% of the time: a single is not
    enough for his opponent, a gammon is, unless the Jacoby rule makes gammons single while
    the cube is centred (then a single is all he could win)."""
    probs = [0.1, 0.0, 0.0, 0.6, 0.0]
    single = resignation_decision(probs, 1, money=NO_JACOBY)
    assert not single.accept
    assert single.accept_value == 1.0 < single.play_on_value
    assert resignation_decision(probs, 2, money=NO_JACOBY).accept
    assert resignation_decision(probs, 1, money=MoneyRules(jacoby=True)).accept
    # With the cube turned, the Jacoby rule is off again.
    turned = resignation_decision(probs, 1, CubeState(2, Owner.OPPONENT), money=MoneyRules())
    assert not turned.accept
    with pytest.raises(ValueError, match="single"):
        resignation_decision(probs, 4)


def test_match_resignations() -> None:
    """At 1-away/1-away any resignation is the match; at 2-away/2-away a gammon is too."""
    hopeful = [0.45, 0.1, 0.0, 0.1, 0.0]
    assert resignation_decision(hopeful, 1, match=at(1, 1, 1)).accept
    two = at(5, 2, 2)
    d = resignation_decision([0.05, 0.0, 0.0, 0.5, 0.0], 1, match=two)
    assert d.accept_value == pytest.approx(1 - match_equity(2, 1))
    assert not d.accept  # the acceptor would rather play for his gammon or a cash
    assert resignation_decision([0.05, 0.0, 0.0, 0.5, 0.0], 2, match=two).accept_value == 1.0
