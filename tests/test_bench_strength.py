"""The strength benchmark (bench/strength.py) and its reference opponent PubEval (bench/pubeval.py).

PubEval is checked against GNU Backgammon's own PubEval (gnubg-nn, a GPL test oracle that the
package never imports); the duel harness is checked for what makes its figures trustworthy:
duplicate dice really shared within a pair, legal plays, results within bounds.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import pubeval
import strength
from gnubg_crosscheck import random_game_positions

from nardy import ACEY_DEUCEY, BACKGAMMON, LONG_NARDY, Position
from nardy.core.position import Side
from nardy.engine import RandomBot

# -- PubEval -----------------------------------------------------------------------------------


def test_pubeval_weights_are_tesauros() -> None:
    """122 weights each; spot values from pubeval.c (first, last, the largest race weight)."""
    assert len(pubeval.CONTACT_WEIGHTS) == len(pubeval.RACE_WEIGHTS) == 122
    assert pubeval.CONTACT_WEIGHTS[0] == 0.25696
    assert pubeval.CONTACT_WEIGHTS[120:] == (5.62596, -2.75800)
    assert pubeval.RACE_WEIGHTS[120:] == (0.0, 3.42040)
    assert min(pubeval.RACE_WEIGHTS) == -12.32252


def test_pubeval_score_is_the_dot_product_of_its_inputs() -> None:
    """The table-driven score equals sum(w * x) over pubeval.c's 122 inputs."""
    for pos, d1, d2 in random_game_positions("backgammon", 300, 3):
        for mine, theirs in pos.variant.play_paths(pos.mine, pos.theirs, d1, d2):
            if mine[0] == 15:
                assert pubeval.score(mine, theirs, True) == pubeval.WIN_SCORE
                continue
            x = pubeval.inputs(mine, theirs)
            for race, w in ((True, pubeval.RACE_WEIGHTS), (False, pubeval.CONTACT_WEIGHTS)):
                expected = sum(a * b for a, b in zip(w, x, strict=True))
                assert pubeval.score(mine, theirs, race) == pytest.approx(expected, abs=1e-9)


def test_pubeval_start_position_score() -> None:
    """The start, scored for the side that has just "moved" (gnubg-nn gives 6.84055)."""
    start = BACKGAMMON.start()
    assert pubeval.score(start.mine, start.theirs, False) == pytest.approx(6.84055, abs=1e-4)


def test_pubeval_bot_opening_3_1_makes_the_5_point() -> None:
    play = pubeval.PubEvalBot().choose_play(BACKGAMMON.start(), 3, 1)
    assert str(play) == "8/5 6/5"


@pytest.mark.gnubg
def test_pubeval_equals_gnubg_on_random_games() -> None:
    """On 2,000 random-game positions (~37,000 plays): every play's score equals
    ``gnubg_nn.pub_eval_score`` and every chosen play equals ``gnubg_nn.pub_best_move`` (or
    scores the same: a tie broken the other way)."""
    pytest.importorskip("gnubg_nn")
    result = pubeval.compare_with_gnubg(2_000, 2026)
    assert result["plays"] > 30_000
    assert result["score_differences"] == 0
    assert result["choices"] == 2_000
    assert result["choice_differences"] == 0


# -- duplicate dice ----------------------------------------------------------------------------


def test_dice_stream_is_reproducible_and_opens_without_a_double() -> None:
    for pair in range(50):
        rolls = list(islice(strength.dice_stream(9, pair, BACKGAMMON), 60))
        assert rolls == list(islice(strength.dice_stream(9, pair, BACKGAMMON), 60))
        assert rolls[0][0] != rolls[0][1]
    assert list(islice(strength.dice_stream(9, 0, BACKGAMMON), 60)) != list(
        islice(strength.dice_stream(9, 1, BACKGAMMON), 60)
    )
    # Long nardy's opening roll only decides who starts: the starter may roll a double.
    firsts = {next(strength.dice_stream(9, pair, LONG_NARDY)) for pair in range(200)}
    assert any(d1 == d2 for d1, d2 in firsts)


@pytest.mark.parametrize(
    ("variant", "player", "pairs"),
    [("backgammon", "random", 20), ("nackgammon", "random", 5), ("long", "random", 3)],
)
def test_identical_players_score_exactly_zero_per_pair(
    variant: str, player: str, pairs: int
) -> None:
    """Two identical seeded random bots: the second game of a pair replays the first with
    the seats swapped, so every pair scores exactly zero."""
    for pair in range(pairs):
        g1, g2 = strength.play_pair(variant, player, player, 5, pair, check=True)
        assert g1.a_points + g2.a_points == 0
        assert (g1.turns, g1.kind) == (g2.turns, g2.kind)
        assert g1.a_first and not g2.a_first


def test_identical_deterministic_players_score_zero() -> None:
    r = strength.duel("backgammon", "pubeval", "pubeval", pairs=4, seed=2, jobs=1)
    assert r.ppg == 0 and r.ci95 == 0


class _Recorder:
    """A player that logs every roll it is asked to play (to a list shared by both seats)."""

    def __init__(self, log: list[tuple[int, int]], inner: strength.Player) -> None:
        self.log, self.inner, self.name = log, inner, "recorder"

    def choose(
        self, position: Position, d1: int, d2: int, chosen: bool = False
    ) -> tuple[Side, Side]:
        self.log.append((d1, d2))
        return self.inner.choose(position, d1, d2, chosen=chosen)


@pytest.fixture
def recorded() -> Iterator[list[tuple[int, int]]]:
    """Two registered players, ``rec-random`` and ``rec-pubeval``, logging to one list."""
    log: list[tuple[int, int]] = []
    strength.register(
        "rec-random", lambda arg, seed: _Recorder(log, strength.as_player(RandomBot(seed)))
    )
    strength.register("rec-pubeval", lambda arg, seed: _Recorder(log, pubeval.PubEvalBot()))
    try:
        yield log
    finally:
        del strength.PLAYERS["rec-random"], strength.PLAYERS["rec-pubeval"]


def test_both_games_of_a_pair_get_the_same_rolls(recorded: list[tuple[int, int]]) -> None:
    """Different players, so the two games differ; turn by turn the rolls are the same."""
    for pair in range(10):
        recorded.clear()
        g1, g2 = strength.play_pair("backgammon", "rec-random", "rec-pubeval", 3, pair)
        assert len(recorded) == g1.turns + g2.turns
        first, second = recorded[: g1.turns], recorded[g1.turns :]
        common = min(len(first), len(second))
        assert first[:common] == second[:common]
        assert first[:common] == list(islice(strength.dice_stream(3, pair, BACKGAMMON), common))


# -- duels -------------------------------------------------------------------------------------


def test_tiny_duel_reports_numbers_within_bounds() -> None:
    r = strength.duel("backgammon", "heuristic", "random", pairs=4, seed=3, jobs=1, check=True)
    assert (r.pairs, r.games, r.jobs) == (4, 8, 1)
    assert -3 <= r.ppg <= 3 and r.ci95 >= 0
    assert r.ppg > 0.5 and r.win_rate > 0.5  # the heuristic bot beats random play
    rates = (r.a_gammon_rate, r.a_backgammon_rate, r.b_gammon_rate, r.b_backgammon_rate)
    assert all(0 <= x <= 1 for x in (r.win_rate, *rates))
    assert r.a_backgammon_rate <= r.a_gammon_rate <= r.win_rate
    assert r.b_backgammon_rate <= r.b_gammon_rate <= 1 - r.win_rate
    assert r.games_per_second > 0 and r.mean_turns > 10
    assert "A points per game: +" in strength.report(r)


def test_long_nardy_duel_scores_oin_and_mars() -> None:
    r = strength.duel("long", "heuristic", "random", pairs=2, seed=1, jobs=1, check=True)
    assert r.games == 4 and 0 < r.ppg <= 2
    assert r.a_backgammon_rate == r.b_backgammon_rate == 0
    assert "mars" in strength.report(r)


def test_same_seed_same_games_whatever_the_processes() -> None:
    one = strength.duel("backgammon", "pubeval", "random", pairs=6, seed=4, jobs=1)
    two = strength.duel("backgammon", "pubeval", "random", pairs=6, seed=4, jobs=2)
    assert (one.ppg, one.ci95, one.mean_turns) == (two.ppg, two.ci95, two.mean_turns)
    assert two.jobs == 2


@pytest.mark.gnubg
def test_gnubg0_plays_legal_moves_and_beats_random() -> None:
    pytest.importorskip("gnubg_nn")
    r = strength.duel("backgammon", "gnubg0", "random", pairs=3, seed=1, jobs=1, check=True)
    assert r.ppg > 1


def test_players_are_checked_before_playing() -> None:
    with pytest.raises(ValueError, match="unknown player"):
        strength.duel("backgammon", "nobody", "random", pairs=1)
    with pytest.raises(ValueError, match="plays only"):
        strength.duel("long", "pubeval", "random", pairs=1)
    with pytest.raises(ValueError, match="duels play"):
        strength.duel("nackgammon-ballard", "random", "random", pairs=1)


def test_command_line_duel_and_speed(capsys: pytest.CaptureFixture[str]) -> None:
    strength.main(["--a", "pubeval", "--b", "random", "--pairs", "2", "--jobs", "1", "--json"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("backgammon: pubeval (A) vs random (B), 2 duplicate pairs")
    assert json.loads(out[-1])[0]["games"] == 4
    strength.main(["--speed", "random", "pubeval", "--positions", "20", "--json"])
    out = capsys.readouterr().out.splitlines()
    timings = json.loads(out[-1])
    assert [t["player"] for t in timings] == ["random", "pubeval"]
    assert all(0 < t["median_ms"] <= t["p95_ms"] for t in timings)


# -- acey-deucey's turns -----------------------------------------------------------------------


def test_an_acey_deucey_turn_goes_on_after_a_1_2_with_the_named_double_and_a_roll() -> None:
    """RULES.md 2: the 1-2, then the double the player names, then another roll; a 1-2 or a
    named double not played in full ends the turn."""
    v = ACEY_DEUCEY
    named: list[Position] = []

    class Namer(RandomBot):
        def choose_double(self, position: Position) -> int:
            named.append(position)
            return 6

    player = strength.BotPlayer(Namer(seed=1))
    start = v.start()
    after = Position(v, *strength.play_turn(v, player, start, iter([(1, 2), (5, 3)]), check=True))
    # 1-2, then the named 6-6, then 5-3: 35 pips, nothing to hit (no opposing checker is in).
    assert len(named) == 1 and named[0].waiting() >= 13
    assert start.pips()[0] - after.pips()[0] == 1 + 2 + 4 * 6 + 5 + 3
    # The 1-2 not played in full (nothing enters; the checker on 22 moves one die, then
    # finds my 19 held): no double is named and the turn ends, so 5-3 is never rolled.
    blocked = Position.from_points(v, {22: 1}, {6: 2, 9: 2, 1: 2, 2: 2})
    rolls = iter([(2, 1), (5, 3)])
    strength.play_turn(v, player, blocked, rolls, check=True)
    assert len(named) == 1 and next(rolls) == (5, 3)
    # A 1-2 in backgammon is an ordinary roll.
    rolls = iter([(1, 2), (5, 3)])
    strength.play_turn(BACKGAMMON, player, BACKGAMMON.start(), rolls, check=True)
    assert next(rolls) == (5, 3)


def test_acey_deucey_duels_play_legal_games_to_the_end() -> None:
    r = strength.duel("acey-deucey", "heuristic", "random", pairs=3, seed=2, jobs=1, check=True)
    assert r.games == 6 and r.ppg > 0
    with pytest.raises(TypeError, match="cannot name a double"):
        strength.play_turn(ACEY_DEUCEY, pubeval.PubEvalBot(), ACEY_DEUCEY.start(), iter([(1, 2)]))
