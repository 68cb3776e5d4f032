"""``nardy hint``, ``eval``, ``rollout`` and ``analyze`` on the command line: what they print
agrees with the library, and bad input gets a clear error and exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_analysis import bot_game

from nardy.cli.main import main
from nardy.engine.analysis import evaluate, rank_plays
from nardy.engine.evaluator import evaluator
from nardy.engine.net import equity
from nardy.notation import parse_position
from nardy.notation.mat import export_mat

START = "4HPwATDgc/ABMA"
XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"
MATCH_XGID = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:2:0:7:10"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_hint_ranks_the_plays(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "hint", START, "6", "5", "--ply", "1", "--top", "3")
    assert (code, err) == (0, "")
    best = rank_plays(parse_position(START), 6, 5, 1)
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
    code, out, _ = run(capsys, "hint", START, "--ply", "0", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and set(doc["cubeful"]) == {"no double", "double, take", "double, pass"}


def test_eval_is_the_evaluation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", START, "--ply", "1", "--format", "json")
    outputs = evaluate(parse_position(START), 1)
    doc = json.loads(out)
    assert code == 0 and doc["win"] == pytest.approx(float(outputs[0]), abs=1e-6)
    assert doc["equity"] == pytest.approx(float(equity(outputs[None, :])[0]), abs=1e-6)
    code, out, _ = run(capsys, "eval", MATCH_XGID, "--ply", "0")
    assert code == 0 and "MWC" in out and "X  (on roll)" in out


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


def test_unreadable_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"format": 1}\nnot json\n', encoding="utf-8")
    code, _, err = run(capsys, "analyze", str(broken))
    assert code == 2 and "broken.jsonl line 2: not JSON" in err
    wrong = tmp_path / "wrong.jsonl"
    record = bot_game()
    wrong.write_text(json.dumps({**record, "turns": record["turns"][1:]}) + "\n", "utf-8")
    code, _, err = run(capsys, "analyze", str(wrong))
    assert code == 2 and err.startswith("nardy analyze: error: game 1:")
    empty = tmp_path / "empty.mat"
    empty.write_text("", encoding="utf-8")
    code, _, err = run(capsys, "analyze", str(empty))
    assert code == 2 and "empty" in err


def test_long_nardy_without_or_with_its_net(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "hint", "--variant", "long", "AACA/z8AAAb+Pw", "6", "5")
    if code == 2:  # the long-nardy net is not trained yet
        assert err == "nardy hint: error: there is no trained net for Long nardy yet\n"
    else:
        assert code == 0 and "X to play 6-5" in out
