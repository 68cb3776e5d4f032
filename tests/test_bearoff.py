"""The one-sided bear-off database (nardy.engine.bearoff): hand-computed values, Bellman's
equation against the pure-Python move generator, and GNU Backgammon's own database.

The moves are RULES.md 1.3's: a die bears off from its own point, or from the highest point
when it is larger; every checker must be home.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import nardy
from nardy.engine.bearoff import MAX_ROLLS, POINTS, BearoffDatabase, build

ROLLS = [(a, b, (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)]


@pytest.fixture(scope="module")
def db() -> BearoffDatabase:
    return build(8)


def home(**points: int) -> list[int]:
    """Six counts of points 1-6 from ``p1=…, p6=…``."""
    return [points.get(f"p{p}", 0) for p in range(1, POINTS + 1)]


@pytest.mark.parametrize(
    ("point", "failing_rolls"), [(1, 0), (2, 0), (3, 0), (4, 2), (5, 5), (6, 9)]
)
def test_1_3_one_checker_needs_a_second_roll_only_after_a_short_roll(
    db: BearoffDatabase, point: int, failing_rolls: int
) -> None:
    """RULES.md 1.3. One checker on the 4-point stays after 2-1 (3 pips); on the 5-point
    after 2-1, 3-1 and 1-1 (4 pips); on the 6-point after 2-1, 3-1, 4-1, 3-2 and 1-1. Every
    roll then bears it off from the 3-point or lower."""
    fail = failing_rolls / 36
    expected = np.zeros(MAX_ROLLS)
    expected[1], expected[2] = 1 - fail, fail
    assert np.allclose(db.rolls_distribution(home(**{f"p{point}": 1})), expected, atol=1e-15)
    assert db.mean_rolls(home(**{f"p{point}": 1})) == pytest.approx(1 + fail, abs=1e-15)


def test_1_3_two_checkers_on_the_2_point_need_two_dice_of_two_or_more(
    db: BearoffDatabase,
) -> None:
    """With a 1 and a larger die only one of them comes off (the 1 just moves the other down);
    1-1 bears both off. So 10 of the 36 rolls leave one checker, which the next roll takes."""
    assert db.mean_rolls(home(p2=2)) == pytest.approx(1 + 10 / 36, abs=1e-15)
    assert db.rolls_distribution(home(p2=2))[:3] == pytest.approx([0, 26 / 36, 10 / 36])
    assert db.mean_rolls(home(p1=2)) == 1.0
    assert db.mean_rolls(home()) == 0.0


def test_every_row_is_a_distribution_with_its_mean(db: BearoffDatabase) -> None:
    assert np.allclose(db.distribution.sum(axis=1), 1.0, atol=1e-12)
    assert np.allclose(db.distribution @ np.arange(MAX_ROLLS), db.mean, atol=1e-12)
    assert len(db.homes) == 3003  # C(8 + 6, 6) ways to hold up to 8 checkers on 6 points


def test_bellman_equation_holds_by_the_reference_generator(db: BearoffDatabase) -> None:
    """Each mean is one roll plus the average, over the 21 rolls, of the smallest mean that a
    legal play of the roll reaches, the plays coming from the pure-Python generator."""
    bg = nardy.BACKGAMMON
    nobody = bytes([15] + [0] * 25)
    for i in random.Random(4).sample(range(1, len(db.homes)), 150):
        side = bytes([15 - sum(db.homes[i]), *db.homes[i], *[0] * 19])
        expected = 1.0
        for d1, d2, weight in ROLLS:
            reached = bg.reference_play_paths(side, nobody, d1, d2)
            expected += weight * min(db.mean_rolls(mine) for mine, _ in reached)
        assert db.mean[i] == pytest.approx(expected, abs=1e-12)


def test_a_smaller_database_is_the_bigger_one_on_its_positions(db: BearoffDatabase) -> None:
    small = build(4)
    for i, h in enumerate(small.homes):
        j = db.index(h)
        assert small.mean[i] == db.mean[j]
        assert np.array_equal(small.distribution[i], db.distribution[j])


def test_a_whole_side_is_looked_up_and_checked(db: BearoffDatabase) -> None:
    side = bytes([13, 0, 0, 0, 0, 0, 2, *[0] * 19])  # 13 off, two on the 6-point
    assert db.mean_rolls(side) == db.mean_rolls(home(p6=2))
    with pytest.raises(ValueError, match="outside the home board"):
        db.index(bytes([13, 0, 0, 0, 0, 0, 1, 1, *[0] * 18]))
    with pytest.raises(ValueError, match="outside the home board"):
        db.index(bytes([14, *[0] * 24, 1]))  # on the bar
    with pytest.raises(ValueError, match="15 checkers"):
        db.index(bytes([12, 0, 0, 0, 0, 0, 2, *[0] * 19]))
    with pytest.raises(ValueError, match="holds up to 8"):
        db.index(home(p6=9))
    with pytest.raises(ValueError, match="expected 26 counts"):
        db.index([1, 2, 3])
    with pytest.raises(ValueError, match="0-15 checkers"):
        build(16)


def test_the_side_on_roll_wins_when_it_needs_no_more_rolls(db: BearoffDatabase) -> None:
    """Racing bear-offs: on roll with one checker on the 6-point against one on the 1-point,
    only the 27 rolls that bear it off at once win; with a checker on the 1-point it wins.
    """
    assert db.win_probability(home(p6=1), home(p1=1)) == pytest.approx(27 / 36)
    assert db.win_probability(home(p1=1), home(p6=1)) == pytest.approx(1.0)
    # Either side on roll wins whenever it needs fewer rolls or as many: the two chances add
    # up to one plus the chance that both need the same number.
    mine, theirs = home(p6=3, p5=2), home(p4=2, p2=3)
    same = float(db.rolls_distribution(mine) @ db.rolls_distribution(theirs))
    assert 0 < same < 1
    assert db.win_probability(mine, theirs) + db.win_probability(theirs, mine) == pytest.approx(
        1 + same, abs=1e-12
    )


@pytest.mark.gnubg
def test_means_equal_gnubgs_one_sided_database(db: BearoffDatabase) -> None:
    """GNU Backgammon's one-sided bear-off database (gnubg-nn, a test oracle) stores 16-bit
    probabilities; every mean of up to 8 checkers agrees within what that rounding allows."""
    gnubg_nn = pytest.importorskip("gnubg_nn")
    worst = 0.0
    for i, h in enumerate(db.homes[1:], start=1):
        theirs = np.array(gnubg_nn.bearoff_probabilities(tuple(h)))  # [k]: k + 1 rolls
        worst = max(worst, abs(db.mean[i] - float(theirs @ np.arange(1, len(theirs) + 1))))
    assert worst < 3e-4


def _side(points: dict[int, int]) -> bytes:
    counts = [0] * 26
    for point, n in points.items():
        counts[point] = n
    counts[0] = 15 - sum(counts)
    return bytes(counts)


def test_the_evaluator_values_an_endgame_bear_off_exactly() -> None:
    """Two checkers each: the mover (on the 1- and 2-points) has the opponent to roll, who
    bears its 2-point pair off with any roll but a non-double with a 1 (1-1 plays 2/1(2)
    1/off(2)); the mover then wins with any roll.
    The evaluator's value is the database's, not the net's, at every ply."""
    from nardy.engine.evaluator import evaluator

    mine, theirs = _side({1: 1, 2: 1}), _side({2: 2})
    opponent_wins = 1 - 10 / 36  # fails with 1-2 to 1-6, either order
    ev = evaluator("backgammon")
    for ply in (0, 1, 2):
        out = ev.after(nardy.variant("backgammon"), [(mine, theirs)], ply)[0]
        assert out[0] == pytest.approx(1 - opponent_wins, abs=1e-6)
        assert out[1:].tolist() == [0.0, 0.0, 0.0, 0.0]


def test_only_bear_offs_without_gammons_are_exact() -> None:
    """Eleven checkers left (a gammon was possible a roll ago: the database of the evaluator
    stops at ten) or a checker outside the home board: the net values them."""
    from nardy.engine.bearoff import exact_bearoffs

    sides = [
        (_side({1: 3, 6: 7}), _side({5: 10})),  # both ten: exact
        (_side({1: 4, 6: 7}), _side({5: 10})),  # eleven
        (_side({1: 3, 7: 1}), _side({5: 10})),  # the 7-point
        (_side({1: 3}), _side({25: 1})),  # the bar
    ]
    mine = np.array([list(m) for m, _ in sides], dtype=np.uint8)
    theirs = np.array([list(t) for _, t in sides], dtype=np.uint8)
    assert exact_bearoffs(mine, theirs).tolist() == [True, False, False, False]
