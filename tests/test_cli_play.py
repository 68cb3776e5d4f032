"""`nardy play`: the terminal game, driven through standard input with seeded dice
(issue "Game flow", item 7).

A scripted player needs to know the dice, so :func:`script` plays the same seeded match
alongside through the library — the bot seat by the same bot, the person's seat by the
heuristic bot's choices — and writes down what the person would type. The terminal game fed
that script must then produce exactly the same games.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from nardy.cli.main import main
from nardy.core.dice import SeededDice
from nardy.core.game import Phase
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.engine.bots import Bot, HeuristicBot, deciding_player, step
from nardy.notation.record import game_record, match_records, replay


def script(
    settings: Settings, seed: int, bots: tuple[Bot | None, Bot | None], players: tuple[str, str]
) -> tuple[list[str], Match]:
    """The lines a person types to play the whole match of ``settings`` with dice ``seed``
    in every seat where ``bots`` has None — roll, play the heuristic bot's choice, take every
    double, name its double; Enter between games — and the match so played."""
    match = Match(settings, SeededDice(seed), players=players)
    adviser = HeuristicBot()
    lines: list[str] = []
    while not match.over:
        if match.games:
            lines.append("")
        game = match.new_game()
        while not game.over:
            if game.phase is Phase.OPENING:
                game.roll_opening()
                continue
            player = deciding_player(game)
            assert player is not None
            if bots[player] is not None:
                step(game, bots)
            elif game.phase is Phase.ROLL:
                lines.append("roll")
                game.roll(player)
            elif game.phase is Phase.MOVING:
                assert game.dice is not None
                play = adviser.choose_play(game.position, *game.dice)
                lines.append(str(play))
                game.play(player, play)
            elif game.phase is Phase.DOUBLED:
                lines.append("take")
                game.take(player)
            elif game.phase is Phase.CHOOSE_DOUBLE:
                die = adviser.choose_double(game.position)
                lines.append(str(die))
                game.choose_double(player, die)
            else:  # pragma: no cover - the scripted players never resign or beaver
                raise AssertionError(game.phase)
    return lines, match


def play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lines: list[str],
    *args: str,
) -> tuple[int, str, str]:
    """Run ``nardy play ARGS`` with ``lines`` on standard input."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["play", *args])
    out, err = capsys.readouterr()
    return code, out, err


def records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def assert_replays(path: Path) -> None:
    for record in records(path):
        game = replay(record)
        again = game_record(
            game,
            number=record["game"],  # type: ignore[arg-type]
            players=tuple(record["players"]),  # type: ignore[arg-type]
            score=tuple(record["score"]),  # type: ignore[arg-type]
        )
        assert again == record


@pytest.mark.parametrize(
    ("variant", "seed"), [("backgammon", 3), ("acey-deucey", 11)], ids=["backgammon", "acey"]
)
def test_a_match_against_the_bot_plays_to_the_end(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    variant: str,
    seed: int,
) -> None:
    settings = Settings(variant=variant, match_length=1)
    lines, expected = script(settings, seed, (None, HeuristicBot()), ("You", "Bot"))
    path = tmp_path / "game.jsonl"
    args = ["--variant", variant, "--match", "1", "--seed", str(seed), "--record", str(path)]
    code, out, _ = play(monkeypatch, capsys, lines, *args)
    assert code == 0
    # The same games as the library plays with the same dice and choices.
    assert records(path) == match_records(expected)
    assert_replays(path)
    assert re.search(r"(You win|Bot wins) the match \d+-0\.\nSaved 1 game to .*\.\n$", out)
    assert "Opening roll: You " in out
    assert " X: You   O: Bot   Cube: 1, centred." in out
    assert "Bot plays " in out
    assert "error" not in out.lower()
    if variant == "acey-deucey":  # seed 11 has 1-2s: the person names 6-6, then 4-4
        assert "You played the 1-2: name a double to play (1-6), then roll again." in out
        assert "You: name a double> 6\n" in out


def test_a_long_nardy_series_between_two_people(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    settings = Settings(variant="long", match_length=1)
    lines, expected = script(settings, 5, (None, None), ("Player 1", "Player 2"))
    path = tmp_path / "long.jsonl"
    code, out, _ = play(
        monkeypatch,
        capsys,
        lines,
        *("--variant", "long", "--match", "1", "--vs", "human", "--seed", "5"),
        *("--record", str(path)),
    )
    assert code == 0
    assert "Long nardy, a 1-point match: Player 1 against Player 2." in out
    assert " H = head" in out
    assert "Player 1: roll> " in out and "Player 2: move> " in out
    assert re.search(r"Player [12] wins the match \d+-0\.\nSaved 1 game to .*\.\n$", out)
    assert records(path) == match_records(expected)
    assert_replays(path)


SEED = 3  # the opening roll is 2 against 5, and the first roll after it 5-2


def first_turn(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    lines: list[str],
    *extra: str,
) -> tuple[str, list[dict[str, object]]]:
    path = tmp_path / "g.jsonl"
    code, out, _ = play(
        monkeypatch, capsys, lines, "--seed", str(SEED), "--record", str(path), *extra
    )
    assert code == 0
    return out, records(path)


def test_the_opening_situation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out, recs = first_turn(monkeypatch, capsys, tmp_path, ["roll"])
    assert "Backgammon, money play: You against Bot." in out
    assert "Opening roll: You 2, Bot 5.\nBot plays first with 5-2.\nBot plays 13/6.\n" in out
    assert "You to roll. Score: You 0, Bot 0. Cube: 1, centred.\nYou: roll or double> roll\n" in out
    assert "You to play 5-2.\nYou: move> \nStopped.\n" in out
    # The input ended mid-game: the game so far is saved and replays.
    assert len(recs) == 1 and "end" not in recs[0]
    assert recs[0]["turns"][0]["play"] == "13/6"  # type: ignore[index]


def test_bad_input_changes_nothing_and_asks_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = ["take", "resign 7", "undo", "roll", "frobnicate", "24/20", "8/3 6/3", "", "plays"]
    out, recs = first_turn(monkeypatch, capsys, tmp_path, lines)
    messages = [
        "You: roll or double> take\n  there is no double to take now (roll)\nYou: roll or double> ",
        "resign 7\n  resign 1 (a single), 2 (a gammon) or 3 (a backgammon)\n",
        "undo\n  not now: the game is in phase roll, not moving\n",
        "You: move> frobnicate\n  'frobnicate' is not a command here: type help for the list, or "
        "a move such as 24/18\nYou: move> 24/20\n",
        "  24/20 is not a legal move now; legal: ",
        "You: move> 8/3 6/3\n  '8/3 6/3' is not a legal play of 5-2 in this position\n",
        "You: move> \n  no moves yet: type a play, or single moves one at a time\n",
        "You: move> plays\n  8 legal plays: 24/22 13/8, 24/22 8/3, ",
    ]
    for message in messages:
        assert message in out
    assert out.count("Backgammon   Position ID") == 1  # the board was never redrawn
    assert len(recs[0]["turns"]) == 1  # type: ignore[arg-type]


def test_single_moves_undo_and_confirm(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = ["", "hint", "13/8", "undo", "13/8", "6/4", "hint", "", "quit"]
    out, recs = first_turn(monkeypatch, capsys, tmp_path, lines)
    assert "You: move> hint\n  Hint: 13/6\n" in out
    assert "You to play 5-2; moved 13/8 so far.\nYou: move> undo\n" in out
    assert "Moved 13/8 6/4: Enter confirms it, undo takes a move back." in out
    assert "You: confirm or undo> hint\n  Hint: 13/6 (from the start of the turn" in out
    assert "Bot rolls " in out and "Stopped." in out
    turns = recs[0]["turns"]
    assert turns[1]["play"] == "13/8 6/4"  # type: ignore[index]
    assert_replays(tmp_path / "g.jsonl")


def test_a_hop_over_several_dice_is_walked_die_by_die(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out, recs = first_turn(monkeypatch, capsys, tmp_path, ["", "24/22", "22/17", "13/8", "c"])
    assert "  22/17 is not a legal move now; legal: 13/8, 8/3\n" in out  # blocked
    assert "Moved 24/22 13/8: Enter confirms it" in out
    assert recs[0]["turns"][1]["play"] == "24/22 13/8"  # type: ignore[index]
    # Seed 9: the bot opens 4-5 with 13/9 13/8, and You roll 3-3.
    lines = ["", "13/7", "6/3(2)", "undo", "undo", "24/15", "6/3 6/3", "", "quit"]
    out, recs = first_turn(monkeypatch, capsys, tmp_path, lines, "--seed", "9")
    assert "You to play 3-3; moved 13/10 10/7 so far.\nYou: move> 6/3(2)\n" in out
    assert "Moved 13/10 10/7 6/3 6/3: Enter confirms it" in out
    assert "  24/15 is not a legal move now; legal: " in out  # three dice, only two left
    assert recs[0]["turns"][1]["play"] == "13/7 6/3(2)"  # type: ignore[index]


def test_cube_and_resignation_between_two_people(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Player 2 opens (seed 3); Player 1 doubles, Player 2 beavers, Player 1 takes.
    lines = ["13/6", "double", "beaver", "take", "roll", "13/8 6/4", "roll", "hint"]
    path = tmp_path / "cube.jsonl"
    code, out, _ = play(
        monkeypatch,
        capsys,
        lines,
        *("--vs", "human", "--beaver", "--seed", str(SEED), "--record", str(path)),
    )
    assert code == 0
    assert "Player 1 doubles: play on for 2, or pass and lose 1." in out
    assert "Player 2: take, pass or beaver> beaver" in out
    assert "Player 2 beavers: the cube is on 2. Take to play on for 4, or pass and lose 2." in out
    assert "Player 1: take or pass> take" in out
    assert "Cube: 4, owned by Player 2." in out
    assert "Player 2: move> hint\n  Hint: " in out
    recs = records(path)
    assert recs[0]["turns"][1]["cube"] == ["double", "beaver", "take"]  # type: ignore[index]

    # Player 1 offers a gammon, which Player 2 declines, then a single, which is accepted.
    lines = ["13/6", "resign 2", "decline", "resign", "accept", ""]
    code, out, _ = play(
        monkeypatch,
        capsys,
        lines,
        *("--vs", "human", "--seed", str(SEED), "--record", str(path)),
    )
    assert "Player 1 offers to resign a gammon." in out
    assert "Player 2 declines: play on." in out
    assert "Player 1 resigns (single). Player 2 wins 1 point." in out
    assert "Score: Player 1 0, Player 2 1." in out
    assert "Enter for game 2, or quit> " in out
    assert records(path)[0]["end"]["kind"] == "resign"  # type: ignore[index]
    assert_replays(path)


def test_surrender_in_long_nardy(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "s.jsonl"
    code, out, _ = play(
        monkeypatch,
        capsys,
        ["resign", "surrender", "quit"],
        *("--variant", "long", "--vs", "human", "--seed", "1", "--record", str(path)),
    )
    assert code == 0
    assert "Long nardy has no resignation levels: surrender instead" in out
    assert "surrenders (mars). Player " in out and " wins 2 points." in out
    assert_replays(path)


def test_bad_settings_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "--match", "5", "--jacoby"])
    assert code == 2
    assert "jacoby applies only to money play" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "--match", "5", "--money"])
    assert "not allowed with argument" in capsys.readouterr().err
