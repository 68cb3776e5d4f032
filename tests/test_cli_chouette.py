"""A chouette from the command line (RULES.md 1.7): ``nardy play --chouette`` typed at by two
people with two bots at the table, and ``nardy selfplay --chouette``.

As in ``test_cli_play``, :func:`script` plays the same seeded chouette alongside through the
library and writes down what the people type; the terminal fed that script must produce
exactly the same games, settlements and rotation.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import pos as make_position
from gameutil import rewritten

from nardy.cli.chouette_cli import (
    ChouetteBots,
    Decision,
    chouette_records,
    deciding,
    vote,
)
from nardy.cli.main import main
from nardy.cli.seats import Seat
from nardy.core import actions
from nardy.core.chouette import BOX, TEAM, Chouette
from nardy.core.dice import FixedDice, SeededDice
from nardy.core.game import Game, Phase
from nardy.engine.bots import HeuristicBot
from nardy.engine.neural import NeuralBot

PLAYERS = "Ann,Bob:bot,Cy:bot,Dee"
NAMES = ("Ann", "Bob", "Cy", "Dee")
BOTS = ("Bob", "Cy")


class People:
    """What the two people at the table decide: Ann as the heuristic bot would; Dee the
    same, except that she votes against the first double her team proposes and passes every
    double of the box. Each proposes a team double at most once a turn."""

    def __init__(self) -> None:
        self.adviser = HeuristicBot()
        self.dee_voted = False
        self.proposed: tuple[int, int] | None = None

    def line(self, chouette: Chouette, who: Decision) -> str:
        """What ``who`` types now."""
        game = chouette.game
        assert game is not None
        adviser = self.adviser
        if who.vote:
            agree = adviser.should_double(game, TEAM)
            if who.name == "Dee" and not self.dee_voted:
                self.dee_voted, agree = True, False
            return "yes" if agree else "no"
        if game.phase is Phase.ROLL:
            turn = (len(chouette.games), len(game.records))
            if (
                game.can_double(who.side)
                and self.proposed != turn
                and adviser.should_double(game, who.side)
            ):
                self.proposed = turn
                return "double"
            return "roll"
        if game.phase is Phase.MOVING:
            assert game.dice is not None
            return str(adviser.choose_play(game.position, *game.dice))
        assert game.phase is Phase.DOUBLED, game.phase  # nobody resigns here
        if who.name == "Dee" and who.side == TEAM:
            return "pass"
        return "take" if adviser.should_take(game, who.side) else "pass"


COMMANDS = ("yes", "no", "double", "roll", "take", "pass")


def do(chouette: Chouette, who: Decision, line: str) -> None:
    """Carry out ``line`` by ``who`` through the library, as the terminal does."""
    seat = Seat(chouette, who.name)
    if line in ("yes", "no") or (line == "double" and who.side == TEAM):
        vote(chouette, who.name, line != "no")
    elif line == "double":
        seat.act(actions.Double)
    elif line == "roll":
        seat.act(actions.Roll)
    elif line == "take":
        seat.act(actions.Take)
    elif line == "pass":
        seat.act(actions.Pass)
    else:
        seat.act(actions.Play, line)


def script(seed: int, games: int) -> tuple[list[str], Chouette]:
    """The lines Ann and Dee type for ``games`` games of the seeded chouette (Enter between
    games), and the chouette so played."""
    chouette = Chouette(NAMES, dice=SeededDice(seed))
    bots = ChouetteBots({name: HeuristicBot() for name in BOTS})
    people = People()
    lines: list[str] = []
    for number in range(games):
        if number:
            lines.append("")
        game = chouette.new_game()
        while not game.over:
            who = deciding(chouette)
            if who is None:
                chouette.apply(actions.RollOpening(chouette.box))
            elif who.name in BOTS:
                bots.act(chouette, who)
            else:
                line = people.line(chouette, who)
                lines.append(line)
                do(chouette, who, line)
                if line not in COMMANDS:  # a play, final once confirmed with Enter
                    lines.append("")
    return lines, chouette


def play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lines: list[str],
    *args: str,
) -> tuple[int, str]:
    """Run ``nardy play ARGS`` with ``lines`` on standard input."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["play", *args])
    return code, capsys.readouterr().out


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def assert_replays(records: list[dict[str, Any]]) -> None:
    """Each board game replays exactly through the rules, and the chouette fields add up:
    every game's settlements sum to zero and the running scores follow from them."""
    scores: dict[str, int] = {}
    for record in records:
        chouette = record.pop("chouette")
        assert rewritten(record) == record
        record["chouette"] = chouette
        assert record["players"] == [chouette["box"], chouette["team"][0]]
        assert sum(chouette["settlements"].values()) == 0
        assert chouette["scores"] == {name: scores.get(name, 0) for name in chouette["scores"]}
        for name, amount in chouette["settlements"].items():
            scores[name] = scores.get(name, 0) + amount


SEED = 1  # Bob (bot) is the first box, Dee the first captain; all of the below happens
GAMES = 4


def test_a_chouette_of_two_people_and_two_bots_plays_to_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines, expected = script(SEED, GAMES)
    path = tmp_path / "chouette.jsonl"
    args = ["--chouette", PLAYERS, "--bot", "heuristic", "--seed", str(SEED), "--games", str(GAMES)]
    code, out = play(monkeypatch, capsys, lines, *args, "--record", str(path))
    assert code == 0
    records = read(path)
    assert records == chouette_records(expected)  # the same games as the library plays
    assert_replays(records)
    assert "error" not in out.lower()
    rolls = re.findall(r"(?:Bob|Cy) rolls (\d)-(\d)", out)  # the larger die first
    assert rolls and all(a >= b for a, b in rolls)
    # The lot, then box, captain and team line, game by game.
    assert out.startswith(
        "Chouette (Backgammon, money play): Ann, Bob (bot), Cy (bot), Dee.\n"
        "Settings: Jacoby on, beavers off, no automatic doubles, no limit.\n"
        "Type 'help' for the commands.\n"
        f"Each game is saved to {path} as it ends.\n"
        "The lot: Ann 2, Bob 5, Cy 1, Dee 3.\n"
        "Box: Bob. Team: Dee (captain), Ann, Cy.\n"
        "\nGame 1. Box: Bob. Team: Dee (captain), Ann, Cy.\n"
        "Opening roll: Bob 1, Dee 4.\n"
    )
    assert (
        " Drawn from the side of the team (captain Dee): X = the team (captain Dee), "
        "O = Bob (box).\n The team (captain Dee) is on roll with 4-1. Cube: 1, centred.\n"
    ) in out
    assert "Dee to play 4-1.\nDee: move> " in out
    assert "Dee: confirm or undo> \nBob rolls " in out  # the captain's play waits for Enter
    # Game 1: the box doubles; Dee, the captain, passes, the others take; Ann leads on. Dee
    # is shown the board from the team's side, the box on roll.
    assert (
        " X = not on roll (points numbered from X's side; X's home board bottom right)\n"
        " Drawn from the side of the team (captain Dee): X = the team (captain Dee), "
        "O = Bob (box).\n Bob (box) is on roll. Cube: 1, centred.\n"
        "Bob (box) doubles to 2. Dee: take to play on for 2, or pass, paying 1 and leaving "
        "this game.\nDee: take or pass> pass\n"
    ) in out
    assert "Ann: take or pass> take\nCy takes.\n" in out
    assert (
        "Ann and Cy take: the cube is on 2; Dee passed, paying 1 point to Bob; Ann is the "
        "captain now.\n"
    ) in out
    assert (
        "Bob (box) wins a single: 2 points from each of Ann and Cy.\n"
        "Settlements: Bob +5, Dee -1 (passed), Ann -2, Cy -2.\n"
        "Scores: Bob +5, Dee -1, Ann -2, Cy -2.\n"
        "Rotation: Bob keeps the box; Dee goes to the end of the line. "
        "Box: Bob. Team: Ann (captain), Cy, Dee.\n"
        "Enter for game 2, or quit> \n"
    ) in out
    # Game 2: Ann proposes the team's double; Dee votes it down, then agrees.
    assert (
        "Ann: roll or double> double\n"
        "  Ann proposes to double to 2; every member still in must agree.\n"
        "Cy votes yes.\n"
        "Ann and Cy voted to double the box to 2; the team doubles only if every member "
        "still in agrees. Dee, yes or no?\n"
        "Dee: yes or no> no\n"
        "  Dee votes no: the team does not double.\n"
        "Ann to roll. "
    ) in out
    assert "Dee: yes or no> yes\n  Dee votes yes: the team doubles to 2.\nBob takes.\n" in out
    assert "Rotation: Ann takes the box; Bob goes to the end of the line. " in out
    # Game 3: Ann in the box doubles; then the team, led by the bot Cy, redoubles.
    assert "Ann: roll or double> double\n  Ann doubles to 2: each member takes or passes.\n" in out
    assert "Cy proposes to double to 4; every member still in must agree.\n" in out
    assert (
        "The team doubles to 4. Ann: take to play on for 4 against each of Cy and Bob, or "
        "pass, paying 2 to each.\nAnn: take or pass> take\n"
    ) in out
    assert "Settlements: Ann -7, Cy +4, Dee -1 (passed), Bob +4.\n" in out
    assert out.endswith(
        "Rotation: Dee takes the box; Cy goes to the end of the line. "
        "Box: Dee. Team: Bob (captain), Ann, Cy.\n"
        "The chouette is over after 4 games. Scores: Bob +5, Dee +2, Ann -5, Cy -2.\n"
        f"Saved 4 games to {path}.\n"
    )
    assert [r["chouette"]["box"] for r in records] == ["Bob", "Bob", "Ann", "Cy"]
    assert records[0]["chouette"]["passed"] == {"Dee": 1}
    assert records[0]["chouette"]["in-game"] == ["Ann", "Cy"]
    assert records[1]["chouette"]["refused-doubles"] == ["Dee"]


def test_the_wrong_participant_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Lines typed by (or for) a participant who may not act now change nothing: the same
    games are played as without them."""
    lines, expected = script(SEED, GAMES)
    first_vote = lines.index("no")  # Dee is asked to vote in game 2
    second_pass = lines.index("pass", lines.index("pass") + 1)  # Dee answers Ann's double
    wrong = {
        0: [  # Dee, the captain, is to play 4-1
            "Ann: 24/23 13/9",
            "bob: 24/23 13/9",
            "Zed: roll",
            "Ann: yes",
            "Ann: no",
            "Ann: take",
            "Ann: hint",
            "Dee: beaver",
        ],
        first_vote: ["roll", "Ann: no", "Bob: yes", "hint", "help"],
        second_pass: ["Ann: take", "Ann: double", "24/20", "roll"],
    }
    typed = []
    for i, line in enumerate(lines):
        typed += [*wrong.get(i, []), line]
    path = tmp_path / "chouette.jsonl"
    args = ["--chouette", PLAYERS, "--bot", "heuristic", "--seed", str(SEED), "--games", str(GAMES)]
    code, out = play(monkeypatch, capsys, typed, *args, "--record", str(path))
    assert code == 0
    assert read(path) == chouette_records(expected)
    for message in [
        "Dee: move> Ann: 24/23 13/9\n  Dee is the captain and plays for the team, not Ann\n",
        "Dee: move> bob: 24/23 13/9\n  Bob is played by the bot\n",
        "Dee: move> Zed: roll\n  'Zed' is not playing in this chouette\n",
        "Dee: move> Ann: yes\n  the team cannot double now\n",
        "Dee: move> Ann: no\n  there is no vote on a double now\n",
        "Dee: move> Ann: take\n  there is no double to answer now\n",
        "Dee: move> Ann: hint\n  Hint: 24/23 13/9 (equity ",  # the team may consult
        "Dee: move> Dee: beaver\n  no beavers in a chouette: the members share one cube\n",
        "Dee: yes or no> roll\n  Ann is the captain and plays for the team, not Dee\n",
        "Dee: yes or no> Ann: no\n  Ann has already voted for this double\n",
        "Dee: yes or no> Bob: yes\n  Bob is played by the bot\n",
        "Dee: yes or no> hint\n  Hint: ",  # the expert's view of the double
        "Dee: yes or no> help\nCommands ",
        "  yes  no            a member's vote on the team's double (it must be unanimous)\n",
        "Dee: take or pass> Ann: take\n  Ann is the box, not a team member\n",
        "Dee: take or pass> Ann: double\n  the double waits for an answer\n",
        "Dee: take or pass> 24/20\n  answer the double first\n",
        "Dee: take or pass> roll\n  answer the double first\n",
    ]:
        assert message in out


def test_the_input_ends_mid_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines, _ = script(SEED, 2)
    cut = len(script(SEED, 1)[0]) + 1 + 3  # three lines into game 2
    path = tmp_path / "chouette.jsonl"
    code, out = play(
        monkeypatch,
        capsys,
        lines[:cut],
        *("--chouette", PLAYERS, "--bot", "heuristic", "--seed", str(SEED), "--record", str(path)),
    )
    assert code == 0
    assert out.endswith(f"\nStopped.\nSaved 2 games to {path}.\n")
    records = read(path)
    assert "end" in records[0] and "end" not in records[1]
    assert records[1]["chouette"]["settlements"] == dict.fromkeys(["Bob", "Ann", "Cy", "Dee"], 0)
    assert_replays(records)


def test_selfplay_chouette_of_four_bots(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "selfplay.jsonl"
    args = ["selfplay", "--chouette", "4", "--games", "6", "--seed", "7", "--out", str(path)]
    assert main(args) == 0
    err = capsys.readouterr().err
    match = re.fullmatch(
        r"6 chouette games among 4 bots: Bot1 (\S+), Bot2 (\S+), Bot3 (\S+), Bot4 (\S+); "
        rf"written to {re.escape(str(path))}\n",
        err,
    )
    assert match, err
    scores = [int(score) for score in match.groups()]
    assert sum(scores) == 0 and any(scores)
    records = read(path)
    assert len(records) == 6 and all("end" in r for r in records)
    assert_replays(records)
    last = records[-1]["chouette"]
    final = {name: last["scores"][name] + last["settlements"][name] for name in last["scores"]}
    assert [final[f"Bot{i}"] for i in range(1, 5)] == scores
    assert main(args) == 0  # the same seed plays the same chouette
    assert read(path) == records


def test_bad_arguments(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = str(tmp_path / "x.jsonl")
    for args in (
        ["play", "--chouette", "Ann,Bob"],
        ["play", "--chouette", "Ann,:bot,Cy"],
        ["play", "--games", "0"],
        ["selfplay", "--chouette", "2", "--games", "1", "--out", out],
    ):
        with pytest.raises(SystemExit):
            main(args)
        assert "error: argument" in capsys.readouterr().err
    for args, message in [
        (["play", "--chouette", "Ann,Bob,Ann"], "two players named 'Ann'"),
        (["play", "--chouette", "A,B,C", "--match", "3"], "a chouette is money play"),
        (["play", "--chouette", "A,B,C", "--vs", "human"], "--vs does not apply"),
        (["play", "--games", "3"], "--games applies only to --chouette"),
        (["selfplay", "--chouette", "3", "--beaver", "--games", "1", "--out", out], "beavers"),
        (
            [
                "selfplay",
                "--chouette",
                "3",
                "--bots",
                "random,random",
                "--games",
                "1",
                "--out",
                out,
            ],
            "--bots does not apply",
        ),
    ]:
        assert main(args) == 2
        assert message in capsys.readouterr().err


def test_selfplay_chouette_bots_take_the_nets_cube_decisions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 12: the chouette's bots decide the cube by the net, not by the heuristic (whose
    # eager redoubles reached a 256 cube); every decision goes through the neural bot.
    asked: list[str] = []
    decide = NeuralBot.cube_decision

    def counting(self: NeuralBot, game: Game) -> Any:
        asked.append("net")
        return decide(self, game)

    def never(self: HeuristicBot, game: Game, player: int) -> bool:
        raise AssertionError("the heuristic's cube was asked")

    monkeypatch.setattr(NeuralBot, "cube_decision", counting)
    monkeypatch.setattr(HeuristicBot, "should_double", never)
    monkeypatch.setattr(HeuristicBot, "should_take", never)
    path = tmp_path / "selfplay.jsonl"
    args = ["selfplay", "--chouette", "3", "--games", "1", "--seed", "2", "--out", str(path)]
    assert main(args) == 0
    capsys.readouterr()
    assert asked and len(read(path)) == 1


@pytest.mark.parametrize("side", [BOX, TEAM], ids=["box", "captain"])
def test_chouette_bots_resign_a_hopeless_position_through_the_chouette(side: int) -> None:
    """Issue 12 item 5: the box or the captain, a bot, resigns a lost game before its roll as
    the two-player bot does (the lowest level that is certain: a single here, past gammon),
    through the chouette; the other side's bot accepts and the chouette settles it."""
    chouette = Chouette(["Ann", "Bob", "Cy"], dice=SeededDice(1))
    chouette.new_game()
    doomed = make_position("backgammon", {23: 2}, {1: 1})
    chouette.games[-1].game = Game(
        chouette.settings, FixedDice([6, 5]), first_player=side, position=doomed
    )
    bots = ChouetteBots({name: NeuralBot() for name in ("Ann", "Bob", "Cy")})
    who = deciding(chouette)
    assert who is not None and who.side == side
    assert bots.act(chouette, who) == "resigns a single"
    answerer = deciding(chouette)
    assert answerer is not None and answerer.side == 1 - side
    assert bots.act(chouette, answerer) == "accepts the resignation"
    played = chouette.games[-1]
    assert played.game.result is not None
    assert (played.game.result.winner, played.game.result.kind) == (1 - side, "resign")
    box_result = -2 if side == BOX else 2  # one point to or from each of the two members
    assert played.settlements[played.box] == box_result
    assert sum(played.settlements.values()) == 0
