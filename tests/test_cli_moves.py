"""`nardy moves`: the command line that lists legal plays (issue: rules core, item 5)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from nardy import BACKGAMMON, LONG_NARDY, position_id
from nardy.cli.main import _batch, main

START = "4HPwATDgc/ABMA"
OPENING_6_5 = ["24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/7 8/3", "13/2", "8/3 8/2"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_opening_6_5_lists_gnubgs_seven_plays(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", START, "6", "5")
    assert code == 0
    assert out.splitlines() == OPENING_6_5


def test_ids_format_gives_the_ids_from_the_movers_side_in_the_order_of_the_plays(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 9, defect 8: the IDs were sorted, so line n was not the ID of play n."""
    _, out, _ = run(capsys, "moves", "--format", "ids", START, "6", "5")
    plays = BACKGAMMON.start().legal_plays(6, 5)
    assert sorted(out.splitlines()) == sorted(position_id(p.position) for p in plays)
    assert out.splitlines() == [position_id(p.position) for p in plays]
    assert [str(p) for p in plays] == OPENING_6_5


def test_json_format(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "moves", "--format", "json", START, "6", "5")
    data = json.loads(out)
    assert [d["play"] for d in data] == OPENING_6_5
    assert data[0]["moves"] == [[24, 18, False], [18, 13, False]]
    # Issue 9, defect 8: the same single moves with field names (``moves`` stays as it was).
    assert data[0]["single-moves"] == [
        {"from": 24, "to": 18, "hit": False},
        {"from": 18, "to": 13, "hit": False},
    ]
    assert all(
        [[m["from"], m["to"], m["hit"]] for m in d["single-moves"]] == d["moves"] for d in data
    )


def test_options_may_come_anywhere(capsys: pytest.CaptureFixture[str]) -> None:
    expected = [position_id(p.position) for p in BACKGAMMON.start().legal_plays(6, 5)]
    for args in (
        [START, "--format", "ids", "6", "5"],
        [START, "6", "--format", "ids", "5"],
        [START, "6", "5", "--format", "ids"],
    ):
        code, out, err = run(capsys, "moves", *args)
        assert (code, err) == (0, "") and out.splitlines() == expected
    with pytest.raises(SystemExit) as exit_:  # an argument too many: the subcommand's error
        main(["moves", START, "6", "5", "4"])
    assert exit_.value.code == 2
    assert "nardy moves: error: unrecognized arguments: 4" in capsys.readouterr().err


def test_long_nardy_variant(capsys: pytest.CaptureFixture[str]) -> None:
    start = position_id(LONG_NARDY.start())
    _, out, _ = run(capsys, "moves", "--variant", "long", start, "3", "3")
    assert out.splitlines() == ["24/18(2)", "24/15 24/21"]


def test_no_legal_move(capsys: pytest.CaptureFixture[str]) -> None:
    """Closed board with a checker on the bar: the position itself, once."""
    closed = "27YdAAAA8P8DQA"  # me: bar 1, 13-point 14; them: 2 on each home point, 3 on 7
    from nardy import position_from_id

    pos = position_from_id(closed)
    assert pos.legal_plays(6, 6)[0].moves == ()
    _, out, _ = run(capsys, "moves", closed, "6", "6")
    assert out.splitlines() == ["(no legal move)"]
    _, out, _ = run(capsys, "moves", "--format", "ids", closed, "6", "6")
    assert out.splitlines() == [closed]


def test_bad_input_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "moves", "not-an-id!!!!!", "6", "5")
    assert code == 2 and "Position ID" in err
    with pytest.raises(SystemExit):
        main(["moves", START, "7", "5"])
    code, _, err = run(capsys, "moves", "--variant", "chess", START, "6", "5")
    assert code == 2 and "unknown variant" in err


def test_batch_answers_every_line_and_carries_on() -> None:
    lines = io.StringIO(
        f"backgammon {START} 6 5\nlong garbage 1 2\n\nbackgammon {START} 1\n"
        f"long {position_id(LONG_NARDY.start())} 6 6\n"
    )
    out = io.StringIO()
    assert _batch(lines, out) == 0
    answers = out.getvalue().splitlines()
    assert len(answers) == 5  # one answer per input line, the empty one included
    assert answers[0].split() == sorted(
        position_id(p.position) for p in BACKGAMMON.start().legal_plays(6, 5)
    )
    assert all(answer.startswith("error: ") for answer in answers[1:4])
    assert len(answers[4].split()) == 1


def test_batch_reads_the_dice_of_an_xgid_as_the_single_line_form_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 9, defect 8: ``--batch`` refused 'VARIANT XGID' where the XGID has dice."""
    xgid = "XGID=--A-bBBBB--BbB-----dbbc-B-:0:0:1:31:6:4:1:7:10"
    out = io.StringIO()
    _batch(io.StringIO(f"backgammon {xgid}\nbackgammon {xgid} 3 1\nbackgammon {START}\n"), out)
    with_dice, explicit, no_dice = out.getvalue().splitlines()
    assert with_dice == explicit and not with_dice.startswith("error")
    assert no_dice.startswith("error: ") and "D1 D2" in no_dice
    _, ids, _ = run(capsys, "moves", "--format", "ids", xgid)
    assert with_dice.split() == sorted(set(ids.split()))


def test_a_missing_die_is_the_moves_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 9, defect 8: ``nardy moves POS 6`` printed the top-level usage."""
    with pytest.raises(SystemExit) as exit_:
        main(["moves", START, "6"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: nardy moves ") and "nardy moves: error: " in err


def test_every_subcommand_has_a_description(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 9, defect 8: ``nardy show --help`` said nothing of what it does."""
    for command in ("moves", "show", "export", "import"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        usage, _, rest = capsys.readouterr().out.partition("\n\n")
        assert usage.startswith(f"usage: nardy {command}")
        assert not rest.startswith(("positional arguments", "options")), command
    with pytest.raises(SystemExit):
        main(["show", "--help"])
    assert "Draw a position" in capsys.readouterr().out


def test_show_and_moves_read_the_match_part(capsys: pytest.CaptureFixture[str]) -> None:
    """An XGID or a Match ID carries cube, score and dice: `show` prints them and `moves`
    takes the dice from them when none are given."""
    xgid = "XGID=--A-bBBBB--BbB-----dbbc-B-:0:0:1:31:6:4:1:7:10"
    _, out, _ = run(capsys, "show", xgid)
    assert "score X 6 - O 4, 7-point match; dice 3-1; Crawford game" in out
    _, out, _ = run(capsys, "show", f"{START}:QYkqASAAIAAA")
    assert "Cube 2, owned by O; score X 4 - O 2, 9-point match; dice 5-2" in out
    _, with_dice, _ = run(capsys, "moves", xgid)
    _, explicit, _ = run(capsys, "moves", xgid, "3", "1")
    assert with_dice == explicit and with_dice.strip()
    with pytest.raises(SystemExit):  # a Position ID alone names no dice
        main(["moves", START])
    assert "D1 D2" in capsys.readouterr().err


def test_bad_position_id_names_itself_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "show", "AAAAAAAAAAAAAA")
    assert code == 2
    assert err.count("AAAAAAAAAAAAAA") == 1 and "both sides have borne off" in err


def test_console_script_runs() -> None:
    """The installed entry point, as a user runs it."""
    result = subprocess.run(
        [sys.executable, "-m", "nardy.cli.main", "moves", START, "6", "5"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.splitlines() == OPENING_6_5
