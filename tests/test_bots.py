"""The bots and the driver that plays games with them (issue "Game flow", item 6)."""

from __future__ import annotations

from typing import Any

import pytest
from gameutil import rewritten

import nardy
from nardy.core import OFF, Position
from nardy.core.dice import SeededDice
from nardy.core.game import Game, GameError, Phase
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.engine import Bot, HeuristicBot, RandomBot, make_bot
from nardy.engine.bots import keith_count, play_game, play_match, step
from nardy.notation.record import match_records


def full(side: dict[int, int]) -> dict[int, int]:
    """A side with the checkers not listed borne off."""
    return {**side, OFF: 15 - sum(side.values())}


def game_at(
    mine: dict[int, int], theirs: dict[int, int], variant: str = "backgammon", **settings: Any
) -> Game:
    """A game from a chosen position with player 0 (``mine``) on roll."""
    position = Position.from_points(nardy.variant(variant), full(mine), full(theirs))
    return Game(
        Settings(variant=variant, **settings), SeededDice(0), position=position, first_player=0
    )


# -- the protocol and the random bot ------------------------------------------------------


def test_both_bots_are_bots() -> None:
    bots: list[Bot] = [HeuristicBot(), RandomBot(1), make_bot("random", 2), make_bot("heuristic")]
    assert [b.name for b in bots] == ["heuristic", "random", "random", "heuristic"]
    with pytest.raises(ValueError, match="unknown bot 'gnubg'"):
        make_bot("gnubg")


def test_random_bot_plays_legal_plays_reproducibly() -> None:
    start = nardy.BACKGAMMON.start()
    first = [RandomBot(seed=7).choose_play(start, 6, 5) for _ in range(3)]
    again = [RandomBot(seed=7).choose_play(start, 6, 5) for _ in range(3)]
    assert first == again
    bot = RandomBot(seed=1)
    plays = start.legal_plays(3, 1)
    chosen = {bot.choose_play(start, 3, 1) for _ in range(200)}
    assert chosen <= set(plays) and len(chosen) > len(plays) // 2  # uniform-ish, all legal
    assert 1 <= bot.choose_double(start) <= 6


def test_random_bot_never_doubles_when_behind() -> None:
    game = game_at({24: 15}, {6: 15})
    assert not any(RandomBot(seed).should_double(game, 0) for seed in range(50))


# -- the heuristic bot's plays -------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "play"),
    [((3, 1), "8/5 6/5"), ((6, 1), "13/7 8/7"), ((4, 2), "8/4 6/4"), ((6, 5), "24/13")],
)
def test_heuristic_bot_makes_the_standard_opening_points(dice: tuple[int, int], play: str) -> None:
    assert str(HeuristicBot().choose_play(nardy.BACKGAMMON.start(), *dice)) == play


def test_heuristic_bot_hits_a_blot_and_closes_its_board() -> None:
    # Their blot on my 5-point (their 20), my builders on 8, 7 and 6: 3-1 hits and covers.
    position = Position.from_points(
        nardy.variant("backgammon"),
        full({8: 3, 7: 2, 6: 5, 13: 5}),
        full({20: 1, 24: 1, 13: 5, 8: 3, 6: 5}),
    )
    assert str(HeuristicBot().choose_play(position, 3, 1)) == "8/5* 6/5"


def test_heuristic_bot_bears_off_in_a_race() -> None:
    position = Position.from_points(
        nardy.variant("backgammon"), full({6: 2, 5: 2, 1: 1}), full({6: 3})
    )
    assert str(HeuristicBot().choose_play(position, 6, 5)) == "6/off 5/off"


def test_heuristic_bot_in_long_nardy_leaves_the_head() -> None:
    start = nardy.LONG_NARDY.start()
    bot = HeuristicBot()
    assert str(bot.choose_play(start, 6, 6)) == "24/18(2)"
    # Later: one checker may leave the head each turn, and it does.
    after = Position.from_points(nardy.variant("long"), {24: 13, 18: 1, 13: 1}, {24: 14, 20: 1})
    play = bot.choose_play(after, 5, 2)
    assert any(m.start == 24 for m in play.moves)


def test_heuristic_bot_names_the_best_double() -> None:
    # Acey-deucey after a 1-2: with every checker still waiting, 6-6 brings in four
    # checkers deepest... the bot names the double whose best play it values most.
    bot = HeuristicBot()
    position = nardy.ACEY_DEUCEY.start()
    die = bot.choose_double(position)
    best = {
        d: max(bot.evaluate(p.position) for p in position.legal_plays(d, d)) for d in range(1, 7)
    }
    assert best[die] == max(best.values())


# -- the heuristic bot's cube --------------------------------------------------------------


def test_keith_count() -> None:
    position = Position.from_points(
        nardy.variant("backgammon"), full({1: 3, 2: 2, 3: 5}), full({6: 2})
    )
    # 3 + 4 + 15 pips; +4 for two extra on the 1, +1 for one extra on the 2, +2 for two
    # beyond three on the 3, +3 for the empty 4, 5 and 6.
    assert keith_count(position) == (22 + 10, 12 + 2)


@pytest.mark.parametrize(
    ("theirs", "double", "take"),
    [
        ({6: 5, 5: 5, 4: 5}, False, True),  # level race: too early to double
        ({6: 8, 5: 6, 4: 1}, True, True),  # adjusted count within 4: double; 2+ over: take
        ({6: 8, 5: 7}, True, False),  # within 2: double and pass
    ],
)
def test_race_cube_by_the_keith_count(theirs: dict[int, int], double: bool, take: bool) -> None:
    game = game_at({6: 5, 5: 5, 4: 5}, theirs)  # 75 pips, Keith count 75
    bot = HeuristicBot()
    assert bot.should_double(game, 0) is double
    game.double(0)
    assert bot.should_take(game, 1) is take
    assert not bot.should_beaver(game, 1)


def test_race_beaver_when_the_doubler_is_behind() -> None:
    game = game_at({6: 5, 5: 5, 4: 5}, {6: 3, 5: 4, 4: 3, 3: 3, 2: 2}, beaver=True)
    game.double(0)
    assert HeuristicBot().should_beaver(game, 1)


def test_long_nardy_race_cube_by_the_8_9_12_rule() -> None:
    bot = HeuristicBot()
    # 75 pips against 82 (theirs in their own numbering): a 9% lead; double, and take.
    game = game_at({6: 5, 5: 5, 4: 5}, {6: 8, 5: 6, 4: 1}, "long", cube=True)
    assert game.position.pips() == (75, 82) and game.position.is_race()
    assert bot.should_double(game, 0)
    game.double(0)
    assert bot.should_take(game, 1)
    # 75 against 85: 13% ahead, too far for a take.
    game = game_at({6: 5, 5: 5, 4: 5}, {6: 10, 5: 5}, "long", cube=True)
    game.double(0)
    assert not bot.should_take(game, 1)
    # 75 against 80: under 8%, no double yet.
    assert not bot.should_double(game_at({6: 5, 5: 5, 4: 5}, {6: 5, 5: 10}, "long", cube=True), 0)


def test_contact_cube_doubles_a_strong_attack_and_passes_it() -> None:
    # Two of theirs on the bar against my five-point board, and a pip lead.
    mine = {6: 3, 5: 3, 4: 2, 3: 2, 2: 2, 8: 3}
    theirs = {25: 2, 24: 0, 6: 5, 8: 3, 13: 5}
    bot = HeuristicBot()
    game = game_at(mine, theirs)
    assert bot.lead(game.position) > bot.TAKE_LEAD
    assert bot.should_double(game, 0)  # Jacoby (money play): gammons need the cube turned
    game.double(0)
    assert not bot.should_take(game, 1)
    # Without Jacoby this is too good: play on for the gammon.
    assert not bot.should_double(game_at(mine, theirs, jacoby=False), 0)
    # At the start nobody doubles.
    start = Game(Settings(), SeededDice(1), position=nardy.BACKGAMMON.start(), first_player=0)
    assert not bot.should_double(start, 0)


def test_resignations() -> None:
    bot = HeuristicBot()
    # Way ahead, their checkers still in my home board, none borne off: a backgammon is on.
    game = game_at({1: 2, 2: 2}, {21: 2, 18: 5, 13: 5, 6: 3})
    assert not bot.accept_resignation(game, 0, 1)
    assert not bot.accept_resignation(game, 0, 2)
    assert bot.accept_resignation(game, 0, 3)
    # Behind: any resignation is welcome.
    game = game_at({24: 15}, {6: 15})
    assert bot.accept_resignation(game, 0, 1)


# -- the driver ----------------------------------------------------------------------------


def test_who_decides_and_step() -> None:
    """``awaiting().player`` (which replaced the engine's own who-decides function) names
    the seat that ``step`` asks."""
    game = Game(Settings(beaver=True), SeededDice(4))
    assert game.awaiting().player is None
    assert step(game, (None, None)).startswith("opening roll ")
    mover = game.turn
    with pytest.raises(ValueError, match=f"player {mover} is not a bot"):
        step(game, (None, None))
    assert game.awaiting().player == mover
    game.play(mover, game.legal_plays()[0])
    game.double(1 - mover)
    assert game.awaiting().player == mover  # the doubled player answers
    game.beaver(mover)
    assert game.awaiting().player == 1 - mover  # and the doubler answers the beaver
    bots = (HeuristicBot(), HeuristicBot())
    assert step(game, bots) in ("takes the beaver", "passes the beaver")


def test_step_undoes_single_moves_before_a_bot_plays() -> None:
    game = Game(Settings(), SeededDice(3))
    game.roll_opening()
    mover = game.turn
    game.move(mover, *_first_single(game))
    bots = (HeuristicBot(), HeuristicBot())
    assert step(game, bots).startswith("plays ")
    assert game.phase is Phase.ROLL and game.turn == 1 - mover


def _first_single(game: Game) -> tuple[int, int]:
    move = game.next_moves()[0]
    return move.start, move.end


@pytest.mark.parametrize(
    "settings",
    [
        Settings(match_length=5),
        Settings(beaver=True, automatic_doubles=2, limit_points=4),
        Settings(variant="nackgammon", jacoby=False, backgammon_value=2, limit_points=4),
        Settings(variant="acey-deucey", match_length=3),
        Settings(variant="long", match_length=3, cube=True, last_roll=True),
        Settings(variant="long", ending="oin", first_move_in_series="alternate", limit_points=3),
    ],
    ids=["match", "beaver", "nack", "acey", "long-cube", "long-series"],
)
def test_bots_play_whole_matches_that_replay(settings: Settings) -> None:
    match = Match(settings, SeededDice(12), players=("H", "R"))
    play_match(match, (HeuristicBot(), RandomBot(seed=12)))
    assert match.over
    for record in match_records(match):
        assert rewritten(record) == record


def test_play_game_returns_the_result() -> None:
    game = Game(Settings(variant="long"), SeededDice(2))
    result = play_game(game, (RandomBot(1), HeuristicBot()))
    assert game.over and result is game.result
    with pytest.raises(ValueError, match="over"):
        step(game, (RandomBot(1), HeuristicBot()))
    with pytest.raises(GameError):
        game.roll(0)


@pytest.mark.parametrize(("variant", "games"), [("backgammon", 16), ("long", 4)])
def test_heuristic_bot_beats_the_random_bot(variant: str, games: int) -> None:
    wins = 0
    for i in range(games):
        seat = i % 2
        bots: list[Bot] = [RandomBot(seed=i), RandomBot(seed=i)]
        bots[seat] = HeuristicBot()
        result = play_game(Game(Settings(variant=variant), SeededDice(i)), (bots[0], bots[1]))
        wins += result.winner == seat
    assert wins >= games * 0.9
