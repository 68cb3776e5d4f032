"""``nardy verify-dice RECORD`` (issue 10, item 5; docs/dice.md, docs/records.md "Dice"):
the rolls of a record from fair dice verify in every variant, and a tampered record — a roll,
the server seed, a client seed, the game id — is detected; malformed files exit with 2."""

from __future__ import annotations

import copy
import functools
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from test_records import SCENARIOS, play_match

from nardy.cli.main import main
from nardy.core import NotationError
from nardy.core.fair_dice import DiceSeeds, FairDice
from nardy.core.game import Game
from nardy.core.match import Match
from nardy.notation.record import game_record, match_records, replay


def fair_dice(name: str, i: int) -> FairDice:
    seeds = DiceSeeds(f"{name}-{i + 1}", hashlib.sha256(f"{name} {i}".encode()).digest())
    return FairDice(seeds)


@functools.cache
def fair_match(name: str) -> Match:
    settings, seed, options = SCENARIOS[name]
    return play_match(
        settings, seed, game_dice=functools.partial(fair_dice, name), max_games=3, **options
    )


def records(name: str) -> list[dict[str, Any]]:
    return copy.deepcopy(match_records(fair_match(name)))


def run(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str, str]:
    code = main(["verify-dice", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, content: Any) -> Path:
    path.write_text(json.dumps(content, indent=1), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_a_fair_match_verifies_in_every_variant(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = records(name)
    lines = tmp_path / "match.jsonl"
    lines.write_text("".join(json.dumps(r) + "\n" for r in games), encoding="utf-8")
    code, out, err = run(capsys, lines)
    assert (code, err) == (0, "")
    assert out.count("all") == len(games) and "FAILED" not in out
    for game, record in zip(fair_match(name).games, games, strict=True):
        source = game.dice_source
        assert isinstance(source, FairDice)
        assert f"all {source.dealt // 2} rolls match" in out
        assert record["dice"]["server-seed"] == source.seeds.server_seed.hex()
        assert replay(record).result == game.result  # the record still replays


def test_a_single_pretty_printed_record_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = records("backgammon-7-point-match")[0]
    code, out, _ = run(capsys, write(tmp_path / "game.json", record))
    assert code == 0 and f"game {record['dice']['game-id']} (the record)" in out


def version_1(record: dict[str, Any]) -> dict[str, Any]:
    """The record as version 1 wrote it: no log, the rolls in ``opening`` and the turns."""
    old = {key: value for key, value in record.items() if key != "log"}
    return {**old, "format": 1}


def first_turn_rolled(record: dict[str, Any]) -> int:
    """The index of the first turn whose dice were rolled (not the played opening roll)."""
    return next(i for i, t in enumerate(record["turns"]) if "dice" in t and i > 0)


def change_first_turn_roll(record: dict[str, Any]) -> tuple[int, list[int], list[int]]:
    """Change the first die of the first roll after the opening where the record keeps its
    rolls (the log in version 2, the turns in version 1): (its number, before, after)."""
    if "log" in record:
        rolls = [e for e in record["log"] if e["type"] in ("opening-rolled", "dice-rolled")]
        n, event = next((n, e) for n, e in enumerate(rolls) if e["type"] == "dice-rolled")
        dice = event["dice"]
    else:
        i = first_turn_rolled(record)
        n = len(record["opening"]) + i - 1  # the opening rolls, then the turns after the first
        dice = record["turns"][i]["dice"]
    before = list(dice)
    dice[0] = dice[0] % 6 + 1
    return n, before, list(dice)


@pytest.mark.parametrize("version", [2, 1])
def test_a_changed_roll_is_named(
    version: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = records("backgammon-7-point-match")[0]
    record = record if version == 2 else version_1(record)
    n, (d1, d2), (t1, t2) = change_first_turn_roll(record)
    code, out, _ = run(capsys, write(tmp_path / "game.json", record))
    assert code == 1
    assert f"roll {n}: the record has {t1}-{t2}, the seeds give {d1}-{d2}" in out


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("server-seed", "00" * 32),
        ("client-seeds", ["someone-else", None]),
        ("game-id", "another-game"),
        ("commitment", hashlib.sha256(b"another seed").hexdigest()),
    ],
)
def test_tampered_seeds_are_detected(
    key: str, value: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = records("money-beaver-automatic-jacoby")[0]
    record["dice"][key] = value
    code, out, _ = run(capsys, write(tmp_path / "game.json", record))
    assert code == 1 and "FAILED" in out
    if key in ("server-seed", "commitment"):
        assert "not the commitment" in out


def test_one_bad_game_of_a_match_fails_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = records("nackgammon")
    assert len(games) > 1
    opening = next(e for e in games[-1]["log"] if e["type"] == "opening-rolled")
    opening["dice"].reverse()  # the other player's die first
    code, out, _ = run(capsys, write(tmp_path / "games.json", games))
    assert code == 1
    assert out.count("FAILED") == 1 and "(record 1): the commitment holds" in out


def test_the_seed_of_a_game_under_way_is_not_in_its_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game(dice=fair_dice("live", 0))
    game.roll_opening()
    record = game_record(game)
    assert "server-seed" not in record["dice"]
    code, out, err = run(capsys, write(tmp_path / "game.json", record))
    assert (code, out) == (2, "") and "not revealed" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json {", "not JSON"),
        ("[1, 2]", "a game record is a JSON object"),
        ("[]", "a game record is a JSON object"),
        (json.dumps({"format": 1, "turns": []}), "no dice block"),
    ],
)
def test_malformed_files_exit_with_2(
    content: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, path)
    assert (code, out) == (2, "") and message in err and err.startswith("nardy verify-dice:")


def test_malformed_dice_blocks_exit_with_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = records("acey-deucey")[0]
    for change in (
        {"scheme": "md5-of-my-choice"},
        {"server-seed": "zz" * 32},
        {"client-seeds": ["a"]},
        {"game-id": ""},
    ):
        record = copy.deepcopy(good)
        record["dice"].update(change)
        code, _, err = run(capsys, write(tmp_path / "bad.json", record))
        assert code == 2 and "the record:" in err, change
    broken = version_1(copy.deepcopy(good))  # neither a log nor turns: no rolls to read
    del broken["turns"]
    assert run(capsys, write(tmp_path / "bad.json", broken))[0] == 2
    for die in (7, "3", True, 0):
        wrong = version_1(copy.deepcopy(good))
        wrong["opening"][0][0] = die
        code, _, err = run(capsys, write(tmp_path / "bad.json", wrong))
        assert code == 2 and "numbers 1-6" in err, die
    half = version_1(copy.deepcopy(good))
    half["opening"][0] = half["opening"][0][:1]
    code, _, err = run(capsys, write(tmp_path / "bad.json", half))
    assert code == 2 and "whole rolls" in err
    for event in ({"type": "dice-rolled", "player": 0, "dice": [7, 1]}, {"type": "unknown"}, 3):
        bad_log = copy.deepcopy(good)
        bad_log["log"].insert(2, event)
        code, _, err = run(capsys, write(tmp_path / "bad.json", bad_log))
        assert code == 2 and "the record:" in err, event


def test_a_missing_file_exits_with_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, tmp_path / "nowhere.json")
    assert code == 2 and "nowhere.json" in err


def test_the_example_in_docs_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/records.md's dice example is a record the server wrote; it must still verify."""
    text = (Path(__file__).parents[1] / "docs" / "records.md").read_text(encoding="utf-8")
    section = text[text.index("## Dice") : text.index("## Chouette")]
    example = json.loads(section.split("```json\n")[1].split("```")[0])
    code, out, _ = run(capsys, write(tmp_path / "game.json", example))
    assert code == 0 and "all 5 rolls match" in out


@pytest.mark.parametrize("version", [2, 1])
@pytest.mark.parametrize(
    ("key", "value"),
    [("client-seeds", ["someone-else", None]), ("server-seed", "00" * 32)],
)
def test_replay_checks_the_revealed_seeds(version: int, key: str, value: Any) -> None:
    """A record with revealed dice replays only if its rolls are the seeds' (and the seed
    the commitment's); the replayed game keeps the dice, so its record keeps the block."""
    record = records("backgammon-7-point-match")[0]
    record = record if version == 2 else version_1(record)
    game = replay(record)
    assert game_record(game, players=("Alice", "Bob"), score=(0, 0))["dice"] == record["dice"]
    record["dice"][key] = value
    with pytest.raises(NotationError, match="not its seeds'"):
        replay(record)
