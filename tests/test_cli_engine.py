"""`nardy engine`: the line protocol for GUIs and scripts (docs/engine-protocol.md).

In-process through :func:`nardy.cli.engine.answer`, one test or more per command, and as a real
subprocess on pipes: one line in, one line out, malformed lines answered with an error and the
engine still answering after them.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from conftest import without_shipped_net

from nardy import (
    BACKGAMMON,
    LONG_NARDY,
    MatchState,
    Position,
    Xgid,
    encode_match_id,
    format_xgid,
    parse_position,
    position_id,
    variant,
    variants,
)
from nardy.cli import engine
from nardy.cli.engine import BYE, Defaults, answer, cube_answer, split_lines
from nardy.cli.main import main
from nardy.core.game import Cube, Game
from nardy.core.settings import Settings
from nardy.engine import cube as cube_module
from nardy.engine import evaluator as evaluator_module
from nardy.engine.analysis import evaluate
from nardy.engine.cube import CubeDecision, MoneyRules, Owner
from nardy.engine.evaluator import evaluator, for_net
from nardy.engine.net import Net, flip
from nardy.engine.neural import DEFAULT_LEVEL, LEVELS, NeuralBot
from nardy.notation.match_id import CubeOwner

START = "4HPwATDgc/ABMA"
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"
CLOSED = "27YdAAAA8P8DQA"  # me: one on the bar against a closed board


def fields(reply: str) -> tuple[str, list[str], dict[str, str]]:
    """An answer's keyword, its words before the first ``key=value`` and its key=values."""
    keyword, *rest = reply.split()
    words = [w for w in rest if "=" not in w]
    pairs = dict(w.split("=", 1) for w in rest if "=" in w)
    assert rest == words + [f"{k}={v}" for k, v in pairs.items()], "words come first"
    return keyword, words, pairs


def some_positions() -> list[Position]:
    """Positions from a game the bot plays against itself, start included."""
    pos, out = BACKGAMMON.start(), []
    rng = np.random.default_rng(5)
    bot = NeuralBot("advanced")
    for _ in range(12):
        out.append(pos)
        d1, d2 = (int(d) for d in rng.integers(1, 7, size=2))
        pos = bot.choose_play(pos, d1, d2).position.swap()
    return out


# -- the small commands ------------------------------------------------------------------------


@pytest.mark.parametrize("hello", ["hello", "nardy", "HELLO"])
def test_handshake(hello: str) -> None:
    keyword, _, pairs = fields(answer(hello))
    assert keyword == "id"
    assert pairs["name"] == "nardy" and pairs["protocol"] == str(engine.PROTOCOL)
    assert pairs["version"]


def test_ping_echoes_its_tokens() -> None:
    assert answer("ping") == "pong"
    assert answer("ping 42 abc") == "pong 42 abc"


def test_levels_are_the_bots() -> None:
    keyword, _, pairs = fields(answer("levels"))
    assert keyword == "levels"
    assert pairs.pop("default") == DEFAULT_LEVEL
    assert list(pairs) == list(LEVELS)  # weakest first
    for name, value in pairs.items():
        ply, noise = value.split(":")
        assert (int(ply), float(noise)) == (LEVELS[name].ply, LEVELS[name].noise)


def evaluator_has_net(key: str) -> bool:
    """What the evaluator says: a variant has a net if it gives one that plays the variant."""
    try:
        evaluator(key).check(next(v for v in variants() if v.key == key))
    except (ValueError, OSError, ImportError):
        return False
    return True


def test_variants_say_which_have_a_net() -> None:
    keyword, _, pairs = fields(answer("variants"))
    assert keyword == "variants"
    assert set(pairs) == {v.key for v in variants()}
    assert pairs["backgammon"] == pairs["nackgammon"] == "ready"
    for key, state in pairs.items():
        assert state == ("ready" if evaluator_has_net(key) else "no-net"), key


@pytest.mark.parametrize(
    ("family", "ready"),
    [
        (("backgammon", "nackgammon"), {"backgammon", "nackgammon"}),
        (("backgammon",), {"backgammon"}),
    ],
)
def test_variants_follow_the_evaluators_families(
    monkeypatch: pytest.MonkeyPatch, family: tuple[str, ...], ready: set[str]
) -> None:
    """No list of its own: when the backgammon net's family changes, the engine follows, and
    a variant left out gets a clear error from every command that needs the net."""
    monkeypatch.setattr(evaluator_module, "BACKGAMMON_FAMILY", family)
    _, _, pairs = fields(answer("variants"))
    assert {k for k, state in pairs.items() if state == "ready"} - {"long", "acey-deucey"} == ready
    for name in ("nackgammon",):
        pos = position_id(next(v for v in variants() if v.key == name).start())
        replies = [
            answer(f"move {name} {pos} 3 1"),
            answer(f"eval {name} {pos}"),
            answer(f"cube {name} {pos}"),
        ]
        for reply in replies:
            if name in ready:
                assert not reply.startswith("error"), reply
            else:
                assert reply.startswith(f"error no net for {name}: "), reply


def test_move_acey_deucey_without_its_net(monkeypatch: pytest.MonkeyPatch) -> None:
    """Acey-deucey's weights not installed: a clear error, not a play from another net."""
    assert "acey-deucey=ready" in answer("variants")
    without_shipped_net(monkeypatch, "acey-deucey.npz")
    reply = answer("move acey-deucey AAAAAAAAAAAAAA-ff 3 1")
    assert reply.startswith("error no net for acey-deucey: ") and "internal" not in reply
    assert "acey-deucey.npz is not installed" in reply
    assert "acey-deucey=no-net" in answer("variants")


@pytest.mark.parametrize(
    ("failure", "message"),
    [
        (ValueError("no trained net for backgammon yet"), "no trained net for backgammon yet"),
        (FileNotFoundError(2, "No such file or directory"), "backgammon.npz cannot be read"),
    ],
)
def test_a_missing_net_is_no_net(
    monkeypatch: pytest.MonkeyPatch, failure: Exception, message: str
) -> None:
    """Whatever the evaluator raises for a net it does not have (no family, weights not
    installed or unreadable) is ``no-net`` and an ``error no net for …``."""

    def missing(v: object) -> object:
        raise failure

    monkeypatch.setattr(engine, "evaluator", missing)
    assert "backgammon=no-net" in answer("variants")
    reply = answer(f"move backgammon {START} 6 5")
    assert reply.startswith("error no net for backgammon: ") and message in reply


def test_help() -> None:
    keyword, _, pairs = fields(answer("help"))
    assert keyword == "help"
    assert set(pairs["commands"].split(",")) == set(engine.COMMANDS)
    assert answer("help move").startswith("help move VARIANT POSITION")
    assert answer("help nonsense").startswith("error ")


def test_lines_without_a_command_are_answered_by_themselves() -> None:
    """Blank and comment lines are echoed, so the answers stay line for line."""
    assert answer("") == ""
    assert answer("   \r") == ""
    assert answer("# a comment ") == "# a comment"
    assert answer("ping 1 # the rest is a comment") == "pong 1"


def test_quit() -> None:
    assert answer("quit") == BYE
    assert answer("quit now").startswith("error ")


# -- move ------------------------------------------------------------------------------------


def test_move_plays_a_legal_play_and_reaches_its_id() -> None:
    rng = np.random.default_rng(1)
    for pos in some_positions():
        d1, d2 = (int(d) for d in rng.integers(1, 7, size=2))
        keyword, words, pairs = fields(answer(f"move backgammon {position_id(pos)} {d1} {d2}"))
        assert keyword == "move"
        play = pos.parse_play(" ".join(words), d1, d2) if words != ["none"] else None
        reached = play.position if play else pos.legal_plays(d1, d2)[0].position
        assert reached in [p.position for p in pos.legal_plays(d1, d2)]
        assert pairs["id"] == position_id(reached)
        assert pairs["next"] == position_id(reached.swap())
        assert pairs["level"] == DEFAULT_LEVEL
        # The chosen play is the bot's, with its equity from the evaluator's ranking.
        best = evaluator("backgammon").rank(pos, d1, d2, LEVELS[DEFAULT_LEVEL].ply)[0]
        assert (reached.mine, reached.theirs) == best.after
        assert float(pairs["equity"]) == pytest.approx(best.equity, abs=5e-4)
        if play:
            assert " ".join(words) == str(play)  # in the standard notation


def test_move_at_every_level_is_the_bots_play() -> None:
    pos = some_positions()[5]
    for name, lvl in LEVELS.items():
        if lvl.ply == 2:
            continue  # world-class is tested once below: a second a move
        reply = answer(f"move backgammon {position_id(pos)} 4 2 --level {name} --seed 9")
        _, words, pairs = fields(reply)
        chosen = NeuralBot(name, seed=9).choose_play(pos, 4, 2)
        assert " ".join(words) == str(chosen) and pairs["level"] == name
        assert pairs["id"] == position_id(chosen.position)


def test_move_world_class() -> None:
    _, words, pairs = fields(answer(f"move backgammon {START} 6 5 --level=world-class"))
    best = evaluator("backgammon").rank(BACKGAMMON.start(), 6, 5, 2)[0]
    assert pairs["id"] == position_id(Position(BACKGAMMON, *best.after))
    assert BACKGAMMON.start().parse_play(" ".join(words), 6, 5).position == Position(
        BACKGAMMON, *best.after
    )


def test_move_takes_the_dice_from_an_xgid_or_match_id() -> None:
    from_xgid = answer(f"move backgammon {START_XGID} --level expert")
    assert from_xgid == answer(f"move backgammon {START} 5 2 --level expert")
    with_match_id = answer(f"move backgammon {START}:cAkAAAAAAAAA 6 5")  # no dice: given
    assert with_match_id == answer(f"move backgammon {START} 6 5")
    assert answer(f"move backgammon {START}").startswith("error move needs the dice")


def test_move_without_a_legal_play() -> None:
    _, words, pairs = fields(answer(f"move backgammon {CLOSED} 6 6"))
    assert words == ["none"] and pairs["id"] == CLOSED


def test_move_in_the_other_variants_of_backgammon() -> None:
    for name in ("nackgammon", "acey-deucey"):
        pos = next(v for v in variants() if v.key == name).start()
        reply = answer(f"move {name} {position_id(pos)} 3 1")
        _, words, pairs = fields(reply)
        assert pos.parse_play(" ".join(words), 3, 1).position == parse_position(pairs["id"], name)


def test_move_long_nardy() -> None:
    """With the long net installed, a legal play; without it, an error naming the missing net."""
    start = position_id(LONG_NARDY.start())
    reply = answer(f"move long {start} 6 5")
    if reply.startswith("error"):
        assert reply.startswith("error no net for long")
        return
    _, words, pairs = fields(reply)
    assert LONG_NARDY.start().parse_play(" ".join(words), 6, 5).position == parse_position(
        pairs["id"], "long"
    )


def test_long_nardy_with_a_stand_in_net(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole long-nardy path (its encoding, a legal play, eval, cube) with a small random
    net standing in for the shipped one, which may not be trained yet."""
    features_long = pytest.importorskip("nardy.engine.features_long")
    net = Net.random(features_long.INPUTS, 8, seed=1)
    monkeypatch.setattr(engine, "evaluator", lambda v: for_net(net, v))
    pos = LONG_NARDY.start()
    assert "long=ready" in answer("variants")
    for d1, d2 in ((6, 5), (3, 3), (1, 2)):
        _, words, pairs = fields(answer(f"move long {position_id(pos)} {d1} {d2}"))
        reached = pos.parse_play(" ".join(words), d1, d2).position
        assert pairs["id"] == position_id(reached)
        best = for_net(net, "long").rank(pos, d1, d2, 0)[0]
        assert (reached.mine, reached.theirs) == best.after
    _, _, probs = fields(answer(f"eval long {position_id(pos)} --level expert"))
    expected = for_net(net, "long").on_roll(pos, 1)
    got = [float(probs[k]) for k in ("win", "wg", "wbg", "lg", "lbg")]
    assert got == pytest.approx(expected.tolist(), abs=5e-4)
    assert fields(answer(f"cube long {position_id(pos)}"))[0] == "cube"


# -- eval ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["advanced", "expert", "world-class"])
def test_eval_equals_the_evaluator(name: str) -> None:
    ply = LEVELS[name].ply
    ev = evaluator("backgammon")
    for pos in some_positions()[:: 4 if ply == 2 else 1]:
        _, _, pairs = fields(answer(f"eval backgammon {position_id(pos)} --level {name}"))
        if ply:
            expected = ev.on_roll(pos, ply)
        else:  # the net's static value of the position the opponent has left
            expected = flip(ev.after(BACKGAMMON, [(pos.theirs, pos.mine)], 0))[0]
        got = [float(pairs[k]) for k in ("win", "wg", "wbg", "lg", "lbg")]
        assert got == pytest.approx(expected.tolist(), abs=5e-4)
        equity = 2 * expected[0] - 1 + expected[1] - expected[3] + expected[2] - expected[4]
        assert float(pairs["equity"]) == pytest.approx(float(equity), abs=5e-4)
        assert pairs["level"] == name


def test_eval_reads_every_position_format() -> None:
    plain = answer(f"eval backgammon {START}")
    assert answer(f"eval backgammon {START}:cAkAAAAAAAAA") == plain
    assert (
        answer(f"eval backgammon {START_XGID}") == plain
    )  # the dice do not matter before the roll


# -- cube ------------------------------------------------------------------------------------

RACE = Position.from_points(
    variant("backgammon"),
    {0: 5, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2},
    {0: 5, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2},
)
BLITZ = Position.from_points(
    variant("backgammon"), {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3, 8: 2}, {25: 3, 13: 12}
)  # a closed board, three on the bar: too good to double without the Jacoby rule


def bot_decision(
    pos: Position,
    level_name: str = DEFAULT_LEVEL,
    *,
    cube: Cube | None = None,
    settings: Settings | None = None,
    score: tuple[int, int] = (0, 0),
    crawford: bool = False,
) -> CubeDecision:
    """The neural bot's decision for player 0, on roll in a game at ``pos``."""
    game = Game(settings, position=pos, first_player=0, cube=cube, score=score, crawford=crawford)
    return NeuralBot(level_name).cube_decision(game)


def without_level(reply: str) -> str:
    head, _, level_name = reply.rpartition(" level=")
    assert level_name in LEVELS
    return head


def test_cube_is_the_bots_decision_in_money_play() -> None:
    for pos in [*some_positions()[::3], RACE]:
        reply = answer(f"cube backgammon {position_id(pos)}")
        expected = cube_answer(bot_decision(pos), doubled=False, crawford=False)
        assert without_level(reply) == expected
        keyword, _, pairs = fields(reply)
        assert keyword == "cube" and pairs["pass"] == "+1.000"
        assert "mwc-nodouble" not in pairs


def test_cube_reads_the_context_of_an_xgid() -> None:
    """No Jacoby rule and the cube owned by the player on roll at 2; then O on roll."""
    xgid = format_xgid(Xgid(BLITZ, cube=2, cube_position=1))
    settings = Settings(jacoby=False)
    expected = bot_decision(BLITZ, cube=Cube(2, 0), settings=settings)
    assert without_level(answer(f"cube backgammon {xgid}")) == cube_answer(
        expected, doubled=False, crawford=False
    )
    assert fields(answer(f"cube backgammon {xgid}"))[2]["action"] == "too-good"
    theirs = format_xgid(Xgid(BLITZ.swap(), x_on_roll=False, cube=2, cube_position=1))
    _, _, pairs = fields(answer(f"cube backgammon {theirs}"))
    assert pairs["action"] == "cannot-double" and pairs["reason"] == "opponent-owns-cube"


def test_cube_reads_the_score_of_a_match_id() -> None:
    """gnubg's example: a 9-point match at 2-4, player 1 (4 points) on roll, player 0 owns
    the cube at 2."""
    ctx = engine.read_position(f"{START}:QYkqASAAIAAE", BACKGAMMON)
    cube, rules = engine.cube_rules(ctx)
    assert (cube.value, cube.owner) == (2, Owner.OPPONENT)
    assert isinstance(rules, cube_module.MatchState)
    assert (rules.length, rules.score_me, rules.score_opp) == (9, 4, 2)
    _, _, pairs = fields(answer(f"cube backgammon {START}:QYkqASAAIAAE"))
    assert pairs["action"] == "cannot-double" and "mwc-nodouble" in pairs


def test_cube_of_long_nardy_is_off_by_default() -> None:
    # RULES.md 3.4: long nardy is played without the cube unless the settings turn it on.
    reply = answer("cube long AACA/z8AAAb+Pw")
    pairs = dict(token.split("=", 1) for token in reply.split()[1:])
    assert pairs["action"] == "cannot-double" and pairs["reason"] == "no-cube"
    assert "take" not in pairs and "pass" not in pairs
    # The cubeless equity stands: nothing to gain from a cube that is not there.
    probs = evaluate(parse_position("AACA/z8AAAb+Pw", LONG_NARDY), 1, evaluator(LONG_NARDY))
    assert float(pairs["nodouble"]) == pytest.approx(
        cube_module.cubeless_equity(probs, 1), abs=2e-3
    )


def test_cube_in_a_match() -> None:
    state = MatchState(on_roll=1, turn=1, match_length=7, score=(2, 3))
    reply = answer(f"cube backgammon {position_id(RACE)}:{encode_match_id(state)} --level expert")
    expected = bot_decision(RACE, "expert", settings=Settings(match_length=7), score=(3, 2))
    assert without_level(reply) == cube_answer(expected, doubled=False, crawford=False)
    _, _, pairs = fields(reply)
    assert {"mwc-nodouble", "mwc-take", "mwc-pass"} <= set(pairs)
    crawford = MatchState(on_roll=0, turn=0, match_length=7, score=(6, 3), crawford=True)
    _, _, pairs = fields(answer(f"cube backgammon {START}:{encode_match_id(crawford)}"))
    assert (pairs["action"], pairs["reason"]) == ("cannot-double", "crawford")


@pytest.mark.parametrize(
    ("length", "score", "cube"), [(1, (0, 0), 1), (3, (0, 0), 4), (7, (6, 2), 1)]
)
def test_cube_at_a_dead_cube_cannot_double(length: int, score: tuple[int, int], cube: int) -> None:
    """RULES.md 1.5: where a win at the cube already wins the player on roll the match, the
    game refuses a double, so the engine does not advise one (a client doubles exactly on
    ``double-``): ``cannot-double`` with ``reason=dead-cube``."""
    owner = CubeOwner.CENTRED if cube == 1 else CubeOwner.PLAYER_0
    state = MatchState(cube=cube, cube_owner=owner, match_length=length, score=score)
    _, _, pairs = fields(answer(f"cube backgammon {position_id(BLITZ)}:{encode_match_id(state)}"))
    assert (pairs["action"], pairs["reason"]) == ("cannot-double", "dead-cube")
    assert "take" not in pairs


def test_a_pending_double_is_answered_by_the_doubled_player() -> None:
    """The same decision, from the other side: his take and pass are the doubler's negated."""
    for rules, in_match in (("3:0", False), ("0:7", True)):  # Jacoby and beavers; a match
        before = f"XGID=---BBBBB----------bbbbb---:0:0:1:00:0:0:{rules}:10"
        doubled = before.replace(":00:", ":D:")
        _, _, mine = fields(answer(f"cube backgammon {before}"))
        _, _, his = fields(answer(f"cube backgammon {doubled}"))
        assert his["action"] == mine["response"]
        for key in ("take", "pass", "beaver"):
            if key in mine:
                assert float(his[key]) == -float(mine[key])
        assert ("mwc-take" in his) == in_match
        assert "nodouble" not in his


@pytest.mark.parametrize(
    ("probs", "action"),
    [
        ([0.5, 0.1, 0.0, 0.1, 0.0], "no-double"),
        ([0.75, 0.0, 0.0, 0.0, 0.0], "double-take"),
        ([0.9, 0.0, 0.0, 0.0, 0.0], "double-pass"),
        ([0.97, 0.9, 0.2, 0.0, 0.0], "too-good"),
    ],
)
def test_cube_actions(probs: list[float], action: str) -> None:
    """Every action of the doubler, from probabilities that call for it; a client doubles
    exactly when the action starts with ``double-``."""
    d = cube_module.cube_decision(probs, money=MoneyRules(jacoby=False))
    _, _, pairs = fields(cube_answer(d, doubled=False, crawford=False))
    assert pairs["action"] == action
    assert pairs["action"].startswith("double-") == d.double


def test_cube_errors() -> None:
    over = Position.from_points(variant("backgammon"), {0: 15}, {6: 15})
    assert answer(f"cube backgammon {position_id(over)}").startswith("error the game is over")
    not_started = answer(f"cube backgammon {START}:AAAAAAAAAAAA")  # game state 0: no game
    assert not_started == "error the Match ID shows no game in play"


# -- errors: one line each, and the engine carries on ----------------------------------------

MALFORMED = [
    "foo",
    "MOVE",
    "move backgammon",
    f"move backgammon {START} 7 5",
    f"move backgammon {START} 6",
    f"move backgammon {START} 6 5 6",
    "move backgammon nonsense 6 5",
    f"move chess {START} 6 5",
    f"move backgammon {START} 6 5 --level godlike",
    f"move backgammon {START} 6 5 --level",
    f"move backgammon {START} 6 5 --depth 2",
    f"move backgammon {START} 6 5 --seed x",
    f"move backgammon {START} 6 5 --level expert --level expert",
    f"move backgammon {START}://////////// 6 5",
    f"move backgammon {START}:cAkAAAAAAAA 6 5",
    "move backgammon XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0 6 5",
    "move long XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10 6 5",
    "move backgammon AAAAAAAAAAAAAA 6 5",  # no checkers at all
    f"eval backgammon {START} 6 5",
    "eval",
    f"cube backgammon {START} extra",
    "levels all",
    "variants x",
    "hello there",
    "\x00\x01 \ufffd",
]


@pytest.mark.parametrize("line", MALFORMED)
def test_malformed_lines_get_one_error_line(line: str) -> None:
    reply = answer(line)
    assert reply.startswith("error ") and "\n" not in reply
    assert "internal" not in reply  # bad input is named, not a crash


def test_a_bug_is_one_error_line_too(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(args: object, defaults: object) -> str:
        raise RuntimeError("boom\nwith a second line")

    monkeypatch.setitem(engine.COMMANDS, "ping", broken)
    assert answer("ping") == "error internal RuntimeError: boom with a second line"


def test_finished_game() -> None:
    over = Position.from_points(variant("backgammon"), {0: 15}, {6: 15})
    assert answer(f"move backgammon {position_id(over)} 6 5").startswith("error the game is over")
    _, _, pairs = fields(answer(f"eval backgammon {position_id(over)}"))
    assert (pairs["win"], pairs["wg"], pairs["equity"]) == ("1.000", "1.000", "+2.000")


# -- IDs are case-sensitive, variant names are not -------------------------------------------


def test_a_case_folded_position_id_is_named_as_such() -> None:
    """``4hpwatdgc/abma`` is ``4HPwATDgc/ABMA`` with its case lost: base64 digits that decode
    to nonsense. The error says it is not a valid Position ID and that case matters."""
    for line in (
        "move Backgammon 4hpwatdgc/abma 6 5",
        "move backgammon 4HPWATDGC/ABMA 6 5",
        "eval backgammon 4hpwATDgc/ABMA",
        "cube backgammon 4hpwatdgc/abma:cAkAAAAAAAAA",
    ):
        reply = answer(line)
        assert reply.startswith("error '4"), reply
        assert "is not a valid Position ID" in reply and "case-sensitive" in reply
        assert "internal" not in reply
    reply = answer(f"move backgammon {START}:cakaaaaaaaaa 6 5")  # the Match ID's case lost
    assert reply.startswith("error 'cakaaaaaaaaa' is not a valid Match ID")
    assert "case-sensitive" in reply
    # Not an ID of the right shape: the error says what is wrong, with no case hint.
    reply = answer("move backgammon 4HPw 6 5")
    assert reply.startswith("error ") and "case" not in reply


def test_variant_and_command_names_are_not_case_sensitive() -> None:
    assert answer(f"MOVE BackGammon {START} 6 5") == answer(f"move backgammon {START} 6 5")


# -- the engine's defaults: nardy engine --level L --seed S ----------------------------------


def test_the_default_level_is_the_engines() -> None:
    expert = Defaults(level="expert")
    assert fields(answer("levels", expert))[2]["default"] == "expert"
    for command in (f"move backgammon {START} 6 5", f"eval backgammon {START}"):
        assert answer(command, expert) == answer(f"{command} --level expert")
        assert fields(answer(command, expert))[2]["level"] == "expert"
        # A command's own --level wins (a level without noise: the answers are the same).
        own = f"{command} --level advanced"
        assert answer(own, expert) == answer(own) != answer(command, expert)
    cube = f"cube backgammon {position_id(RACE)}"
    assert answer(cube, expert) == answer(f"{cube} --level expert")


def test_the_default_seed_is_the_engines() -> None:
    """With a seed, the same line gets the same answer, that of ``--seed`` on the line; a
    line's own ``--seed`` wins."""
    pos = position_id(some_positions()[5])
    line = f"move backgammon {pos} 4 2 --level beginner"
    seeded = Defaults(seed=11)
    assert answer(line, seeded) == answer(f"{line} --seed 11") == answer(line, seeded)
    assert answer(f"{line} --seed 3", seeded) == answer(f"{line} --seed 3")
    chosen = NeuralBot("beginner", seed=11).choose_play(some_positions()[5], 4, 2)
    assert fields(answer(line, seeded))[1] == str(chosen).split()


def test_engine_options_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["engine", "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert "--level L" in text and "--seed S" in text
    for bad in (["--level", "godlike"], ["--seed", "x"]):
        with pytest.raises(SystemExit) as done:
            main(["engine", *bad])
        assert done.value.code == 2
        assert "error" in capsys.readouterr().err


# -- line ends ---------------------------------------------------------------------------------

MIXED = b"a\rb\r\nc\n\rd\r\r\n\xc3\xa9 \xff\re"
MIXED_LINES = ["a", "b", "c", "", "d", "", "\u00e9 \ufffd", "e"]


def test_every_line_end_ends_a_line() -> None:
    """``\n``, ``\r\n`` and ``\r``, however the input is cut into pieces: a ``\r\n``
    across two pieces is one line end, and a character across two pieces is one character."""
    assert list(split_lines([MIXED])) == MIXED_LINES
    for i in range(len(MIXED) + 1):
        assert list(split_lines([MIXED[:i], MIXED[i:]])) == MIXED_LINES, i
        for j in range(i, len(MIXED) + 1):
            pieces = [MIXED[:i], MIXED[i:j], MIXED[j:]]
            assert list(split_lines(pieces)) == MIXED_LINES, (i, j)
    assert list(split_lines([bytes([b]) for b in MIXED])) == MIXED_LINES
    assert list(split_lines([b"x\r", b"", b"\ny"])) == ["x", "y"]
    assert list(split_lines([b"x\r", b"\r", b"\n"])) == ["x", ""]
    assert list(split_lines([])) == []


def test_a_line_is_given_as_soon_as_its_end_arrives() -> None:
    """A line ended by ``\r`` is not held back waiting to see whether ``\n`` follows."""
    read: list[bytes] = []

    def chunks() -> Iterator[bytes]:
        for chunk in (b"ping 1\r", b"\nping 2\r", b"ping 3"):
            read.append(chunk)
            yield chunk

    lines = split_lines(chunks())
    assert next(lines) == "ping 1" and len(read) == 1
    assert next(lines) == "ping 2" and len(read) == 2
    assert list(lines) == ["ping 3"]


# -- a real process on pipes -----------------------------------------------------------------


def start_engine(*options: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "nardy.cli.main", "engine", *options],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def test_subprocess_answers_each_line_as_it_comes() -> None:
    """A client that waits for every answer before sending the next line (flushing matters),
    malformed lines among the good ones."""
    proc = start_engine()
    watchdog = threading.Timer(120, proc.kill)  # a hang fails the test instead of CI
    watchdog.start()
    try:
        assert proc.stdin is not None and proc.stdout is not None

        def ask(line: bytes) -> str:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(line + b"\n")
            proc.stdin.flush()
            return proc.stdout.readline().decode("utf-8").rstrip("\n")

        assert ask(b"hello").startswith("id name=nardy")
        assert ask(b"ping 1") == "pong 1"
        assert ask(b"foo") == "error unknown command 'foo' (try 'help')"
        assert ask(b"\xff\xfe not utf-8").startswith("error unknown command")
        assert ask(b"move backgammon nonsense 6 5").startswith("error ")
        assert ask(b"") == ""
        assert ask(b"# comment") == "# comment"
        move = ask(f"move backgammon {START} 6 5".encode())
        assert move == answer(f"move backgammon {START} 6 5")
        assert ask(f"eval backgammon {START}".encode()) == answer(f"eval backgammon {START}")
        assert ask(b"ping 2") == "pong 2"
        assert ask(b"quit") == BYE
        assert proc.wait(timeout=30) == 0
        assert proc.stdout.read() == b""
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait()


def test_subprocess_answers_bare_cr_lines_at_once() -> None:
    """A client ending its lines with ``\r`` gets each answer without sending more; a ``\n``
    that follows later completes that line end instead of making a blank line."""
    proc = start_engine()
    watchdog = threading.Timer(120, proc.kill)  # a held-back answer fails instead of hanging
    watchdog.start()
    try:
        assert proc.stdin is not None and proc.stdout is not None

        def ask(data: bytes) -> str:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(data)
            proc.stdin.flush()
            return proc.stdout.readline().decode("utf-8").rstrip("\n")

        assert ask(b"ping 1\r") == "pong 1"
        assert ask(b"\nping 2\r") == "pong 2"  # the \n ends no line of its own
        assert ask(b"\n\r") == ""  # nor here: the \r is a blank line, answered by one
        assert ask(b"ping 3\r\n") == "pong 3"
        assert ask(b"ping 4\n") == "pong 4"
        assert ask(b"quit\r") == BYE
        assert proc.wait(timeout=30) == 0
        assert proc.stdout.read() == b""
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait()


def test_subprocess_bare_cr_script() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "nardy.cli.main", "engine"],
        input=b"ping 1\rping 2\rping 3\r",
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert proc.stdout == b"pong 1\npong 2\npong 3\n"


def test_subprocess_start_up_options() -> None:
    """``nardy engine --level L --seed S``: the defaults of every line that names none."""
    pos = position_id(some_positions()[5])
    script = ["levels", f"move backgammon {pos} 4 2", f"move backgammon {pos} 4 2 --seed 2"]
    proc = subprocess.run(
        [sys.executable, "-m", "nardy.cli.main", "engine", "--level", "casual", "--seed", "5"],
        input="\n".join(script) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert proc.stdout.split("\n") == [
        answer("levels", Defaults("casual")),
        answer(f"{script[1]} --level casual --seed 5"),
        answer(f"{script[2]} --level casual"),
        "",
    ]
    assert "default=casual" in proc.stdout


def test_subprocess_script_one_answer_per_line() -> None:
    """A whole script at once, Windows line ends and all: one answer per line up to ``quit``;
    what follows ``quit`` is not read."""
    nackgammon = position_id(parse_position("4HMwAD3gczAAPQ", "nackgammon"))
    script = [
        "nardy",
        f"move backgammon {START} 3 1 --level advanced",
        "move backgammon",
        "",
        f"eval nackgammon {nackgammon}",
        "levels",
        "bogus command",
        "quit",
        "ping after quit",
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "nardy.cli.main", "engine"],
        input="\r\n".join(script) + "\r\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert proc.stdout.split("\n") == [*(answer(line) for line in script[:-1]), ""]
    assert fields(proc.stdout.split("\n")[1])[1] == ["8/5", "6/5"]
    assert proc.stderr == ""


def test_subprocess_ends_at_the_end_of_its_input() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "nardy.cli.main", "engine"],
        input=b"ping\nfoo",  # the last line without its line end is answered too
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert proc.stdout == b"pong\nerror unknown command 'foo' (try 'help')\n"


def test_the_documented_session_still_has_this_form() -> None:
    """docs/engine-protocol.md's example session, replayed: each answer has the keyword and
    the keys written there (the figures follow the net; errors only need to be errors)."""
    doc = (Path(__file__).parents[1] / "docs" / "engine-protocol.md").read_text()
    block = doc.split("## An example session")[1].split("```")[1]
    lines = block.strip("\n").split("\n")
    pairs = list(zip(lines[::2], lines[1::2], strict=True))
    assert len(pairs) > 15
    for question, documented in pairs:
        assert question.startswith(">")
        got = answer(question[2:])
        if documented.startswith("error"):
            assert got.startswith("error ")
            continue

        def form(reply: str) -> tuple[str, list[str]]:
            keyword, _, keys = fields(reply) if reply.strip() else ("", [], {})
            return keyword, list(keys)

        assert form(got) == form(documented), question


def test_move_ranks_by_the_match_score_of_a_match_id() -> None:
    # Issue 12: the engine's bot plays what hint ranks first at the score (2-0 of 3,
    # Crawford), not the money play.
    from nardy.engine.analysis import rank_plays
    from nardy.engine.stakes import Stakes

    text = "rJ0jA0A2O1PAAA:sIF2ACAAAAAE"
    reply = answer(f"move backgammon {text} --level world-class")
    stakes = Stakes.at(Settings(match_length=3), (2, 0), 0, crawford=True)
    best = rank_plays(parse_position(text), 5, 5, 2, stakes=stakes)[0]
    assert reply.startswith(f"move {best.play} ")
