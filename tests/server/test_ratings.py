"""Ratings (issue 10, item 6; docs/ratings.md): the FIBS formula at values worked out by hand
from its ``help formula`` text, its invariants, and the rules for money play and long-nardy
series."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_records import play_match

from nardy import LONG_NARDY, OFF, Position
from nardy.core.dice import FixedDice
from nardy.core.game import Phase
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.server.ratings import (
    START,
    Rating,
    RatingError,
    RatingRule,
    k_factor,
    rate_match,
    rated_outcomes,
    rating_rule,
    win_probability,
)

NEW = Rating()
EXPERIENCED = Rating(START, 400)


def test_two_new_players_in_a_one_point_match() -> None:
    """P_upset = 1 / (10^0 + 1) = 1/2, K = 5: the winner gains 4 * 5 * 1 * 1/2 = 10."""
    change = rate_match(NEW, NEW, 1)
    assert change.gained == pytest.approx(10.0) and change.lost == pytest.approx(10.0)
    assert change.winner == Rating(1510.0, 1) and change.loser == Rating(1490.0, 1)


def test_equal_experienced_players_in_a_five_point_match() -> None:
    """K = 1: 4 * sqrt(5) * 1/2 = 2 sqrt(5) = 4.4721."""
    change = rate_match(EXPERIENCED, EXPERIENCED, 5)
    assert change.gained == pytest.approx(4.47213595) == change.lost
    assert change.winner.experience == change.loser.experience == 405


def test_favourite_and_underdog_two_hundred_apart_in_nine_points() -> None:
    """D = 200, N = 9: P_upset = 1 / (10^(200 * 3 / 2000) + 1) = 1 / (10^0.3 + 1) = 0.333861;
    the favourite winning gains 4 * 3 * 0.333861 = 4.0063, the underdog 4 * 3 * 0.666139 =
    7.9937."""
    favourite, underdog = Rating(1700.0, 1000), Rating(1500.0, 1000)
    assert win_probability(1500.0, 1700.0, 9) == pytest.approx(0.33386061)
    expected = rate_match(favourite, underdog, 9)
    assert expected.gained == pytest.approx(4.00632733) == expected.lost
    upset = rate_match(underdog, favourite, 9)
    assert upset.gained == pytest.approx(7.99367267) == upset.lost
    assert upset.winner.value == pytest.approx(1507.99367267)
    assert upset.loser.value == pytest.approx(1692.00632733)


def test_each_player_moves_by_their_own_experience() -> None:
    """A new winner (K = 5) against an experienced loser (K = 1), equal ratings, 1 point:
    +10 and -2 (FIBS: "only your own experience points affect your ratings change")."""
    change = rate_match(NEW, EXPERIENCED, 1)
    assert (change.gained, change.lost) == (pytest.approx(10.0), pytest.approx(2.0))


@pytest.mark.parametrize(
    ("experience", "k"), [(0, 5.0), (1, 4.99), (150, 3.5), (399, 1.01), (400, 1.0), (5000, 1.0)]
)
def test_k_factor(experience: int, k: float) -> None:
    assert k_factor(experience) == pytest.approx(k)


def test_the_longer_the_match_the_likelier_the_favourite() -> None:
    """sqrt(N): skill tells more over a longer match (FIBS: the 1, 5 and 9 point curves)."""
    chances = [win_probability(1600.0, 1500.0, n) for n in (1, 5, 9, 25)]
    assert chances == sorted(chances) and chances[0] > 0.5
    assert win_probability(1600.0, 1500.0, 1) == pytest.approx(1 / (10 ** (-100 / 2000) + 1))


ratings = st.floats(500, 2500)
experiences = st.integers(0, 2000)
lengths = st.integers(1, 25)


@given(ratings, ratings, lengths)
def test_the_two_chances_add_up_to_one(a: float, b: float, n: int) -> None:
    assert win_probability(a, b, n) + win_probability(b, a, n) == pytest.approx(1.0)


@given(ratings, ratings, experiences, experiences, lengths)
def test_a_win_never_costs_and_a_loss_never_pays(
    a: float, b: float, ea: int, eb: int, n: int
) -> None:
    change = rate_match(Rating(a, ea), Rating(b, eb), n)
    assert change.gained > 0 and change.lost > 0
    assert change.gained <= 4 * 5 * math.sqrt(n)  # never more than the whole stake
    assert change.winner.experience == ea + n and change.loser.experience == eb + n
    if k_factor(ea) == k_factor(eb):  # same K: what one gains the other loses
        assert change.gained == pytest.approx(change.lost)


@pytest.mark.parametrize(
    "call",
    [
        lambda: rate_match(NEW, NEW, 0),
        lambda: win_probability(1500.0, 1500.0, -3),
        lambda: Rating(float("nan")),
        lambda: Rating(1500.0, -1),
    ],
)
def test_bad_input_is_refused(call: object) -> None:
    with pytest.raises(RatingError):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("settings", "rule"),
    [
        (Settings(match_length=7), RatingRule("backgammon", "match", 7)),
        (Settings(variant="nackgammon", match_length=1), RatingRule("nackgammon", "match", 1)),
        (Settings(), RatingRule("backgammon-money", "game", 1)),
        (Settings(variant="long", match_length=5), RatingRule("long", "match", 5)),
        (Settings(variant="long"), RatingRule("long-money", "game", 1)),
    ],
)
def test_rating_rules(settings: Settings, rule: RatingRule) -> None:
    assert rating_rule(settings) == rule


def test_a_match_is_rated_once_when_won() -> None:
    match = play_match(Settings(match_length=3), 2, max_games=20)
    assert match.over and match.winner is not None
    assert rated_outcomes(match) == [match.winner]
    unfinished = play_match(Settings(match_length=25), 2, max_games=1)
    assert not unfinished.over and rated_outcomes(unfinished) == []


def test_money_play_rates_each_game_won() -> None:
    match = play_match(Settings(), 4, max_games=4)
    winners = [g.result.winner for g in match.games if g.result is not None]
    assert len(winners) == 4 and rated_outcomes(match) == winners


def test_a_drawn_long_nardy_game_is_not_rated() -> None:
    """RULES.md 3.4: with the last roll the second player may bear off too and draw; an
    unlimited series rates only the games won."""
    match = Match(Settings(variant="long", last_roll=True))

    def race(theirs: dict[int, int]) -> None:
        """Player 0 bears off the last checker with 6-5; player 1 takes the last roll."""
        start = Position.from_points(LONG_NARDY, {1: 1, OFF: 14}, theirs)
        game = match.new_game(position=start, first_player=0, dice=FixedDice([6, 5, 6, 5]))
        for player in (0, 1):
            game.roll(player)
            if game.phase is Phase.MOVING:
                game.play(player, game.legal_plays()[0])

    race({20: 1, OFF: 14})  # player 1 is not home yet: player 0 wins
    race({1: 1, OFF: 14})  # player 1 bears off too: a draw
    results = [g.result for g in match.games]
    assert [r.winner if r else "?" for r in results] == [0, None]
    assert rated_outcomes(match) == [0]
