"""``nardy export`` and ``nardy import``: JSON-lines game records to and from ``.mat`` files
(issue "Game flow", item 7)."""

from __future__ import annotations

import functools
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from test_records import play_match

from nardy.cli.main import main
from nardy.cli.records import group_matches
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.notation.mat import export_mat, import_mat
from nardy.notation.record import match_records


@functools.cache
def two_matches() -> tuple[Match, Match]:
    return (
        play_match(Settings(match_length=3), 2, players=("Alice", "Bob")),
        play_match(Settings(match_length=3), 5, players=("Alice", "Bob")),
    )


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_export_writes_one_match_to_standard_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = two_matches()[0]
    source = write_jsonl(tmp_path / "games.jsonl", match_records(match))
    code, out, err = run(capsys, "export", str(source), "--to", "mat")
    assert (code, err) == (0, "")
    assert out == export_mat(match)


def test_export_writes_one_file_per_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = two_matches()
    source = write_jsonl(tmp_path / "games.jsonl", match_records(first) + match_records(second))
    code, _, err = run(capsys, "export", str(source), "--to", "mat", "-o", str(tmp_path / "m.mat"))
    assert code == 0 and "2 matches written" in err
    assert (tmp_path / "m_001.mat").read_text(encoding="utf-8") == export_mat(first)
    assert (tmp_path / "m_002.mat").read_text(encoding="utf-8") == export_mat(second)
    code, _, err = run(capsys, "export", str(source), "--to", "mat")
    assert code == 2
    assert err.startswith("nardy export: error: ") and "holds 2 matches" in err


def test_import_writes_json_lines_that_export_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = two_matches()[1]
    mat = tmp_path / "match.mat"
    mat.write_text(export_mat(match), encoding="utf-8")
    out_file = tmp_path / "games.jsonl"
    code, out, err = run(capsys, "import", str(mat), "-o", str(out_file))
    assert (code, out, err) == (0, "", "")
    records = [json.loads(line) for line in out_file.read_text(encoding="utf-8").splitlines()]
    assert records == import_mat(mat.read_text(encoding="utf-8"))
    code, out, _ = run(capsys, "export", str(out_file))
    assert code == 0 and out == export_mat(match)
    code, out, _ = run(capsys, "import", str(mat))
    assert code == 0 and [json.loads(line) for line in out.splitlines()] == records


def test_standard_input_and_output(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    match = two_matches()[0]
    monkeypatch.setattr("sys.stdin", io.StringIO(export_mat(match)))
    code, out, _ = run(capsys, "import", "-")
    assert code == 0
    monkeypatch.setattr("sys.stdin", io.StringIO(out))
    code, again, _ = run(capsys, "export", "-", "--to", "mat", "-o", "-")
    assert code == 0 and again == export_mat(match)


def test_lines_group_into_matches() -> None:
    first, second = two_matches()
    a, b = match_records(first), match_records(second)
    assert [len(m) for m in group_matches(a + b)] == [len(a), len(b)]
    renamed = [{**r, "players": ["Carol", "Dave"]} for r in b]
    assert len(group_matches(a[:1] + renamed[1:])) == 2  # other players
    money = [{**r, "settings": {**r["settings"], "match-length": 0}} for r in a]
    assert len(group_matches(a[:1] + money[1:])) == 2  # other settings
    assert len(group_matches(a + a)) == 2  # game numbers start again
    assert group_matches([]) == []


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ("not json\n", r"line 1: not JSON"),
        ("[1, 2]\n", r"line 1: a game record is a JSON object"),
        ("\n\n", r"holds no game records"),
    ],
)
def test_bad_json_lines_are_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, error: str
) -> None:
    source = tmp_path / "bad.jsonl"
    source.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "export", str(source), "--to", "mat")
    assert code == 2 and out == ""
    assert err.startswith("nardy export: error: ")  # the subcommand named, with or without -o
    assert re.search(error, err)


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("players", None, "field 'players': expected two player names"),
        ("players", ["A"], "field 'players': expected two player names"),
        ("players", "AB", "field 'players': expected two player names"),
        ("players", ..., "field 'players': missing"),
        ("game", "one", "field 'game': expected a whole number from 1"),
        ("settings", "x", "field 'settings': expected a JSON object"),
        ("score", None, "field 'score': expected [player 0's points, player 1's points]"),
    ],
)
def test_malformed_records_are_one_clear_error_in_export_and_analyze(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: Any, expected: str
) -> None:
    """Issue 9, defect 3: each crashed ``analyze`` or ``export`` with a traceback, and the
    two did not agree on what a record is. Now one check says the file, line and field."""
    records = match_records(two_matches()[0])
    bad = dict(records[1])
    if value is ...:
        del bad[key]
    else:
        bad[key] = value
    source = write_jsonl(tmp_path / "games.jsonl", [records[0], bad])
    messages = []
    for command in ("export", "analyze"):
        code, out, err = run(capsys, command, str(source))
        assert (code, out) == (2, "")
        prefix = f"nardy {command}: error: "
        assert err.startswith(prefix) and err.count("\n") == 1
        messages.append(err.removeprefix(prefix))
    assert messages[0] == messages[1]
    assert messages[0].startswith(f"{source} line 2, game 2: {expected}")


def test_import_of_a_file_that_is_not_mat_says_what_it_expected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 9, defect 8: ``nardy import match3.jsonl`` echoed the whole 16 KB line."""
    source = write_jsonl(tmp_path / "match3.jsonl", match_records(two_matches()[1]))
    assert len(source.read_text(encoding="utf-8").splitlines()[0]) > 1000
    code, out, err = run(capsys, "import", str(source))
    assert (code, out) == (2, "")
    assert len(err) < 400 and err.count("\n") == 1
    assert "a .mat match file" in err and "JSON game records" in err and "nardy export" in err


def test_a_variant_mat_cannot_hold_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = play_match(Settings(variant="long", match_length=1), 1)
    source = write_jsonl(tmp_path / "long.jsonl", match_records(match))
    code, _, err = run(capsys, "export", str(source))
    assert code == 2
    assert "the match from line 1 cannot be written" in err and "backgammon and nackgammon" in err


def test_a_malformed_mat_file_is_an_error_with_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mat = tmp_path / "bad.mat"
    mat.write_text(" 1 point match\n Game 1\n Alice : 0   Bob : 0\n  1) 31: 24/1\n")
    code, out, err = run(capsys, "import", str(mat))
    assert (code, out) == (2, "")
    assert err.startswith(f"nardy import: error: {mat}: line 4: game 1: ")


def test_a_missing_file_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("import", "export"):
        code, _, err = run(capsys, command, str(tmp_path / "missing"))
        assert code == 2
        assert err.startswith(f"nardy {command}: error: ") and "missing" in err
