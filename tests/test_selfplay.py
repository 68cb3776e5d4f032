"""`nardy selfplay`: bot-against-bot games written as JSON records that replay exactly
(issue "Game flow", item 7)."""

from __future__ import annotations

import io
import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from gameutil import rewritten

from nardy.cli.main import main
from nardy.cli.selfplay import Progress


def selfplay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: str
) -> tuple[list[dict[str, Any]], str]:
    out = tmp_path / "games.jsonl"
    code = main(["selfplay", "--out", str(out), *args])
    assert code == 0
    err = capsys.readouterr().err
    return [json.loads(line) for line in out.read_text().splitlines()], err


def assert_replays(records: list[dict[str, Any]]) -> None:
    """Each record is reproduced exactly by replaying it through the rules."""
    for record in records:
        assert rewritten(record) == record


def test_money_games_are_counted_one_by_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    records, err = selfplay(capsys, tmp_path, "--games", "4", "--seed", "1")
    assert len(records) == 4
    assert [r["game"] for r in records] == [1, 2, 3, 4]  # one money session
    assert records[0]["players"] == ["heuristic", "random"]
    assert all("end" in r for r in records)
    for before, after in itertools.pairwise(records):  # the running score
        score = list(before["score"])
        score[before["end"]["winner"]] += before["end"]["points"]
        assert after["score"] == score
    assert_replays(records)
    assert re.fullmatch(
        r"4 games: heuristic won \d \(\d+ points?\), random won \d \(\d+ points?\); "
        r"written to \S+\n",
        err,
    )
    assert "\r[" not in err  # not a terminal: no bar


def test_matches_are_played_to_their_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    records, err = selfplay(
        capsys, tmp_path, "--games", "2", "--match", "3", "--seed", "5", "--progress"
    )
    starts = [i for i, r in enumerate(records) if r["game"] == 1]
    assert len(starts) == 2  # two matches, every game of each a line
    for end in [*starts[1:], len(records)]:
        last = records[end - 1]
        final = list(last["score"])
        final[last["end"]["winner"]] += last["end"]["points"]
        assert max(final) >= 3 and max(last["score"]) < 3
    assert_replays(records)
    assert err.startswith("\r[" + " " * 30 + "] 0/2 matches")
    assert "\r[" + "#" * 30 + "] 2/2 matches\n" in err
    # The summary counts matches won, with the games and points as detail.
    summary = re.search(
        r"\n2 matches: heuristic won (\d), random won (\d) \((\d+) games: heuristic won (\d+) "
        r"\((\d+) points?\), random won (\d+) \((\d+) points?\)\); written to ",
        err,
    )
    assert summary, err
    won, lost, games, *rest = (int(n) for n in summary.groups())
    assert won + lost == 2 and games == len(records)
    winners = [r["end"]["winner"] for r in records]
    assert rest == [
        winners.count(0),
        sum(r["end"]["points"] for r in records if r["end"]["winner"] == 0),
        winners.count(1),
        sum(r["end"]["points"] for r in records if r["end"]["winner"] == 1),
    ]
    match_winners = [records[end - 1]["end"]["winner"] for end in [*starts[1:], len(records)]]
    assert [won, lost] == [match_winners.count(0), match_winners.count(1)]


@pytest.mark.parametrize(
    "args",
    [
        ("--variant", "long", "--bots", "random,heuristic", "--match", "1", "--cube"),
        ("--variant", "acey-deucey", "--beaver", "--automatic-doubles", "2", "--no-jacoby"),
        ("--variant", "long", "--last-roll", "--ending", "oin", "--limit-points", "1"),
    ],
    ids=["long-match", "acey-money", "long-series"],
)
def test_variants_and_settings_replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: tuple[str, ...]
) -> None:
    records, _ = selfplay(capsys, tmp_path, "--games", "2", "--seed", "3", *args)
    assert records and all(r["variant"] == args[1] for r in records)
    assert_replays(records)
    settings = records[0]["settings"]
    if "--cube" in args:
        assert settings["cube"] is True
    if "--beaver" in args:
        assert settings["beaver"] is True and settings["automatic-doubles"] == 2
    if "--last-roll" in args:
        assert settings["last-roll"] is True and settings["ending"] == "oin"
        # A limit of one point ends each session after one game: two sessions, two games.
        assert [r["game"] for r in records] == [1, 1]


def test_the_same_seed_plays_the_same_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first, _ = selfplay(capsys, tmp_path, "--games", "2", "--seed", "9", "--bots", "random,random")
    again, _ = selfplay(capsys, tmp_path, "--games", "2", "--seed", "9", "--bots", "random,random")
    other, _ = selfplay(capsys, tmp_path, "--games", "2", "--seed", "8", "--bots", "random,random")
    assert first == again != other


def test_bad_arguments(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = str(tmp_path / "x.jsonl")
    for args in (["--bots", "heuristic"], ["--bots", "heuristic,gnubg"], ["--games", "0"]):
        with pytest.raises(SystemExit):
            main(["selfplay", "--out", out, "--games", "1", *args])
        assert "selfplay: error: argument" in capsys.readouterr().err
    assert main(["selfplay", "--out", out, "--games", "1", "--match", "3", "--beaver"]) == 2
    assert "beaver applies only to money play" in capsys.readouterr().err


def test_progress_bar() -> None:
    stream = io.StringIO()
    bar = Progress(100, "games", stream, width=10)
    bar.show(42)
    bar.show(100)
    assert stream.getvalue() == "\r[####      ] 42/100 games\r[##########] 100/100 games\n"
