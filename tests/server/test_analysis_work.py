"""What an analysis job computes for the replay (issue 19, feature 2), in every variant the
engine has a net for: ``nardy analyze``'s own document, the board after each best play that
was not played, and player 0's winning chances before and after every turn."""

from __future__ import annotations

import pytest

from nardy.core.dice import SeededDice
from nardy.core.game import Game
from nardy.core.settings import Settings
from nardy.core.view import position_view
from nardy.engine.analysis import analyze
from nardy.engine.analysis_json import analysis_json
from nardy.engine.bots import HeuristicBot, play_game
from nardy.engine.met import match_equity
from nardy.notation.record import game_record
from nardy.server.analysis.work import analyse_records


@pytest.mark.parametrize(
    ("variant", "length"),
    [("backgammon", 3), ("nackgammon", 0), ("acey-deucey", 5), ("long", 3)],
)
def test_each_variant_is_analysed_with_the_boards_and_chances_the_replay_draws(
    variant: str, length: int
) -> None:
    game = Game(Settings(variant=variant, match_length=length), SeededDice(7))
    play_game(game, (HeuristicBot(), HeuristicBot()))
    records = [game_record(game, players=("Ann", "Bob"))]
    progress: list[tuple[int, int]] = []
    result = analyse_records(records, 0, lambda done, total: progress.append((done, total)))

    expected = analysis_json(analyze(records, ply=0))
    got = result["analysis"]
    assert {**got, "seconds": 0} == {**expected, "seconds": 0}  # nardy analyze's document
    assert progress and progress[-1][0] == progress[-1][1]
    (boards,) = result["boards"]
    # a chance before the first turn and after each, the last one the game's result
    chances = boards["chances"]
    assert len(chances) == len(game.records) + 1 and all(0 <= c <= 1 for c in chances)
    winner = got["games"][0]["winner"]
    if length == 0:
        assert chances[-1] == (1.0 if winner == 0 else 0.0)
    else:
        assert (chances[-1] > chances[0]) == (winner == 0)
    # the heuristic bot errs: each erring play has the board its best play reaches
    plays = {p["turn"]: p for p in got["games"][0]["plays"]}
    erring = [t for t, p in plays.items() if p["best"] != p["played"]]
    assert erring and sorted(int(t) for t in boards["best"]) == erring
    for turn in erring:
        record = game.records[turn - 1]
        d1, d2 = plays[turn]["dice"]
        after = record.before.apply(plays[turn]["best"], d1, d2)
        assert boards["best"][str(turn)] == position_view(after, record.player).to_json()


@pytest.mark.parametrize(
    ("score", "crawford", "seed", "crawford_next"),
    [((2, 1), False, 1, True), ((4, 0), True, 4, False), ((4, 1), False, 4, False)],
)
def test_the_chance_after_a_match_game_knows_whether_the_crawford_game_comes_next(
    score: tuple[int, int], crawford: bool, seed: int, crawford_next: bool
) -> None:
    # before the Crawford game, the Crawford game itself, and a post-Crawford game: only
    # the first can lead to a Crawford game (the seeds leave a player one point away)
    settings = Settings(variant="backgammon", match_length=5)
    game = Game(settings, SeededDice(seed), crawford=crawford, score=score)
    play_game(game, (HeuristicBot(), HeuristicBot()))
    records = [game_record(game, players=("Ann", "Bob"), score=score)]
    result = analyse_records(records, 0)

    assert game.result is not None and game.result.winner is not None
    s0, s1 = score
    if game.result.winner == 0:
        s0 += game.result.points
    else:
        s1 += game.result.points
    assert max(s0, s1) == 4  # the match goes on, one of them one point away
    expected = match_equity(5 - s0, 5 - s1, crawford_next)
    assert result["boards"][0]["chances"][-1] == pytest.approx(expected, abs=1e-4)
