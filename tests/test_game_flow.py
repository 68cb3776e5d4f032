"""The game state machine, written from the specification: the end of a game and its scoring
(RULES.md 1.4), confirming and undoing single moves and the automatic pass (1.9),
acey-deucey's 1-2 (2) and games from a chosen position (4).

Dice are scripted with :class:`FixedDice`: the opening roll takes one die per player per
attempt (player 0's, then player 1's), every later roll two dice.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from gameutil import assert_replays, position, snapshot

from nardy import BACKGAMMON, InvalidPositionError, NardyError, Position, variant
from nardy.core.dice import FixedDice
from nardy.core.errors import IllegalPlayError
from nardy.core.game import Cube, Game, GameError, GameResult, Phase
from nardy.core.moves import Move, Play
from nardy.core.settings import Settings
from nardy.notation.record import game_record, replay

CHECKERS = 15
OFF = 0
BAR = 25

NO_JACOBY = Settings(jacoby=False)
"""Money play without Jacoby, so that gammons and backgammons count in full (1.4)."""


def finish_position(loser: dict[int, int]) -> Game:
    """Player 0 to roll with one checker left on their 1-point; player 1's side is
    ``loser``. Dice 6-5 follow, so player 0 bears off and wins (RULES.md 1.4)."""
    pos = position("backgammon", {1: 1}, loser)
    return Game(NO_JACOBY, FixedDice([6, 5]), position=pos, first_player=0)


def bear_off_last(game: Game) -> GameResult:
    game.roll(0)
    game.play(0, "1/off")
    assert game.result is not None
    return game.result


# -- 1.4 end of game and scoring -------------------------------------------------------------


def test_1_4_first_to_bear_off_all_wins_a_single() -> None:
    """RULES.md 1.4: the first to bear off all 15 wins; the loser has borne off some, so it
    is a single game, worth the cube."""
    game = finish_position({6: 3, 5: 2})  # 10 borne off
    result = bear_off_last(game)
    assert game.phase is Phase.OVER and game.over
    assert result == GameResult(0, "single", 1, 1)
    assert_replays(game)


def test_1_4_gammon_is_twice_the_cube() -> None:
    """RULES.md 1.4: a gammon (the loser has borne off none) is twice the cube."""
    result = bear_off_last(finish_position({6: 10, 12: 5}))
    assert (result.kind, result.points) == ("gammon", 2)


@pytest.mark.parametrize(
    "loser",
    [
        {BAR: 1, 6: 14},  # a checker on the bar
        {20: 1, 6: 14},  # a checker in the winner's home board (their 20 = my 5)
    ],
    ids=["bar", "winners-home"],
)
def test_1_4_backgammon_is_three_times_the_cube(loser: dict[int, int]) -> None:
    """RULES.md 1.4: a backgammon (a gammon with a checker on the bar or in the winner's
    home board) is three times the cube by default."""
    result = bear_off_last(finish_position(loser))
    assert (result.kind, result.points) == ("backgammon", 3)


def test_1_4_gammon_with_a_checker_outside_the_winners_home_is_no_backgammon() -> None:
    """RULES.md 1.4: a checker in the winner's outer board (their 18 = my 7) is only a
    gammon."""
    result = bear_off_last(finish_position({18: 1, 6: 14}))
    assert result.kind == "gammon"


@pytest.mark.parametrize(("value", "points"), [(3, 3), (2, 2)])
def test_1_4_backgammon_value_setting(value: int, points: int) -> None:
    """RULES.md 1.4, setting ``backgammon-value``: 3 (default) or 2."""
    pos = position("backgammon", {1: 1}, {BAR: 1, 6: 14})
    settings = Settings(jacoby=False, backgammon_value=value)
    game = Game(settings, FixedDice([6, 5]), position=pos, first_player=0)
    assert bear_off_last(game).points == points


def test_1_4_scores_multiply_the_cube() -> None:
    """RULES.md 1.4: single, gammon and backgammon are one, two, three times the cube."""
    pos = position("backgammon", {1: 1}, {BAR: 1, 6: 14})
    game = Game(NO_JACOBY, FixedDice([6, 5]), position=pos, first_player=0, cube=Cube(4, 0))
    result = bear_off_last(game)
    assert (result.kind, result.cube, result.points) == ("backgammon", 4, 12)


def test_1_4_the_opponent_bearing_off_wins_too() -> None:
    """RULES.md 1.4: whoever bears off first wins; player 1 wins on their own roll."""
    pos = position("backgammon", {6: 2, 5: 3}, {1: 1})  # player 0 on roll, far from done
    game = Game(NO_JACOBY, FixedDice([2, 1, 3, 4]), position=pos, first_player=0)
    game.roll(0)
    game.play(0, game.legal_plays()[0])
    assert game.turn == 1
    game.roll(1)
    game.play(1, "1/off")
    assert game.result == GameResult(1, "single", 1, 1)


def opening_game(settings: Settings | None = None, dice: list[int] | None = None) -> Game:
    """A game after its opening roll: player 0 rolled 3, player 1 rolled 1, so player 0
    plays 3-1 (RULES.md 1.1)."""
    game = Game(settings or NO_JACOBY, FixedDice(dice or [3, 1, 6, 5, 6, 5, 4, 2]))
    game.roll_opening()
    return game


@pytest.mark.parametrize(
    ("level", "kind", "points"), [(1, "single", 1), (2, "gammon", 2), (3, "backgammon", 3)]
)
def test_1_4_accepted_resignation_ends_the_game_at_its_level(
    level: int, kind: str, points: int
) -> None:
    """RULES.md 1.4 Decision: an accepted resignation ends the game at that level times the
    cube."""
    game = opening_game()
    game.play(0, "8/5 6/5")
    game.resign(1, level)
    assert game.phase is Phase.RESIGNED and game.resignation() == (1, level)
    game.accept_resignation(0)
    assert game.result == GameResult(0, "resign", 1, points, kind)
    assert game.records[-1].resignations == ((level, True, False),)
    assert_replays(game)


def test_1_4_resignation_levels_count_the_cube_and_backgammon_value() -> None:
    """RULES.md 1.4: the level times the cube, a backgammon at the ``backgammon-value``."""
    pos = position("backgammon", {6: 5, 5: 5}, {6: 5, 5: 5})
    settings = Settings(jacoby=False, backgammon_value=2)
    game = Game(settings, FixedDice([]), position=pos, first_player=1, cube=Cube(4, 0))
    game.resign(1, 3)
    game.accept_resignation(0)
    assert game.result == GameResult(0, "resign", 4, 8, "backgammon")


def test_1_4_declined_resignation_changes_nothing() -> None:
    """RULES.md 1.4 Decision: a declined resignation changes nothing; play goes on. Before
    the roll the player may still roll; after single moves they stay made."""
    game = opening_game()
    game.move(0, 8, 5)
    before = snapshot(game)
    game.resign(0, 2)
    game.decline_resignation(1)
    assert snapshot(game) == before
    game.move(0, 6, 5)
    game.confirm(0)
    assert game.records[-1].resignations == ((2, False, True),)
    before = snapshot(game)
    game.resign(1, 1)
    game.decline_resignation(0)
    assert snapshot(game) == before
    game.roll(1)
    assert game.phase is Phase.MOVING
    game.play(1, game.legal_plays()[0])
    assert game.records[-1].resignations == ((1, False, False),)
    assert_replays(game)


def test_1_4_resignation_refused_out_of_turn_or_at_a_bad_level() -> None:
    """RULES.md 1.4: resign a single, gammon or backgammon; only one resignation waits, and
    only the opponent answers it. (The code lets a player resign only on their own turn.)"""
    game = opening_game()
    before = snapshot(game)
    actions: list[Callable[[], object]] = [
        lambda: game.resign(1, 1),  # not player 1's turn
        lambda: game.resign(0, 0),
        lambda: game.resign(0, 4),
        lambda: game.resign(7, 1),
        lambda: game.accept_resignation(1),  # nothing to accept
        lambda: game.decline_resignation(1),
    ]
    for action in actions:
        with pytest.raises(GameError):
            action()
        assert snapshot(game) == before
    game.resign(0, 1)
    waiting = snapshot(game)
    actions = [
        lambda: game.accept_resignation(0),  # the resigner cannot accept
        lambda: game.decline_resignation(0),
        lambda: game.resign(0, 2),
        lambda: game.roll(0),
        lambda: game.move(0, 8, 5),
        lambda: game.double(0),
    ]
    for action in actions:
        with pytest.raises(GameError):
            action()
        assert snapshot(game) == waiting


def test_1_4_nothing_happens_after_the_end() -> None:
    """RULES.md 1.4: the game is over; every action is refused and changes nothing."""
    game = finish_position({6: 3, 5: 2})
    bear_off_last(game)
    before = snapshot(game)
    for action in (
        lambda: game.roll(0),
        lambda: game.roll(1),
        lambda: game.double(1),
        lambda: game.resign(1, 1),
        lambda: game.roll_opening(),
        lambda: game.undo(0),
        lambda: game.take(1),
    ):
        with pytest.raises(GameError):
            action()
        assert snapshot(game) == before


def test_1_4_surrender_belongs_to_long_nardy() -> None:
    """RULES.md 1.4 / 3.4: backgammon resigns at a level; surrendering is long nardy's."""
    game = opening_game()
    with pytest.raises(GameError):
        game.surrender(0)


# -- 1.9 confirming and undoing -----------------------------------------------------------


def test_1_9_single_moves_then_confirm() -> None:
    """RULES.md 1.9: a play is made one checker at a time and is final when confirmed."""
    game = opening_game()
    assert game.dice == (3, 1) and game.turn == 0
    assert {(m.start, m.end) for m in game.next_moves()} >= {(8, 5), (6, 5), (24, 21)}
    made = game.move(0, 8, 5)
    assert made == Move(8, 5)
    assert game.position.mine[5] == 1 and game.position.mine[8] == 2
    assert game.moves_made == [Move(8, 5)]
    game.move(0, 6, 5)
    assert game.next_moves() == []
    game.confirm(0)
    assert game.turn == 1 and game.phase is Phase.ROLL
    assert str(game.records[-1].play) == "8/5 6/5"
    assert game.position_for(0).mine[5] == 2
    assert_replays(game)


def test_1_9_undo_back_to_the_start_of_the_turn() -> None:
    """RULES.md 1.9: until confirmed, a play may be undone and changed in full."""
    game = opening_game()
    start = game.position
    game.move(0, 8, 5)
    game.move(0, 6, 5)
    game.undo(0)
    game.undo(0)
    assert game.position == start and game.moves_made == []
    with pytest.raises(GameError):
        game.undo(0)  # nothing more to undo: the previous turn is final
    game.move(0, 24, 21)
    game.move(0, 21, 20)
    game.confirm(0)
    assert str(game.records[-1].play) == "24/20"
    with pytest.raises(GameError):
        game.undo(0)  # confirmed: final, and no longer this player's turn
    with pytest.raises(GameError):
        game.undo(1)  # player 1 has not rolled


def test_1_9_confirm_only_a_whole_legal_play() -> None:
    """RULES.md 1.9 / 1.2: confirm accepts only a whole legal play: not nothing, not half a
    6-5 that could play both dice."""
    game = Game(NO_JACOBY, FixedDice([6, 5]))
    game.roll_opening()
    assert game.dice == (6, 5)
    before = snapshot(game)
    with pytest.raises(IllegalPlayError):
        game.confirm(0)
    assert snapshot(game) == before
    game.move(0, 24, 18)
    half = snapshot(game)
    with pytest.raises(IllegalPlayError):
        game.confirm(0)
    assert snapshot(game) == half
    game.move(0, 18, 13)
    game.confirm(0)
    assert str(game.records[-1].play) == "24/13"


def test_1_9_illegal_single_moves_cannot_be_made() -> None:
    """RULES.md 1.9: illegal moves cannot be made at all (moves to nowhere, a blocked point,
    the wrong distance, by the wrong player)."""
    game = opening_game()
    before = snapshot(game)
    for start, end in ((24, 18), (13, 13), (30, -5), (6, 2), (1, 0), (25, 22)):
        with pytest.raises(IllegalPlayError):
            game.move(0, start, end)
        assert snapshot(game) == before
    with pytest.raises(GameError):
        game.move(1, 8, 5)
    with pytest.raises(GameError):
        game.move(7, 8, 5)
    assert snapshot(game) == before


def test_1_9_play_takes_a_whole_play_and_drops_single_moves() -> None:
    """RULES.md 1.9: a whole play may be given at once; single moves made so far are
    replaced; an illegal or unreadable play is refused and changes nothing."""
    game = opening_game()
    game.move(0, 24, 21)
    before = snapshot(game)
    for text in ("24/18", "8/5", "nonsense", "13/10 13/12", "pass"):
        with pytest.raises(NardyError):
            game.play(0, text)
        assert snapshot(game) == before
    game.play(0, "8/5 6/5")
    assert str(game.records[-1].play) == "8/5 6/5"


def test_1_9_record_mid_turn_before_any_confirmed_play_replays() -> None:
    """RULES.md 1.9: single moves are not final until confirmed, so the record of a game
    whose first play is still being made holds only the opening roll and replays."""
    game = opening_game()
    game.move(0, 8, 5)
    record = game_record(game)
    assert "start" not in record
    again = replay(record)
    assert again.records == [] and again.dice == (3, 1)


def test_1_9_no_legal_move_passes_automatically_with_an_empty_play() -> None:
    """RULES.md 1.2 / 1.9: on the bar against a closed board the roll has no legal move; the
    turn passes by itself and is recorded with the dice and an empty play."""
    closed = {p: 2 for p in range(1, 7)} | {13: 3}
    pos = position("backgammon", {BAR: 1, 6: 5, 8: 3}, closed)
    game = Game(NO_JACOBY, FixedDice([6, 5, 2, 1]), position=pos, first_player=0)
    assert game.roll(0) == (6, 5)
    assert game.phase is Phase.ROLL and game.turn == 1
    last = game.records[-1]
    assert (last.player, last.dice) == (0, (6, 5))
    assert last.play is not None and last.play.moves == () and str(last.play) == ""
    assert last.before == last.after == pos
    assert game_record(game)["turns"][-1]["play"] == ""
    game.roll(1)
    game.play(1, game.legal_plays()[0])
    assert_replays(game)


# -- 2 acey-deucey ------------------------------------------------------------------------

ACEY = Settings(variant="acey-deucey", jacoby=False)


def test_2_acey_deucey_one_two_then_a_chosen_double_then_another_roll() -> None:
    """RULES.md 2: after the 1-2 is played, the player names any double, plays it as four
    moves, and rolls again."""
    game = Game(ACEY, FixedDice([2, 1, 5, 3, 4, 1]))
    game.roll_opening()
    assert (game.turn, game.dice) == (0, (2, 1))
    game.move(0, BAR, 24)
    game.move(0, BAR, 23)
    game.confirm(0)
    assert game.phase is Phase.CHOOSE_DOUBLE and game.turn == 0
    named = snapshot(game)
    for die in (0, 7, 9, -1):
        with pytest.raises(GameError):
            game.choose_double(0, die)
    with pytest.raises(GameError):
        game.choose_double(1, 6)
    with pytest.raises(GameError):
        game.roll(0)
    assert snapshot(game) == named
    game.choose_double(0, 6)
    assert (game.phase, game.dice) == (Phase.MOVING, (6, 6))
    game.play(0, "bar/19(4)")
    assert (game.phase, game.turn) == (Phase.ROLL, 0)  # the same player rolls again
    first, chosen = game.records
    assert (first.dice, first.chosen, str(first.play)) == ((2, 1), False, "bar/24 bar/23")
    assert (chosen.dice, chosen.chosen, str(chosen.play)) == ((6, 6), True, "bar/19(4)")
    assert game.roll(0) == (5, 3)
    game.play(0, game.legal_plays()[0])
    assert game.turn == 1
    assert_replays(game)


def test_2_acey_deucey_rolled_later_in_the_game() -> None:
    """RULES.md 2: a 1-2 rolled on a later turn earns the same sequence."""
    game = Game(ACEY, FixedDice([5, 3, 1, 2, 6, 6]))
    game.roll_opening()
    game.play(0, game.legal_plays()[0])
    assert game.roll(1) == (1, 2)
    game.play(1, game.legal_plays()[0])
    assert game.phase is Phase.CHOOSE_DOUBLE and game.turn == 1
    game.choose_double(1, 4)
    game.play(1, game.legal_plays()[0])
    assert (game.phase, game.turn) == (Phase.ROLL, 1)
    assert game.roll(1) == (6, 6)
    assert_replays(game)


def lone_checker(theirs: dict[int, int]) -> Game:
    """Acey-deucey: player 0 has one checker left on their 24-point, 14 borne off; 1-2
    follows, played as 24/21."""
    pos = Position.from_points(variant("acey-deucey"), {24: 1, OFF: 14}, theirs)
    return Game(ACEY, FixedDice([1, 2, 6, 6]), position=pos, first_player=0)


def test_2_acey_deucey_chosen_double_partly_playable_loses_the_extra_roll() -> None:
    """RULES.md 2: what cannot be played of the sequence is lost, and so is the extra roll.
    The named 3-3 plays 21/18 once (18/15 is blocked): the turn passes."""
    game = lone_checker({10: 2, OFF: 13})  # their 10 = my 15
    game.roll(0)
    game.play(0, "24/21")
    game.choose_double(0, 3)
    assert [str(p) for p in game.legal_plays()] == ["21/18"]
    game.play(0, "21/18")
    assert game.turn == 1 and game.phase is Phase.ROLL
    assert game.records[-1].chosen
    assert_replays(game)


def test_2_acey_deucey_chosen_double_unplayable_passes_at_once() -> None:
    """RULES.md 2 / 1.9: a named double with no legal move is lost whole; the turn passes
    by itself, recorded as a chosen double with an empty play."""
    game = lone_checker({10: 2, OFF: 13})
    game.roll(0)
    game.play(0, "24/21")
    game.choose_double(0, 6)  # 21/15 is blocked
    assert game.turn == 1 and game.phase is Phase.ROLL
    last = game.records[-1]
    assert last.chosen and last.dice == (6, 6) and last.play is not None
    assert last.play.moves == ()


def test_2_acey_deucey_unplayable_chosen_double_replays() -> None:
    """RULES.md 2 / 1.9: the record of a named double that could not be played replays."""
    game = lone_checker({10: 2, OFF: 13})
    game.roll(0)
    game.play(0, "24/21")
    game.choose_double(0, 6)
    assert_replays(game)


def test_2_acey_deucey_one_two_partly_playable_loses_the_double() -> None:
    """RULES.md 2: when the 1-2 itself cannot be played in full, the rest of the sequence -
    the named double and the extra roll - is lost (the code's reading)."""
    pos = Position.from_points(variant("acey-deucey"), {BAR: 1, OFF: 14}, {1: 2, 3: 2, OFF: 11})
    game = Game(ACEY, FixedDice([1, 2]), position=pos, first_player=0)
    game.roll(0)
    assert [str(p) for p in game.legal_plays()] == ["bar/23"]
    game.play(0, "bar/23")
    assert game.turn == 1 and game.phase is Phase.ROLL
    with pytest.raises(GameError):
        game.choose_double(0, 6)


def test_2_acey_deucey_one_two_that_wins_ends_the_game() -> None:
    """RULES.md 2 / 1.4: a 1-2 that bears off the last checkers wins at once."""
    pos = Position.from_points(variant("acey-deucey"), {1: 1, 2: 1, OFF: 13}, {6: 2, OFF: 13})
    game = Game(ACEY, FixedDice([1, 2]), position=pos, first_player=0)
    game.roll(0)
    game.play(0, "2/off 1/off")
    assert game.over and game.result == GameResult(0, "single", 1, 1)


def test_2_acey_deucey_full_four_moves_keep_the_turn_and_may_double() -> None:
    """RULES.md 2: the named 5-5 plays in full (21/1), so the player rolls again. Before that
    roll they may double: the code treats the extra roll as a new roll of their own turn
    (RULES.md 1.5: a double is offered before rolling)."""
    game = lone_checker({10: 2, OFF: 13})
    game.roll(0)
    game.play(0, "24/21")
    game.choose_double(0, 5)
    game.play(0, "21/1")
    assert (game.phase, game.turn) == (Phase.ROLL, 0)
    assert game.can_double(0)


# -- 4 a game from a chosen position --------------------------------------------------------


def test_4_game_from_a_custom_position_with_player_and_cube() -> None:
    """RULES.md 4: a game can start from any legal position with the player on roll and the
    cube chosen; the position is given from the side of the player on roll."""
    pos = position("backgammon", {6: 4, 5: 4, 4: 3, 21: 1}, {6: 3, 5: 3, 18: 2, 3: 2})
    game = Game(NO_JACOBY, FixedDice([4, 2, 6, 1]), position=pos, first_player=1, cube=Cube(4, 1))
    assert (game.phase, game.turn, game.first_player) == (Phase.ROLL, 1, 1)
    assert game.position == pos and game.position_for(0) == pos.swap()
    assert (game.cube.value, game.cube.owner) == (4, 1)
    assert game.can_double(1) and not game.can_double(0)
    assert game.opening_rolls == []
    game.roll(1)
    game.play(1, game.legal_plays()[0])
    assert game.turn == 0 and not game.can_double(0)  # player 1 owns the cube
    record = game_record(game)
    assert record["start"] and record["start-cube"] == [4, 1]
    assert_replays(game)


def test_4_custom_position_cube_decides_the_stake() -> None:
    """RULES.md 4 / 1.5: the chosen cube counts: player 1 owns a 2-cube and redoubles to 4;
    a pass loses 2."""
    pos = position("backgammon", {6: 4, 5: 4}, {6: 4, 5: 4})
    game = Game(NO_JACOBY, FixedDice([]), position=pos, first_player=1, cube=Cube(2, 1))
    game.double(1)
    game.pass_double(0)
    assert game.result == GameResult(1, "pass", 2, 2)
    assert_replays(game)


def test_4_custom_cube_on_the_standard_position_replays() -> None:
    """RULES.md 4: the cube is chosen with the position; the record must keep it even when
    the position chosen is the standard start."""
    game = Game(
        NO_JACOBY, FixedDice([]), position=BACKGAMMON.start(), first_player=0, cube=Cube(4, 1)
    )
    game.resign(0, 1)
    game.accept_resignation(1)
    assert game.result == GameResult(1, "resign", 4, 4, "single")
    again = replay(game_record(game))
    assert (again.cube.value, again.cube.owner) == (4, 1)
    assert again.result == game.result


def test_4_custom_position_needs_a_player_and_a_legal_position() -> None:
    """RULES.md 4: the position must be legal and the player on roll given (0 or 1)."""
    pos = position("backgammon", {6: 5}, {6: 5})
    with pytest.raises(GameError):
        Game(NO_JACOBY, FixedDice([]), position=pos)
    with pytest.raises(GameError):
        Game(NO_JACOBY, FixedDice([]), position=pos, first_player=7)
    v = variant("backgammon")
    crowded = Position(v, bytes([0] * 6 + [16] + [0] * 19), pos.theirs)  # 16 checkers
    with pytest.raises(InvalidPositionError):
        Game(NO_JACOBY, FixedDice([]), position=crowded, first_player=0)
    shared = Position(v, bytes([10] + [0] * 18 + [5] + [0] * 6), pos.theirs)  # my 19 = their 6
    with pytest.raises(InvalidPositionError):
        Game(NO_JACOBY, FixedDice([]), position=shared, first_player=0)


def test_4_custom_position_in_long_nardy() -> None:
    """RULES.md 4 / 3: a long-nardy game from a chosen position starts on the chosen
    player's roll with no lot."""
    pos = position("long", {1: 3, 2: 2}, {1: 5})
    game = Game(Settings(variant="long"), FixedDice([2, 1]), position=pos, first_player=0)
    assert game.phase is Phase.ROLL
    game.roll(0)
    game.play(0, "2/off 1/off")
    assert game.position_for(0).mine[OFF] == 12
    assert_replays(game)


def test_1_9_play_object_with_moves_of_another_play_is_refused_or_normalised() -> None:
    """RULES.md 1.9: only legal plays can be made, and the record must say what was played.
    A :class:`Play` carrying the moves of one legal play and the position of another is
    either refused or recorded as the legal play its position names."""
    game = opening_game()
    plays = game.legal_plays()
    mixed = Play(plays[1].moves, plays[0].position)
    try:
        game.play(0, mixed)
    except NardyError:
        return
    recorded = game.records[-1].play
    assert recorded is not None
    assert game.position_for(0).mine == plays[0].position.mine
    assert str(recorded) == str(plays[0])
    assert_replays(game)
