"""`nardy play`: the terminal game, driven through standard input with seeded dice
(issue "Game flow", item 7).

A scripted player needs to know the dice, so :func:`script` plays the same seeded match
alongside through the library — the bot seat by the same bot, the person's seat by the
heuristic bot's choices — and writes down what the person would type. The terminal game fed
that script must then produce exactly the same games.

Later tests follow the QA findings on ``nardy play`` one by one: whole plays wait for
confirmation, who moves first reads right for any name, the board is drawn from the side of
the one asked, long nardy's last roll, games from a chosen position, and the annoyances.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import without_shipped_net
from gameutil import position, rewritten

from nardy.cli.main import main
from nardy.cli.options import describe_settings
from nardy.cli.play import DEFAULT_LEVEL
from nardy.cli.terminal import ADVISER
from nardy.cli.words import conjugate, dice_as_shown
from nardy.core import BACKGAMMON, NardyError, actions
from nardy.core.dice import SeededDice
from nardy.core.game import Phase
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.core.setup import Start, start_match
from nardy.engine.analysis import rank_plays
from nardy.engine.bots import Bot, HeuristicBot, make_bot, step
from nardy.engine.neural import NeuralBot
from nardy.engine.stakes import Stakes
from nardy.notation import decode_match_id, position_from_id, position_id
from nardy.notation.record import match_records


def script(
    settings: Settings, seed: int, bots: tuple[Bot | None, Bot | None], players: tuple[str, str]
) -> tuple[list[str], Match]:
    """The lines a person types to play the whole match of ``settings`` with dice ``seed``
    in every seat where ``bots`` has None — roll, play the heuristic bot's choice and confirm
    it with Enter, take every double, name its double; Enter between games — and the match so
    played."""
    match = Match(settings, SeededDice(seed), players=players)
    adviser = HeuristicBot()
    lines: list[str] = []
    while not match.over:
        if match.games:
            lines.append("")
        game = match.new_game()
        while not game.over:
            if game.phase is Phase.OPENING:
                game.apply(actions.RollOpening(0))
                continue
            player = game.awaiting(moves=False).player
            assert isinstance(player, int)
            if bots[player] is not None:
                step(game, bots)
            elif game.phase is Phase.ROLL:
                lines.append("roll")
                game.apply(actions.Roll(player))
            elif game.phase is Phase.MOVING:
                assert game.dice is not None
                play = adviser.choose_play(game.position, *game.dice)
                lines += [str(play), ""]
                game.apply(actions.Play(player, str(play)))
            elif game.phase is Phase.DOUBLED:
                lines.append("take")
                game.apply(actions.Take(player))
            elif game.phase is Phase.CHOOSE_DOUBLE:
                die = adviser.choose_double(game.position)
                lines.append(str(die))
                game.apply(actions.ChooseDouble(player, die))
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


def answer(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    args: list[str],
    typed: list[str],
) -> str:
    """The terminal's answer to the last line of ``typed`` (the earlier lines typed first) at
    the move prompt of ``nardy play ARGS``."""
    record = str(tmp_path / "answer.jsonl")
    code, out, _ = play(monkeypatch, capsys, [*typed, "quit"], *args, "--record", record)
    assert code == 0
    return out[out.index(f"You: move> {typed[-1]}\n") :].splitlines()[1]


def records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def assert_replays(path: Path) -> None:
    for record in records(path):
        assert rewritten(record) == record


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
    bot = make_bot(DEFAULT_LEVEL, seed=seed)
    lines, expected = script(settings, seed, (None, bot), ("You", "Bot"))
    path = tmp_path / "game.jsonl"
    args = ["--variant", variant, "--match", "1", "--seed", str(seed), "--record", str(path)]
    code, out, _ = play(monkeypatch, capsys, lines, *args)
    assert code == 0
    # The same games as the library plays with the same dice and choices.
    assert records(path) == match_records(expected)
    assert_replays(path)
    assert re.search(r"(You win|Bot wins) the match \d+-0\.\nSaved 1 game to .*\.\n$", out)
    assert "Opening roll: You " in out
    assert " Drawn from your side: X = You, O = Bot.\n You are on roll with " in out
    assert "Bot plays " in out
    assert "error" not in out.lower()
    rolls = re.findall(r"Bot rolls (\d)-(\d)", out)  # as gnubg writes them, the larger first
    assert rolls and all(a >= b for a, b in rolls)
    if variant == "acey-deucey":  # seed 11 has 1-2s: the person names 6-6, then 4-4
        named = out.index("You played the 1-2: name a double to play (1-6), then roll again.")
        assert "You: name a double> 6\n" in out
        # The double is asked for only once the 1-2 is confirmed.
        assert out.rfind("You: confirm or undo> \n", 0, named) > out.rfind("You: move> ", 0, named)


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
    """The heuristic bot opens (it does not change when the net is retrained); each session
    saves to a fresh g.jsonl."""
    path = tmp_path / "g.jsonl"
    path.unlink(missing_ok=True)  # a session adds its games to those already in the file
    args = ("--seed", str(SEED), "--bot", "heuristic", "--record", str(path))
    code, out, _ = play(monkeypatch, capsys, lines, *args, *extra)
    assert code == 0
    return out, records(path)


def test_the_opening_situation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out, recs = first_turn(monkeypatch, capsys, tmp_path, ["roll"])
    assert out.startswith(
        "Backgammon, money play: You against Bot.\n"
        "Settings: Jacoby on, beavers off, no automatic doubles, no limit.\n"
    )
    assert "Opening roll: You 2, Bot 5.\nBot plays first with 5-2.\nBot plays 13/6.\n" in out
    assert "You to roll. Score: You 0, Bot 0. Cube: 1, centred.\nYou: roll or double> roll\n" in out
    assert "You to play 5-2.\nYou: move> \nStopped.\n" in out
    # The input ended mid-game: the game so far is saved and replays.
    assert len(recs) == 1 and "end" not in recs[0]
    assert recs[0]["turns"][0]["play"] == "13/6"  # type: ignore[index]


def test_bad_input_changes_nothing_and_asks_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = ["take", "resign 7", "undo", "plays", "24/18", "roll", "frobnicate", "roll"]
    lines += ["double", "24/20", "8/3 6/3", "", "accept", "13/8!"]
    out, recs = first_turn(monkeypatch, capsys, tmp_path, lines)
    messages = [
        "You: roll or double> take\n  there is no double to answer now\nYou: roll or double> ",
        "resign 7\n  resign 1 (a single), 2 (a gammon) or 3 (a backgammon)\n",
        # The game's refusals in plain words, not its phases.
        "undo\n  roll first\n",
        "plays\n  roll first\n",
        "You: roll or double> 24/18\n  roll first\n",
        "You: move> frobnicate\n  'frobnicate' is not a command here: type help for the list, or "
        "a move such as 24/18\nYou: move> roll\n  you have already rolled\n",
        "You: move> double\n  you have already rolled\n",
        "  24/20 is not a legal move now; legal: ",
        "You: move> 8/3 6/3\n  '8/3 6/3' is not a legal play of 5-2 in this position\n",
        "You: move> \n  no moves yet: type a play, or single moves one at a time\n",
        "You: move> accept\n  there is no resignation to answer now\n",
        # A play that is not whole cannot be confirmed: nothing of it is left made.
        "You: move> 13/8!\n  13/8 does not finish the play: a trailing ! confirms a whole play, "
        "or the move that completes one (it is taken back)\n",
    ]
    for message in messages:
        assert message in out
    assert "not now" not in out and "phase" not in out
    assert out.count("Backgammon   Position ID") == 2  # drawn again after the roll only
    assert "You to play 5-2.\nYou: move> frobnicate" in out
    assert "moved" not in out
    assert len(recs[0]["turns"]) == 1  # type: ignore[arg-type]


def test_single_moves_undo_and_confirm(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = ["", "hint", "13/8", "undo", "13/8", "6/4", "hint", "", "quit"]
    out, recs = first_turn(monkeypatch, capsys, tmp_path, lines)
    hint = NeuralBot(ADVISER).choose_play(BACKGAMMON.start().apply("13/6", 5, 2).swap(), 5, 2)
    assert f"You: move> hint\n  Hint: {hint} (equity " in out
    assert "You to play 5-2; moved 13/8 so far.\nYou: move> undo\n" in out
    assert "Moved 13/8 6/4: Enter confirms it, undo takes a move back." in out
    # After the roll and after each move the board is drawn again, with the dice.
    assert out.count(" You are on roll with 5-2. Cube: 1, centred.\n") == 5
    assert re.search(
        rf"You: confirm or undo> hint\n  Hint: {hint} \(equity [^)]*\) "
        r"\(from the start of the turn",
        out,
    )
    assert "Bot rolls " in out and "Stopped." in out
    turns = recs[0]["turns"]
    assert turns[1]["play"] == "13/8 6/4"  # type: ignore[index]
    assert_replays(tmp_path / "g.jsonl")


def test_a_hop_over_several_dice_is_walked_die_by_die(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out, recs = first_turn(monkeypatch, capsys, tmp_path, ["", "24/22", "22/17", "13/8", "c"])
    assert "  22/17 is not a legal move now; legal: 13/8, 8/3 (5-2: point 17 is blocked" in out
    assert "Moved 24/22 13/8: Enter confirms it" in out
    assert recs[0]["turns"][1]["play"] == "24/22 13/8"  # type: ignore[index]
    # Seed 9: the bot opens 4-5 with 13/9 13/8, and You roll 3-3.
    lines = ["", "13/7", "6/3(2)", "undo", "undo", "24/15", "6/3 6/3", "", "quit"]
    out, recs = first_turn(monkeypatch, capsys, tmp_path, lines, "--seed", "9")
    assert "You to play 3-3; moved 13/7 so far.\nYou: move> 6/3(2)\n" in out
    assert "Moved 13/7 6/3(2): Enter confirms it" in out
    assert "  24/15 is not a legal move now; legal: " in out  # three dice, only two left
    assert recs[0]["turns"][1]["play"] == "13/7 6/3(2)"  # type: ignore[index]


def test_cube_and_resignation_between_two_people(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Player 2 opens (seed 3); Player 1 doubles, Player 2 beavers, Player 1 takes.
    lines = ["13/6", "", "double", "beaver", "take", "roll", "13/8 6/4", "", "roll", "hint"]
    path = tmp_path / "cube.jsonl"
    code, out, _ = play(
        monkeypatch,
        capsys,
        lines,
        *("--vs", "human", "--beaver", "--seed", str(SEED), "--record", str(path)),
    )
    assert code == 0
    # Each is shown the board from their own side: Player 2 answers Player 1's double.
    assert (
        " Drawn from the side of Player 2: X = Player 2, O = Player 1.\n"
        " Player 1 is on roll. Cube: 1, centred.\n"
        "Player 1 doubles: play on for 2, or pass and lose 1.\n"
    ) in out
    assert " X = not on roll (points numbered from X's side" in out
    assert "Player 2: take, pass or beaver> beaver" in out
    assert "Player 2 beavers: the cube is on 2. Take to play on for 4, or pass and lose 2." in out
    assert "Player 1: take or pass> take" in out
    assert "Cube: 4, owned by Player 2." in out
    assert "Player 2: move> hint\n  Hint: " in out
    recs = records(path)
    assert recs[0]["turns"][1]["cube"] == ["double", "beaver", "take"]  # type: ignore[index]

    # Player 1 offers a gammon, which Player 2 declines, then a single, which is accepted;
    # each offer is made only once Player 1 is sure.
    lines = ["13/6", "", "resign 2", "y", "decline", "resign", "maybe", "y", "accept", ""]
    path = tmp_path / "resign.jsonl"
    code, out, _ = play(
        monkeypatch,
        capsys,
        lines,
        *("--vs", "human", "--seed", str(SEED), "--record", str(path)),
    )
    assert (
        "Player 1: roll or double> resign 2\n"
        "  Resigning a gammon: it scores 1 point under the Jacoby rule (the cube was never "
        "turned).\nPlayer 1: are you sure? (y/n)> y\n"
    ) in out
    assert "Player 1 offers to resign a gammon: it scores 1 point under the Jacoby rule" in out
    assert "  Resigning a single: it scores 1 point.\n" in out
    assert "(y/n)> maybe\n  Type y (yes) or n (no).\nPlayer 1: are you sure? (y/n)> y\n" in out
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
        ["resign", "surrender", "n", "surrender", "y", "quit"],
        *("--variant", "long", "--vs", "human", "--seed", "1", "--record", str(path)),
    )
    assert code == 0
    assert "Long nardy has no resignation levels: surrender instead" in out
    assert "are you sure? (y/n)> n\n  Not done: play on.\n" in out
    assert "surrenders (mars). Player " in out and " wins 2 points." in out
    assert_replays(path)


def test_bad_settings_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "--match", "5", "--jacoby"])
    assert code == 2
    assert "jacoby applies only to money play" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "--match", "5", "--money"])
    assert "not allowed with argument" in capsys.readouterr().err


# -- QA findings --------------------------------------------------------------------------------


def test_a_whole_play_is_made_move_by_move_and_waits_for_confirmation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """RULES.md 1.9: a whole play typed at once is final only when confirmed; undo takes it
    back one move at a time. A trailing ! confirms at once."""
    lines = ["", "13/8 13/11", "undo", "undo", "24/22 13/8", "", "quit"]
    out, recs = first_turn(monkeypatch, capsys, tmp_path, lines)
    assert (
        "You: move> 13/8 13/11\n"  # the board is drawn with the play made, then:
    ) in out
    assert "Moved 13/11 13/8: Enter confirms it, undo takes a move back.\n" in out
    assert "You: confirm or undo> undo\n" in out
    assert "You to play 5-2; moved 13/8 so far.\nYou: move> undo\n" in out
    assert "Moved 24/22 13/8: Enter confirms it, undo takes a move back.\n" in out
    assert "You: confirm or undo> \nBot rolls " in out
    assert [t["play"] for t in recs[0]["turns"]] == ["13/6", "24/22 13/8", "8/3* 6/3"]  # type: ignore[index]
    assert_replays(tmp_path / "g.jsonl")
    # The fast path: the play is made and confirmed in one line.
    out, recs = first_turn(monkeypatch, capsys, tmp_path, ["", "24/22 13/8!", "quit"])
    assert "You: move> 24/22 13/8!\nBot rolls " in out and "Moved" not in out
    assert recs[0]["turns"][1]["play"] == "24/22 13/8"  # type: ignore[index]


def test_who_moves_first_reads_right_for_any_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = ("--record", str(tmp_path / "r.jsonl"))
    _, out, _ = play(
        monkeypatch, capsys, ["quit"], "--variant", "long", "--vs", "human", "--seed", "1", *record
    )
    assert "Opening roll: Player 1 2, Player 2 5.\nPlayer 2 moves first and rolls.\n" in out
    args = ("--opening", "reroll", "--vs", "human", "--seed", "7", *record)
    _, out, _ = play(monkeypatch, capsys, ["quit"], *args)
    assert "Player 1 moves first and rolls.\n" in out
    _, out, _ = play(monkeypatch, capsys, ["quit"], "--variant", "long", "--seed", "1", *record)
    assert "Bot moves first and rolls.\n" in out
    assert [conjugate(name, "roll") for name in ("You", "Bot", "Player 2", "Ann Lee")] == [
        "roll",
        "rolls",
        "rolls",
        "rolls",
    ]
    assert conjugate("Ann (box)", "pass") == "passes" and conjugate("You", "be") == "are"
    assert conjugate("Player 1", "have") == "has"


RACE = position("backgammon", {6: 3, 5: 3, 4: 3, 3: 2}, {6: 4, 8: 4, 10: 3, 12: 4})
"""The side on roll far ahead in a race: the heuristic bot on roll doubles at once."""


def test_the_board_is_drawn_from_the_persons_side_when_the_bot_doubles(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "race.jsonl"
    args = ("--position", position_id(RACE), "--turn", "1", "--seed", "3", "--record", str(path))
    code, out, _ = play(monkeypatch, capsys, ["take", "quit"], *args)
    assert code == 0
    assert "A game from a chosen position: Bot is on roll.\nBot doubles to 2.\n" in out
    board = out[out.index("Bot doubles to 2.") : out.index("You: take or pass> take")]
    assert "Pip count  X: 134  O: 51" in board  # X is the person, though the bot is on roll
    assert f"Position ID: {position_id(RACE)}   Match ID: " in board  # from the side on roll
    assert board.count("O  on roll") == 1 and board.count("X  not on roll") == 1
    assert " X = not on roll (points numbered from X's side" in board
    assert (
        " Drawn from your side: X = You, O = Bot.\n Bot is on roll. Cube: 1, centred.\n"
        "Bot doubles: play on for 2, or pass and lose 1.\n"
    ) in board
    # Once the person is on roll again, X is on roll again.
    after = out[out.index("You: take or pass> take") :]
    assert "X  on roll" in after and " You are on roll. Cube: 2, owned by You." in after
    assert_replays(path)


def _last_roll(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    theirs: dict[int, int],
) -> str:
    """You bear off your last checker with 2-1; the bot, with ``theirs`` left, has the last
    roll (seed 1: 5-2)."""
    start = position("long", {1: 1}, theirs)
    path = tmp_path / "last.jsonl"
    args = ["--variant", "long", "--last-roll", "--position", position_id(start)]
    args += ["--dice", "2", "1", "--seed", "1", "--record", str(path)]
    code, out, _ = play(monkeypatch, capsys, ["1/off!"], *args)
    assert code == 0
    assert "Settings: no cube, no limit, a mars counts 2, last roll on, " in out
    assert (
        "You: move> 1/off!\nYou have borne off all 15; Bot gets one last roll to draw.\n"
        "Bot rolls 5-2.\n"
    ) in out
    assert_replays(path)
    return out


def test_long_nardy_last_roll_is_announced_with_its_outcome(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = _last_roll(monkeypatch, capsys, tmp_path, {1: 1})
    assert "Bot plays 1/off.\n" in out
    assert (
        "The game is a draw: the last roll bore every checker off.\nScore: You 0, Bot 0.\n" in out
    )
    out = _last_roll(monkeypatch, capsys, tmp_path, {6: 5})
    assert "The last roll did not bear off every checker. You win an oin: 1 point.\n" in out
    out = _last_roll(monkeypatch, capsys, tmp_path, {20: 15})
    assert "The last roll did not bear off every checker. You win a mars: 2 points.\n" in out


def test_a_game_from_a_chosen_position(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """RULES.md 4: position, player on roll, dice and cube chosen; the record replays."""
    path = tmp_path / "chosen.jsonl"
    start = position("backgammon", {6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 4, 24: 2, 20: 1})
    args = ["--position", position_id(start), "--turn", "1", "--dice", "3", "6"]
    args += ["--cube", "2:0", "--seed", "5", "--record", str(path)]
    code, out, _ = play(monkeypatch, capsys, ["quit"], *args)
    assert code == 0
    assert (
        "Game 1. Score: You 0, Bot 0.\nA game from a chosen position: Bot is on roll with 6-3.\n"
        in out
    )
    assert re.search(r"\nBot plays \S", out)
    assert " You are on roll. Cube: 2, owned by You.\n" in out
    record = records(path)[0]
    assert record["start"] == position_id(start) and record["start-cube"] == [2, 0]
    assert record["first-player"] == 1 and record["opening"] == []
    assert record["turns"][0]["dice"] == [3, 6]  # type: ignore[index]
    assert_replays(path)

    # PositionID:MatchID: the dice, cube, player on roll and match length come from the Match
    # ID (gnubg's player 1, at the bottom, is You), and so does the score.
    text = "4HPwATDgc/ABMA:AQHvACAAIAAE"  # 7 points, 2-4 for You, Bot on roll, 6-3, cube 2 Bot's
    code, out, _ = play(monkeypatch, capsys, ["quit"], "--position", text, "--record", str(path))
    assert code == 0
    assert out.startswith("Backgammon, a 7-point match: You against Bot.\n")
    assert "Note:" not in out and "Score: You 4, Bot 2" in out

    assert "A game from a chosen position: Bot is on roll with 6-3.\nBot plays " in out
    assert "Cube: 2, owned by Bot." in out
    # The flags win over the ID.
    args = ["--position", text, "--turn", "0", "--dice", "2", "1", "--cube", "1"]
    args += ["--score", "0-0", "--money", "--record", str(path)]
    code, out, _ = play(monkeypatch, capsys, ["quit"], *args)
    assert out.startswith("Backgammon, money play: You against Bot.\n") and "Note:" not in out
    assert "A game from a chosen position: You are on roll with 2-1.\n" in out
    assert " You are on roll with 2-1. Cube: 1, centred.\n" in out
    # An XGID with a double offered: You (X) have doubled; the bot answers.
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:5:10"
    code, out, _ = play(monkeypatch, capsys, ["quit"], "--position", xgid, "--record", str(path))
    assert "Backgammon, a 5-point match" in out
    assert re.search(r"You are on roll and double to 2\.\nBot (takes|passes)\.\n", out)
    assert_replays(path)


def test_a_match_taken_up_at_a_chosen_score(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """RULES.md 4 and 1.6: a match started at 6-2 to 7 starts with the Crawford game."""
    path = tmp_path / "score.jsonl"
    args = ["--match", "7", "--score", "6-2", "--seed", "4", "--record", str(path)]
    code, out, _ = play(monkeypatch, capsys, ["quit"], *args)
    assert code == 0
    assert "Crawford" in out and "Score: You 6, Bot 2" in out
    assert records(path)[0]["score"] == [6, 2] and records(path)[0]["crawford"] is True


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--match", "3", "--score", "2-3"], "a match to 3 cannot start at 2-3"),
        (["--cube", "2:1", "--no-cube"], "the cube is off in this game"),
        (["--position", "nonsense"], "'nonsense' is not a Position ID"),
        (["--position", "XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:0:0:10"], "beaver"),
        (["--dice", "1", "2", "--chouette", "A,B,C"], "a chosen position does not apply"),
    ],
)
def test_a_chosen_start_that_cannot_be_played_is_refused(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["play", *args]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cube", "3"], "a cube value is 1, 2, 4, 8…, not '3'"),
        (["--cube", "1:0"], "a cube on 1 is centred"),
        (["--cube", "2:x"], "the cube's owner is player 0 or 1"),
        (["--score", "2:1"], "expected a score A-B"),
        (["--dice", "7", "1"], "a die is 1-6"),
    ],
)
def test_bad_start_flags(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    with pytest.raises(SystemExit):
        main(["play", *args])
    assert message in capsys.readouterr().err


def test_plays_are_all_listed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = ("--record", str(tmp_path / "p.jsonl"))
    bot = ("--bot", "heuristic")
    monkeypatch.setenv("COLUMNS", "60")
    _, out, _ = play(monkeypatch, capsys, ["roll", "plays"], "--seed", str(SEED), *bot, *record)
    assert (
        "You: move> plays\n  8 legal plays:\n"
        "    24/22 13/8   24/22 8/3    13/11 13/8   13/11 8/3\n"
        "    13/6         13/8 6/4     8/6 8/3      8/3 6/4\n"
    ) in out
    monkeypatch.setenv("COLUMNS", "200")
    _, out, _ = play(monkeypatch, capsys, ["roll", "plays"], "--seed", str(SEED), *bot, *record)
    assert "  8 legal plays: 24/22 13/8, 24/22 8/3, 13/11 13/8, 13/11 8/3, 13/6, " in out
    alone = position_id(position("backgammon", {1: 1}, {6: 5}))
    args = ("--position", alone, "--dice", "2", "1", *record)
    _, out, _ = play(monkeypatch, capsys, ["plays"], *args)
    assert "You: move> plays\n  1 legal play: 1/off\n" in out


def test_the_header_shows_the_settings() -> None:
    assert describe_settings(Settings(match_length=7).resolve()) == "Crawford rule on"
    money = Settings(beaver=True, automatic_doubles=2, limit_points=10, backgammon_value=2)
    assert describe_settings(money.resolve()) == (
        "Jacoby on, beavers on, automatic doubles up to 2 a game, ends at a difference of 10 "
        "points, a backgammon counts 2"
    )
    long = Settings(variant="long", ending="oin", first_move_in_series="alternate")
    assert describe_settings(long.resolve()) == (
        "no cube, no limit, every game counts 1 (oin), last roll off, the players take turns "
        "to start a game"
    )


def test_resigning_asks_first_and_tells_the_stake(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = ["resign 3", "n", "quit"]
    out, recs = first_turn(monkeypatch, capsys, tmp_path, lines)
    assert (
        "You: roll or double> resign 3\n"
        "  Resigning a backgammon: it scores 1 point under the Jacoby rule (the cube was never "
        "turned).\nYou: are you sure? (y/n)> n\n  Not done: play on.\nYou: roll or double> quit\n"
    ) in out
    assert "resign" not in recs[0]["turns"][-1]  # type: ignore[index]
    out, _ = first_turn(monkeypatch, capsys, tmp_path, lines, "--no-jacoby")
    assert "  Resigning a backgammon: it scores 3 points.\n" in out


def test_4_switching_sides_after_each_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """RULES.md 4 display setting: the home board changes side (left/right) each game."""
    args = ["--vs", "human", "--match", "7", "--switch-sides", "--seed", "2"]
    args += ["--record", str(tmp_path / "s.jsonl")]
    keys = ["resign 1", "y", "accept", "", "quit"]
    code, out, _ = play(monkeypatch, capsys, keys, *args)
    assert code == 0
    first, second = out.split("\nGame 2")[:2]
    assert "home board bottom right" in first and "home board bottom left" in second


# -- issue 9: the terminal's defects ------------------------------------------------------------


def test_a_record_path_that_cannot_be_written_is_refused_at_the_start(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Defect 1: no game is played for nothing."""
    missing = tmp_path / "no" / "such" / "x.jsonl"
    code, out, err = play(monkeypatch, capsys, ["roll"], "--record", str(missing))
    assert code == 2 and out == ""
    assert err == (
        f"nardy play: error: cannot save the games to {missing}: the folder "
        f"{missing.parent} does not exist\n"
    )
    code, out, err = play(monkeypatch, capsys, ["roll"], "--record", str(tmp_path))
    assert code == 2 and out == "" and f"{tmp_path} is a folder" in err
    assert list(tmp_path.iterdir()) == []


class _RemovingInput(io.StringIO):
    """Standard input that removes ``folder`` just before it hands over ``line``."""

    def __init__(self, lines: list[str], folder: Path, line: str) -> None:
        super().__init__("".join(f"{text}\n" for text in lines))
        self.folder, self.line = folder, f"{line}\n"

    def readline(self, size: int | None = -1, /) -> str:
        read = super().readline(size)
        if read == self.line and self.folder.exists():
            shutil.rmtree(self.folder)
        return read


def test_each_game_is_saved_as_it_ends_and_never_lost(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Defect 1: the start says where the games go; each is written as it ends; where the
    file cannot be written any more, the games go to a fresh file in the current folder."""
    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / "s.jsonl"
    monkeypatch.chdir(tmp_path)
    lines = ["resign 1", "y", "accept", "", "resign 1", "y", "accept", "quit"]
    stdin = _RemovingInput(lines, folder, "quit")
    monkeypatch.setattr("sys.stdin", stdin)
    code = main(["play", "--vs", "human", "--seed", "2", "--record", str(path)])
    out = capsys.readouterr().out
    assert code == 0
    assert f"Type 'help' for the commands.\nEach game is saved to {path} as it ends.\n" in out
    saved = re.search(r"Cannot save to (\S+) \(.*\): saving to (nardy-\S+\.jsonl)\.\n", out)
    assert saved and saved.group(1) == str(path)
    fallback = tmp_path / saved.group(2)
    assert out.endswith(f"Saved 2 games to {saved.group(2)}.\n")
    assert [r["game"] for r in records(fallback)] == [1, 2]
    assert_replays(fallback)


def test_the_players_names(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--name``: in the game, in its records (and so in the .mat files made of them)."""
    out, recs = first_turn(monkeypatch, capsys, tmp_path, ["roll", "quit"], "--name", "Ann")
    assert out.startswith("Backgammon, money play: Ann against Bot.\n")
    assert "Ann to play 5-2.\nAnn: move> quit\n" in out and "You" not in out
    assert recs[0]["players"] == ["Ann", "Bot"]
    path = tmp_path / "h.jsonl"
    args = ["--vs", "human", "--name", "Ann, Bob", "--seed", "2", "--record", str(path)]
    code, out, _ = play(monkeypatch, capsys, ["quit"], *args)
    assert code == 0 and "Ann against Bob." in out
    assert records(path)[0]["players"] == ["Ann", "Bob"]
    for names, message in (
        (["--name", "Ann,Bob"], "--name: this game takes one name (yours), not 'Ann,Bob'"),
        (["--name", "Bot"], "the two players need different names"),
        (["--vs", "human", "--name", "Ann"], "takes two names, NAME,NAME, not 'Ann'"),
        (["--chouette", "A,B,C", "--name", "Ann"], "--name does not apply to --chouette"),
    ):
        code, out, err = play(monkeypatch, capsys, [], *names, "--record", str(path))
        assert code == 2 and message in err and "Traceback" not in err


def test_refusals_say_the_dice_as_shown_and_the_games_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Defect 7: long nardy, 5-3 (rolled 3-5): the play is refused with 5-3, as the screen
    shows it, and a single move of a partial play with the game's own reason."""
    args = ["--variant", "long", "--dice", "3", "5", "--seed", "3", "--bot", "heuristic"]
    lines = ["24/19 24/21", "24/19", "24/21", "quit"]
    code, out, _ = play(monkeypatch, capsys, lines, *args, "--record", str(tmp_path / "l.jsonl"))
    assert code == 0
    assert "You: move> 24/19 24/21\n  '24/19 24/21' is not a legal play of 5-3" in out
    assert "3-5" not in out
    game = start_match(Settings(variant="long"), SeededDice(3), ("You", "Bot"), Start(dice=(3, 5)))
    current = game.game
    assert current is not None
    current.apply(actions.Move(0, 24, 19))
    with pytest.raises(NardyError) as refusal:
        current.apply(actions.Move(0, 24, 21))
    assert f"You: move> 24/21\n  {dice_as_shown(str(refusal.value), (3, 5))}\n" in out
    assert "24/21 is not a legal move now; legal: 19/16 (5-3: the head rule" in out
    # Backgammon with a checker on the bar: the whole play is refused with the rule.
    barred = position("backgammon", {25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    args = ["--position", position_id(barred), "--dice", "3", "5", "--bot", "heuristic"]
    refused = answer(monkeypatch, capsys, tmp_path, args, ["13/8 13/10"])
    assert refused.startswith("  '13/8 13/10' is not a legal play of 5-3")
    assert "bar" in refused and "3-5" not in refused


def test_move_entry_undo_of_a_hop_dashes_and_bare_points(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``undo`` after ``13/4`` takes the whole hop back; ``8-3 6-3`` and ``8 3 6 3`` are
    moves; a move after a complete play is answered with "press Enter to confirm"."""
    path = tmp_path / "e.jsonl"
    args = ["--dice", "5", "4", "--seed", "3", "--bot", "heuristic", "--record", str(path)]
    lines = ["13/4", "undo", "24/20 13/8", "", "quit"]
    code, out, _ = play(monkeypatch, capsys, lines, *args)
    assert code == 0
    assert "Moved 13/4: Enter confirms it" in out
    undone = out[out.index("You: confirm or undo> undo\n") :]
    assert undone[: undone.index("You: move> ")].endswith("\nYou to play 5-4.\n")
    assert "You: move> 24/20 13/8\n" in undone
    assert "moved 13/" not in out and "no move to undo" not in out
    assert records(path)[0]["turns"][0]["play"] == "24/20 13/8"  # type: ignore[index]

    path = tmp_path / "dashes.jsonl"
    args = ["--dice", "5", "3", "--seed", "3", "--bot", "heuristic", "--record", str(path)]
    lines = ["8-3 6-3", "undo", "undo", "8 3 6 3", "13/10", "", "quit"]
    code, out, _ = play(monkeypatch, capsys, lines, *args)
    assert code == 0
    assert out.count("Moved 8/3 6/3: Enter confirms it") == 2
    assert "You: confirm or undo> 13/10\n  13/10: the play 8/3 6/3 is complete: press Enter " in out
    assert "legal: none" not in out and "not a command" not in out
    assert records(path)[0]["turns"][0]["play"] == "8/3 6/3"  # type: ignore[index]


def test_the_hint_ranks_plays_with_labelled_differences(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out, _ = first_turn(monkeypatch, capsys, tmp_path, ["", "hint 5", "hint", "hint x", "quit"])
    first = out[out.index("You: move> hint 5\n") : out.index("You: move> hint\n")]
    ranked = re.findall(
        r"\n    (\d)\. (.+?)  +equity ([-+]\d\.\d{3}), ([-+]\d\.\d{3}) against the best", first
    )
    assert [int(rank) for rank, *_ in ranked] == [2, 3, 4, 5]
    best = float(re.search(r"Hint: .+ \(equity ([-+]\d\.\d{3})\)", first).group(1))  # type: ignore[union-attr]
    equities = [best] + [float(equity) for _, _, equity, _ in ranked]
    assert equities == sorted(equities, reverse=True)
    for _, _, equity, behind in ranked:
        assert float(behind) == pytest.approx(float(equity) - best, abs=0.0015)
    assert "(8 plays in all: hint N shows N)" in first
    second = out[out.index("You: move> hint\n") : out.index("You: move> hint x")]
    assert "    3. " in second and "    4. " not in second
    assert "You: move> hint x\n  hint, or hint N for the N best plays (hint 5)\n" in out


def test_the_hint_ranks_by_the_match_score_as_the_bot_does(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 12: leading 2-0 of 3 (the Crawford game) with 5-5, the hint ranks by the match
    score (EMG, with the best play's match winning chance), the measure by which the bot
    plays the same position: properties of any net (issue 20), not one net's choice."""
    start = ["--position", "rJ0jA0A2O1PAAA:sIF2ACAAAAAE", "--record", str(tmp_path / "m.jsonl")]
    args = [*start, "--dice", "5", "5", "--turn", "0", "--score", "2-0"]
    code, out, _ = play(monkeypatch, capsys, ["hint", "quit"], *args)
    assert code == 0 and "Score: You 2, Bot 0 (2-0 of 3)." in out
    hint = re.search(r"move> hint\n  Hint: (.+?) \(EMG ([-+]\d\.\d{3}), MWC (\d+\.\d)%\)\n", out)
    assert hint, out
    assert 0 < float(hint.group(3)) < 100
    ranked = re.findall(
        r"\n    \d\. .+?  +EMG ([-+]\d\.\d{3}), ([-+]\d\.\d{3}) against the best", out
    )
    assert ranked and all(float(behind) <= 0 for _, behind in ranked)
    # The hint is the engine's ranking at the score: 2-0 of 3 in the Crawford game.
    position = position_from_id("rJ0jA0A2O1PAAA")
    stakes = Stakes.at(Settings(match_length=3), (2, 0), 0, True)
    best = rank_plays(position, 5, 5, NeuralBot(ADVISER).level.ply, stakes=stakes)[0]
    assert str(best.play) == hint.group(1)
    assert f"{best.equity:+.3f}" == hint.group(2)
    # The Match ID as it is: the bot is on roll, 2-0 up, and plays what the hint said.
    code, out, _ = play(monkeypatch, capsys, ["quit"], *start)
    assert code == 0 and "Score: You 0, Bot 2 (0-2 of 3)." in out
    assert f"Bot plays {hint.group(1)}.\n" in out


def test_the_screen_shows_match_id_match_score_and_cube(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The Match ID beside the Position ID (they paste into GNU Backgammon as one), the
    match length with the score, the cube on the board beside its owner."""
    path = tmp_path / "race.jsonl"
    args = ("--position", position_id(RACE), "--turn", "1", "--seed", "3", "--record", str(path))
    code, out, _ = play(monkeypatch, capsys, ["hint", "quit"], *args)
    assert code == 0
    board = out[out.index("Bot doubles to 2.") :]
    ids = re.search(r"Position ID: (\S+)   Match ID: (\S+)\n", board)
    assert ids and ids.group(1) == position_id(RACE)
    state = decode_match_id(ids.group(2))
    # gnubg's player 0 is the bot (our 1), on roll, having doubled; the person answers.
    assert (state.on_roll, state.turn, state.doubled, state.cube) == (0, 1, True, 1)
    assert (state.match_length, state.dice, state.jacoby) == (0, None, True)
    assert " |                  |BAR|                  |     cube: 1 (centred)\n" in board
    # The cube hint is the answer's, with the equities from the side of the one doubled.
    assert re.search(
        r"Hint: (take|pass) \(.*; for the one doubled: take [-+]\d\.\d{3}, pass -1\.000\)", out
    )

    args = ("--position", position_id(RACE), "--cube", "2:0", "--match", "5", "--score", "1-3")
    code, out, _ = play(monkeypatch, capsys, ["quit"], *args, "--record", str(path))
    assert code == 0
    assert "Game 1. Score: You 1, Bot 3 (1-3 of 5).\n" in out
    assert "     X  cube: 2\n" in out and "O  cube" not in out
    ids = re.search(r"Match ID: (\S+)\n", out)
    assert ids
    state = decode_match_id(ids.group(1))
    assert (state.match_length, state.score, state.cube, state.cube_owner) == (5, (3, 1), 2, 1)


def test_one_default_level_and_the_heuristic_where_there_is_no_net(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The same default level in ``nardy play`` and ``nardy engine``, said in both --help
    texts; a variant without its net (acey-deucey's weights taken away here) says that every
    level is the heuristic bot."""
    helps = {}
    for command in ("play", "engine"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        helps[command] = " ".join(capsys.readouterr().out.split())
    assert f"(default {DEFAULT_LEVEL}, as in nardy engine)" in helps["play"]
    assert f"(default: {DEFAULT_LEVEL})" in helps["engine"]
    assert "no trained net yet" not in helps["play"]  # every variant has its net
    without_shipped_net(monkeypatch, "acey-deucey.npz")
    path = str(tmp_path / "a.jsonl")
    code, out, _ = play(monkeypatch, capsys, ["quit"], "--variant", "acey-deucey", "--record", path)
    assert code == 0
    assert "Note: Acey-deucey has no trained net yet: the bot plays as the heuristic bot" in out
    code, out, _ = play(monkeypatch, capsys, ["quit"], "--record", path)
    assert code == 0 and "Note:" not in out


def test_a_star_where_nothing_is_hit_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """NOTATION.md: ``*`` marks a hit. Typed at the terminal where nothing is hit, as a whole
    play or as single moves (long nardy included), it is refused and nothing is moved; a
    refusal of a starred move keeps its star."""
    path = tmp_path / "s.jsonl"
    args = ["--dice", "6", "4", "--seed", "3", "--bot", "heuristic", "--record", str(path)]
    lines = ["24/18* 13/9*", "24/18*", "24/14*", "24/17*", "24/18 13/9", "", "quit"]
    code, out, _ = play(monkeypatch, capsys, lines, *args)
    assert code == 0
    assert "You: move> 24/17*\n  24/17* is not a legal move now; legal: " in out
    assert "You: move> 24/18* 13/9*\n  '24/18* 13/9*' marks a hit (*) on 9, 18" in out
    assert "You: move> 24/18*\n  '24/18*' marks a hit (*) on 18, but nothing is hit" in out
    assert "You: move> 24/14*\n  '24/14*' marks a hit (*) on 14" in out
    assert out.count("Moved ") == 1 and "Moved 24/18 13/9: Enter confirms it" in out
    assert records(path)[0]["turns"][0]["play"] == "24/18 13/9"  # type: ignore[index]

    args = ["--variant", "long", "--dice", "6", "5", "--seed", "3", "--bot", "heuristic"]
    lines = ["24/18*", "24/13*", "quit"]
    code, out, _ = play(monkeypatch, capsys, lines, *args, "--record", str(path))
    assert code == 0
    assert "You: move> 24/18*\n  '24/18*' marks a hit (*) on 18, but nothing is hit" in out
    assert "You: move> 24/13*\n  '24/13*' marks a hit (*) on 13" in out
    assert "Moved " not in out


def test_a_refused_hop_names_the_rule_that_stops_it_on_the_way(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A move over several dice is refused with the rule that stops its first blocked step:
    the head rule in long nardy (RULES.md 3.2: 24/22 with 1-1 after 24/23), entering from the
    bar first in backgammon (RULES.md 1.2: 13/7 with 3-3), not "no die of 2"."""
    args = ["--variant", "long", "--dice", "1", "1", "--seed", "3", "--bot", "heuristic"]
    refused = answer(monkeypatch, capsys, tmp_path, args, ["24/23", "24/22"])
    assert refused.endswith(
        "(1-1: 24/23: the head rule: only one checker leaves the head per turn (RULES.md 3.2))"
    )
    assert "no die of" not in refused

    barred = position("backgammon", {25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    args = ["--position", position_id(barred), "--dice", "3", "3", "--bot", "heuristic"]
    refused = answer(monkeypatch, capsys, tmp_path, args, ["13/7"])
    assert refused.endswith("(3-3: 13/10: enter from the bar first (RULES.md 1.2))")


def test_a_record_file_keeps_its_games_and_no_other_file_is_written_over(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--record`` to a file of earlier games adds this session's games after them (a second
    session loses nothing); a file that holds no game records (a ``.mat``) is refused before
    the first game and left as it was."""
    path = tmp_path / "today.jsonl"
    args = ["--dice", "6", "4", "--seed", "3", "--bot", "heuristic", "--record", str(path)]
    code, _, _ = play(monkeypatch, capsys, ["24/18 13/9", "", "quit"], *args)
    assert code == 0
    first = records(path)
    assert len(first) == 1
    code, out, _ = play(monkeypatch, capsys, ["quit"], *args)
    assert code == 0
    assert f"Each game is saved to {path} as it ends, after the 1 game already in it." in out
    assert f"Saved 1 game to {path}." in out
    second = records(path)
    assert len(second) == 2 and second[0] == first[0]
    assert second[1]["turns"] == []

    mat = tmp_path / "match.mat"
    mat.write_text(" 3 point match\n\n Game 1\n You : 0    Bot : 0\n")
    code, out, err = play(monkeypatch, capsys, ["quit"], "--record", str(mat))
    assert code == 2 and out == ""
    assert "holds something other than game records (JSON lines)" in err
    assert mat.read_text() == " 3 point match\n\n Game 1\n You : 0    Bot : 0\n"
