"""The JSON game record (docs/records.md): every variant round-trips JSON → replay → JSON, and
a tampered record is refused with an error naming the turn (issue "Game flow", item 5).

:func:`play_match` (random legal actions through ``Match``/``Game`` with seeded dice) is also
used by ``test_mat.py`` and ``test_cli_records.py``.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from gameutil import rewritten

from nardy.core import NotationError
from nardy.core.dice import Dice, SeededDice
from nardy.core.game import Phase
from nardy.core.log import condensed
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.notation.position_id import position_from_id
from nardy.notation.record import (
    RecordError,
    check_record,
    game_record,
    match_records,
    parse_records,
    replay,
)

ROOT = Path(__file__).resolve().parents[1]


def play_match(
    settings: Settings,
    seed: int,
    *,
    max_games: int = 6,
    doubles: float = 0.03,
    resigns: float = 0.004,
    players: tuple[str, str] = ("Alice", "Bob"),
    game_dice: Callable[[int], Dice] | None = None,
) -> Match:
    """A match (or session) of random legal actions: each decision drawn from ``seed``,
    the dice from ``SeededDice(seed)``. ``doubles`` and ``resigns`` are the chances of a
    double or a resignation (a surrender in long nardy) at a turn's start; half as many
    resign after rolling; doubles are taken 3 times in 4, beavered 1 in 4 where allowed,
    resignations accepted half the time. ``game_dice(i)``, if given, is game i's own dice
    (as a server gives each game fair dice)."""
    rng = random.Random(seed)
    match = Match(settings, SeededDice(seed), players=players)
    while not match.over and len(match.games) < max_games:
        game = match.new_game(dice=game_dice(len(match.games)) if game_dice else None)
        if game.phase is Phase.OPENING:
            game.roll_opening()
        while not game.over:
            p = game.turn
            levels = game.variant.resignation_levels
            if game.phase is Phase.ROLL:
                r = rng.random()
                if game.can_double(p) and r < doubles:
                    game.double(p)
                elif r < doubles + resigns:
                    if levels:
                        game.resign(p, rng.randint(1, 3))
                    else:
                        game.surrender(p)
                else:
                    game.roll(p)
            elif game.phase is Phase.DOUBLED:
                r = rng.random()
                if game.settings.beaver and r < 0.25:
                    game.beaver(1 - p)
                elif r < 0.75:
                    game.take(1 - p)
                else:
                    game.pass_double(1 - p)
            elif game.phase is Phase.BEAVERED:
                (game.take if rng.random() < 0.6 else game.pass_double)(p)
            elif game.phase is Phase.RESIGNED:
                resigner, _ = game.resignation() or (p, 1)
                answer = game.accept_resignation if rng.random() < 0.5 else game.decline_resignation
                answer(1 - resigner)
            elif game.phase is Phase.MOVING:
                if levels and rng.random() < resigns / 2:
                    game.resign(p, rng.randint(1, 3))
                else:
                    game.play(p, rng.choice(game.legal_plays()))
            else:  # acey-deucey: name the double after the 1-2
                game.choose_double(p, rng.randint(1, 6))
    return match


SCENARIOS: dict[str, tuple[Settings, int, dict[str, Any]]] = {
    "backgammon-7-point-match": (Settings(match_length=7), 14, {}),
    "money-beaver-automatic-jacoby": (
        Settings(beaver=True, automatic_doubles=2, jacoby=True),
        1,
        {},
    ),
    "long-nardy-series-mars-last-roll-cube": (
        Settings(variant="long", match_length=5, cube=True, last_roll=True, ending="mars"),
        3,
        {"resigns": 0.0005, "doubles": 0.01},
    ),
    "acey-deucey": (Settings(variant="acey-deucey", match_length=3), 7, {}),
    "nackgammon": (Settings(variant="nackgammon", match_length=5), 0, {}),
    "nackgammon-ballard": (Settings(variant="nackgammon-ballard", match_length=3), 1, {}),
}


@pytest.fixture(scope="module", params=list(SCENARIOS))
def scenario(request: pytest.FixtureRequest) -> tuple[str, Match]:
    settings, seed, options = SCENARIOS[request.param]
    return request.param, play_match(settings, seed, **options)


def test_every_variant_round_trips_json_replay_json(scenario: tuple[str, Match]) -> None:
    name, match = scenario
    records = match_records(match)
    assert records
    for record, game in zip(records, match.games, strict=True):
        text = json.dumps(record)
        again = json.loads(text)
        replayed = replay(again)
        assert replayed.result == game.result
        players, score = (again["players"][0], again["players"][1]), tuple(again["score"])
        recorded = game_record(replayed, number=again["game"], players=players, score=score)
        assert json.dumps(recorded) == text, name


def test_the_scenarios_reach_what_they_are_named_for(scenario: tuple[str, Match]) -> None:
    """The seeds are chosen so that each scenario plays the rules it is meant to test."""
    name, match = scenario
    games = match.games
    kinds = {g.result.kind for g in games if g.result}
    cube_actions = {a for g in games for t in g.records for a in t.cube}
    if name == "backgammon-7-point-match":
        assert match.over and any(g.crawford for g in games)
        assert {"double", "take", "pass"} <= cube_actions
    elif name == "money-beaver-automatic-jacoby":
        assert "beaver" in cube_actions
        assert any(g.opening_rolls[0][0] == g.opening_rolls[0][1] for g in games)
    elif name.startswith("long-nardy"):
        levels = {g.result.level for g in games if g.result}
        assert "draw" in kinds and "mars" in kinds | levels  # last roll; mars
        assert "double" in cube_actions
    elif name == "acey-deucey":
        assert any(t.chosen for g in games for t in g.records)
    assert kinds


def test_the_score_follows_from_the_records(scenario: tuple[str, Match]) -> None:
    _, match = scenario
    records = match_records(match)
    score = [0, 0]
    for record in records:
        assert record["score"] == score
        end = record["end"]
        if end["winner"] is not None:
            score[end["winner"]] += end["points"]
    assert tuple(score) == match.score


# -- tampered records ---------------------------------------------------------------------


@pytest.fixture(scope="module", params=[2, 1])
def record(request: pytest.FixtureRequest) -> dict[str, Any]:
    """A backgammon game with cube actions, hits and a resignation or a pass at the end, as
    written now (version 2, with the event log) and as version 1 wrote it (turns only): both
    must refuse every tampering."""
    match = play_match(Settings(match_length=7), 4, max_games=1)
    written = match_records(match)[0]
    if request.param == 1:
        written = {k: v for k, v in written.items() if k != "log"} | {"format": 1}
    return written


def tampered(record: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(record)


def turn_with_play(record: dict[str, Any], start: int = 3) -> int:
    return next(
        i for i, t in enumerate(record["turns"]) if i >= start and t.get("play") and "dice" in t
    )


def test_a_changed_die_is_refused_naming_the_turn(record: dict[str, Any]) -> None:
    bad = tampered(record)
    i = turn_with_play(bad)
    d1, d2 = bad["turns"][i]["dice"]
    bad["turns"][i]["dice"] = [d1 % 6 + 1, d2]
    with pytest.raises(NotationError, match=rf"turn {i + 1}\b"):
        replay(bad)


def test_a_changed_opening_die_is_refused(record: dict[str, Any]) -> None:
    bad = tampered(record)
    bad["turns"][0]["dice"] = bad["turns"][0]["dice"][::-1]
    with pytest.raises(NotationError, match=r"turn 1\b.*dice"):
        replay(bad)


def test_an_illegal_play_is_refused_naming_the_turn(record: dict[str, Any]) -> None:
    bad = tampered(record)
    i = turn_with_play(bad)
    bad["turns"][i]["play"] = "24/1"
    with pytest.raises(NotationError, match=rf"turn {i + 1}\b"):
        replay(bad)


def test_another_legal_play_is_refused_by_its_result(record: dict[str, Any]) -> None:
    bad = tampered(record)
    i = turn_with_play(bad)
    turn = bad["turns"][i]
    before = position_from_id(turn["position"])
    others = [p for p in before.legal_plays(*turn["dice"]) if str(p) != turn["play"]]
    assert others
    turn["play"] = str(others[0])
    with pytest.raises(NotationError, match=rf"turn {i + 1}\b.*reaches"):
        replay(bad)


@pytest.mark.parametrize("field", ["position", "result"])
def test_a_wrong_position_id_is_refused_naming_the_turn(record: dict[str, Any], field: str) -> None:
    bad = tampered(record)
    i = turn_with_play(bad)
    bad["turns"][i][field] = record["turns"][i - 1][field]
    with pytest.raises(NotationError, match=rf"turn {i + 1}\b"):
        replay(bad)


@pytest.mark.parametrize("field", ["player", "cube", "dice", "play", "position", "result"])
def test_a_missing_turn_field_is_refused_naming_the_turn(
    record: dict[str, Any], field: str
) -> None:
    bad = tampered(record)
    i = turn_with_play(bad)
    del bad["turns"][i][field]
    with pytest.raises(NotationError, match=rf"turn {i + 1}\b"):
        replay(bad)


@pytest.mark.parametrize("field", ["settings", "variant", "turns"])
def test_a_missing_record_field_is_refused(record: dict[str, Any], field: str) -> None:
    bad = tampered(record)
    del bad[field]
    with pytest.raises(NotationError, match=rf"malformed game record.*{field}"):
        replay(bad)


def test_a_wrong_end_is_refused(record: dict[str, Any]) -> None:
    bad = tampered(record)
    bad["end"]["points"] += 1
    with pytest.raises(NotationError, match="end"):
        replay(bad)
    bad = tampered(record)
    bad["end"]["cube"] *= 2
    with pytest.raises(NotationError, match="end"):
        replay(bad)


def test_a_missing_end_is_refused(record: dict[str, Any]) -> None:
    bad = tampered(record)
    del bad["end"]
    with pytest.raises(NotationError, match="no end"):
        replay(bad)


def test_a_turn_after_the_end_is_refused(record: dict[str, Any]) -> None:
    bad = tampered(record)
    bad["turns"].append(copy.deepcopy(bad["turns"][-1]))
    with pytest.raises(NotationError, match=rf"turn {len(bad['turns'])}\b.*over"):
        replay(bad)


def test_an_empty_turn_is_refused(record: dict[str, Any]) -> None:
    bad = tampered(record)
    turn = bad["turns"][2]
    bad["turns"].insert(2, {k: turn[k] for k in ("player", "cube", "position", "result")})
    bad["turns"][2]["cube"] = []
    with pytest.raises(NotationError, match=r"turn 3\b"):
        replay(bad)


def test_a_wrong_first_player_is_refused(record: dict[str, Any]) -> None:
    bad = tampered(record)
    bad["first-player"] = 1 - bad["first-player"]
    with pytest.raises(NotationError, match="start"):
        replay(bad)


def test_settings_the_rules_refuse_are_a_notation_error(record: dict[str, Any]) -> None:
    bad = tampered(record)
    bad["settings"]["jacoby"] = True  # Jacoby is for money play only
    with pytest.raises(NotationError, match="jacoby"):
        replay(bad)


# -- the shape of a record, checked before it is used (issue 9, defect 3) ------------------------


def test_every_record_nardy_writes_passes_the_check(scenario: tuple[str, Match]) -> None:
    _, match = scenario
    for record in match_records(match):
        assert check_record(json.loads(json.dumps(record))) == record


MALFORMED: list[tuple[str, Any, str]] = [
    # (key path, new value, the field the error names); None as the value deletes the key
    ("players", None, "players"),
    ("players", ["A"], "players"),
    ("players", "AB", "players"),
    ("players", ["A", ""], "players"),
    ("players", ..., "players"),
    ("game", "one", "game"),
    ("game", 0, "game"),
    ("game", ..., "game"),
    ("settings", "x", "settings"),
    ("settings", {"match-length": "seven"}, "settings"),
    ("score", None, "score"),
    ("score", [1], "score"),
    ("score", [0, -1], "score"),
    ("variant", "chess", "variant"),
    ("variant", 3, "variant"),
    ("format", 99, "format"),
    ("format", "1", "format"),
    ("crawford", "no", "crawford"),
    ("opening", [[7, 1]], "opening"),
    ("first-player", 2, "first-player"),
    ("start-cube", [3, None], "start-cube"),
    ("turns", {}, "turns"),
    ("turns.0", "24/18", "turns"),
    ("turns.0.player", True, "player"),
    ("turns.0.dice", [6], "dice"),
    ("turns.0.cube", ["redouble"], "cube"),
    ("turns.0.play", 2418, "play"),
    ("turns.0.position", ..., "position"),
    ("turns.0.resign", [{"level": True, "accepted": True, "after-roll": False}], "level"),
    ("end", [], "end"),
    ("end.kind", "checkmate", "kind"),
    ("end.points", None, "points"),
    ("end.winner", "Alice", "winner"),
    ("log", {"type": "dice-rolled"}, "log"),
    ("log.0", {"type": "checkmate"}, "log"),
    ("log.1", "dice-rolled", "log"),
]


def _malformed(record: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """``record`` with the field at ``path`` (``turns.0.dice``) set to ``value``, or
    deleted where ``value`` is ``...``."""
    bad = tampered(record)
    *parents, last = path.split(".")
    holder: Any = bad
    for key in parents:
        holder = holder[int(key)] if isinstance(holder, list) else holder[key]
    index: Any = int(last) if isinstance(holder, list) else last
    if value is ...:
        del holder[index]
    else:
        holder[index] = value
    return bad


@pytest.mark.parametrize(("path", "value", "field"), MALFORMED)
def test_a_malformed_record_is_refused_naming_the_field(
    record: dict[str, Any], path: str, value: Any, field: str
) -> None:
    if path.startswith("log.") and "log" not in record:
        pytest.skip("a version 1 record has no log to change")
    bad = _malformed(record, path, value)
    with pytest.raises(RecordError) as refused:
        check_record(bad)
    assert refused.value.field == field
    assert f"field {field!r}" in str(refused.value)
    if path.startswith("turns.0."):
        assert refused.value.where.startswith("turn 1")
    if field not in ("players", "game", "score"):  # replay checks the game's own fields
        with pytest.raises(NotationError, match="malformed game record"):
            replay(bad)
    else:  # … not those that place it in a match, which it does not read
        assert replay(bad).result == replay(record).result
        check_record(bad, match=False)


def test_records_are_read_with_the_file_line_and_game(record: dict[str, Any]) -> None:
    second = {**record, "game": 2, "players": None}
    text = json.dumps(record) + "\n\n" + json.dumps(second) + "\n"
    with pytest.raises(NotationError) as refused:
        parse_records(text, "games.jsonl")
    message = str(refused.value)
    assert message.startswith("games.jsonl line 3, game 2: field 'players': expected two")
    assert message.endswith("not null")
    second["players"] = ["A", "B"]
    text = json.dumps(record) + "\n\n" + json.dumps(second) + "\n"
    assert parse_records(text, "x") == [(1, record), (3, second)]
    # One JSON object, or an array of them, as the analysis reads too.
    assert parse_records(json.dumps(record, indent=1), "x") == [(1, record)]
    assert parse_records(json.dumps([record, record]), "x") == [(1, record), (1, record)]


def test_a_record_of_the_first_turn_under_way_has_no_start() -> None:
    """Single moves made before the first turn is confirmed are not a chosen start."""
    match = Match(Settings(), SeededDice(3))
    game = match.new_game()
    game.roll_opening()
    game.move(game.turn, *(lambda m: (m.start, m.end))(game.next_moves()[0]))
    record = game_record(game)
    assert "start" not in record
    assert replay(record).phase is Phase.MOVING


# -- the documented example ---------------------------------------------------------------


def test_the_example_in_docs_replays_to_itself() -> None:
    """docs/records.md shows a record the code wrote; it must still replay to itself."""
    text = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, re.DOTALL)
    assert blocks
    for block in blocks:
        example = json.loads(block)
        assert rewritten(example) == example


# -- versions ------------------------------------------------------------------------------


def test_version_1_records_still_replay() -> None:
    """docs/records.md: records written before the event log (version 1, the former docs
    examples) replay, and are written again as version 2 with the same turns and end."""
    lines = (ROOT / "tests" / "data" / "records_v1.jsonl").read_text(encoding="utf-8")
    for line in lines.splitlines():
        old = json.loads(line)
        assert old["format"] == 1 and "log" not in old
        new = rewritten(old)
        assert new["format"] == 2 and new["log"]
        assert {k: v for k, v in new.items() if k not in ("format", "log")} == {
            k: v for k, v in old.items() if k != "format"
        }
        assert rewritten(new) == new


@pytest.mark.parametrize("variant", ["backgammon", "acey-deucey", "long"])
def test_a_record_taken_mid_turn_replays_to_that_moment(variant: str) -> None:
    """Issue 8: dice on the table, single moves made, a double or a resignation pending:
    the version 2 record replays to exactly that state, without rolling."""
    settings = Settings(variant=variant, cube=True)
    for seed in range(4):
        match = Match(settings, SeededDice(seed))
        game = match.new_game()
        rng = random.Random(seed)
        for _ in range(rng.randint(5, 60)):
            if game.over:
                break
            if game.phase is Phase.OPENING:
                game.roll_opening()
            elif game.phase is Phase.ROLL:
                if game.can_double(game.turn) and rng.random() < 0.1:
                    game.double(game.turn)
                else:
                    game.roll(game.turn)
            elif game.phase is Phase.DOUBLED:
                game.take(1 - game.turn)
            elif game.phase is Phase.CHOOSE_DOUBLE:
                game.choose_double(game.turn, rng.randint(1, 6))
            elif game.next_moves() and rng.random() < 0.5:
                move = rng.choice(game.next_moves())
                game.move(game.turn, move.start, move.end)
            else:
                game.play(game.turn, rng.choice(game.legal_plays()))
        record = json.loads(json.dumps(game_record(game)))
        again = replay(record)
        assert again.snapshot() == {**game.snapshot(), "log": again.snapshot()["log"]}
        assert again.log == condensed(game.log)
        assert again.moves_made == game.moves_made and again.dice == game.dice


def test_a_tampered_log_is_refused_naming_the_event() -> None:
    """Version 2: a changed roll, or an event left out, is refused naming an event."""
    record = match_records(play_match(Settings(match_length=7), 4, max_games=1))[0]
    i = next(i for i, e in enumerate(record["log"]) if e["type"] == "dice-rolled")
    bad = tampered(record)
    d1, d2 = bad["log"][i]["dice"]
    bad["log"][i]["dice"] = [d1 % 6 + 1, d2]
    with pytest.raises(NotationError, match=r"event \d+ of the log"):
        replay(bad)
    bad = tampered(record)
    del bad["log"][i + 1]
    with pytest.raises(NotationError, match=rf"event {i + 2}\b"):
        replay(bad)
    bad = tampered(record)
    bad["log"][i]["dice"] = [7, 1]
    with pytest.raises(NotationError, match="1-6"):
        replay(bad)
