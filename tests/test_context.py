"""One reader of a position with its Match ID or XGID context (issue 8, item 6): what
``nardy show``, ``moves``, ``play --position``, ``hint`` and the engine read from a pasted ID."""

from __future__ import annotations

import argparse
import dataclasses

import pytest
from hypothesis import assume, given, settings
from test_match_id import MANUAL_STATE, match_states
from test_xgid import xgids

from nardy import BACKGAMMON, position_id
from nardy.cli.engine import read_position
from nardy.cli.options import start_from_args
from nardy.core import NotationError
from nardy.notation import MatchState, encode_match_id, format_xgid, parse_position
from nardy.notation.context import Context, read_context
from nardy.notation.match_id import GameState, Resignation
from nardy.notation.xgid import CubeAction, Xgid

START = "4HPwATDgc/ABMA"


def test_a_bare_position_id_is_a_money_game_about_to_be_rolled() -> None:
    ctx = read_context(f"  {START} ")
    assert ctx == Context(BACKGAMMON.start())
    assert (ctx.dice, ctx.cube, ctx.cube_mine, ctx.score, ctx.match_length) == (
        None,
        1,
        None,
        (0, 0),
        0,
    )
    assert ctx.jacoby is None and not ctx.doubled and ctx.in_play
    assert ctx.match_state() == MatchState(on_roll=1, turn=1)


def test_a_match_id_is_read_from_the_side_on_roll() -> None:
    """gnubg's manual: a 9-point match at 2-4, player 0 owning a cube on 2, player 1 on roll
    with 5-2; and the same with player 0 on roll."""
    ctx = read_context(f"{START}:QYkqASAAIAAA")
    assert (ctx.on_roll, ctx.score, ctx.cube, ctx.cube_mine, ctx.dice) == (
        1,
        (4, 2),
        2,
        False,
        (5, 2),
    )
    assert ctx.match_length == 9 and ctx.jacoby is False and ctx.cube_action == ""
    assert ctx.match_state() == MANUAL_STATE  # gnubg's Jacoby bit is dropped in a match
    state = dataclasses.replace(MANUAL_STATE, on_roll=0, turn=0)
    ctx = read_context(f"{START}:{encode_match_id(state)}")
    assert ctx.position == BACKGAMMON.start()
    assert (ctx.on_roll, ctx.score, ctx.cube, ctx.cube_mine, ctx.dice) == (
        0,
        (2, 4),
        2,
        True,
        (5, 2),
    )
    assert ctx.match_length == 9 and ctx.jacoby is False and ctx.cube_action == ""
    assert ctx.match_state() == state


@settings(max_examples=300, deadline=None)
@given(match_states())
def test_every_match_id_reads_back_to_its_state(state: MatchState) -> None:
    """The context keeps everything a Match ID says, except the Jacoby flag of a match,
    where the rule does not apply (RULES.md 1.5)."""
    assume(state.is_money or not state.jacoby)
    ctx = read_context(f"{START}:{encode_match_id(state)}")
    assert ctx.match_state() == state
    assert ctx.doubled == state.doubled and ctx.in_play == (state.game_state is GameState.PLAYING)
    assert ctx.score == (state.score[state.on_roll], state.score[1 - state.on_roll])


@settings(max_examples=300, deadline=None)
@given(xgids())
def test_every_xgid_reads_as_its_fields_say(x: Xgid) -> None:
    v = x.position.variant
    ctx = read_context(format_xgid(x), v)
    assert ctx.position == parse_position(format_xgid(x), v)
    assert (ctx.dice, ctx.cube, ctx.cube_mine) == (x.dice, x.cube, x.cube_is_mine)
    assert ctx.score == (x.my_score, x.their_score) and ctx.match_length == x.match_length
    assert ctx.crawford == x.crawford and ctx.beavers == x.beavers
    assert ctx.cube_action == x.cube_action.value
    assert ctx.on_roll == (1 if x.x_on_roll else 0)
    if x.cube_action in (CubeAction.BEAVERED, CubeAction.RACCOONED):
        with pytest.raises(NotationError, match="a Match ID cannot express"):
            ctx.match_state()
    else:
        expected = x.to_match_state()
        assert ctx.match_state() == MatchState(
            **{
                **{f: getattr(expected, f) for f in expected.__dataclass_fields__},
                "jacoby": x.jacoby and not x.match_length,
            }
        )


def test_the_engine_and_play_read_the_same_context() -> None:
    """The engine's reader is this one, with its hint about IDs whose case changed; ``play
    --position`` starts from what it reads (gnubg's bottom player is nardy's player 0)."""
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:2:0:7:10"
    assert read_position(xgid, BACKGAMMON) == read_context(xgid)
    with pytest.raises(ValueError, match="case-sensitive"):
        read_position(START.lower(), BACKGAMMON)
    args = argparse.Namespace(
        position=xgid, turn=None, dice=None, start_cube=None, score=None, variant="backgammon"
    )
    start = start_from_args(args)
    assert start is not None
    ctx = read_context(xgid)
    assert start.position == ctx.position and start.turn == 1 - ctx.on_roll == 0
    assert start.score == (3, 2) and start.match_length == 7  # X (player 0) has 3
    assert start.cube == (2, 0) and ctx.cube_mine  # X owns it (cube position 1): player 0
    finished = MatchState(game_state=GameState.OVER, match_length=0, score=(1, 0))
    args.position = f"{START}:{encode_match_id(finished)}"
    with pytest.raises(NotationError, match="finished game"):
        start_from_args(args)
    resigning = MatchState(resigned=Resignation.SINGLE, turn=1)
    args.position = f"{position_id(BACKGAMMON.start())}:{encode_match_id(resigning)}"
    notes = start_from_args(args)
    assert notes is not None and notes.notes == (
        "the resignation offered in the ID is not carried over",
    )
