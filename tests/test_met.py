"""The match equity table (nardy.engine.met): the embedded numbers are the documented
computation's, agree with the published Kazaross-XG2 table, and behave like a match equity
table (won and lost matches, symmetry, monotonicity, the Crawford and post-Crawford rows).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy.engine.met import (
    DEFAULT_PARAMETERS,
    MET_SIZE,
    LiveCubeModel,
    MatchEquityTable,
    MetParameters,
    clip_curve,
    compute_met,
    crossing,
    curve_at,
    default_met,
    format_met,
    match_equity,
    parse_met,
    taut_string,
)

AWAY = st.integers(min_value=1, max_value=MET_SIZE)

# Published Kazaross-XG2 values (table by Neil Kazaross, 2011, as shipped in GNU Backgammon's
# met/Kazaross-XG2.xml): pre-Crawford (a-away, b-away) -> MWC of the a-away player, a 1-away
# entry being the Crawford game; post-Crawford: the trailer's MWC at n-away against 1-away.
KAZAROSS_XG2 = {
    (1, 2): 0.67736,
    (1, 3): 0.75076,
    (1, 5): 0.84179,
    (2, 3): 0.59947,
    (2, 4): 0.66870,
    (2, 5): 0.74359,
    (3, 4): 0.57150,
    (3, 5): 0.64795,
    (4, 5): 0.57732,
    (5, 7): 0.62638,
    (7, 9): 0.60854,
    (7, 11): 0.70021,
    (9, 11): 0.59793,
    (11, 13): 0.58924,
    (13, 15): 0.58255,
    (14, 25): 0.83586,
    (15, 17): 0.57679,
    (21, 25): 0.62580,
}
KAZAROSS_XG2_POST = {2: 0.48803, 3: 0.32264, 4: 0.31002, 5: 0.19012, 7: 0.11559, 9: 0.06953}
TOLERANCE = 0.006  # measured: at most 0.0050 (14-away/25-away), 0.0028 root mean square
POST_TOLERANCE = 0.003  # measured: at most 0.0026 (4-away, the free drop's model)


@pytest.fixture(scope="module")
def computed() -> MatchEquityTable:
    return compute_met()


# -- the embedded numbers are the computation's ------------------------------------------------


def test_embedded_table_is_the_computed_one(computed: MatchEquityTable) -> None:
    """The numbers stored in met.py are compute_met() with the default parameters, rounded
    to six decimals (regenerate with ``python -m nardy.engine.met``)."""
    embedded = default_met()
    assert embedded.size == computed.size == MET_SIZE
    for a in range(1, MET_SIZE + 1):
        for b in range(1, MET_SIZE + 1):
            for crawford in (True, False):
                assert embedded.equity(a, b, crawford) == pytest.approx(
                    computed.equity(a, b, crawford), abs=5e-7
                )


def test_format_and_parse_round_trip(computed: MatchEquityTable) -> None:
    back = parse_met(format_met(computed), MET_SIZE)
    assert back.pre_crawford[4][6] == pytest.approx(computed.pre_crawford[4][6], abs=5e-7)
    with pytest.raises(ValueError, match="needs 650 numbers"):
        parse_met("0.5 0.5", MET_SIZE)


@pytest.mark.parametrize(("a", "b"), sorted(KAZAROSS_XG2))
def test_close_to_kazaross_xg2(a: int, b: int) -> None:
    """Within 0.6 percentage points of the published Kazaross-XG2 table, both ways round."""
    assert match_equity(a, b) == pytest.approx(KAZAROSS_XG2[a, b], abs=TOLERANCE)
    assert match_equity(b, a) == pytest.approx(1 - KAZAROSS_XG2[a, b], abs=TOLERANCE)


@pytest.mark.parametrize("n", sorted(KAZAROSS_XG2_POST))
def test_post_crawford_close_to_kazaross_xg2(n: int) -> None:
    assert match_equity(n, 1, crawford=False) == pytest.approx(
        KAZAROSS_XG2_POST[n], abs=POST_TOLERANCE
    )


# -- what a match equity table must be ---------------------------------------------------------


def test_won_and_lost_matches() -> None:
    """0 away is a match won: 1 for that player, 0 for the other, at any score."""
    for b in (1, 2, 7, 25, 40):
        assert match_equity(0, b) == 1.0
        assert match_equity(b, 0) == 0.0
        assert match_equity(-2, b, crawford=False) == 1.0
    with pytest.raises(ValueError, match="both"):
        match_equity(0, 0)


def test_level_scores_are_even() -> None:
    for n in range(1, MET_SIZE + 1):
        assert match_equity(n, n) == pytest.approx(0.5, abs=1e-6)
    assert match_equity(1, 1, crawford=False) == 0.5


@given(AWAY, AWAY, st.booleans())
def test_symmetry_and_range(a: int, b: int, crawford: bool) -> None:
    """MET(a, b) + MET(b, a) = 1, and every entry is a probability."""
    m = match_equity(a, b, crawford)
    assert 0.0 < m < 1.0
    assert m + match_equity(b, a, crawford) == pytest.approx(1.0, abs=2e-6)


def test_monotone() -> None:
    """Needing fewer points, or the opponent needing more, is always better."""
    for crawford in (True, False):
        for a in range(1, MET_SIZE + 1):
            for b in range(1, MET_SIZE):
                assert match_equity(a, b, crawford) < match_equity(a, b + 1, crawford)
                assert match_equity(b, a, crawford) > match_equity(b + 1, a, crawford)


def test_crawford_game_row() -> None:
    """The Crawford game has no cube: the leader wins half the games outright, the trailer
    the rest as singles, gammons or backgammons into post-Crawford scores."""
    prm = DEFAULT_PARAMETERS
    g, bg = prm.crawford_gammon_rate, prm.crawford_backgammon_rate
    # 1-away/2-away: a trailer's gammon or backgammon wins, his single leaves 1-away/1-away.
    assert match_equity(1, 2) == pytest.approx(0.5 + 0.5 * (1 - g) * 0.5, abs=1e-6)
    for b in range(3, MET_SIZE + 1):
        trailer = sum(
            f * match_equity(1, b - k, crawford=False)
            for f, k in ((1 - g, 1), (g - bg, 2), (bg, 3))
        )
        assert match_equity(1, b) == pytest.approx(0.5 + 0.5 * trailer, abs=1e-6)


def test_post_crawford_free_drop() -> None:
    """Post-Crawford the trailer doubles at once. At 2-away the leader passes exactly when
    he is an underdog (the free drop to 1-away/1-away), so the trailer gets E[min(p, 1/2)]:
    less than half. The free drop also makes 4-away worth hardly less than 3-away."""
    spread = DEFAULT_PARAMETERS.free_drop_spread
    two = match_equity(2, 1, crawford=False)
    assert two == pytest.approx(0.5 - spread / math.sqrt(2 * math.pi), abs=1e-6)
    assert 0.48 < two < 0.5
    assert match_equity(1, 2, crawford=False) == pytest.approx(1 - two, abs=1e-6)
    three, four = match_equity(3, 1, crawford=False), match_equity(4, 1, crawford=False)
    assert 0 < three - four < 0.015
    # The trailer is better off once the Crawford game is behind him: he has the cube.
    for n in range(2, MET_SIZE + 1):
        assert match_equity(n, 1, crawford=False) > match_equity(n, 1, crawford=True)


def test_beyond_the_embedded_table() -> None:
    """Scores beyond 25-away are computed on first use with the same procedure."""
    assert match_equity(27, 27) == pytest.approx(0.5, abs=1e-6)
    assert match_equity(25, 27) > match_equity(25, 25) > match_equity(27, 25)
    assert match_equity(26, 3) + match_equity(3, 26) == pytest.approx(1.0, abs=1e-9)
    with pytest.raises(ValueError, match="covers up to"):
        default_met().equity(26, 3)


def test_parameters_change_the_table() -> None:
    """A dead cube (efficiency 0), no gammons and no free drop: every game is a coin flip
    for one point, or two once the post-Crawford trailer has doubled."""
    flat = MetParameters(
        gammon_rate=0.0,
        cube_efficiency=0.0,
        crawford_gammon_rate=0.0,
        crawford_backgammon_rate=0.0,
        free_drop_spread=0.0,
    )
    table = compute_met(4, flat)
    # Crawford game at 1-away/2-away: the trailer must win two games in a row.
    assert table.equity(1, 2) == pytest.approx(0.75)
    assert table.equity(2, 2) == pytest.approx(0.5)
    # 2-away/3-away: a win leads to the Crawford game at 1-away/3-away (0.75: the trailer
    # must win it and then the doubled post-Crawford game), a loss to 2-away/2-away.
    assert table.equity(2, 3) == pytest.approx(0.5 * 0.75 + 0.5 * 0.5)
    with pytest.raises(ValueError):
        compute_met(0)


# -- the continuous model's building blocks ----------------------------------------------------


def test_taut_string_is_an_envelope() -> None:
    """With only a lower bound it is the concave envelope; with both it bends around each."""
    lower = ((0.0, 0.3, 0.7, 1.0), (-5.0, 0.5, 0.5, -5.0))
    xs, ys = taut_string(0.0, 0.0, lower, None)
    assert xs == (0.0, 0.3, 0.7, 1.0)
    assert ys == (0.0, 0.5, 0.5, 0.0)
    upper = ((0.0, 0.5, 1.0), (5.0, 0.2, 5.0))
    xs, ys = taut_string(0.0, 0.0, None, upper)
    assert curve_at((xs, ys), 0.5) == pytest.approx(0.0)  # the bound is not touched
    xs, ys = taut_string(-1.0, 1.0, ((0.0, 0.6, 1.0), (-9.0, 0.8, -9.0)), None)
    assert curve_at((xs, ys), 0.6) == pytest.approx(0.8)
    assert curve_at((xs, ys), 0.3) == pytest.approx(-1 + 0.5 * 1.8)


def test_clip_and_crossing() -> None:
    curve = ((0.0, 1.0), (-1.0, 3.0))
    clipped = clip_curve(curve, 1.0, above=False)
    assert clipped == ((0.0, 0.5, 1.0), (-1.0, 1.0, 1.0))
    assert clip_curve(curve, 1.0, above=True) == ((0.0, 0.5, 1.0), (1.0, 1.0, 3.0))
    assert crossing(curve, 1.0) == pytest.approx(0.5)
    assert crossing(curve, 4.0) is None


SPLIT = st.tuples(st.floats(0.0, 0.5), st.floats(0.0, 0.1)).map(
    lambda t: (1.0 - t[0] - t[1], t[0], t[1])
)


@given(st.integers(2, 9), st.integers(2, 9), SPLIT, SPLIT, st.sampled_from([1, 2, 4]))
def test_live_cube_curves(
    a: int, b: int, wins: tuple[float, float, float], losses: tuple[float, float, float], cube: int
) -> None:
    """Live-cube curves rise with p from a loss to a win, and owning the cube is worth
    something: mine >= centred >= the opponent's."""
    model = LiveCubeModel(a, b, wins, losses, lambda x, y: match_equity(x, y, crawford=True))
    own, centred, opp = (model.curve(cube, o) for o in ("me", "centred", "opponent"))
    for p in (0.0, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 1.0):
        values = [curve_at(c, p) for c in (own, centred, opp)]
        assert values[0] >= values[1] - 1e-9 >= values[2] - 2e-9
        assert values[2] >= -1e-9
        assert values[0] <= 1 + 1e-9
    for curve in (own, centred, opp):
        assert all(y1 >= y0 - 1e-9 for y0, y1 in zip(curve[1], curve[1][1:], strict=False))
        assert curve[1][0] == pytest.approx(model.loss_value(cube))
        assert curve[1][-1] == pytest.approx(model.win_value(cube))
