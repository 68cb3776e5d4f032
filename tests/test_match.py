"""Matches and money play, written from RULES.md 1.6: match length, the Crawford game, money
sessions and their limits, and settings fixed and validated at creation.

Games are decided quickly by resignations (RULES.md 1.4), which score ``level x cube``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from gameutil import reach_turn

from nardy import NardyError, UnknownVariantError
from nardy.core.dice import SeededDice
from nardy.core.game import Game, GameError, Phase
from nardy.core.match import Match
from nardy.core.settings import Settings, SettingsError


def start(match: Match) -> Game:
    """The next game of ``match``, past its opening roll."""
    game = match.new_game()
    if game.phase is Phase.OPENING:
        game.roll_opening()
    return game


def to_roll(game: Game) -> int:
    """Finish the play on the table, if any; return the player then about to roll."""
    while game.phase is not Phase.ROLL:
        assert game.phase is Phase.MOVING
        game.play(game.turn, game.legal_plays()[0])
    return game.turn


def roll_for(game: Game, player: int) -> None:
    """Play on until ``player`` is about to roll."""
    while to_roll(game) != player:
        game.roll(game.turn)


def win(match: Match, winner: int, level: int = 1) -> Game:
    """Play the next game of ``match``: the loser resigns ``level`` and the winner accepts."""
    game = start(match)
    reach_turn(game, 1 - winner)
    game.resign(1 - winner, level)
    game.accept_resignation(winner)
    assert game.result is not None and game.result.winner == winner
    return game


def match_of(length: int, **settings: Any) -> Match:
    return Match(Settings(match_length=length, **settings), SeededDice(length))


# -- match length ---------------------------------------------------------------------------


def test_1_6_match_to_one_point() -> None:
    """RULES.md 1.6: any N >= 1 is accepted; a 1-point match ends after one game. (The code
    makes the only game of a 1-point match an ordinary game, not a Crawford game: nobody
    "first reaches" N - 1 = 0, both start there.)"""
    match = match_of(1)
    assert match.length == 1 and not match.over and match.winner is None
    assert not match.is_crawford()
    game = win(match, 1)
    assert not game.crawford
    assert match.over and match.winner == 1 and match.score == (0, 1)
    with pytest.raises(GameError, match="over"):
        match.new_game()


def test_1_6_first_to_reach_or_pass_n_wins() -> None:
    """RULES.md 1.6: the first to reach or pass N wins: 2-0, then a backgammon to 5-0 in a
    3-point match."""
    match = match_of(3)
    win(match, 0, 2)
    assert match.score == (2, 0) and not match.over
    win(match, 0, 3)
    assert match.score == (5, 0) and match.over and match.winner == 0


def test_1_6_score_is_the_sum_of_the_games() -> None:
    """RULES.md 1.6: the score is each player's points from the games they won, cube
    included."""
    match = match_of(11)
    win(match, 1, 1)
    game = start(match)
    roll_for(game, 0)
    game.double(0)
    game.take(1)
    roll_for(game, 1)
    game.resign(1, 2)
    game.accept_resignation(0)  # player 0 wins a gammon on a 2-cube: 4
    assert match.score == (4, 1)
    expected = [0, 0]
    for g in match.games:
        assert g.result is not None and g.result.winner is not None
        expected[g.result.winner] += g.result.points
    assert match.score == tuple(expected)


def test_1_6_a_game_in_progress_blocks_the_next() -> None:
    """RULES.md 1.6: games of a match follow one another."""
    match = match_of(5)
    start(match)
    with pytest.raises(GameError, match="not over"):
        match.new_game()
    assert not match.over and match.winner is None


@pytest.mark.parametrize("length", [0, -1])
def test_1_6_match_length_must_be_positive_or_money(length: int) -> None:
    """RULES.md 1.6: a match is to N >= 1 points; 0 means money play; negative refused."""
    if length == 0:
        assert Settings(match_length=0).resolve().money
    else:
        with pytest.raises(SettingsError, match="match-length"):
            Match(Settings(match_length=length))


# -- Crawford -------------------------------------------------------------------------------


def test_1_6_no_doubling_in_the_crawford_game() -> None:
    """RULES.md 1.6: in the Crawford game no one may double, on any turn; the next game
    (post-Crawford) uses the cube again."""
    match = match_of(5)
    win(match, 0, 2)
    win(match, 0, 2)
    assert match.score == (4, 0) and match.is_crawford()
    crawford = start(match)
    assert crawford.crawford
    for _ in range(6):  # a few turns of each player
        player = to_roll(crawford)
        assert not crawford.can_double(player) and not crawford.can_double(1 - player)
        with pytest.raises(GameError, match="Crawford"):
            crawford.double(player)
        crawford.roll(player)
    reach_turn(crawford, 0)
    crawford.resign(0, 1)
    crawford.accept_resignation(1)
    assert match.score == (4, 1) and not match.is_crawford()
    post = start(match)
    assert not post.crawford
    roll_for(post, 1)  # the trailer: the leader, one point away, has a dead cube (1.5)
    assert post.can_double(1)
    post.double(1)
    post.take(0)
    assert (post.cube.value, post.cube.owner) == (2, 0)


def test_1_6_crawford_flags_over_a_match() -> None:
    """RULES.md 1.6: scores 2-0, 4-0 (Crawford next), 4-3, 4-4, 5-4 in a 5-point match: only
    the third game is the Crawford game; the fourth allows doubling again (to the trailer: the
    leader's cube is dead, 1.5), the fifth at 4-4 to nobody (both cubes are dead)."""
    match = match_of(5)
    win(match, 0, 2)
    win(match, 0, 2)
    crawford = win(match, 1, 3)
    assert crawford.crawford and match.score == (4, 3)
    assert not match.is_crawford()
    post = start(match)
    assert not post.crawford
    roll_for(post, 1)
    assert post.can_double(1)
    reach_turn(post, 0)
    post.resign(0, 1)
    post.accept_resignation(1)
    assert match.score == (4, 4) and not match.is_crawford()
    last = start(match)
    assert not last.crawford
    for player in (0, 1):
        roll_for(last, player)
        assert not last.can_double(player)
    reach_turn(last, 1)
    last.resign(1, 1)
    last.accept_resignation(0)
    assert match.over and match.score == (5, 4) and match.winner == 0
    assert [g.crawford for g in match.games] == [False, False, True, False, False]
    assert [match.is_crawford(i) for i in range(5)] == [False, False, True, False, False]


def test_1_6_crawford_when_the_trailer_reaches_n_minus_one() -> None:
    """RULES.md 1.6: whoever first reaches N - 1, the next game is the Crawford game."""
    match = match_of(3)
    win(match, 0, 1)
    win(match, 1, 2)
    assert match.score == (1, 2)
    assert match.is_crawford()
    assert start(match).crawford


def test_1_6_crawford_off_or_cube_off() -> None:
    """RULES.md 1.6: the Crawford rule is on by default; switched off (or with no cube to
    turn) no game is a Crawford game."""
    assert Settings(match_length=3).resolve().crawford
    for settings in ({"crawford": False}, {"cube": False}):
        match = match_of(3, **settings)
        win(match, 0, 2)
        assert not match.is_crawford()
        assert not start(match).crawford


def test_1_6_passing_past_n_minus_one_is_no_crawford() -> None:
    """RULES.md 1.6: a game that jumps a player from below N - 1 to N or more ends the
    match; there is no Crawford game."""
    match = match_of(5)
    win(match, 1, 2)
    win(match, 1, 3)
    assert match.over and match.score == (0, 5)
    assert not any(g.crawford for g in match.games)


# -- money play -----------------------------------------------------------------------------


def test_1_6_money_session_runs_until_a_player_leaves() -> None:
    """RULES.md 1.6: money play is an unlimited series; the score is the running sum; it
    ends when a player leaves."""
    match = Match(Settings(), SeededDice(8))
    assert match.length == 0 and match.settings.money
    for winner, level in ((0, 1), (1, 3), (1, 1), (0, 2), (1, 1)):
        win(match, winner, level)
        assert not match.over
    assert match.score == (2, 3)  # Jacoby: gammons on an unturned cube count single
    with pytest.raises(GameError):
        match.leave(7)
    match.leave(0)
    assert match.over and match.winner == 1
    with pytest.raises(GameError):
        match.new_game()


def test_1_6_leaving_a_match_is_refused() -> None:
    """RULES.md 1.6: a match is played to its end; only money sessions end by leaving."""
    match = match_of(3)
    with pytest.raises(GameError):
        match.leave(0)
    assert not match.over


def test_1_6_money_session_ends_at_a_score_difference() -> None:
    """RULES.md 1.6: a money session may end at a difference in score agreed at creation."""
    match = Match(Settings(limit_points=3, jacoby=False), SeededDice(9))
    win(match, 0, 2)
    win(match, 1, 1)
    assert match.score == (2, 1) and not match.over
    win(match, 1, 3)
    assert match.score == (2, 4) and not match.over
    win(match, 0, 1)
    win(match, 0, 2)
    assert match.score == (5, 4) and not match.over
    win(match, 1, 3)
    assert match.score == (5, 7) and not match.over
    win(match, 1, 1)
    assert match.score == (5, 8) and match.over and match.winner == 1
    with pytest.raises(GameError):
        match.new_game()


def test_1_6_money_session_ends_at_a_time() -> None:
    """RULES.md 1.6: a money session may end at a time agreed at creation (the clock is
    injected). The code lets the game in progress finish: the session is over once the time
    has passed and no game is being played."""
    now = [1000.0]
    match = Match(Settings(limit_minutes=30), SeededDice(10), clock=lambda: now[0])
    win(match, 0)
    now[0] += 29 * 60
    assert not match.over
    game = start(match)
    now[0] += 2 * 60  # 31 minutes in
    assert not match.over  # the game in progress goes on
    reach_turn(game, 1)
    game.resign(1, 1)
    game.accept_resignation(0)
    assert match.over and match.score == (2, 0) and match.winner == 0
    with pytest.raises(GameError):
        match.new_game()


def test_1_6_money_session_level_at_the_end_has_no_winner() -> None:
    """RULES.md 1.6: a session left at an equal score has no winner."""
    match = Match(Settings(), SeededDice(11))
    win(match, 0)
    win(match, 1)
    match.leave(1)
    assert match.over and match.winner is None


# -- settings fixed and validated -------------------------------------------------------------


def test_1_6_settings_fixed_at_creation() -> None:
    """RULES.md 1.6: settings are chosen when the match is created and cannot change; every
    game of the match plays under them."""
    settings = Settings(match_length=5, backgammon_value=2)
    match = Match(settings, SeededDice(12))
    with pytest.raises(dataclasses.FrozenInstanceError):
        match.settings.match_length = 7  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.crawford = False  # type: ignore[misc]
    assert match.settings == settings.resolve()
    win(match, 0)
    win(match, 1)
    assert all(g.settings == match.settings for g in match.games)


@pytest.mark.parametrize(
    ("settings", "error", "fragment"),
    [
        ({"match_length": 5, "jacoby": True}, SettingsError, "jacoby"),
        ({"match_length": 5, "beaver": True}, SettingsError, "beaver"),
        ({"match_length": 5, "automatic_doubles": 1}, SettingsError, "automatic-doubles"),
        ({"match_length": 5, "limit_points": 5}, SettingsError, "limit-points"),
        ({"match_length": 5, "limit_minutes": 60}, SettingsError, "limit-minutes"),
        ({"backgammon_value": 4}, SettingsError, "backgammon-value"),
        ({"backgammon_value": 1}, SettingsError, "backgammon-value"),
        ({"match_length": -3}, SettingsError, "match-length"),
        ({"opening": "sideways"}, SettingsError, "opening"),
        ({"limit_points": -1}, SettingsError, "limit"),
        ({"automatic_doubles": -2}, SettingsError, "automatic-doubles"),
        ({"cube": False, "beaver": True}, SettingsError, "beaver"),
        ({"ending": "oin"}, SettingsError, "ending"),
        ({"last_roll": True}, SettingsError, "last-roll"),
        ({"variant": "long", "jacoby": True}, SettingsError, "jacoby"),
        ({"variant": "long", "backgammon_value": 2}, SettingsError, "backgammon-value"),
        ({"variant": "long", "ending": "draw"}, SettingsError, "ending"),
        ({"variant": "long", "first_move_in_series": "winner"}, SettingsError, "first-move"),
        ({"variant": "chess"}, UnknownVariantError, "chess"),
    ],
)
def test_1_6_settings_validated_with_clear_errors(
    settings: dict[str, Any], error: type[Exception], fragment: str
) -> None:
    """RULES.md 1.5 / 1.6: settings the rules do not allow are refused at creation, saying
    which setting is wrong: Jacoby, beavers, automatic doubles and session limits are money
    play only; backgammon-value is 2 or 3; and so on."""
    with pytest.raises(error, match=fragment):
        Match(Settings(**settings))
    with pytest.raises(error, match=fragment):
        Game(Settings(**settings))


def test_1_6_settings_from_rules_names() -> None:
    """RULES.md 1.6: settings go by their RULES.md names; unknown names are refused."""
    settings = Settings.from_dict({"match-length": 7, "backgammon-value": 2})
    assert (settings.match_length, settings.backgammon_value) == (7, 2)
    with pytest.raises(SettingsError, match="doubling"):
        Settings.from_dict({"doubling": True})
    resolved = Settings(match_length=7).resolve()
    assert Settings.from_dict(resolved.to_dict()).resolve() == resolved


@pytest.mark.parametrize(
    "settings",
    [
        pytest.param({"backgammon-value": "3"}, id="backgammon-value-text"),
        pytest.param({"match-length": "7"}, id="match-length-text"),
        pytest.param({"match-length": 2.5}, id="match-length-fraction"),
        pytest.param({"automatic-doubles": "1"}, id="automatic-doubles-text"),
        pytest.param({"opening": 3}, id="opening-number"),
        pytest.param({"ending": None}, id="ending-none"),
    ],
)
def test_1_6_settings_of_the_wrong_type_are_refused_clearly(settings: dict[str, Any]) -> None:
    """RULES.md 1.6: settings from outside (a client's JSON) of the wrong type are refused
    with the library's own error, never a TypeError or AttributeError from deep inside."""
    with pytest.raises(NardyError):
        Settings.from_dict(settings).resolve()


@pytest.mark.parametrize(
    "settings",
    [
        {"limit-points": "10"},
        {"limit-minutes": None},
        {"variant": 5},
    ],
    ids=["limit-points-text", "limit-minutes-none", "variant-number"],
)
def test_1_6_settings_of_the_wrong_type_raise_settings_errors(settings: dict[str, Any]) -> None:
    """RULES.md 1.6: settings of the wrong type are refused with the library's own error -
    the cases the code does not yet check."""
    with pytest.raises(NardyError):
        Settings.from_dict(settings).resolve()


def test_4_a_match_taken_up_at_a_chosen_score() -> None:
    """RULES.md 4 and 1.6: a match can start at any score below the length; at N-1 the first
    game is the Crawford game unless it has been played already."""
    settings = Settings(match_length=7)
    match = Match(settings, SeededDice(3), start_score=(6, 2))
    assert match.score == (6, 2) and match.is_crawford()
    assert not Match(settings, start_score=(6, 2), crawford_played=True).is_crawford()
    assert not Match(settings, start_score=(4, 2)).is_crawford()
    with pytest.raises(GameError, match="cannot start at 7-2"):
        Match(settings, start_score=(7, 2))
