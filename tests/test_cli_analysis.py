"""``nardy hint``, ``eval``, ``rollout`` and ``analyze`` on the command line: what they print
agrees with the library, and bad input gets a clear error and exit status 2."""

from __future__ import annotations

import functools
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from test_analysis import CLOSE_CUBE, bot_game

from nardy.cli.analysis import CUBE_ROLLED_OUT, ROLLED_OUT
from nardy.cli.chouette_cli import ChouetteBots, chouette_record, deciding
from nardy.cli.main import main
from nardy.core.chouette import BOX, TEAM, Chouette
from nardy.core.dice import FixedDice, SeededDice
from nardy.core.game import Game, Phase
from nardy.core.settings import Settings
from nardy.engine.analysis import DEFAULT_PLY, cube_analysis, deepened, evaluate, rank_plays
from nardy.engine.bots import HeuristicBot, play_game
from nardy.engine.cube import MatchState
from nardy.engine.evaluator import evaluator
from nardy.engine.net import equity
from nardy.engine.stakes import Stakes
from nardy.notation import parse_position
from nardy.notation.mat import export_mat
from nardy.notation.record import game_record

START = "4HPwATDgc/ABMA"
XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"
MATCH_XGID = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:2:0:7:10"
MATCH_ID_DICE = "4HPwATDgc/ABMA:UYnqACAAGAAE"  # MATCH_XGID's position, X to play 5-2
DOUBLED_XGID = "XGID=---BBBBB----------bbbbb---:0:0:1:D:3:2:0:7:10"  # X has doubled
DOUBLED_MATCH_ID = "bNsAAGDbBgAAAA:cBHgACAAGAAE"  # the same as a Match ID
DEAD_CUBE_XGID = "XGID=-b----E-C---eE---c-e----B-:1:0:1:00:5:2:0:7:10"  # X 5 of 7, cube 2
CLOSED_OUT = "27YdAAAA8P8DQA"  # X on the bar against a closed board
NEGATIVE_ZERO = re.compile(r"-0\.0+(?![0-9])")


@functools.cache
def match_game() -> dict[str, Any]:
    """The first game of a 5-point match of the heuristic bot against itself."""
    game = Game(Settings(match_length=5), SeededDice(8))
    play_game(game, (HeuristicBot(), HeuristicBot()))
    return game_record(game, players=("Alice", "Bob"))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_hint_ranks_the_plays(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "hint", START, "6", "5", "--ply", "1", "--top", "3")
    assert (code, err) == (0, "")
    # 1-ply, the best few again at 2-ply and first (deepened), as the analysis judges
    best = deepened(parse_position(START), 6, 5, rank_plays(parse_position(START), 6, 5, 1))
    assert best[0].ply == 2
    lines = out.splitlines()
    assert "X to play 6-5" in lines[0] and "7 legal plays" in lines[0]
    rows = [line.strip() for line in lines if line.lstrip()[:2] in ("1.", "2.", "3.")]
    assert [row[:2] for row in rows] == ["1.", "2.", "3."]
    for row, ranked in zip(rows, best, strict=False):
        assert row.split(maxsplit=1)[1].startswith(f"{ranked.play} ")
        assert f" {ranked.ply} " in row and f"{ranked.equity:+.3f}" in row
    assert "4 more (--top)" in out


def test_hint_json_and_the_dice_of_an_xgid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hint", XGID, "--ply", "0", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["dice"] == [5, 2] and doc["ply"] == 0
    plays = doc["plays"]
    assert [p["equity"] for p in plays] == sorted((p["equity"] for p in plays), reverse=True)
    for p in plays:
        assert p["difference"] == pytest.approx(p["equity"] - plays[0]["equity"], abs=1e-5)
        expected = 2 * p["win"] - 1 + p["win-gammon"] - p["lose-gammon"]
        expected += p["win-backgammon"] - p["lose-backgammon"]
        assert p["equity"] == pytest.approx(expected, abs=1e-5)


def test_hint_without_dice_is_the_cube_decision(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hint", MATCH_XGID, "--ply", "1")
    assert code == 0
    assert "7-point match, X 3 - O 2, cube 2 X's" in out
    assert "No redouble" in out and "Redouble, take" in out and "Proper cube action:" in out
    # In a match the match winning chance stands beside each cubeful EMG, as in gnubg.
    assert "X's cubeful EMG (MWC):" in out
    rows = [line for line in out.splitlines() if re.match(r"  [123]\.  ", line)]
    assert len(rows) == 3 and all(re.search(r"[+-]\d\.\d{3}  \d+\.\d%", r) for r in rows)
    code, out, _ = run(capsys, "hint", START, "--ply", "0", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["decision"] == "double" and doc["action"] == "no-double"
    assert doc["cubeful"]["double-beaver"] is None and doc["cubeful-mwc"] is None
    # At least one roll ahead, as the engine's cube: --ply 0 is a 1-ply decision.
    outputs, decision = cube_analysis(parse_position(START), Stakes(), 1)
    assert doc["ply"] == 1 and doc["win"] == pytest.approx(float(outputs[0]), abs=1e-6)
    assert doc["cubeful"]["no-double"] == pytest.approx(decision.no_double, abs=1e-6)
    assert doc["equity"] == pytest.approx(float(equity(outputs[None, :])[0]), abs=1e-6)


def _keys(doc: dict[str, Any]) -> set[str]:
    return set(doc) | {f"cubeful.{k}" for k in doc["cubeful"]}


def test_cube_json_has_the_same_keys_in_every_situation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    docs = []
    for position in (START, MATCH_XGID, DOUBLED_XGID, DEAD_CUBE_XGID):
        code, out, _ = run(capsys, "hint", position, "--ply", "0", "--format", "json")
        assert code == 0
        docs.append(json.loads(out))
    assert all(_keys(doc) == _keys(docs[0]) for doc in docs)
    money, match, doubled, dead = docs
    assert (money["match-length"], money["score"], money["cube-owner"]) == (0, [0, 0], "centred")
    assert (match["match-length"], match["score"], match["cube"], match["cube-owner"]) == (
        7,
        [3, 2],
        2,
        "X",
    )
    assert set(match["cubeful-mwc"]) == {"no-double", "double-take", "double-pass"}
    assert (doubled["decision"], doubled["action"]) == ("take", "take")
    assert doubled["answers"]["take"] == -doubled["cubeful"]["double-take"]
    assert (dead["action"], dead["proper"]) == ("cannot-double", "No double: the cube is dead")


@pytest.mark.parametrize("position", [DOUBLED_XGID, DOUBLED_MATCH_ID])
def test_hint_with_a_double_pending_is_the_take_or_pass(
    capsys: pytest.CaptureFixture[str], position: str
) -> None:
    code, out, err = run(capsys, "hint", position, "--ply", "1")
    assert (code, err) == (0, "")
    # The doubled player's equities, as nardy engine's cube answers: take=… pass=…
    situation = parse_position(DOUBLED_XGID)
    stakes = Stakes(match=MatchState(7, 3, 2))
    _, d = cube_analysis(situation, stakes, 1, doubled=True)
    assert d.double_take is not None and d.response is not None
    assert out.startswith("O's answer to X's double to 2 in bNsAAGDbBgAAAA")
    assert re.search(rf"1\.  Take\s+{-d.double_take:+.3f}\s+\d+\.\d%", out)
    assert re.search(r"2\.  Pass\s+-1\.000", out)
    assert f"Proper answer: {d.response}" in out
    code, _, err = run(capsys, "hint", position, "6", "5")
    assert code == 2 and "X has doubled and O must take or pass first" in err


def test_hint_of_a_dead_cube(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hint", DEAD_CUBE_XGID, "--ply", "1")
    assert code == 0 and "Proper cube action: No double: the cube is dead" in out
    assert "Double, take" not in out


def test_hint_of_a_match_id_with_dice_and_cube(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hint", MATCH_ID_DICE, "--ply", "0")
    assert code == 0 and out.startswith("X to play 5-2 in 4HPwATDgc/ABMA")
    code, out, _ = run(capsys, "hint", MATCH_ID_DICE, "--ply", "0", "--cube")
    assert code == 0 and out.startswith("Cube decision of X") and "No redouble" in out
    code, _, err = run(capsys, "hint", MATCH_ID_DICE, "--cube", "6", "5")
    assert code == 2 and "give no dice with it" in err


def test_hint_of_acey_deuceys_named_double(capsys: pytest.CaptureFixture[str]) -> None:
    """``--named``: the double named after a 1-2, whose plays played in full are followed by
    another roll (RULES.md 2), ranked as the bot ranks it; refused for any other roll."""
    from conftest import pos

    from nardy.notation import position_id

    middle = pos("acey-deucey", {6: 4, 8: 3, 13: 4, 24: 4}, {6: 5, 8: 5, 13: 5})
    pid = position_id(middle)
    best: list[float] = []
    for named in (True, False):
        flag = ["--named"] if named else []
        code, out, _ = run(
            capsys, "hint", "--variant", "acey-deucey", pid, "3", "3", "--ply", "0",
            "--format", "json", "--top", "3", *flag,
        )  # fmt: skip
        assert code == 0
        expected = rank_plays(middle, 3, 3, 0, chosen=named)[:3]
        shown = json.loads(out)["plays"]
        assert [p["play"] for p in shown] == [str(r.play) for r in expected]
        assert [p["equity"] for p in shown] == pytest.approx([r.equity for r in expected], abs=1e-5)
        best.append(shown[0]["equity"])
    assert best[0] > best[1] + 0.1  # rolling again is worth much more than the opponent's roll
    for args in (["--variant", "acey-deucey", pid, "4", "3"], [START, "3", "3"]):
        code, _, err = run(capsys, "hint", *args, "--named")
        assert code == 2 and "--named is for acey-deucey's double named after a 1-2" in err


def test_no_legal_move_is_valued_at_the_ply_asked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hint", CLOSED_OUT, "6", "6", "--ply", "1", "--format", "json")
    (only,) = json.loads(out)["plays"]
    assert code == 0 and (only["play"], only["ply"]) == ("", 1)


def test_options_anywhere_and_arguments_too_many(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "hint", START, "--ply", "0", "6", "5", "--top", "1")
    assert (code, err) == (0, "") and "X to play 6-5" in out and "6 more (--top)" in out
    code, out, _ = run(capsys, "eval", START, "--format", "json", "--ply", "0")
    assert code == 0 and json.loads(out)["ply"] == 0
    for args, extra in ((["hint", START, "6", "5", "4"], "4"), (["eval", START, "6", "5"], "6 5")):
        with pytest.raises(SystemExit) as exit_:
            main(args)
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert f"nardy {args[0]}: error: unrecognized arguments: {extra}" in err


def test_eval_is_the_evaluation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", START, "--ply", "1", "--format", "json")
    outputs = evaluate(parse_position(START), 1)
    doc = json.loads(out)
    assert code == 0 and doc["win"] == pytest.approx(float(outputs[0]), abs=1e-6)
    assert doc["equity"] == pytest.approx(float(equity(outputs[None, :])[0]), abs=1e-6)
    assert (doc["mwc"], doc["match-length"], doc["cube"]) == (None, 0, 1)
    code, out, _ = run(capsys, "eval", MATCH_XGID, "--ply", "0")
    assert code == 0 and "MWC" in out and "X  (on roll)" in out
    assert "the cube decision: nardy hint POSITION --cube" in out


def test_rollout_of_one_stratified_play_is_the_one_ply_value(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["--games", "36", "--truncate", "1", "--jobs", "1", "--format", "json"]
    code, out, _ = run(capsys, "rollout", START, *args)
    doc = json.loads(out)
    one_ply = evaluator("backgammon").on_roll(parse_position(START), 1)
    assert code == 0 and doc["games"] == 36
    assert doc["equity"] == pytest.approx(float(equity(one_ply[None, :])[0]), abs=1e-5)
    code, out, err = run(capsys, "rollout", XGID, *args[:-2], "--top", "2", "--progress")
    assert code == 0 and "36/36 games" not in err and "72/72 games" in err
    assert "Rollout of X's best plays of 5-2" in out and "2." in out
    # The bar moves after every game in one process, with the running mean equities.
    updates = err.split("\r")
    assert len(updates) >= 72 and re.search(r"72/72 games, equity [+-]\d\.\d{3} [+-]", err)


def test_rollout_numbers_are_possible(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["rollout", CLOSED_OUT, "6", "6", "--jobs", "1", "--truncate", "10"]
    code, out, _ = run(capsys, *args, "--games", "4", "--format", "json")
    (play,) = json.loads(out)["plays"]
    assert code == 0 and play["win"] >= 0 and play["lose-gammon"] <= 1 - play["win"] + 1e-6
    code, out, _ = run(capsys, *args, "--games", "4")
    assert code == 0 and "100.5" not in out and not NEGATIVE_ZERO.search(out)
    # One game: no spread to measure, so no error.
    code, out, _ = run(capsys, *args, "--games", "1")
    assert code == 0 and "±n/a" in out and "nan" not in out
    code, out, _ = run(capsys, "rollout", CLOSED_OUT, "--games", "1", "--jobs", "1")
    assert code == 0 and "n/a (one game)" in out and "nan" not in out


def test_rollout_of_plays_and_their_differences(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["rollout", START, "6", "5", "--games", "2", "--truncate", "2", "--top", "2"]
    args.append("--no-reduction")  # the luck correction would make these games alike
    code, out, _ = run(capsys, *args, "--jobs", "64", "--format", "json")
    doc = json.loads(out)
    # No more processes than the cores or the tasks (2 plays of one task of 2 games each).
    assert code == 0 and doc["processes"] == min(2, os.cpu_count() or 1)
    best, second = doc["plays"]
    assert best["equity"] >= second["equity"] and best["difference"] == 0
    assert best["difference-error"] is None
    assert second["difference"] == pytest.approx(second["equity"] - best["equity"], abs=1e-5)
    assert second["difference-error"] >= 0 and second["difference-error-unpaired"] > 0
    code, out, _ = run(capsys, *args, "--jobs", "1")
    assert code == 0 and "Diff (95%)" in out and "were the games independent: ±" in out


def test_analyze_a_json_record_and_a_mat_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = bot_game()
    source = tmp_path / "game.jsonl"
    source.write_text(json.dumps(record) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "analyze", str(source), "--ply", "0", "--format", "json")
    doc = json.loads(out)
    heuristic, net = doc["stats"]
    assert code == 0 and net["checker-error"] < 1e-6 and heuristic["checker-error"] > 0
    mat = tmp_path / "game.mat"
    mat.write_text(export_mat([record]), encoding="utf-8")
    code, out, _ = run(capsys, "analyze", str(mat), "--ply", "0", "--jobs", "1")
    assert code == 0
    assert "Heuristic vs Net, money session of backgammon, 1 game" in out
    assert "Totals" in out and "Rating" in out and "Luck-adjusted result (points)" in out
    total = next(line for line in out.splitlines() if "Error total" in line)
    assert f"{heuristic['checker-error']:.3f}" in total  # the same game, read from .mat


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hint", "bogus", "6", "5"], "nardy hint: error: 'bogus' is not a Position ID"),
        (["hint", START, "6"], "nardy hint: error: give both dice"),
        (["eval", "XGID=nonsense"], "nardy eval: error:"),
        (["rollout", START, "--games", "1", "--variant", "chess"], "nardy rollout: error:"),
        (["analyze", "/nonexistent/game.jsonl"], "No such file or directory"),
    ],
)
def test_bad_input_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "")
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hint", START, "7", "1"], "a die is 1-6, not '7'"),
        (["hint", START, "--ply", "3"], "invalid choice: 3"),
        (["rollout", START, "--games", "0"], "expected a positive number"),
    ],
)
def test_bad_arguments_are_refused_by_the_parser(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_the_game_heading_is_grammatical_for_you_and_for_a_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 9: "You win 2 points", "Bob wins 2 points" (not "You wins")."""
    source = tmp_path / "you.jsonl"
    record = match_game()
    winner = record["end"]["winner"]
    for players in (["You", "Bob"], ["Bob", "You"]):
        source.write_text(json.dumps({**record, "players": players}) + "\n", encoding="utf-8")
        code, out, _ = run(capsys, "analyze", str(source), "--ply", "0", "--jobs", "1")
        heading = re.search(r"\nGame 1 \(.*\): (You|Bob) (wins?) \d+ points?", out)
        assert code == 0 and heading, out
        assert heading.group(2) == ("win" if heading.group(1) == "You" else "wins")
        assert heading.group(1) == players[winner]


def test_a_close_cube_decision_rolled_out_is_marked_r(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 20: the text says which cube decisions a rollout judged, and what r means (the
    play made is the best, so no checker play is rolled out)."""
    game = Game(Settings(), FixedDice([6, 5]), position=CLOSE_CUBE, first_player=0)
    game.double(0)
    game.take(1)
    game.roll(0)
    best = rank_plays(CLOSE_CUBE, 6, 5, DEFAULT_PLY)[0].play.position
    game.play(0, next(p for p in game.legal_plays() if p.position == best))
    source = tmp_path / "close.json"
    source.write_text(json.dumps(game_record(game)), encoding="utf-8")
    code, out, _ = run(capsys, "analyze", str(source), "--all", "--jobs", "1")
    assert code == 0 and CUBE_ROLLED_OUT in out and ROLLED_OUT not in out
    double, take = (line for line in out.splitlines() if re.search(r"\s(Double|Take)\s", line))
    assert re.search(r"Double, take\s+\d\.\d{3} r", double), double
    assert re.search(r"Take\s+\d\.\d{3} r", take), take


def test_analysis_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "match.jsonl"
    source.write_text(json.dumps(match_game()) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "analyze", str(source), "--ply", "0", "--jobs", "1", "--all")
    assert code == 0 and "analysed at 0-ply (the cube at 1-ply, luck at 0-ply)" in out
    assert not NEGATIVE_ZERO.search(out)
    # Errors are costs, in EMG and in match winning chance alike: both positive.
    totals = [line for line in out.splitlines() if "Error total EMG (MWC)" in line]
    assert len(totals) == 2
    for line in totals:
        assert re.fullmatch(r"\s+Error total EMG \(MWC\)(\s+\d+\.\d{3} \(\d+\.\d{2}%\)){2}", line)
    header = next(i for i, line in enumerate(out.splitlines()) if line.lstrip().startswith("Turn"))
    rows = out.splitlines()[header + 1 : header + 40]
    widths = out.splitlines()[header].index("Loss")
    for row in rows:  # every judged row has its loss to three places
        if row.strip() and "forced" not in row:
            assert re.search(r"\d\.\d{3}", row[widths - 4 : widths + 6]), row
    # A cube row shows what was done and, always, the proper action.
    done = r"(No (re)?double|(Re)?double|Take|Pass|Beaver)"
    proper = r"(No (re)?double, |(Re)?double, |Too good to (re)?double, |Take|Pass|Beaver)"
    cube_rows = [r for r in rows if re.search(rf"\s{{4,}}{done}\s", r)]
    assert cube_rows and all(re.search(rf"{done}\s{{2,}}{proper}", r, re.I) for r in cube_rows)
    code, out, _ = run(capsys, "analyze", str(source), "--ply", "0", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and set(doc["stats"][0]["marked"]) == {"doubtful", "bad", "very-bad"}
    assert set(doc["stats"][0]["lucky"]) == {"very-lucky", "lucky", "unlucky", "very-unlucky"}
    decisions = doc["games"][0]["cube-decisions"]
    assert decisions and all(
        set(c["cubeful"]) == {"no-double", "double-take", "double-pass", "double-beaver"}
        and set(c["cubeful-mwc"]) == {"no-double", "double-take", "double-pass"}
        for c in decisions
    )


def test_unreadable_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"format": 1}\nnot json\n', encoding="utf-8")
    code, _, err = run(capsys, "analyze", str(broken))
    assert code == 2 and "broken.jsonl line 2: not JSON" in err
    # The name decides: garbage in a .jsonl file is bad JSON, not a bad .mat file.
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("this is not a match\n", encoding="utf-8")
    code, _, err = run(capsys, "analyze", str(garbage))
    assert code == 2 and "garbage.jsonl line 1: not JSON" in err and ".mat" not in err
    stranger = tmp_path / "stranger.json"
    stranger.write_text('{"format": 1, "players": ["A", "B"]}', encoding="utf-8")
    code, _, err = run(capsys, "analyze", str(stranger))
    assert code == 2
    assert "game 1: not a game record: it has no 'variant' or 'settings' or 'turns'" in err
    wrong = tmp_path / "wrong.jsonl"
    record = bot_game()
    wrong.write_text(json.dumps({**record, "turns": record["turns"][1:]}) + "\n", "utf-8")
    code, _, err = run(capsys, "analyze", str(wrong))
    # A record that reads but does not replay names the file too.
    assert code == 2 and err.startswith(f"nardy analyze: error: {wrong} line 1, game 1: turn 1")
    empty = tmp_path / "empty.mat"
    empty.write_text("", encoding="utf-8")
    code, _, err = run(capsys, "analyze", str(empty))
    assert code == 2 and "empty" in err


def test_long_nardy_without_or_with_its_net(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "hint", "--variant", "long", "AACA/z8AAAb+Pw", "6", "5")
    if code == 2:  # the long-nardy net is not trained yet
        assert err.startswith("nardy hint: error: ") and "no trained net for" in err
    else:
        assert code == 0 and "X to play 6-5" in out


LONG_START = "AACA/z8AAAb+Pw"


def test_long_nardy_is_analysed_without_a_cube(capsys: pytest.CaptureFixture[str]) -> None:
    # RULES.md 3.4: long nardy has no cube unless the settings turn it on, and so no Jacoby.
    code, out, err = run(capsys, "eval", "--variant", "long", LONG_START, "--ply", "0")
    assert (code, err) == (0, "")
    head = out.splitlines()[0]
    assert "no cube" in head and "Jacoby" not in head and "cube 1" not in head
    assert "--cube" not in out
    code, out, _ = run(capsys, "hint", "--variant", "long", LONG_START, "--ply", "0")
    assert code == 0 and "Proper cube action: No double: no cube in this game" in out
    assert "Double, pass" not in out and "Double, take" not in out
    code, out, _ = run(capsys, "hint", "--variant", "long", LONG_START, "--format", "json")
    doc = json.loads(out)
    assert doc["cube-in-use"] is False and doc["jacoby"] is False
    assert doc["action"] == "cannot-double" and doc["answers"] is None
    # Backgammon keeps its cube and the Jacoby rule.
    code, out, _ = run(capsys, "eval", START, "--ply", "0", "--format", "json")
    doc = json.loads(out)
    assert doc["cube-in-use"] is True and doc["jacoby"] is True


def test_hint_eval_and_analyze_have_one_default_ply(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Issue 9: with the same default lookahead a hint and the analysis of the same play agree.
    code, out, _ = run(capsys, "hint", START, "6", "5", "--format", "json")
    hint_ply = json.loads(out)["ply"]
    code, out, _ = run(capsys, "eval", START, "--format", "json")
    eval_ply = json.loads(out)["ply"]
    record = tmp_path / "game.json"
    record.write_text(json.dumps(bot_game()), encoding="utf-8")
    code, out, _ = run(capsys, "analyze", str(record), "--jobs", "1", "--format", "json")
    assert code == 0
    assert hint_ply == eval_ply == json.loads(out)["ply"] == DEFAULT_PLY
    for command in ("hint", "eval", "analyze"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert f"({DEFAULT_PLY}; the same in hint, eval and analyze)" in " ".join(
            capsys.readouterr().out.split()
        )


def _interrupt(args: list[str], started: re.Pattern[str]) -> tuple[int, str, str]:
    """Run ``nardy ARGS`` in its own process group, and once its standard error shows
    ``started``, press Ctrl-C as a terminal does: SIGINT to the whole group, the worker
    processes included. The command hears Ctrl-C as in a terminal even where the tests run in
    the background, whose shell made every process it starts ignore SIGINT."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent / "src")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "nardy.cli.main", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stderr is not None and proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + 120
    while not started.search(seen.decode("utf-8", "replace")):
        chunk = os.read(proc.stderr.fileno(), 4096)
        assert chunk and time.monotonic() < deadline, seen.decode("utf-8", "replace")
        seen += chunk
    os.killpg(proc.pid, signal.SIGINT)
    out, rest = proc.communicate(timeout=60)
    return proc.returncode, out.decode(), (seen + rest).decode("utf-8", "replace")


def test_ctrl_c_stops_a_rollout_with_its_partial_result() -> None:
    # Issue 9 defect 5: no traceback from the parent or its workers; the partial result.
    code, out, err = _interrupt(
        ["rollout", START, "--games", "2000", "--jobs", "2", "--progress", "--truncate", "4"],
        re.compile(r"\] [1-9][0-9]*/2000 games"),
    )
    assert code == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert re.search(r"interrupted: [0-9]+ of 2000 games finished", err)
    assert re.search(r"Rollout of X on roll .*: [0-9]+ games of 2000 \(interrupted\)", out)
    assert "mean" in out and "95% confidence interval" in out


def test_ctrl_c_stops_an_analysis_saying_what_was_done(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    game = bot_game()
    record.write_text("\n".join(json.dumps({**game, "game": i + 1}) for i in range(6)), "utf-8")
    code, out, err = _interrupt(
        ["analyze", str(record), "--jobs", "2", "--progress"],
        re.compile(r"\] [1-9][0-9]*/[0-9]+ turns"),
    )
    assert code == 130 and out == ""
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert re.search(r"interrupted after judging [0-9]+ of [0-9]+ turns", err)


def test_analyze_reports_resignations(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = Game(Settings(), FixedDice([6, 4]))
    game.roll_opening()
    game.play(0, game.legal_plays()[0])
    game.resign(1, 1)
    game.accept_resignation(0)
    record = tmp_path / "resigned.json"
    record.write_text(json.dumps(game_record(game, players=("Ann", "Bob"))), "utf-8")
    code, out, _ = run(capsys, "analyze", str(record), "--jobs", "1")
    assert code == 0
    row = next(line for line in out.splitlines() if "Resign a single" in line)
    assert row.split()[:2] == ["2", "Bob"] and "(before the roll)" in row
    assert "Play on" in row and "very bad" in row
    assert "Resignations" in out
    code, out, _ = run(capsys, "analyze", str(record), "--jobs", "1", "--format", "json")
    doc = json.loads(out)
    offer, answer = doc["games"][0]["resignations"]
    assert (offer["role"], offer["player"], offer["mark"]) == ("offer", 1, "very bad")
    assert (answer["role"], answer["action"], answer["loss"]) == ("answer", "accept", 0.0)
    assert doc["stats"][1]["resignations"] == 1


# -- chouette (issue 9 defect 2) -----------------------------------------------------------------


@functools.cache
def chouette_session() -> tuple[dict[str, Any], ...]:
    """Two games of a chouette of Ann, Bob, Cy and Dee, the heuristic bot deciding for each,
    except that in game 2 the box doubles at its first chance from turn 5 on, and the
    captain passes while the other members take."""
    names = ["Ann", "Bob", "Cy", "Dee"]
    chouette = Chouette(names, Settings(), SeededDice(5))
    bots = ChouetteBots({name: HeuristicBot() for name in names})
    for number in range(2):
        game = chouette.new_game()
        line = chouette.current
        assert line is not None
        doubled = False
        while not game.over:
            who = deciding(chouette)
            if who is None:
                chouette.roll_opening()
            elif number == 1 and game.phase is Phase.DOUBLED and who.side == TEAM:
                if who.name == line.team[0]:
                    chouette.pass_double(who.name)
                else:
                    chouette.take(who.name)
            elif (
                number == 1
                and not doubled
                and game.phase is Phase.ROLL
                and who.side == BOX
                and len(game.records) >= 4
                and game.can_double(BOX)
            ):
                chouette.double(who.name)
                doubled = True
            else:
                bots.act(chouette, who)
    return tuple(chouette_record(chouette, i) for i in range(2))


def test_a_chouette_is_analysed_as_one_session_member_by_member(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    records = chouette_session()
    first, second = (r["chouette"] for r in records)
    assert first["box"] == second["box"] and first["team"] != second["team"]
    captain, *others = second["team"]
    assert list(second["passed"]) == [captain]  # the scripted pass of game 2
    source = tmp_path / "chouette.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    code, out, _ = run(capsys, "analyze", str(source), "--ply", "0", "--jobs", "1", "--all")
    assert code == 0
    assert out.count("Chouette of ") == 1 and " vs " not in out  # one session
    code, out, _ = run(
        capsys, "analyze", str(source), "--ply", "0", "--jobs", "1", "--format", "json"
    )
    doc = json.loads(out)
    assert doc["chouette"] is True and sorted(doc["participants"]) == ["Ann", "Bob", "Cy", "Dee"]
    game = doc["games"][1]
    doubles = [c for c in game["cube-decisions"] if c["action"] == "double" and c["player"] == 0]
    double_turn = doubles[0]["turn"]
    answers = {
        c["name"]: c["action"]
        for c in game["cube-decisions"]
        if c["role"] == "take" and c["turn"] == double_turn
    }
    # Each member's own answer, each judged.
    assert answers == {captain: "pass", **dict.fromkeys(others, "take")}
    right = {
        c["proper"]
        for c in game["cube-decisions"]
        if c["turn"] == double_turn and c["role"] == "take"
    }
    assert len(right) == 1  # one proper answer, against which each is judged
    for c in game["cube-decisions"]:
        if c["role"] == "take" and c["turn"] == double_turn:
            assert (c["loss"] == 0.0) == (c["action"] == c["proper"])
    # The captain's plays until his pass, the next member's after it.
    team_plays = [(p["turn"], p["name"]) for p in game["plays"] if p["player"] == 1]
    assert {name for turn, name in team_plays if turn < double_turn} <= {captain}
    assert {name for turn, name in team_plays if turn > double_turn} == {others[0]}
    # Settled member by member: each one's result is his own settlement.
    for number, record in enumerate(records):
        settled = record["chouette"]["settlements"]
        stats = doc["games"][number]["stats"]
        assert {name: s["result"] for name, s in stats.items()} == settled
        assert sum(settled.values()) == 0
    total = {name: s["result"] for name, s in doc["stats"].items()}
    assert total == {
        name: first["settlements"][name] + second["settlements"][name] for name in total
    }
