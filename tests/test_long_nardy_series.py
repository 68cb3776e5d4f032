"""Long nardy games and series, written from RULES.md 3.1 and 3.4: the lot roll that is not
played, who starts each game of a series, oin and mars, surrender, the last roll, series to
N points and the optional cube (with Crawford in matches).

Dice are scripted with :class:`FixedDice`: the lot takes one die per player per attempt
(player 0's, then player 1's), every later roll two dice.
"""

from __future__ import annotations

import pytest
from gameutil import assert_replays, reach_turn

from nardy import Position, variant
from nardy.core.dice import FixedDice, SeededDice
from nardy.core.game import Cube, Game, GameError, GameResult, Phase
from nardy.core.match import Match
from nardy.core.settings import Settings, SettingsError

CHECKERS = 15
OFF = 0
LONG = Settings(variant="long")


def position(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A checked long-nardy position; each side's borne-off count is filled up to 15. The
    opponent's home board (their 1-6) is my 13-18."""

    def fill(side: dict[int, int]) -> dict[int, int]:
        return {**side, OFF: side.get(OFF, 0) + CHECKERS - sum(side.values())}

    return Position.from_points(variant("long"), fill(mine), fill(theirs))


def start(match: Match) -> Game:
    game = match.new_game()
    if game.phase is Phase.OPENING:
        game.roll_opening()
    return game


def surrender_game(match: Match, winner: int) -> Game:
    """The next game of ``match``: the loser surrenders on their first turn (a mars: they
    have borne off none)."""
    game = start(match)
    reach_turn(game, 1 - winner)
    game.surrender(1 - winner)
    assert game.result is not None and game.result.winner == winner
    return game


# -- 3.1 the lot and the first move ---------------------------------------------------------


def test_3_1_lot_roll_is_not_played() -> None:
    """RULES.md 3.1: each rolls one die, the higher moves first; that roll is NOT played: the
    first player then rolls two dice for the first move."""
    game = Game(LONG, FixedDice([2, 5, 6, 5, 3, 1]))
    assert game.phase is Phase.OPENING
    assert game.roll_opening() == (2, 5)
    assert (game.first_player, game.turn, game.phase, game.dice) == (1, 1, Phase.ROLL, None)
    assert game.records == []
    with pytest.raises(GameError):
        game.roll(0)
    assert game.roll(1) == (6, 5)
    assert [str(p) for p in game.legal_plays()] == ["24/13"]
    game.play(1, "24/13")
    assert game.records[0].dice == (6, 5) and game.records[0].player == 1
    assert_replays(game)


def test_3_1_lot_ties_roll_again() -> None:
    """RULES.md 3.1: ties re-roll; with the cube off nothing else happens."""
    game = Game(LONG, FixedDice([4, 4, 1, 1, 3, 6]))
    assert game.roll_opening() == (3, 6)
    assert game.opening_rolls == [(4, 4), (1, 1), (3, 6)]
    assert game.first_player == 1 and game.cube.value == 1


def test_3_1_lot_cannot_be_rolled_twice() -> None:
    """RULES.md 3.1: the lot is rolled once, at the start of the first game."""
    game = Game(LONG, FixedDice([5, 2]))
    game.roll_opening()
    with pytest.raises(GameError):
        game.roll_opening()


@pytest.mark.parametrize(
    ("rule", "winners", "firsts"),
    [
        ("loser", [0, 0, 1, 1], [1, 1, 0]),
        ("loser", [1, 0, 0, 1], [0, 1, 1]),
        ("alternate", [0, 0, 1, 1], None),
        ("alternate", [1, 0, 0, 1], None),
    ],
)
def test_3_1_first_move_in_series(rule: str, winners: list[int], firsts: list[int] | None) -> None:
    """RULES.md 3.1 ``first-move-in-series``: after the first game the lot is not rolled;
    ``loser``: the loser of the previous game starts the next; ``alternate``: the players
    take turns to start."""
    match = Match(
        Settings(variant="long", first_move_in_series=rule, match_length=0), SeededDice(21)
    )
    first_game = start(match)
    assert first_game.opening_rolls
    lot_winner = first_game.first_player
    assert lot_winner is not None
    starters = []
    for i, winner in enumerate(winners):
        game = first_game if i == 0 else match.new_game()
        if i:
            assert game.phase is Phase.ROLL and game.opening_rolls == []
            starters.append(game.first_player)
            assert game.turn == game.first_player
        reach_turn(game, 1 - winner)
        game.surrender(1 - winner)
    expected = firsts if firsts is not None else [(lot_winner + i) % 2 for i in (1, 2, 3)]
    assert starters == expected
    assert match.score[0] + match.score[1] == 2 * len(winners)  # every surrender a mars


# -- 3.4 oin and mars -------------------------------------------------------------------------


def bear_off_game(settings: Settings, theirs: dict[int, int], cube: Cube | None = None) -> Game:
    """Player 0 to roll with one checker left on their 1-point; player 1's side is
    ``theirs``. Dice 6-5, then 2-1 follow."""
    pos = position({1: 1}, theirs)
    return Game(settings, FixedDice([6, 5, 2, 1]), position=pos, first_player=0, cube=cube)


def finish(game: Game) -> None:
    game.roll(0)
    game.play(0, "1/off")


def test_3_4_oin_is_one_stake() -> None:
    """RULES.md 3.4: oin: the loser has borne off at least one checker: one stake."""
    game = bear_off_game(LONG, {1: 14})  # 1 borne off
    finish(game)
    assert game.result == GameResult(0, "oin", 1, 1)
    assert_replays(game)


def test_3_4_mars_is_two_stakes() -> None:
    """RULES.md 3.4: mars: the loser has borne off none: two stakes (``ending: mars``, the
    default)."""
    assert LONG.resolve().ending == "mars"
    game = bear_off_game(LONG, {1: 10, 6: 5})
    finish(game)
    assert game.result == GameResult(0, "mars", 1, 2)


def test_3_4_ending_oin_counts_every_result_once() -> None:
    """RULES.md 3.4 ``ending: oin``: every result is one stake."""
    game = bear_off_game(Settings(variant="long", ending="oin"), {1: 10, 6: 5})
    finish(game)
    assert game.result == GameResult(0, "mars", 1, 1)


def test_3_4_mars_with_the_cube() -> None:
    """RULES.md 3.4 / 1.5: with the cube on, a mars is two stakes of the cube's value."""
    settings = Settings(variant="long", cube=True)
    game = bear_off_game(settings, {1: 10, 6: 5}, cube=Cube(4, 0))
    finish(game)
    assert game.result == GameResult(0, "mars", 4, 8)


# -- 3.4 surrender ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ending", "loser_off", "kind", "points"),
    [("mars", 0, "mars", 2), ("oin", 0, "mars", 1), ("mars", 3, "oin", 1)],
)
def test_3_4_surrender_scored_from_the_actual_position(
    ending: str, loser_off: int, kind: str, points: int
) -> None:
    """RULES.md 3.4: a player may surrender at any time on their turn; the opponent wins,
    scored from the checkers as they stand under ``ending``: with none borne off it is a mars
    when mars is on."""
    mine = {2: 5, 3: 10 - loser_off}  # the surrendering player, to roll
    pos = position(mine, {1: 10, 2: 2})
    settings = Settings(variant="long", ending=ending)
    game = Game(settings, FixedDice([]), position=pos, first_player=0)
    game.surrender(0)
    assert game.result == GameResult(1, "resign", 1, points, kind)
    assert game.records[-1].resignations == ((0, True, False),)
    assert_replays(game)


def test_3_4_surrender_before_or_after_rolling_only_on_ones_turn() -> None:
    """RULES.md 3.4: surrender on one's own turn, before or after rolling; not on the
    opponent's turn. Long nardy has no resignation levels."""
    game = Game(LONG, FixedDice([6, 1, 5, 3]))
    game.roll_opening()
    assert game.turn == 0
    for who in (1, 7):
        with pytest.raises(GameError):
            game.surrender(who)
    with pytest.raises(GameError, match="surrender"):
        game.resign(0, 1)
    game.roll(0)
    game.surrender(0)
    assert game.result == GameResult(1, "resign", 1, 2, "mars")
    assert game.records[-1].resignations == ((0, True, True),)
    assert_replays(game)


def test_3_4_surrender_at_the_start_is_a_mars() -> None:
    """RULES.md 3.4: a surrender with none borne off is a mars when mars is on: at the
    start of a game, two stakes."""
    game = Game(LONG, FixedDice([3, 5]))
    game.roll_opening()
    game.surrender(1)
    assert game.result == GameResult(0, "resign", 1, 2, "mars")


def test_3_4_surrender_with_the_cube() -> None:
    """RULES.md 3.4 / 1.5: a surrender counts the cube: mars x 2."""
    settings = Settings(variant="long", cube=True)
    game = Game(settings, FixedDice([3, 5]))
    game.roll_opening()
    game.double(1)
    game.take(0)
    game.surrender(1)
    assert game.result == GameResult(0, "resign", 2, 4, "mars")
    assert_replays(game)


def test_3_4_surrender_ignores_unconfirmed_moves() -> None:
    """RULES.md 3.4 / 1.9: single moves not yet confirmed are not part of the position: a
    player who bears off a checker and then surrenders before confirming is still marsed
    (the code's reading)."""
    pos = position({1: 2, 2: 13}, {1: 1})
    game = Game(LONG, FixedDice([1, 2]), position=pos, first_player=0)
    game.roll(0)
    game.move(0, 1, 0)
    game.surrender(0)
    assert game.result == GameResult(1, "resign", 1, 2, "mars")


# -- 3.4 last roll --------------------------------------------------------------------------


def last_roll_game(
    last_roll: bool, theirs: dict[int, int], dice: list[int], cube: bool = False
) -> Game:
    """Player 0 (the first player) bears off their last checker with 6-5; player 1 has
    ``theirs``; ``dice`` follow."""
    pos = position({1: 1}, theirs)
    settings = Settings(variant="long", last_roll=last_roll, cube=cube)
    game = Game(settings, FixedDice([6, 5, *dice]), position=pos, first_player=0)
    game.roll(0)
    game.play(0, "1/off")
    return game


def test_3_4_last_roll_off_by_default_ends_at_once() -> None:
    """RULES.md 3.4 ``last-roll``, off by default: the game ends when the first player
    bears off the last checker."""
    assert LONG.resolve().last_roll is False
    game = last_roll_game(False, {1: 1, 2: 1}, [2, 1])
    assert game.result == GameResult(0, "oin", 1, 1)


def test_3_4_last_roll_that_bears_off_everything_is_a_draw() -> None:
    """RULES.md 3.4 ``last-roll``: the second player gets one final roll; bearing off all
    their remaining checkers with it makes the game a draw."""
    game = last_roll_game(True, {1: 1, 2: 1}, [2, 1])
    assert (game.phase, game.turn, game.result) == (Phase.ROLL, 1, None)
    game.roll(1)
    game.play(1, "2/off 1/off")
    assert game.result == GameResult(None, "draw", 1, 0)
    assert game.over
    assert_replays(game)


def test_3_4_last_roll_that_falls_short_loses() -> None:
    """RULES.md 3.4 ``last-roll``: a final roll that does not bear off every checker loses;
    the result is scored as the checkers stand after it."""
    game = last_roll_game(True, {1: 1, 6: 1}, [2, 1])
    game.roll(1)
    game.play(1, game.legal_plays()[0])
    assert game.result == GameResult(0, "oin", 1, 1)
    assert_replays(game)


def test_3_4_no_doubling_on_the_last_roll() -> None:
    """RULES.md 3.4 ``last-roll`` with the cube on: the final roll cannot be doubled (the
    code's reading: the game is already decided unless the roll draws)."""
    game = last_roll_game(True, {1: 1, 2: 1}, [2, 1], cube=True)
    assert game.phase is Phase.ROLL and game.turn == 1
    assert not game.can_double(1)
    with pytest.raises(GameError, match="last roll"):
        game.double(1)


def test_3_4_last_roll_mars_is_judged_after_the_final_roll() -> None:
    """RULES.md 3.4 ``last-roll``: a second player with none borne off who bears some off on
    the final roll is no longer marsed: the code scores the position after that roll
    (a reading; the rules do not say)."""
    game = last_roll_game(True, {1: 2, 2: 13}, [1, 1])
    game.roll(1)
    game.play(1, "2/off(2)")
    assert game.result == GameResult(0, "oin", 1, 1)


def test_3_4_last_roll_only_for_the_second_player() -> None:
    """RULES.md 3.4 ``last-roll``: when the second player bears off first they win at once;
    the first player has had as many turns and gets no final roll."""
    pos = position({6: 5}, {1: 1})  # player 0 (first) far from done; player 1 nearly off
    settings = Settings(variant="long", last_roll=True)
    game = Game(settings, FixedDice([2, 1, 6, 5]), position=pos, first_player=0)
    game.roll(0)
    game.play(0, game.legal_plays()[0])
    game.roll(1)
    game.play(1, "1/off")
    assert game.result == GameResult(1, "oin", 1, 1)


def test_3_4_last_roll_is_a_setting_of_long_nardy_only() -> None:
    """RULES.md 3.4: ``last-roll``, ``ending`` and ``first-move-in-series`` are long-nardy
    settings."""
    for name in ("last_roll", "ending", "first_move_in_series"):
        value = {"last_roll": True, "ending": "oin", "first_move_in_series": "alternate"}[name]
        with pytest.raises(SettingsError):
            Settings(**{name: value}).resolve()  # type: ignore[arg-type]
        Settings(variant="long", **{name: value}).resolve()  # type: ignore[arg-type]


# -- 3.4 series, cube, Crawford -------------------------------------------------------------


def test_3_4_series_to_n_points() -> None:
    """RULES.md 3.4: a series of games to N points; a mars counts two."""
    match = Match(Settings(variant="long", match_length=5), SeededDice(31))
    surrender_game(match, 0)
    surrender_game(match, 1)
    assert match.score == (2, 2) and not match.over
    surrender_game(match, 1)
    assert match.score == (2, 4) and not match.over
    surrender_game(match, 1)
    assert match.score == (2, 6) and match.over and match.winner == 1


def test_3_4_unlimited_series_ends_when_a_player_leaves() -> None:
    """RULES.md 3.4: a series may be unlimited, as in money play."""
    match = Match(LONG, SeededDice(32))
    for winner in (0, 1, 1):
        surrender_game(match, winner)
    assert not match.over and match.score == (2, 4)
    match.leave(0)
    assert match.over and match.winner == 1


def test_3_4_draw_changes_no_score() -> None:
    """RULES.md 3.4 ``last-roll``: a drawn game scores nothing and the series goes on; the
    next game's first player then alternates (``loser`` has no loser to name: the code's
    reading)."""
    settings = Settings(variant="long", match_length=3, last_roll=True)
    match = Match(settings, SeededDice(33))
    surrender_game(match, 0)
    drawn = last_roll_game(True, {1: 1, 2: 1}, [2, 1])  # player 0 started it
    drawn.roll(1)
    drawn.play(1, "2/off 1/off")
    assert drawn.result is not None and drawn.result.winner is None
    match.games.append(drawn)  # stands in for a drawn game of the match
    assert match.score == (2, 0) and not match.over and match.winner is None
    after = match.new_game()
    assert after.first_player == 1 and after.phase is Phase.ROLL


def test_3_4_cube_off_by_default_in_long_nardy() -> None:
    """RULES.md 3.4 Decision: the cube is a setting in long nardy, off by default."""
    assert LONG.resolve().cube is False
    game = Game(LONG, FixedDice([3, 5]))
    game.roll_opening()
    assert not game.can_double(1)
    with pytest.raises(GameError, match="cube is off"):
        game.double(1)


def test_3_4_cube_on_works_as_in_backgammon() -> None:
    """RULES.md 3.4 Decision: with the cube on it works as in 1.5: double before rolling,
    take hands over the cube, pass loses the value before the double."""
    settings = Settings(variant="long", cube=True)
    game = Game(settings, FixedDice([3, 5, 6, 5, 4, 1]))
    game.roll_opening()
    game.double(1)
    game.take(0)
    assert (game.cube.value, game.cube.owner) == (2, 0)
    game.roll(1)
    game.play(1, "24/13")
    assert game.can_double(0) and not game.can_double(1)
    game.double(0)
    game.pass_double(1)
    assert game.result == GameResult(0, "pass", 2, 2)
    assert_replays(game)


def test_3_4_crawford_in_long_nardy_matches_with_the_cube() -> None:
    """RULES.md 3.4 Decision: with the cube on, Crawford applies in long-nardy matches to N:
    the game after a player first reaches N - 1 has no doubling; the next has."""
    match = Match(Settings(variant="long", match_length=5, cube=True), SeededDice(34))
    surrender_game(match, 1)
    surrender_game(match, 1)  # two mars: 0-4
    assert match.is_crawford()
    crawford = start(match)
    assert crawford.crawford and crawford.phase is Phase.ROLL
    assert not crawford.can_double(crawford.turn)
    with pytest.raises(GameError, match="Crawford"):
        crawford.double(crawford.turn)
    crawford.roll(crawford.turn)
    crawford.play(crawford.turn, crawford.legal_plays()[0])
    assert not crawford.can_double(crawford.turn)
    reach_turn(crawford, 1)
    crawford.surrender(1)  # a mars: 2-4
    assert not match.is_crawford()
    post = start(match)
    while (post.turn, post.phase) != (0, Phase.ROLL):  # the trailer: the leader's cube is dead
        if post.phase is Phase.ROLL:
            post.roll(post.turn)
        else:
            post.play(post.turn, post.legal_plays()[0])
    assert not post.crawford and post.can_double(0)


def test_3_4_crawford_needs_the_cube_in_long_nardy() -> None:
    """RULES.md 3.4: without the cube (the default) no game is a Crawford game."""
    match = Match(Settings(variant="long", match_length=3), SeededDice(35))
    surrender_game(match, 1)
    assert not match.is_crawford()
    assert not start(match).crawford
