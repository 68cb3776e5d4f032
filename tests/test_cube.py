"""The doubling cube, written from RULES.md 1.5: centred at 1, who may double and when,
take and pass, redoubles and their limits (a dead cube in a match, 4096 in money play),
beavers, the Jacoby rule, automatic doubles and the
cube switched off.

Dice are scripted with :class:`FixedDice`: the opening roll takes one die per player per
attempt (player 0's, then player 1's), every later roll two dice.
"""

from __future__ import annotations

import random

import pytest
from gameutil import assert_replays, position, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy.core import actions as act
from nardy.core.dice import FixedDice, SeededDice
from nardy.core.errors import ErrorCode
from nardy.core.game import MONEY_CUBE_LIMIT, Cube, Game, GameError, GameResult, Phase
from nardy.core.match import Match
from nardy.core.settings import Settings, SettingsError
from nardy.notation.record import game_record, replay

CHECKERS = 15
OFF = 0
BAR = 25


def play_turn(game: Game) -> None:
    """The player on turn rolls (unless the dice are on the table) and plays the first legal
    play."""
    if game.phase is Phase.ROLL:
        game.roll(game.turn)
    if game.phase is Phase.MOVING:
        game.play(game.turn, game.legal_plays()[0])


def started(settings: Settings, seed: int = 1) -> Game:
    """A game of ``settings`` after its opening roll, dice from a seed."""
    game = Game(settings, SeededDice(seed))
    game.roll_opening()
    return game


# -- centred, who may double, when ------------------------------------------------------------


def test_1_5_cube_starts_centred_at_one() -> None:
    """RULES.md 1.5: at the start the cube is in the middle at value 1."""
    game = Game(Settings(), SeededDice(0))
    assert (game.cube.value, game.cube.owner, game.cube.turned) == (1, None, False)
    game.roll_opening()
    assert (game.cube.value, game.cube.owner) == (1, None)


@pytest.mark.parametrize("doubler", [0, 1])
def test_1_5_either_player_may_double_while_centred(doubler: int) -> None:
    """RULES.md 1.5: either player may double while the cube is centred, on their turn
    before rolling (with ``opening: reroll`` the first player rolls afresh, so may double
    first)."""
    dice = [4, 2] if doubler == 0 else [2, 4]
    game = Game(Settings(opening="reroll"), FixedDice([*dice, 6, 5]))
    game.roll_opening()
    assert (game.phase, game.turn) == (Phase.ROLL, doubler)
    assert game.can_double(doubler) and not game.can_double(1 - doubler)
    game.double(doubler)
    assert game.phase is Phase.DOUBLED
    game.take(1 - doubler)
    assert (game.cube.value, game.cube.owner) == (2, 1 - doubler)


def test_1_5_second_player_may_double_on_their_first_turn() -> None:
    """RULES.md 1.5: the first player has played the opening dice; the other player finds
    the cube centred and may double."""
    game = Game(Settings(), FixedDice([3, 1, 6, 5]))
    game.roll_opening()
    assert not game.can_double(0)  # the dice are already on the table
    with pytest.raises(GameError):
        game.double(0)
    game.play(0, "8/5 6/5")
    assert game.can_double(1) and not game.can_double(0)
    game.double(1)
    game.take(0)
    assert (game.cube.value, game.cube.owner) == (2, 0)


def test_1_5_only_the_owner_may_double_afterwards() -> None:
    """RULES.md 1.5: after a take only the cube's owner may double (redouble)."""
    game = started(Settings(opening="reroll"), seed=3)
    first = game.turn
    game.double(first)
    game.take(1 - first)
    play_turn(game)
    assert game.turn == 1 - first
    # the first player no longer owns the cube, and cannot double on their next turn
    play_turn(game)
    assert game.turn == first and game.phase is Phase.ROLL
    assert not game.can_double(first)
    before = snapshot(game)
    with pytest.raises(GameError, match="owns the cube"):
        game.double(first)
    assert snapshot(game) == before
    play_turn(game)
    assert game.can_double(1 - first)
    game.double(1 - first)
    game.take(first)
    assert (game.cube.value, game.cube.owner) == (4, first)
    assert_replays(game)


def test_1_5_double_only_before_rolling_and_on_ones_turn() -> None:
    """RULES.md 1.5: a double is offered on one's own turn, before rolling."""
    game = Game(Settings(), FixedDice([3, 1, 6, 5]))
    game.roll_opening()
    game.play(0, "8/5 6/5")
    before = snapshot(game)
    with pytest.raises(GameError):
        game.double(0)  # not player 0's turn
    with pytest.raises(GameError):
        game.double(7)
    assert snapshot(game) == before
    game.roll(1)
    assert game.phase is Phase.MOVING
    with pytest.raises(GameError):
        game.double(1)  # already rolled
    assert not game.can_double(1)


def test_1_5_a_player_who_cannot_move_may_still_double() -> None:
    """RULES.md 1.5: a player who cannot move (on the bar against a closed board) may still
    double; after the take the roll passes by itself."""
    closed = {p: 2 for p in range(1, 7)} | {13: 3}
    pos = position("backgammon", {BAR: 1, 6: 5, 8: 3}, closed)
    game = Game(Settings(), FixedDice([6, 5]), position=pos, first_player=0)
    assert game.can_double(0)
    game.double(0)
    game.take(1)
    game.roll(0)
    assert game.turn == 1 and game.records[-1].play is not None
    assert game.records[-1].play.moves == ()
    assert game.records[-1].cube == ("double", "take")
    assert (game.cube.value, game.cube.owner) == (2, 1)
    assert_replays(game)


# -- take and pass ----------------------------------------------------------------------------


def test_1_5_take_doubles_the_stake_and_hands_over_the_cube() -> None:
    """RULES.md 1.5: the doubled player takes: plays on at twice the stake, owning the cube;
    the doubler then rolls."""
    game = started(Settings(opening="reroll"), seed=4)
    doubler = game.turn
    for who in (doubler, 7):
        with pytest.raises(GameError):
            game.take(who)  # no double yet, and never player 7
    game.double(doubler)
    for who in (doubler, 7):
        with pytest.raises(GameError):
            game.take(who)  # only the doubled player answers
    with pytest.raises(GameError):
        game.roll(doubler)  # not before the answer
    game.take(1 - doubler)
    assert (game.cube.value, game.cube.owner, game.cube.turned) == (2, 1 - doubler, True)
    assert (game.phase, game.turn) == (Phase.ROLL, doubler)
    game.roll(doubler)
    assert game.phase in (Phase.MOVING, Phase.ROLL)


@pytest.mark.parametrize(("value", "owner"), [(1, None), (4, 0), (32, 0)])
def test_1_5_pass_loses_at_the_value_before_the_double(value: int, owner: int | None) -> None:
    """RULES.md 1.5: the doubled player passes and loses the game at the value before the
    double (no gammons)."""
    pos = position("backgammon", {1: 1}, {6: 10, 12: 5})  # a gammon if played out
    game = Game(
        Settings(jacoby=False), FixedDice([]), position=pos, first_player=0, cube=Cube(value, owner)
    )
    game.double(0)
    game.pass_double(1)
    assert game.result == GameResult(0, "pass", value, value)
    assert game.over and game.records[-1].cube == ("double", "pass")
    assert game.records[-1].dice is None
    assert_replays(game)


def test_1_5_money_redoubles_go_past_64_and_stop_at_4096() -> None:
    """RULES.md 1.5: in money play the cube goes past 64 and stops at 4096 (GNU Backgammon's
    largest): the double past it is not offered, and refused with the reason."""
    game = started(Settings(opening="reroll"), seed=5)
    values: list[int] = []
    while game.can_double(game.turn):
        game.double(game.turn)
        game.take(1 - game.turn)
        values.append(game.cube.value)
        play_turn(game)
    assert values == [2**k for k in range(1, 13)] and not game.over
    assert game.cube.value == MONEY_CUBE_LIMIT == 4096
    player = game.cube.owner
    while game.turn != player or game.phase is not Phase.ROLL:
        play_turn(game)
    assert "double" not in game.awaiting().kinds(player)
    before = snapshot(game)
    with pytest.raises(GameError, match=r"limit.*4096") as refused:
        game.double(player)
    assert refused.value.code == ErrorCode.NOT_ALLOWED_BY_SETTINGS
    assert snapshot(game) == before
    assert_replays(game)


# -- beavers --------------------------------------------------------------------------------


def test_1_5_beaver_then_doubler_takes() -> None:
    """RULES.md 1.5 ``beaver``: the doubled player redoubles at once keeping the cube; the
    doubler takes: the stake is four times, the beaverer owns the cube."""
    game = started(Settings(beaver=True, opening="reroll"), seed=6)
    doubler = game.turn
    game.double(doubler)
    with pytest.raises(GameError):
        game.beaver(doubler)  # only the doubled player beavers
    game.beaver(1 - doubler)
    assert game.phase is Phase.BEAVERED
    assert (game.cube.value, game.cube.owner) == (2, 1 - doubler)
    before = snapshot(game)
    for action in (
        lambda: game.take(1 - doubler),  # the doubler answers the beaver
        lambda: game.pass_double(1 - doubler),
        lambda: game.beaver(doubler),  # no raccoons
        lambda: game.roll(doubler),
    ):
        with pytest.raises(GameError):
            action()
        assert snapshot(game) == before
    game.take(doubler)
    assert (game.cube.value, game.cube.owner, game.phase) == (4, 1 - doubler, Phase.ROLL)
    assert game.turn == doubler and not game.can_double(doubler)
    play_turn(game)
    assert game.can_double(1 - doubler)
    assert game.records[-1].player == doubler
    assert game.records[-1].cube == ("double", "beaver", "take")
    assert_replays(game)


def test_1_5_beaver_then_doubler_passes() -> None:
    """RULES.md 1.5 ``beaver``: the doubler passes the beaver and loses at the value before
    the redouble (2 from a 1-cube)."""
    game = started(Settings(beaver=True, opening="reroll"), seed=7)
    doubler = game.turn
    game.double(doubler)
    game.beaver(1 - doubler)
    game.pass_double(doubler)
    assert game.result == GameResult(1 - doubler, "pass", 2, 2)
    assert game.records[-1].cube == ("double", "beaver", "pass")
    assert_replays(game)


def test_1_5_beaver_off_by_default() -> None:
    """RULES.md 1.5: beavers are a money-play setting, off by default; refused when off."""
    assert Settings().resolve().beaver is False
    game = started(Settings(opening="reroll"), seed=6)
    doubler = game.turn
    game.double(doubler)
    before = snapshot(game)
    with pytest.raises(GameError, match="beaver"):
        game.beaver(1 - doubler)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "settings",
    [Settings(beaver=True, match_length=5), Settings(beaver=True, cube=False)],
    ids=["match", "cube-off"],
)
def test_1_5_beaver_refused_outside_money_play_with_a_cube(settings: Settings) -> None:
    """RULES.md 1.5 / 1.6: beavers apply only to money play, and need the cube."""
    with pytest.raises(SettingsError, match="beaver"):
        settings.resolve()
    with pytest.raises(SettingsError):
        Game(settings)


# -- Jacoby -----------------------------------------------------------------------------------


def gammon_game(settings: Settings, cube: Cube | None = None) -> Game:
    """Player 0 to roll, one checker left on their 1-point; player 1 has borne off none, so
    bearing off wins a gammon (dice 6-5 follow)."""
    pos = position("backgammon", {1: 1}, {6: 10, 12: 5})
    return Game(settings, FixedDice([6, 5]), position=pos, first_player=0, cube=cube)


def win(game: Game) -> GameResult:
    game.roll(0)
    game.play(0, "1/off")
    assert game.result is not None
    return game.result


def test_1_5_jacoby_on_by_default_in_money_play_only() -> None:
    """RULES.md 1.5: ``jacoby`` is on by default in money play, never in match play."""
    assert Settings().resolve().jacoby is True
    assert Settings(match_length=7).resolve().jacoby is False
    assert Settings(jacoby=False).resolve().jacoby is False
    with pytest.raises(SettingsError, match="jacoby"):
        Settings(match_length=7, jacoby=True).resolve()


def test_1_5_jacoby_gammon_counts_single_if_the_cube_was_never_turned() -> None:
    """RULES.md 1.5 ``jacoby``: a gammon with the cube never turned counts as a single."""
    result = win(gammon_game(Settings()))
    assert (result.kind, result.points) == ("gammon", 1)


def test_1_5_jacoby_backgammon_counts_single_too() -> None:
    """RULES.md 1.5 ``jacoby``: backgammons too count as singles on an unturned cube."""
    pos = position("backgammon", {1: 1}, {BAR: 1, 6: 14})
    game = Game(Settings(), FixedDice([6, 5]), position=pos, first_player=0)
    result = win(game)
    assert (result.kind, result.points) == ("backgammon", 1)


def test_1_5_jacoby_gammon_counts_once_the_cube_is_turned() -> None:
    """RULES.md 1.5 ``jacoby``: after a double and take the gammon counts: 2 x 2."""
    game = gammon_game(Settings())
    game.double(0)
    game.take(1)
    result = win(game)
    assert (result.kind, result.cube, result.points) == ("gammon", 2, 4)
    assert_replays(game)


def test_1_5_jacoby_off_gammon_counts() -> None:
    """RULES.md 1.5: without Jacoby (setting off, or in a match) gammons count in full."""
    assert win(gammon_game(Settings(jacoby=False))).points == 2
    assert win(gammon_game(Settings(match_length=5))).points == 2


def test_1_5_jacoby_applies_to_accepted_resignations() -> None:
    """RULES.md 1.4 / 1.5: the code scores a resigned gammon with Jacoby on and the cube
    never turned as a single (a reading: the rules do not say)."""
    game = gammon_game(Settings())
    game.resign(0, 2)  # an odd resignation, but it shows the scoring
    game.accept_resignation(1)
    assert game.result == GameResult(1, "resign", 1, 1, "gammon")


def test_1_5_jacoby_after_an_automatic_double() -> None:
    """RULES.md 1.5: an automatic double does not turn the cube (the code's reading), so a
    gammon still counts single, at the automatic value 2."""
    pos = position("backgammon", {1: 1}, {6: 10, 12: 5})
    game = Game(
        Settings(automatic_doubles=1),
        FixedDice([6, 5]),
        position=pos,
        first_player=0,
        cube=Cube(2, None, automatic=1),
    )
    result = win(game)
    assert (result.kind, result.cube, result.points) == ("gammon", 2, 2)


# -- automatic doubles ------------------------------------------------------------------------


@pytest.mark.parametrize(("limit", "value"), [(0, 1), (1, 2), (2, 4), (3, 4)])
def test_1_5_automatic_doubles_on_equal_opening_dice_up_to_the_limit(
    limit: int, value: int
) -> None:
    """RULES.md 1.5 ``automatic-doubles``: equal opening dice double the cube, which stays
    in the middle, and are rolled again; at most N such doubles a game."""
    game = Game(Settings(automatic_doubles=limit), FixedDice([3, 3, 5, 5, 6, 1]))
    assert game.roll_opening() == (6, 1)
    assert game.opening_rolls == [(3, 3), (5, 5), (6, 1)]
    assert (game.cube.value, game.cube.owner, game.cube.automatic) == (value, None, min(limit, 2))
    assert (game.turn, game.dice) == (0, (6, 1))
    game.play(0, game.legal_plays()[0])
    assert game.can_double(1)  # still centred: either player may double
    game.double(1)
    game.take(0)
    assert (game.cube.value, game.cube.owner) == (2 * value, 0)
    assert_replays(game)


def test_1_5_automatic_doubles_default_off_and_money_only() -> None:
    """RULES.md 1.5: automatic doubles are off by default; money play only; need the cube."""
    assert Settings().resolve().automatic_doubles == 0
    with pytest.raises(SettingsError, match="automatic-doubles"):
        Settings(match_length=3, automatic_doubles=1).resolve()
    with pytest.raises(SettingsError, match="automatic-doubles"):
        Settings(cube=False, automatic_doubles=1).resolve()
    with pytest.raises(SettingsError):
        Settings(automatic_doubles=-1).resolve()


def test_1_5_automatic_double_passes_at_the_doubled_value() -> None:
    """RULES.md 1.5: after an automatic double to 2, a double to 4 passed loses 2."""
    game = Game(Settings(automatic_doubles=1, opening="reroll"), FixedDice([4, 4, 2, 5]))
    game.roll_opening()
    assert (game.cube.value, game.turn, game.phase) == (2, 1, Phase.ROLL)
    game.double(1)
    game.pass_double(0)
    assert game.result == GameResult(1, "pass", 2, 2)
    assert_replays(game)


# -- the cube's limits ---------------------------------------------------------------------


def at(settings: Settings, score: tuple[int, int], value: int, owner: int | None) -> Game:
    """A game of ``settings`` at the match ``score`` with the cube at ``value``, player 0 on
    roll (a contact position, far from the end)."""
    pos = position("backgammon", {6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    return Game(
        settings,
        FixedDice([6, 5]),
        position=pos,
        first_player=0,
        score=score,
        cube=Cube(value, owner),
    )


@pytest.mark.parametrize(
    ("length", "score", "value", "owner", "allowed"),
    [
        (1, (0, 0), 1, None, False),  # a win at 1 wins a 1-point match: no double at all
        (3, (0, 0), 1, None, True),
        (3, (0, 0), 2, 0, True),  # needs 3: a win at 2 does not win yet
        (3, (0, 0), 4, 0, False),  # ... at 4 it does: the cube in a 3-point match stops at 4
        (3, (1, 0), 2, 0, False),
        (5, (4, 3), 1, None, False),  # post-Crawford, the leader one point away
        (5, (3, 4), 1, None, True),  # ... and the trailer, who needs 2
        (5, (3, 4), 2, 0, False),
        (64, (0, 0), 32, 0, True),  # the longest match: the cube reaches 64
        (64, (0, 0), 64, 0, False),
        (64, (60, 0), 4, 0, False),
    ],
)
def test_1_5_in_a_match_the_cube_is_dead_once_a_win_at_it_wins_the_match(
    length: int, score: tuple[int, int], value: int, owner: int | None, allowed: bool
) -> None:
    """RULES.md 1.5: in a match a player may double only while the cube is below the points
    they still need; a dead cube is not offered, and a double is refused saying why."""
    game = at(Settings(match_length=length), score, value, owner)
    assert game.can_double(0) is allowed
    assert ("double" in game.awaiting().kinds(0)) is allowed
    if allowed:
        game.double(0)
        game.take(1)
        assert game.cube.value == 2 * value
        return
    before = snapshot(game)
    with pytest.raises(GameError, match=f"the cube is dead: a win at {value} already wins"):
        game.double(0)
    assert snapshot(game) == before


def test_1_5_the_opponent_s_dead_cube_does_not_stop_a_double() -> None:
    """RULES.md 1.5: only the doubler's own need counts: at 1-4 in a 5-point match the
    trailer doubles to 2 although a win at 1 already wins the leader the match; the leader,
    owning the cube at 2, may not redouble."""
    game = at(Settings(match_length=5), (1, 4), 1, None)
    game.double(0)
    game.take(1)
    play_turn(game)
    assert (game.turn, game.cube.owner) == (1, 1) and not game.can_double(1)
    with pytest.raises(GameError, match="dead"):
        game.double(1)


def test_1_5_no_beaver_past_the_money_limit() -> None:
    """RULES.md 1.5: a beaver that would take the cube past 4096 is not offered and is
    refused; a beaver to 4096 is."""
    game = at(Settings(beaver=True), (0, 0), 1024, 0)
    game.double(0)
    assert "beaver" in game.awaiting().kinds(1)
    game.beaver(1)
    game.take(0)
    assert (game.cube.value, game.cube.owner) == (4096, 1)
    game = at(Settings(beaver=True), (0, 0), 2048, 0)
    game.double(0)
    assert game.awaiting().kinds(1) == ("take", "pass")
    before = snapshot(game)
    with pytest.raises(GameError, match="no beaver: the cube is at its limit"):
        game.beaver(1)
    assert snapshot(game) == before
    game.take(1)
    assert game.cube.value == 4096


def test_1_5_automatic_doubles_stop_at_the_money_limit() -> None:
    """RULES.md 1.5: automatic doubles stop at 4096: a tie then is rolled again without one."""
    game = Game(Settings(automatic_doubles=2), FixedDice([3, 3, 5, 5, 6, 1]), cube=Cube(2048))
    game.roll_opening()
    assert (game.cube.value, game.cube.automatic) == (4096, 1)
    assert game.opening_rolls == [(3, 3), (5, 5), (6, 1)]


def test_1_5_a_record_replays_its_doubles_past_the_limits() -> None:
    """RULES.md 1.5: the limits are for play; a record of a game that doubled past them
    (written before them, or by another program) still replays, double by double."""
    old = at(Settings(match_length=3), (0, 0), 4, 0)
    old.cube_limits = False  # as nardy played before the limits
    old.double(0)
    old.take(1)
    play_turn(old)
    record = game_record(old)
    assert record["turns"][0]["cube"] == ["double", "take"]
    again = replay(record)
    assert (again.cube.value, again.cube.owner) == (8, 1)


@settings(max_examples=40, deadline=None)
@given(length=st.integers(0, 64), seed=st.integers(0, 2**16))
def test_1_5_the_cube_never_passes_its_limit(length: int, seed: int) -> None:
    """RULES.md 1.5: whoever doubles whenever allowed and always takes (and beavers in money
    play, with automatic doubles), the cube of a match to N never passes twice the largest
    power of two below N, and money play's never passes 4096; a double the game offers is
    never refused."""
    if length:
        game_settings = Settings(match_length=length)
        ceiling = 1 if length == 1 else 2 ** (length - 1).bit_length()
    else:
        game_settings = Settings(beaver=True, automatic_doubles=4, limit_points=1)
        ceiling = MONEY_CUBE_LIMIT
    match = Match(game_settings, SeededDice(seed))
    rng = random.Random(seed)
    highest = 1
    while not match.over:
        game = match.game if match.game is not None and not match.game.over else None
        waiting = match.awaiting(moves=False)
        kinds = waiting.kinds(waiting.player) if waiting.player is not None else ()
        if game is None or game.phase is Phase.OPENING:
            match.apply(act.RollOpening(0))
        elif "double" in kinds:
            match.apply(act.Double(game.turn))
        elif "beaver" in kinds:
            match.apply(act.Beaver(1 - game.turn))
        elif "take" in kinds:
            assert isinstance(waiting.player, int)
            match.apply(act.Take(waiting.player))
        elif "roll" in kinds:
            match.apply(act.Roll(game.turn))
        else:
            plays = game.legal_plays()
            match.apply(act.Play(game.turn, str(rng.choice(plays))))
        for g in match.games:
            highest = max(highest, g.cube.value)
    assert highest <= ceiling


# -- the cube switched off --------------------------------------------------------------------


def test_1_5_cube_off_no_doubling() -> None:
    """RULES.md 1.5 ``cube``: on by default for backgammon; switched off nobody doubles."""
    assert Settings().resolve().cube is True
    settings = Settings(cube=False)
    assert settings.resolve().jacoby is False  # Jacoby needs a cube
    game = started(Settings(cube=False, opening="reroll"), seed=2)
    assert not game.can_double(game.turn)
    before = snapshot(game)
    with pytest.raises(GameError, match="cube is off"):
        game.double(game.turn)
    assert snapshot(game) == before
    with pytest.raises(SettingsError, match="jacoby"):
        Settings(cube=False, jacoby=True).resolve()


def test_1_5_cube_off_scores_gammons_at_one() -> None:
    """RULES.md 1.4 / 1.5: with the cube off a gammon is 2 (the stake is 1)."""
    assert win(gammon_game(Settings(cube=False))).points == 2
