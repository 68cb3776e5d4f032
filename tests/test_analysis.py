"""Analysis (``nardy.engine.analysis``): ranked plays in the evaluator's order with equities that
follow from their probabilities, gnubg's thresholds, and games judged — the heuristic bot's
errors seen, the net's own 0-ply choices not, the luck of a roll, and cube errors."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from conftest import pos

import nardy
from nardy.core import NardyError, Play, Position
from nardy.core.dice import FixedDice, SeededDice
from nardy.core.game import Cube, Game, Phase
from nardy.core.settings import Settings
from nardy.engine import analysis, features_long
from nardy.engine.analysis import (
    DEEPER_AMONG,
    DEEPER_MARGIN,
    DEEPER_PLY,
    RankedPlay,
    analyze,
    analyze_game,
    cube_action_key,
    cube_analysis,
    deepened,
    evaluate,
    luck_mark,
    luck_rating,
    rank_plays,
    rating,
    skill,
)
from nardy.engine.analysis_json import cube_action_json
from nardy.engine.bots import HeuristicBot, play_game, step
from nardy.engine.cube import Action, MatchState, MoneyRules
from nardy.engine.evaluator import ROLLS, evaluator, for_net
from nardy.engine.net import Net, equity, flip
from nardy.engine.neural import NeuralBot
from nardy.engine.rollout import STRATUM, rollouts
from nardy.engine.stakes import Stakes
from nardy.notation import parse_position, position_from_id
from nardy.notation.record import game_record

CONTACT = position_from_id("mGs8Awiw8+CAQQ", "backgammon")
CLOSED_OUT = position_from_id("27YdAAAA8P8DQA", "backgammon")
"""X on the bar against a closed board: no roll lets him in."""


class NetBot(HeuristicBot):
    """The net's own 0-ply checker play (the heuristic's cube): what a 0-ply analysis must
    find no fault with."""

    name = "net0"

    def choose_play(
        self,
        position: Position,
        d1: int,
        d2: int,
        stakes: Stakes | None = None,
        chosen: bool = False,
    ) -> Play:
        return rank_plays(position, d1, d2, 0, stakes=stakes, chosen=chosen)[0].play


@functools.cache
def bot_game() -> dict[str, Any]:
    """One money game, the heuristic bot (player 0) against the net at 0-ply (player 1)."""
    game = Game(Settings(), SeededDice(21))
    play_game(game, (HeuristicBot(), NetBot()))
    return game_record(game, players=("Heuristic", "Net"))


# -- hints ------------------------------------------------------------------------------------


@pytest.mark.parametrize("ply", [0, 1])
def test_ranked_plays_are_in_the_evaluators_order(ply: int) -> None:
    ev = evaluator("backgammon")
    for position, dice in ((nardy.BACKGAMMON.start(), (6, 5)), (CONTACT, (4, 2))):
        ranked = rank_plays(position, *dice, ply)
        expected = ev.rank(position, *dice, ply)
        assert [(r.play.position.mine, r.play.position.theirs) for r in ranked] == [
            c.after for c in expected
        ]
        assert {str(r.play) for r in ranked} == {str(p) for p in position.legal_plays(*dice)}
        for r in ranked:
            win, wg, wbg, lg, lbg = (float(x) for x in r.outputs)
            assert r.equity == pytest.approx(2 * win - 1 + wg - lg + wbg - lbg, abs=1e-5)
            assert all(0 <= float(x) <= 1 for x in r.outputs)
        equities = [r.equity for r in ranked if r.ply == ranked[0].ply]
        assert equities == sorted(equities, reverse=True)


def test_a_roll_without_a_choice_is_valued_at_the_ply_asked() -> None:
    # No legal move (the evaluator's ranking leaves a lone candidate at 0-ply) and a forced
    # play are valued as deep as the plays of any other roll.
    ev = evaluator("backgammon")
    for ply in (1, 2):
        (only,) = rank_plays(CLOSED_OUT, 6, 6, ply)
        assert only.ply == ply and str(only.play) == ""
        deep = ev.after(CLOSED_OUT.variant, [(CLOSED_OUT.mine, CLOSED_OUT.theirs)], ply)[0]
        np.testing.assert_allclose(only.outputs, deep, atol=1e-6)
    (forced,) = rank_plays(pos("backgammon", {1: 1}, {6: 15}), 6, 5, 1)
    assert forced.ply == 1


def test_the_cube_looks_at_least_one_roll_ahead() -> None:
    outputs, decision = cube_analysis(CONTACT, Stakes(), ply=0)
    np.testing.assert_allclose(outputs, evaluate(CONTACT, 1), atol=1e-6)
    assert decision == cube_analysis(CONTACT, Stakes(), ply=1)[1]


def test_money_plays_cube_stops_at_4096_for_the_analysis_too() -> None:
    """RULES.md 1.5: at 4096 money play's cube is not doubled, so the analysis judges no
    double there; at 2048 the double is judged, but no beaver (to 8192) is counted on."""
    outputs = evaluate(CONTACT, 1)
    top = Stakes(cube=4096)
    assert top.cube_dead and not Stakes(cube=2048).cube_dead
    assert top.decision(outputs, CONTACT).text == "No double: the cube is at 4096"
    beavers = MoneyRules(beaver=True)
    assert Stakes(cube=1024, money=beavers).decision(outputs, CONTACT).double_beaver is not None
    below = Stakes(cube=2048, money=beavers).decision(outputs, CONTACT)
    assert below.double_take is not None and below.double_beaver is None
    game = Game(Settings(beaver=True), position=CONTACT, first_player=0, cube=Cube(2048))
    assert NeuralBot().cube_decision(game).double_beaver is None  # the bot's own decision


def test_a_dead_cube_is_no_decision_unless_a_double_is_offered() -> None:
    # X at 5 in a 7-point match with the cube on 2: a single game wins him the match.
    dead = Stakes(cube=2, match=MatchState(7, 5, 2))
    assert dead.cube_dead and not Stakes(cube=2, match=MatchState(7, 4, 2)).cube_dead
    assert not Stakes(cube=64).cube_dead  # money play has no dead cube
    outputs = evaluate(CONTACT, 1)
    d = dead.decision(outputs, CONTACT)
    assert (d.action, d.double_take, d.text) == (
        Action.UNAVAILABLE,
        None,
        "No double: the cube is dead",
    )
    assert cube_action_key(d) == "cannot-double"
    # A double offered all the same is answered: the taker's decision has its equities.
    answered = dead.decision(outputs, CONTACT, doubled=True)
    assert answered.double_take is not None and answered.response is not None
    assert cube_action_key(Stakes().decision(outputs, CONTACT)) in ("no-double", "double-take")


def _plain_turns(game: Game, turns: int) -> None:
    """Roll and make the first legal play, ``turns`` times, without touching the cube."""
    for _ in range(turns):
        player = game.turn
        game.roll(player)
        if game.phase is Phase.MOVING:
            game.play(player, game.legal_plays()[0])


@pytest.mark.parametrize(
    ("score", "game", "deciders"),
    [
        ((4, 2), {"cube": Cube(2, None)}, {0, 1}),  # alive for both
        ((5, 2), {"cube": Cube(2, None)}, {1}),  # dead for player 0, 2 away with a 2-cube
        ((6, 2), {"crawford": True}, set()),  # the Crawford game
        ((0, 0), {"cube": Cube(2, 1)}, {1}),  # player 1 owns the cube
    ],
    ids=["alive", "dead", "crawford", "owned"],
)
def test_cube_decisions_only_where_the_player_could_double(
    score: tuple[int, int], game: dict[str, Any], deciders: set[int]
) -> None:
    played = Game(
        Settings(match_length=7),
        SeededDice(5),
        position=nardy.BACKGAMMON.start(),
        first_player=0,
        score=score,
        **game,
    )
    _plain_turns(played, 8)
    judged = analyze_game(played, ply=0, score=score)
    assert {c.player for c in judged.cubes} == deciders
    assert all(c.role == "double" and c.action == "no double" for c in judged.cubes)
    for player in (0, 1):  # no decision, nothing counted against the error rate
        if player not in deciders:
            assert judged.stats[player].cube_decisions == 0
    assert all(c.decision.action is not Action.UNAVAILABLE for c in judged.cubes)


def test_a_dead_cube_doubled_all_the_same_is_judged() -> None:
    played = Game(
        Settings(match_length=7),
        SeededDice(5),
        position=nardy.BACKGAMMON.start(),
        first_player=0,
        score=(5, 2),
        cube=Cube(2, None),
        cube_limits=False,  # as a record from before the limits of RULES.md 1.5 replays
    )
    played.double(0)
    played.take(1)
    _plain_turns(played, 2)
    double, take = analyze_game(played, ply=0, score=(5, 2)).cubes[:2]
    assert (double.player, double.action, take.player, take.action) == (0, "double", 1, "take")
    assert double.close and double.decision.double_take is not None


def test_one_ply_is_the_average_best_play_over_the_rolls() -> None:
    mean = np.zeros(5)
    for d1, d2, weight in ROLLS:
        mean += weight * rank_plays(CONTACT, d1, d2, 0)[0].outputs
    np.testing.assert_allclose(evaluate(CONTACT, 1), mean, atol=1e-5)


def test_a_finished_game_is_valued_exactly() -> None:
    lost = pos("backgammon", {6: 15}, {})  # the opponent is off, none of mine: a gammon
    assert evaluate(lost, 2).tolist() == [0, 0, 0, 1, 0]


def test_match_stakes_weigh_gammons_by_the_score() -> None:
    outputs = np.array([0.5, 0.3, 0.0, 0.0, 0.0], dtype=np.float32)
    assert Stakes().equity(outputs) == pytest.approx(0.3)
    double_match_point = Stakes(match=MatchState(5, 4, 4))  # gammons count nothing
    assert double_match_point.equity(outputs) == pytest.approx(0.0, abs=1e-9)
    assert double_match_point.mwc(outputs) == pytest.approx(0.5)
    at_score = Stakes(cube=2, match=MatchState(7, 3, 1))
    flipped = flip(outputs[None, :])[0]
    assert at_score.swap().equity(flipped) == pytest.approx(-at_score.equity(outputs))


def test_gnubgs_thresholds() -> None:
    assert [skill(x) for x in (0.04, 0.0401, 0.08, 0.0801, 0.16, 0.1601)] == [
        None,
        "doubtful",
        "doubtful",
        "bad",
        "bad",
        "very bad",
    ]
    assert rating(0.0019) == "Supernatural" and rating(0.002) == "World class"
    assert rating(0.0119) == "Advanced" and rating(0.0349) == "Beginner"
    assert rating(0.035) == "Awful!"
    assert [luck_mark(x) for x in (0.61, 0.31, 0.3, -0.3, -0.31, -0.61)] == [
        "very lucky",
        "lucky",
        None,
        None,
        "unlucky",
        "very unlucky",
    ]
    assert luck_rating(0.07) == "Go to Las Vegas" and luck_rating(-0.04) == "Bad dice, man!"
    assert luck_rating(0.0) == "None"


# -- games ------------------------------------------------------------------------------------


def test_the_heuristic_bots_errors_are_seen_and_the_nets_own_play_is_not() -> None:
    record = bot_game()
    a = analyze([record], ply=0)
    heuristic, net = a.stats
    assert net.unforced > 10 and net.checker_error < 1e-6 and sum(net.marked.values()) == 0
    assert heuristic.checker_error > 0.2 and sum(heuristic.marked.values()) > 0
    assert heuristic.error_rate is not None and heuristic.error_rate > 0.01
    errors = [p for p in a.games[0].plays if p.skill is not None]
    assert all(p.player == 0 and p.best != p.played and p.loss > 0.04 for p in errors)
    # Every turn with a roll is judged once, and its roll's luck measured.
    rolled = [t for t in record["turns"] if "dice" in t]
    assert len(a.games[0].rolls) == len(rolled)
    assert heuristic.moves + net.moves == len([t for t in rolled if "play" in t])
    # The result and the luck-adjusted result are zero-sum.
    assert heuristic.result == -net.result != 0
    assert sum(a.luck_adjusted) == pytest.approx(0.0)


def _reached(r: RankedPlay) -> tuple[bytes, bytes]:
    return (r.play.position.mine, r.play.position.theirs)


def test_the_best_few_and_the_play_made_are_judged_again_at_2_ply() -> None:
    """Issue 20: an odd ply exaggerates, and 2-ply picks gnubg's best play more often. Under
    2-ply the analysis values the best few plays of the ranking (within the margin of its
    best) and the play made again at 2-ply, each as a 2-ply ranking values it, and judges
    the play by those; the other plays follow as they were ranked. A 0-ply ranking, asked
    for its speed, and a 2-ply one stand."""
    a = analyze([bot_game()], ply=1)
    plays = [p for p in a.games[0].plays if not p.forced]
    assert all(p.choices > 1 for p in plays)  # the roll's plays, not the few judged again
    checked = 0
    for p in plays:
        before = position_from_id(p.position)
        made = before.parse_play(p.played, *p.dice).position
        reached = (made.mine, made.theirs)
        ranked = rank_plays(before, *p.dice, 1)
        again = deepened(before, *p.dice, ranked, reached)
        best = ranked[0].equity
        chosen = {
            _reached(r) for r in ranked[:DEEPER_AMONG] if best - r.equity <= DEEPER_MARGIN
        } | {reached}
        if len(chosen) < 2:  # the play made is far ahead of every other: 1-ply stands
            assert again == ranked
            assert p.ply == 1
            continue
        assert p.ply == DEEPER_PLY
        if checked == 2:  # two: 2-ply rankings of every play cost a second each
            continue
        checked += 1
        deeper = {_reached(r): r.equity for r in rank_plays(before, *p.dice, DEEPER_PLY)}
        head, rest = again[: len(chosen)], again[len(chosen) :]
        assert {_reached(r) for r in head} == chosen
        for r in head:
            assert r.ply == DEEPER_PLY
            assert r.equity == pytest.approx(deeper[_reached(r)])
        assert [r.equity for r in head] == sorted((r.equity for r in head), reverse=True)
        assert rest == [r for r in ranked if _reached(r) not in chosen]
        assert p.best_equity == pytest.approx(head[0].equity)
        assert p.played_equity == pytest.approx(deeper[reached])
    assert checked == 2


def test_a_play_marked_bad_is_judged_by_a_rollout_against_the_best(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 20: where the lookahead marks a play bad or very bad, that play and the best
    are rolled out against each other (the same dice, truncated, in blocks of 36 games
    until the mark is clear) and ranked by the rollout, first; the rest follow as they
    were; where that rollout still marks the play, a second one of games twice as long
    judges it. The worst play of a middle-game roll is marked by any reasonable net."""
    stakes = Stakes()
    _, weights = analysis._linear(stakes)
    rolled = analysis._rolled_loss
    calls: list[tuple[int, float, float]] = []  # each rollout's plays a game, mark, loss

    def recorded(
        starts: Any, truncate: int, marked: float, ev: Any, w: Any, kept: Any
    ) -> tuple[Any, list[np.ndarray]]:
        results, means = rolled(starts, truncate, marked, ev, w, kept)
        calls.append((truncate, marked, float((means[0] - means[1]) @ weights)))
        return results, means

    monkeypatch.setattr(analysis, "_rolled_loss", recorded)
    ranked = analysis.ranking(CONTACT, 5, 3, 1, stakes=stakes)
    top = ranked[0].equity
    # a play marked bad or very bad, but not so far behind that it stays very bad anyway
    worse = _reached(next(r for r in ranked if analysis.BAD < top - r.equity < 0.2))
    ranked = analysis.ranking(CONTACT, 5, 3, 1, stakes=stakes, made=worse)
    made = analysis.rank_of(ranked, worse)
    assert skill(ranked[0].equity - ranked[made].equity) in analysis.MARKED
    judged = analysis.confirmed(CONTACT, 5, 3, ranked, worse, stakes=stakes)
    head, rest = judged[:2], judged[2:]
    assert {_reached(r) for r in head} == {_reached(ranked[0]), worse}
    games = head[0].rollout
    assert games == head[1].rollout and games % STRATUM == 0
    assert STRATUM <= games <= analysis.CONFIRM_GAMES
    assert rest == [r for i, r in enumerate(ranked) if i not in (0, made)]
    # Games of 10 plays against the lookahead's loss; then, where their loss is still over
    # 0.08, games of 20 against that loss.
    first = (analysis.CONFIRM_TRUNCATE, ranked[0].equity - ranked[made].equity)
    assert calls[0][:2] == pytest.approx(first)
    if calls[0][2] > analysis.BAD:
        assert [c[:2] for c in calls[1:]] == [(analysis.CONFIRM_LONGER, calls[0][2])]
    else:
        assert len(calls) == 1
    # The values are the last rollout's over those games, the same dice for both plays
    # (money: the cubeless equity, its games' mean).
    again = rollouts(
        [Position(CONTACT.variant, *_reached(ranked[i])) for i in (0, made)],
        games=games,
        truncate=calls[-1][0],
        after_play=True,
        jobs=1,
    )
    by_play = {_reached(r): r for r in head}
    for i, result in zip((0, made), again, strict=True):
        r = by_play[_reached(ranked[i])]
        assert r.equity == pytest.approx(result.equity, abs=1e-5)
        np.testing.assert_allclose(r.outputs, result.outputs, atol=1e-6)
    assert head[0].equity >= head[1].equity
    # The play that is not marked and a ranking at 0-ply stand as they are.
    best = _reached(ranked[0])
    assert analysis.confirmed(CONTACT, 5, 3, ranked, best, stakes=stakes) == ranked
    quick = analysis.ranking(CONTACT, 5, 3, 0, stakes=stakes)
    assert analysis.confirmed(CONTACT, 5, 3, quick, worse, stakes=stakes) == quick


def test_a_play_far_behind_is_rolled_out_twice() -> None:
    """However far behind the lookahead puts a play, a rollout judges it (here the worst
    play of a middle-game roll: it stays very bad)."""
    stakes = Stakes()
    worst = _reached(analysis.ranking(CONTACT, 4, 3, 1, stakes=stakes)[-1])
    far = analysis.ranking(CONTACT, 4, 3, 1, stakes=stakes, made=worst)
    assert far[0].equity - far[analysis.rank_of(far, worst)].equity > 0.45
    judged = analysis.confirmed(CONTACT, 4, 3, far, worst, stakes=stakes)
    mine = analysis.rank_of(judged, worst)
    games = judged[mine].rollout
    assert games and games % STRATUM == 0
    assert skill(judged[0].equity - judged[mine].equity) == "very bad"
    # marked by the first rollout too, so judged by the second, of games twice as long
    again = rollouts(
        [Position(CONTACT.variant, *_reached(far[i])) for i in (0, analysis.rank_of(far, worst))],
        games=games,
        truncate=analysis.CONFIRM_LONGER,
        after_play=True,
        jobs=1,
    )
    assert [judged[0].equity, judged[mine].equity] == pytest.approx(
        [r.equity for r in again], abs=1e-5
    )


def test_a_race_its_distributions_settle_is_not_rolled_out() -> None:
    """A race whose chances the distributions of rolls settle (here both sides in the
    endgame bear-off database) is judged by them, not by a net's games."""
    race = pos("backgammon", {6: 2, 5: 2, 4: 2, 3: 1, 1: 2}, {6: 2, 5: 3, 2: 2, 1: 3})
    ranked = analysis.ranking(race, 6, 5, 1)
    worst = _reached(ranked[-1])
    ranked = analysis.ranking(race, 6, 5, 1, made=worst)
    assert skill(ranked[0].equity - ranked[-1].equity) in analysis.MARKED  # 6/1 6/off
    assert evaluator("backgammon").exact(race.variant, [_reached(r) for r in ranked]) == [
        True,
        True,
    ]
    assert analysis.confirmed(race, 6, 5, ranked, worst) == ranked


def test_a_race_left_to_the_net_is_rolled_out() -> None:
    """Fifteen checkers a side: beyond the distributions (the net values the race), so a
    marked play is rolled out as in contact; ten plays on, the games' ends are mostly in
    the bear-off database."""
    race = pos("backgammon", {6: 3, 5: 3, 4: 2, 3: 2, 2: 1, 1: 4}, {6: 2, 5: 3, 4: 3, 2: 2, 1: 5})
    ranked = analysis.ranking(race, 6, 5, 1)
    worst = _reached(ranked[-1])
    ranked = analysis.ranking(race, 6, 5, 1, made=worst)
    assert skill(ranked[0].equity - ranked[-1].equity) in analysis.MARKED  # 6/1 6/off
    assert not any(evaluator("backgammon").exact(race.variant, [_reached(r) for r in ranked]))
    head = analysis.confirmed(race, 6, 5, ranked, worst)[:2]
    assert {_reached(r) for r in head} == {_reached(r) for r in ranked}
    assert all(r.rollout and r.rollout % STRATUM == 0 for r in head)


def test_long_nardy_is_not_rolled_out() -> None:
    """Only backgammon's geometry, where GNU Backgammon measured what the rollouts do."""
    early = position_from_id("AACA/z8AAAb+Pw", "long")  # README's: an early middle game
    ranked = analysis.ranking(early, 3, 1, 1)
    worst = _reached(ranked[-1])
    ranked = analysis.ranking(early, 3, 1, 1, made=worst)
    assert skill(ranked[0].equity - ranked[-1].equity) in analysis.MARKED
    assert analysis.confirmed(early, 3, 1, ranked, worst) == ranked


CLOSE_CUBE = position_from_id("mT3BYCCwzzMGAA", "backgammon")
"""X 65% to win a middle game with few gammons: double, take (GNU Backgammon 2-ply)."""


def _double_against_playing_on(position: Position, stakes: Stakes) -> float:
    d = cube_analysis(position, stakes, 1)[1]
    assert d.double_take is not None and d.double_pass is not None
    return min(d.double_take, d.double_pass) - d.no_double


def test_a_close_cube_decision_is_judged_on_its_chances_rolled_out() -> None:
    """Issue 20: where the lookahead values the double within CUBE_CLOSE of playing on, the
    decision is the cube model's on the position's chances rolled out (truncated games, in
    blocks of 36 until the action is clear), for the doubler and for the answer alike."""
    stakes = Stakes()
    assert _double_against_playing_on(CLOSE_CUBE, stakes) > -analysis.CUBE_CLOSE
    ahead = cube_analysis(CLOSE_CUBE, stakes, 1)[1]
    decision, games = analysis.cube_confirmed(CLOSE_CUBE, stakes, ahead, 1)
    assert games % STRATUM == 0 and STRATUM <= games <= analysis.CUBE_GAMES
    (again,) = rollouts([CLOSE_CUBE], games=games, truncate=analysis.CUBE_TRUNCATE, jobs=1)
    assert decision == stakes.decision(again.outputs, CLOSE_CUBE)
    # In a game: the double and the take are judged against the rolled-out decision (of
    # the answer, as the double was made).
    game = Game(Settings(), FixedDice([6, 5]), position=CLOSE_CUBE, first_player=0)
    game.double(0)
    game.take(1)
    game.roll(0)
    game.play(0, game.legal_plays()[0])
    judged = analyze_game(game, ply=1)
    assert [(c.role, c.rollout) for c in judged.cubes] == [("double", games), ("take", games)]
    answer = stakes.decision(again.outputs, CLOSE_CUBE, doubled=True)
    assert all(c.decision == answer for c in judged.cubes)
    assert [cube_action_json(c, False)["rollout"] for c in judged.cubes] == [games, games]


def test_a_cube_decision_far_from_a_double_a_race_long_nardy_and_0_ply_are_not_rolled_out() -> None:
    """Only a close decision (far from it, the lookahead's stands), backgammon's geometry
    and not a race (valued by its distributions of rolls), and not at 0-ply."""
    stakes = Stakes()
    behind = CLOSE_CUBE.swap()
    race = pos(
        "backgammon", {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1}
    )
    early = position_from_id("AACA/z8AAAb+Pw", "long")
    assert _double_against_playing_on(behind, stakes) <= -analysis.CUBE_CLOSE
    for position in (race, early):
        assert _double_against_playing_on(position, stakes) > -analysis.CUBE_CLOSE
    for position, ply in ((behind, 1), (race, 1), (early, 1), (CLOSE_CUBE, 0)):
        ahead = cube_analysis(position, stakes, ply)[1]
        assert analysis.cube_confirmed(position, stakes, ahead, ply) == (ahead, 0)


def test_the_rollouts_measure_is_the_stakes_own_where_the_chances_are_consistent() -> None:
    """A rollout's games corrected for luck may lie outside [0, 1]; its mean equity is the
    stakes' linear measure of each game, which is the stakes' own equity of consistent
    chances (a match score that weighs gammons, and money)."""
    rng = np.random.default_rng(5)
    win = rng.uniform(0, 1, 50)
    rows = np.stack([win, win * 0.3, win * 0.05, (1 - win) * 0.4, (1 - win) * 0.1], axis=1).astype(
        np.float32
    )
    for stakes in (Stakes(), Stakes(match=MatchState(7, 3, 5))):
        base, weights = analysis._linear(stakes)
        np.testing.assert_allclose(base + rows @ weights, stakes.equities(rows), atol=1e-4)


@pytest.mark.parametrize("ply", [0, DEEPER_PLY])
def test_a_ranking_at_0_or_2_ply_is_not_deepened(ply: int) -> None:
    ranked = rank_plays(CONTACT, 4, 2, ply)
    assert deepened(CONTACT, 4, 2, ranked) == ranked


def test_worker_processes_judge_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    alone = analyze([bot_game()], ply=0, jobs=1)
    monkeypatch.setattr(analysis, "TURNS_PER_PROCESS", 10)  # a pool even for one game
    shared = analyze([bot_game()], ply=0, jobs=2)
    # The same judgements, to the rounding of the matrix products (one BLAS thread each).
    for a, b in zip(shared.games[0].plays, alone.games[0].plays, strict=True):
        assert (a.turn, a.played, a.best, a.choices) == (b.turn, b.played, b.best, b.choices)
        assert a.played_equity == pytest.approx(b.played_equity, abs=1e-5)
        assert a.best_equity == pytest.approx(b.best_equity, abs=1e-5)
    for r, q in zip(shared.games[0].rolls, alone.games[0].rolls, strict=True):
        assert (r.turn, r.dice) == (q.turn, q.dice)
        assert r.luck == pytest.approx(q.luck, abs=1e-5)


def test_the_luck_of_the_only_winning_roll() -> None:
    # X wins only with 6-6 (four checkers on the six point); O bears off next turn.
    start = pos("backgammon", {6: 4}, {1: 2})
    game = Game(Settings(cube=False), FixedDice([6, 6]), position=start, first_player=0)
    game.roll(0)
    game.play(0, game.legal_plays()[0])
    roll = analyze_game(game, ply=0).rolls[0]
    # Winning is worth +1 exactly; every other roll loses, which the 0-ply net values at a
    # little above -1: the luck is nearly 1 + 35/36.
    assert 1.7 < roll.luck < 1 + 35 / 36
    assert roll.mark == "very lucky"


def test_cube_errors_a_double_too_good_and_a_take_of_a_gammon() -> None:
    # X bears off two checkers from the ace point with any roll; O has none off: a gammon.
    start = pos("backgammon", {1: 2}, {6: 15})
    settings = Settings(jacoby=False)
    game = Game(settings, FixedDice([2, 1]), position=start, first_player=0)
    game.double(0)
    game.take(1)
    game.roll(0)
    game.play(0, game.legal_plays()[0])
    judged = analyze_game(game, ply=1)
    double, take = judged.cubes
    assert (double.player, double.action, double.proper) == (
        0,
        "double",
        "Too good to double, pass",
    )
    assert double.loss == pytest.approx(1.0, abs=1e-6)  # a gammon (2) given up for 1
    assert (take.player, take.action, take.proper) == (1, "take", "pass")
    assert take.loss == pytest.approx(3.0, abs=1e-6)  # 4 (a gammon at 2) instead of 1
    assert judged.stats[0].cube_error == pytest.approx(1.0, abs=1e-6)
    assert judged.stats[1].cube_marked["very bad"] == 1


def test_a_json_object_that_is_not_a_game_record() -> None:
    with pytest.raises(NardyError, match=r"game 1: not a game record: it has no 'settings'"):
        analyze([{k: v for k, v in bot_game().items() if k != "settings"}])
    with pytest.raises(NardyError, match=r"game 1: the score is two points"):
        analyze([{**bot_game(), "score": "1-0"}])


def test_long_nardy_is_analysed_through_its_own_net() -> None:
    # A random net of the long-nardy shape: the shipped one may not be trained yet.
    ev = for_net(Net.random(features_long.INPUTS, 16, seed=2), "long")
    game = Game(Settings(variant="long"), SeededDice(3))
    bots = (HeuristicBot(), HeuristicBot())
    while len(game.records) < 30:  # the first 30 turns are enough
        step(game, bots)
    judged = analyze_game(game, ply=0, ev=ev)
    assert len(judged.plays) == len([t for t in game.records if t.play is not None])
    assert all(np.isfinite(r.luck) for r in judged.rolls)


def test_equity_of_candidates_matches_the_net() -> None:
    ranked = rank_plays(CONTACT, 3, 1, 0)
    outputs = np.stack([r.outputs for r in ranked])
    np.testing.assert_allclose([r.equity for r in ranked], equity(outputs), atol=1e-6)


# -- checker play by the match score (issue 12 item 4) -----------------------------------------

CRAWFORD_55 = "rJ0jA0A2O1PAAA:sIF2ACAAAAAE"
"""X to play 5-5 at 2-0 in a 3-point match, the Crawford game: X needs one point, so his
gammons are worth nothing, while the money equity prizes them."""


@pytest.mark.parametrize(("ply", "level"), [(1, "expert"), (2, "world-class")])
def test_the_bot_and_the_analysis_rank_by_the_match_score(ply: int, level: str) -> None:
    """The bot plays the best of the ranking at its ply by match winning chances, and the
    analysis at that ply judges its play by the same ranking (at 1-ply its best few again
    at 2-ply, :func:`deepened`): at 2-ply the one answer of all three."""
    position = parse_position(CRAWFORD_55)
    stakes = Stakes.at(Settings(match_length=3), (2, 0), 0, crawford=True)
    hinted = rank_plays(position, 5, 5, ply, stakes=stakes)
    # The hint ranks by match winning chances, its move filter too: no play that the filter
    # left shallower is worth more than the best one searched to the full ply.
    assert hinted[0].ply == ply
    assert all(r.equity <= hinted[0].equity + 1e-9 for r in hinted)
    assert hinted[0].mwc == pytest.approx(max(r.mwc or 0.0 for r in hinted if r.ply == ply))
    # The bot, playing the game at that score, plays the hint's play ...
    game = Game(
        Settings(match_length=3),
        FixedDice([5, 5]),
        crawford=True,
        score=(2, 0),
        first_player=0,
        position=position,
    )
    bots = (NeuralBot(level), NeuralBot(level))
    step(game, bots)
    assert step(game, bots) == f"plays {hinted[0].play}"
    # ... and the analysis at the same ply judges it by the same ranking, deepened.
    judged = analyze_game(game, ply=ply, score=(2, 0)).plays[0]
    again = deepened(position, 5, 5, hinted, _reached(hinted[0]), stakes=stakes)
    assert judged.played == str(hinted[0].play)
    assert judged.best_equity == pytest.approx(again[0].equity, abs=1e-6)
    mine = next(r for r in again if _reached(r) == _reached(hinted[0]))
    assert judged.played_equity == pytest.approx(mine.equity, abs=1e-6)
    if ply == DEEPER_PLY:  # no error in the bot's own play at its own depth
        assert judged.best == judged.played and judged.loss == 0.0
        assert judged.best_equity == pytest.approx(hinted[0].equity, abs=1e-6)


def test_the_move_filter_ranks_by_the_measure_it_is_given() -> None:
    ev = evaluator("backgammon")
    position = parse_position(CRAWFORD_55)
    stakes = Stakes.at(Settings(match_length=3), (2, 0), 0, crawford=True)
    by_money = ev.rank(position, 5, 5, 1)
    by_match = ev.rank(position, 5, 5, 1, stakes.equities)
    for ranked, measure in ((by_money, equity), (by_match, stakes.equities)):
        values = [c.value for c in ranked]
        assert values == pytest.approx(
            [float(measure(c.outputs[None, :])[0]) for c in ranked], abs=1e-6
        )
        deep = [c.value for c in ranked if c.ply == 1]
        assert deep == sorted(deep, reverse=True)
        # The filter searched the best plays by this measure at 0-ply.
        shallow = sorted(
            ranked, key=lambda c: -float(measure(ev.after(position.variant, [c.after], 0))[0])
        )
        assert ranked[0].after in [c.after for c in shallow[:8]]


# -- resignations (issue 9 defect 6) ------------------------------------------------------------


def _resigned_game(answers: list[bool], position: Position | None = None) -> Game:
    """A money game: player 0's opening 6-4 (or, from ``position``, player 1 on roll), then
    player 1 resigns a single before his roll, answered by ``answers`` in turn."""
    if position is None:
        game = Game(Settings(), FixedDice([6, 4]))
        game.roll_opening()
        game.play(0, game.legal_plays()[0])
    else:
        game = Game(Settings(), FixedDice([]), first_player=1, position=position)
    for accepted in answers:
        game.resign(1, 1)
        (game.accept_resignation if accepted else game.decline_resignation)(0)
    return game


def test_resigning_after_the_opening_is_judged_as_gnubg_does() -> None:
    # Resigning a single right after the opponent's opening 6-4 gives away a point for a
    # game worth about nothing: a very bad resignation; declining it is as bad an answer.
    game = _resigned_game([False, True])
    judged = analyze_game(game, ply=1)
    offer, decline, again, accept = judged.resignations
    assert (offer.player, offer.role, offer.action) == (1, "offer", "resign a single")
    assert offer.proper == "play on" and offer.skill == "very bad"
    assert offer.offered == 1.0  # a single, and the Jacoby rule makes any resignation one
    play_on = -cube_analysis(game.records[1].before, Stakes(), 1)[1].equity
    assert offer.play_on == pytest.approx(play_on, abs=1e-6)
    assert offer.loss == pytest.approx(1.0 - play_on, abs=1e-6)
    assert (decline.player, decline.action, decline.proper) == (0, "decline", "accept")
    assert decline.loss == pytest.approx(offer.loss)
    assert (accept.action, accept.proper, accept.loss) == ("accept", "accept", 0.0)
    assert again.loss == pytest.approx(offer.loss)
    one, zero = judged.stats[1], judged.stats[0]
    assert one.resignations == 2 and one.resign_error == pytest.approx(2 * offer.loss)
    assert zero.resignations == 2 and zero.resign_error == pytest.approx(decline.loss)
    assert one.resign_marked["very bad"] == 2 and zero.resign_marked["very bad"] == 1
    assert one.error == pytest.approx(one.checker_error + one.cube_error + one.resign_error)


def test_a_hopeless_resignation_is_no_marked_error() -> None:
    # Player 1 cannot win (two checkers on his 23-point against one on the opponent's
    # 1-point, himself past gammon): resigning a single is right, and so is accepting it.
    doomed = pos("backgammon", {23: 2}, {1: 1})
    judged = analyze_game(_resigned_game([True], doomed), ply=1)
    offer, accept = judged.resignations
    # The net sees a trace of a chance where there is none: at most a whisker of a loss.
    assert offer.skill is None and offer.loss < 0.01
    assert offer.play_on == pytest.approx(offer.offered, abs=0.01)
    assert accept.proper == "accept" and accept.loss == 0.0


# -- the engine's errors and JSON (issue 8) ----------------------------------------------------


def test_the_engine_raises_nardy_errors_never_a_bare_value_error() -> None:
    import ast
    from pathlib import Path

    from nardy.engine.cube import CubeState
    from nardy.engine.errors import EngineError, NoNetError

    engine = Path(analysis.__file__).parent
    for source in sorted(engine.glob("*.py")):
        tree = ast.parse(source.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                name = getattr(node.exc.func, "id", None)
                assert name != "ValueError", f"{source.name}:{node.lineno} raises ValueError"
    with pytest.raises(NoNetError):
        evaluator("chess")
    with pytest.raises(EngineError):
        evaluator("backgammon").rank(nardy.variant("backgammon").start(), 3, 1, 5)
    with pytest.raises(NardyError):
        CubeState(0)
    with pytest.raises(NardyError):
        MatchState(0)


def test_the_analysis_json_is_written_by_the_engine() -> None:
    import json

    from nardy.engine.analysis_json import analysis_json

    doc = analysis_json(analyze([bot_game()], ply=0))
    assert json.loads(json.dumps(doc)) == doc
    assert doc["players"] == ["Heuristic", "Net"] and doc["value-unit"] == "points"
    game = doc["games"][0]
    assert {"plays", "cube-decisions", "resignations", "rolls", "stats"} <= set(game)


def test_a_resignation_after_the_roll_is_weighed_after_the_best_play() -> None:
    # Player 1 (two checkers on his 6-point) rolls 1-1 and cannot bear both off; the
    # opponent bears off his last two with any roll: resigning a single after that roll
    # gives away what playing on would, the value after the best play of the 1-1.
    doomed = pos("backgammon", {6: 2}, {1: 1, 2: 1})
    game = Game(Settings(), FixedDice([1, 1]), first_player=1, position=doomed)
    game.roll(1)
    game.resign(1, 1)
    game.accept_resignation(0)
    offer, accept = analyze_game(game, ply=1).resignations
    assert offer.after_roll and accept.after_roll
    best = rank_plays(doomed, 1, 1, 1)[0]
    reached = best.play.position.swap()
    theirs = flip(best.outputs[None, :])[0]
    expected = Stakes().swap().decision(theirs, reached).equity
    assert offer.play_on == pytest.approx(expected, abs=1e-6)
    assert offer.offered == 1.0 and accept.action == "accept"
    assert accept.loss == pytest.approx(max(0.0, offer.play_on - 1.0), abs=1e-9)


def test_long_nardy_oin_counts_every_result_as_one_stake() -> None:
    # RULES.md 3: with ending=oin a mars is one stake, so the plays are worth their wins.
    start = nardy.variant("long").start()
    oin = Stakes.at(Settings(variant="long", ending="oin"), (0, 0), 0, crawford=False)
    mars = Stakes.at(Settings(variant="long"), (0, 0), 0, crawford=False)
    assert not oin.gammons and mars.gammons
    ranked = rank_plays(start, 6, 5, 0, stakes=oin)
    for r in ranked:
        assert r.equity == pytest.approx(2 * float(r.outputs[0]) - 1, abs=1e-6)
    assert any(
        abs(mars.equity(r.outputs) - r.equity) > 1e-3 for r in ranked
    )  # with mars the gammons count
