"""What a new user met at the terminal (issue 17, item 11): Ctrl-C in ``nardy selfplay``,
files that cannot be written refused before any work, a record's illegal move named with its
file and line, long nardy's analysis without a cube, the cube's owner by name, and the
``.mat`` files of ``nardy export``."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from test_cli_analysis import _interrupt
from test_cli_records import run, write_jsonl

from nardy.cli.files import write_problem
from nardy.core import actions
from nardy.core.dice import SeededDice
from nardy.core.game import Game
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.engine.bots import HeuristicBot, play_game, step
from nardy.notation.record import game_record, match_records

# -- Ctrl-C ----------------------------------------------------------------------------------


def test_ctrl_c_stops_selfplay_quietly_keeping_the_games_played(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    code, _, err = _interrupt(
        ["selfplay", "--games", "100000", "--out", str(out), "--progress"],
        re.compile(r"\] [1-9][0-9]*/100000 games"),
    )
    assert code == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert err.rstrip().endswith("nardy selfplay: interrupted")
    games = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert games and all(game["end"] for game in games)  # every line a whole game


def _match(seed: int) -> list[dict[str, Any]]:
    """The records of a 1-point match between two heuristic bots."""
    match = Match(Settings(match_length=1), SeededDice(seed), players=("Ann", "Bob"))
    bots = (HeuristicBot(), HeuristicBot())
    while not match.over:
        step(match, bots)
    return match_records(match)


# -- files that cannot be written ----------------------------------------------------------


def _unwritable(tmp_path: Path) -> list[tuple[Path, str]]:
    """Paths no file can be written at, each with the reason the check gives."""
    a_file = tmp_path / "hostname"
    a_file.write_text("x\n", encoding="utf-8")
    cases = [
        (a_file / "x.jsonl", f"{a_file} is not a folder"),
        (a_file / "deeper" / "x.jsonl", f"{a_file} is not a folder"),
        (tmp_path / "no" / "x.jsonl", f"the folder {tmp_path / 'no'} does not exist"),
        (tmp_path, f"{tmp_path} is a folder"),
    ]
    # Where os.access says yes to root: /proc and /sys take no new file.
    for system in ("/proc", "/sys"):
        if Path(system).is_dir():
            cases.append((Path(system) / "x.jsonl", f"{system} takes no new file ("))
    return cases


def test_the_write_check_sees_what_os_access_does_not(tmp_path: Path) -> None:
    for path, reason in _unwritable(tmp_path):
        problem = write_problem(path)
        assert problem is not None and problem.startswith(reason), (path, problem)
    fresh = tmp_path / "fresh.jsonl"
    assert write_problem(fresh) is None and not fresh.exists()  # checked, left as it was
    kept = tmp_path / "kept.jsonl"
    kept.write_text("{}\n", encoding="utf-8")
    assert write_problem(kept) is None and kept.read_text(encoding="utf-8") == "{}\n"


@pytest.mark.parametrize("command", ["play", "selfplay", "export", "import"])
def test_every_command_that_writes_refuses_an_unwritable_file_before_it_starts(
    command: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    source = tmp_path / "in"
    source.mkdir()
    records = write_jsonl(source / "m.jsonl", _match(4))
    assert run(capsys, "export", str(records), "-o", str(source / "m.mat"))[0] == 0
    for path, reason in _unwritable(tmp_path):
        args = {
            "play": ["play", "--seed", "1", "--record", str(path)],
            "selfplay": ["selfplay", "--games", "1", "--out", str(path)],
            "export": ["export", str(records), "-o", str(path)],
            "import": ["import", str(source / "m.mat"), "-o", str(path)],
        }[command]
        monkeypatch.setattr("sys.stdin", _NoInput())
        code, out, err = run(capsys, *args)
        assert code == 2 and out == "", (path, err)
        assert err.startswith(f"nardy {command}: error: ") and reason in err, (path, err)
        assert "Traceback" not in err


class _NoInput:
    """Standard input that fails the test if anything reads it: no game may start."""

    def readline(self, *_: Any) -> str:
        raise AssertionError("the game started")

    def isatty(self) -> bool:
        return False

    def read(self, *_: Any) -> str:
        raise AssertionError("the input was read")


# -- a record with an illegal move ---------------------------------------------------------


def _games(count: int) -> list[dict[str, Any]]:
    records = []
    for number in range(1, count + 1):
        game = Game(Settings(), SeededDice(number))
        play_game(game, (HeuristicBot(), HeuristicBot()))
        records.append(game_record(game, number=number, players=("Ann", "Bob")))
    return records


@pytest.mark.parametrize("with_log", [True, False])
@pytest.mark.parametrize("command", ["analyze", "export"])
def test_an_illegal_move_is_named_with_its_file_line_and_position(
    command: str, with_log: bool, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    records = _games(3)
    turn = records[1]["turns"][2]
    turn["play"] = "24/1"  # no roll moves a checker 23 points
    if not with_log:  # a version 1 record: the turns alone
        for record in records:
            del record["log"]
            record["format"] = 1
    path = write_jsonl(tmp_path / "bad.jsonl", records)
    code, out, err = (
        run(capsys, command, str(path), "--ply", "0")
        if command == "analyze"
        else (run(capsys, command, str(path)))
    )
    d1, d2 = turn["dice"]
    assert code == 2 and out == ""
    assert f"{path} line 2, game 2: turn 3 of the record" in err
    assert f"'24/1' is not a legal play of {d1}-{d2} in this position ({turn['position']})" in err


# -- long nardy without the cube ----------------------------------------------------------


def _long_game(tmp_path: Path, **settings: Any) -> Path:
    game = Game(Settings(variant="long", **settings), SeededDice(3))
    play_game(game, (HeuristicBot(), HeuristicBot()))
    return write_jsonl(tmp_path / "long.jsonl", [game_record(game, players=("Ann", "Bob"))])


def test_the_analysis_of_long_nardy_says_nothing_of_a_cube_it_has_not(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """RULES.md 3.4: no cube in long nardy unless turned on; an oin counts one stake, as
    every game does with ``ending=oin``."""
    path = _long_game(tmp_path)
    code, out, _ = run(capsys, "analyze", str(path), "--ply", "0")
    assert code == 0
    assert "cube" not in out.lower() and "cubeful" not in out
    heading = re.search(r"^Game 1 .*$", out, re.MULTILINE)
    assert heading and heading.group().endswith(("(oin)", "(mars)"))
    code, out, _ = run(capsys, "analyze", str(path), "--ply", "0", "--format", "json")
    doc = json.loads(out)
    assert doc["cube"] is False
    assert not any("cube" in key for key in _keys(doc) - {"cube"})
    # RULES.md 3.4: long nardy has no resignation, a player surrenders.
    given_up = Game(Settings(variant="long"), SeededDice(3), first_player=0)
    given_up.apply(actions.Surrender(0))
    write_jsonl(path, [game_record(given_up, players=("Ann", "Bob"))])
    out = run(capsys, "analyze", str(path), "--ply", "0")[1]
    assert "Bob wins 2 points (surrender)" in out
    # With ending=oin every game counts one: "oin" would say nothing.
    oin = _long_game(tmp_path, ending="oin")
    code, out, _ = run(capsys, "analyze", str(oin), "--ply", "0")
    assert code == 0 and "(oin" not in out


def test_the_analysis_of_backgammon_keeps_its_cube(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write_jsonl(tmp_path / "bg.jsonl", _games(1))
    code, out, _ = run(capsys, "analyze", str(path), "--ply", "0")
    assert code == 0 and "cubeful for the cube" in out and "\n  Cube\n" in out
    assert re.search(r"^Game 1 .*, cube \d+\)$", out, re.MULTILINE)
    doc = json.loads(run(capsys, "analyze", str(path), "--ply", "0", "--format", "json")[1])
    assert doc["cube"] is True and "cube-decisions" in doc["games"][0]
    assert "cube-error" in doc["stats"][0]


def _keys(doc: Any) -> set[str]:
    """Every key anywhere in a JSON document."""
    if isinstance(doc, dict):
        return set(doc) | {k for v in doc.values() for k in _keys(v)}
    if isinstance(doc, list):
        return {k for v in doc for k in _keys(v)}
    return set()


# -- the cube's owner ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "owner"), [((), "Bot"), (("--vs", "human", "--name", "Ann,Bob"), "Bob")]
)
def test_a_double_refused_names_who_owns_the_cube(
    flags: tuple[str, ...],
    owner: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """RULES.md 1.5: only the owner may redouble; the refusal names the owner."""
    monkeypatch.setattr("sys.stdin", io.StringIO("double\nquit\n"))
    start = ["--position", "4HPwATDgc/ABMA", "--turn", "0", "--cube", "2:1"]
    args = ["play", "--seed", "1", *start, *flags, "--record", str(tmp_path / "r.jsonl")]
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert f"> double\n  {owner} owns the cube\n" in out
    assert "player 1" not in out


# -- export's files ------------------------------------------------------------------------


def test_export_names_each_match_file_with_mat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    records = _match(1) + _match(2)
    path = write_jsonl(tmp_path / "two.jsonl", records)
    (tmp_path / "s").mkdir()
    code, _, err = run(capsys, "export", str(path), "-o", str(tmp_path / "s" / "sp"))
    assert code == 0 and "sp_001.mat, " in err
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == ["sp_001.mat", "sp_002.mat"]
    code, _, _ = run(capsys, "export", str(path), "-o", str(tmp_path / "s" / "t.txt"))
    assert (tmp_path / "s" / "t_001.txt").is_file()  # an extension given is kept
    # A folder names no file: refused, nothing written beside it.
    for folder in (str(tmp_path / "s"), f"{tmp_path / 'new'}/"):
        code, _, err = run(capsys, "export", str(path), "-o", folder)
        assert code == 2 and "is a folder; name the file in it" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s", "two.jsonl"]
    one = write_jsonl(tmp_path / "one.jsonl", records[:1])
    assert run(capsys, "export", str(one), "-o", str(tmp_path / "single"))[0] == 0
    assert (tmp_path / "single").is_file()  # one match: the file as named


# -- selfplay between two of the same bot -------------------------------------------------


def test_selfplay_tells_two_of_the_same_bot_apart(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "hh.jsonl"
    code, _, err = run(
        capsys, "selfplay", "--games", "2", "--bots", "heuristic,heuristic", "--out", str(out)
    )
    assert code == 0
    assert re.match(r"2 games: heuristic 0 won \d \(.*\), heuristic 1 won \d \(", err)
    players = {tuple(json.loads(line)["players"]) for line in out.read_text("utf-8").splitlines()}
    assert players == {("heuristic 0", "heuristic 1")}


# -- files read that hold nothing to read ------------------------------------------------


@pytest.mark.parametrize("command", ["analyze", "export", "import", "verify-dice"])
def test_a_file_that_is_not_text_is_named(
    command: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    code, out, err = run(capsys, command, str(binary))
    assert code == 2 and out == ""
    assert err == f"nardy {command}: error: {binary} is not UTF-8 text (byte 0)\n"


def test_analyze_says_a_file_without_records_holds_none(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    empty = tmp_path / "none.json"
    empty.write_text("[]\n", encoding="utf-8")
    code, out, err = run(capsys, "analyze", str(empty))
    assert code == 2 and out == "" and f"{empty} holds no game records" in err


def test_the_default_record_in_a_folder_that_takes_no_file_names_the_folder(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if not Path("/proc").is_dir():
        pytest.skip("no /proc here")
    monkeypatch.chdir("/proc")
    monkeypatch.setattr("sys.stdin", _NoInput())
    code, out, err = run(capsys, "play", "--seed", "1")
    assert code == 2 and out == ""
    assert re.fullmatch(
        r"nardy play: error: cannot save the games to nardy-[-0-9]+\.jsonl: the current folder "
        r"/proc takes no new file \(.*\)\n",
        err,
    )


# -- a trailing ! on a move that does not finish the play ---------------------------------


def test_a_trailing_bang_that_finishes_nothing_says_it_is_taken_back(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """RULES.md 1.9: the turn ends when the moves make a legal play and are confirmed."""
    monkeypatch.setattr("sys.stdin", io.StringIO("13/9!\nconfirm\nquit\n"))
    start = ["--position", "4HPwATDgc/ABMA", "--dice", "5", "4", "--turn", "0"]
    args = ["play", "--vs", "human", *start, "--record", str(tmp_path / "r.jsonl")]
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert "Player 1: move> 13/9!\n  13/9 does not finish the play: " in out
    assert "(it is taken back)\nPlayer 1: move> confirm\n  no moves yet" in out
    assert "move on or undo" not in out


@pytest.mark.parametrize(("ending", "points"), [("mars", "2 points"), ("oin", "1 point")])
def test_the_surrender_question_says_what_it_scores(
    ending: str,
    points: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """RULES.md 3.4: a surrender is scored from the checkers as they stand; with none borne
    off it is a mars, worth 2 with ending=mars and 1 with ending=oin."""
    monkeypatch.setattr("sys.stdin", io.StringIO("surrender\nn\nquit\n"))
    args = ["play", "--variant", "long", "--ending", ending, "--seed", "2"]
    code, out, _ = run(capsys, *args, "--record", str(tmp_path / "r.jsonl"))
    assert code == 0
    assert f"  Surrendering gives the game up: a mars, it scores {points}.\n" in out


# -- '-' for standard output ---------------------------------------------------------------


def test_selfplay_out_dash_writes_standard_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "selfplay", "--games", "2", "--out", "-")
    assert code == 0 and err.endswith("; written to standard output\n")
    assert [json.loads(line)["game"] for line in out.splitlines()] == [1, 2]
    assert list(tmp_path.iterdir()) == []  # no file named '-'


def test_play_refuses_to_save_to_standard_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", _NoInput())
    code, out, err = run(capsys, "play", "--record", "-")
    assert code == 2 and out == ""
    assert (
        err
        == "nardy play: error: cannot save the games to -: the game is shown on standard output\n"
    )
    assert list(tmp_path.iterdir()) == []
