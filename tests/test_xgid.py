"""XGID (NOTATION.md, "Positions"): read and written as GNU Backgammon reads it.

Which case is which player, the turn, the scores and ``D`` were established with gnubg's
own XGID reader (``gnubg.setgnubgid``); the gnubg-marked tests repeat that check on random
XGIDs.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from oracle import gnubg_oracle

from nardy.core import (
    ACEY_DEUCEY,
    BACKGAMMON,
    BAR,
    CHECKERS,
    LONG_NARDY,
    NACKGAMMON,
    OFF,
    NotationError,
    Position,
    Variant,
)
from nardy.notation import parse_position, position_id
from nardy.notation.match_id import CubeOwner, GameState, MatchState, encode_match_id
from nardy.notation.xgid import CubeAction, Xgid, format_xgid, parse_xgid, position_from_xgid

START = "-b----E-C---eE---c-e----B-"

# Published XGIDs: the opening as eXtreme Gammon writes it; a match to 7 at 6-4, Crawford
# (backgammonforums.com, "How to post positions"); money with Jacoby and beavers, the low die
# first (bug-gnubg, 2010).
OPENING_21 = f"XGID={START}:0:0:1:21:0:0:0:7:10"
CRAWFORD_6_4 = "XGID=--A-bBBBB--BbB-----dbbc-B-:0:0:1:31:6:4:1:7:10"
MONEY_46 = "XGID=-b----E-C---eE---b-d-b--B-:0:0:1:46:0:0:3:0:10"
BAR_AND_OFF = "XGID=aC----B-------------b---dB:0:0:1:31:0:0:1:0:10"


def side(points: dict[int, int]) -> bytes:
    """A side from ``{point: checkers}``, the rest borne off."""
    counts = [0] * 26
    for p, n in points.items():
        counts[p] = n
    counts[OFF] += CHECKERS - sum(counts)
    return bytes(counts)


# -- known XGIDs ---------------------------------------------------------------------------


def test_the_opening() -> None:
    x = parse_xgid(OPENING_21)
    assert x.position == BACKGAMMON.start()
    assert (x.x_on_roll, x.dice, x.cube, x.cube_position, x.cube_action) == (
        True,
        (2, 1),
        1,
        0,
        CubeAction.NONE,
    )
    assert (x.score_x, x.score_o, x.match_length, x.crawford, x.max_cube) == (0, 0, 7, False, 1024)
    assert format_xgid(x) == OPENING_21
    assert format_xgid(BACKGAMMON.start()) == f"XGID={START}:0:0:1:00:0:0:0:0:10"


def test_uppercase_is_x_who_counts_the_board_from_1_and_lowercase_is_o() -> None:
    """``aC----B-------------b---dB``, X on roll: X has 3 on its 1, 2 on its 6 and 2 on the
    bar (character 25); O has 1 on the bar (character 0), 2 on O's 5 (character 20) and 4
    on O's 1 (character 24); the rest of each side is off."""
    x = parse_xgid(BAR_AND_OFF)
    assert x.position.mine == side({1: 3, 6: 2, BAR: 2})
    assert x.position.theirs == side({5: 2, 1: 4, BAR: 1})
    assert x.position.mine[OFF] == x.position.theirs[OFF] == 8
    assert (x.jacoby, x.beavers) == (True, False)


def test_turn_minus_one_puts_o_on_roll() -> None:
    """The position is seen from the side on roll: with turn -1 that is O (lowercase)."""
    x = parse_xgid(CRAWFORD_6_4)
    o = parse_xgid(CRAWFORD_6_4.replace(":1:31:", ":-1:31:"))
    assert not o.x_on_roll
    assert o.position == x.position.swap()
    assert (o.score_x, o.score_o, o.my_score, o.their_score) == (6, 4, 4, 6)
    assert (x.my_score, x.their_score, x.crawford) == (6, 4, True)
    assert format_xgid(o) == CRAWFORD_6_4.replace(":1:31:", ":-1:31:")


def test_money_rules_and_dice_order_as_written() -> None:
    x = parse_xgid(MONEY_46)
    assert (x.dice, x.jacoby, x.beavers, x.match_length) == ((4, 6), True, True, 0)
    assert format_xgid(x) == MONEY_46


def test_a_double_names_the_doubler_and_the_cube_before_it() -> None:
    """``D``: the turn is the doubler (on roll); the cube shows its value before the double."""
    text = f"XGID={START}:1:-1:-1:D:2:3:0:7:10"
    x = parse_xgid(text)
    assert (x.cube_action, x.dice, x.cube, x.x_on_roll, x.cube_is_mine) == (
        CubeAction.DOUBLED,
        None,
        2,
        False,
        True,
    )
    assert x.to_match_state() == MatchState(
        cube=2,
        cube_owner=CubeOwner.PLAYER_0,
        on_roll=0,
        turn=1,
        doubled=True,
        match_length=7,
        score=(3, 2),
    )
    assert format_xgid(x) == text


def test_beaver_and_raccoon_round_trip_but_have_no_match_id() -> None:
    for letter, action in (("B", CubeAction.BEAVERED), ("R", CubeAction.RACCOONED)):
        text = f"XGID={START}:1:1:1:{letter}:0:0:3:0:10"
        x = parse_xgid(text)
        assert x.cube_action == action
        assert format_xgid(x) == text
        with pytest.raises(NotationError, match="cannot express"):
            x.to_match_state()


def test_to_match_state_follows_gnubg() -> None:
    """gnubg's own derivation for these XGIDs (``setgnubgid`` then ``matchid()``)."""
    assert encode_match_id(parse_xgid(OPENING_21).to_match_state()) == "cAnlAAAAAAAE"
    assert encode_match_id(parse_xgid(CRAWFORD_6_4).to_match_state()) == "8InlAEAAMAAE"
    assert encode_match_id(parse_xgid(MONEY_46).to_match_state()) == "cAkTAAAAAAAA"
    assert encode_match_id(parse_xgid(BAR_AND_OFF).to_match_state()) == "cIkFAAAAAAAA"
    state = parse_xgid(CRAWFORD_6_4).to_match_state()
    assert (state.score, state.on_roll, state.crawford, state.game_state) == (
        (4, 6),
        1,
        True,
        GameState.PLAYING,
    )


def test_prefix_optional_and_case_insensitive() -> None:
    bare = OPENING_21.removeprefix("XGID=")
    for text in (bare, "xgid=" + bare, f"  {OPENING_21}\n"):
        assert parse_xgid(text) == parse_xgid(OPENING_21)
        assert parse_position(text) == BACKGAMMON.start()
    assert position_from_xgid(OPENING_21) == BACKGAMMON.start()


# -- variants ------------------------------------------------------------------------------


def test_nackgammon_and_acey_deucey_share_the_board() -> None:
    nack = Xgid(NACKGAMMON.start(), dice=(3, 1))
    assert parse_xgid(format_xgid(nack), NACKGAMMON) == nack
    assert parse_position(format_xgid(nack), "nackgammon") == NACKGAMMON.start()
    entered = Position(ACEY_DEUCEY, BACKGAMMON.start().mine, BACKGAMMON.start().theirs)
    assert parse_xgid(format_xgid(entered), ACEY_DEUCEY).position == entered


def test_acey_deucey_checkers_waiting_cannot_be_written() -> None:
    with pytest.raises(NotationError, match="waiting to enter"):
        format_xgid(ACEY_DEUCEY.start())
    with pytest.raises(NotationError, match="waiting to enter"):
        Xgid(ACEY_DEUCEY.start())


def test_long_nardy_cannot_be_expressed() -> None:
    with pytest.raises(NotationError, match="XGID cannot express a Long nardy position"):
        format_xgid(LONG_NARDY.start())
    with pytest.raises(NotationError, match="XGID cannot express a Long nardy position"):
        parse_xgid(OPENING_21, "long")
    with pytest.raises(NotationError, match="cannot express a Long nardy"):
        parse_position(OPENING_21, LONG_NARDY)


# -- round trips ---------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn, v: Variant = BACKGAMMON) -> Position:
    """A valid position in backgammon's geometry: checkers anywhere, on the bar or off."""
    free = list(range(1, 25))  # X's point numbers still empty
    sides: list[bytes] = []
    for owner in range(2):
        counts = [0] * 26
        on_board = draw(st.integers(0, CHECKERS))
        counts[BAR] = draw(st.integers(0, min(3, on_board)))
        for _ in range(on_board - counts[BAR]):
            if not free:
                break
            p = draw(st.sampled_from(free))
            counts[p if owner == 0 else 25 - p] += 1
        for p in range(1, 25):
            q = p if owner == 0 else 25 - p
            if counts[q] and p in free:
                free.remove(p)
        counts[OFF] = CHECKERS - sum(counts)
        sides.append(bytes(counts))
    if sides[0][OFF] == sides[1][OFF] == CHECKERS:
        sides[1] = bytes([CHECKERS - 1, *([0] * 24), 1])  # both cannot have finished
    x_side, o_side = sides
    return Position(v, x_side, o_side)


@st.composite
def xgids(draw: st.DrawFn, max_length: int = 32767) -> Xgid:
    """An arbitrary valid :class:`Xgid`."""
    v = draw(st.sampled_from([BACKGAMMON, NACKGAMMON, ACEY_DEUCEY]))
    pos = draw(positions(v))
    x_on_roll = draw(st.booleans())
    length = draw(st.one_of(st.just(0), st.integers(1, 25), st.integers(1, max_length)))
    crawford = False
    if length:
        score = [draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1))]
        if length > 1 and draw(st.booleans()):
            leader = draw(st.integers(0, 1))
            score[leader] = length - 1
            score[1 - leader] = draw(st.integers(0, length - 2))
            crawford = True
    else:
        score = [draw(st.integers(0, 99)), draw(st.integers(0, 99))]
    action = CubeAction.NONE if crawford else draw(st.sampled_from(CubeAction))
    if crawford:
        cube, cube_position = 1, 0
    else:
        cube = 1 << draw(st.integers(0, 15))
        cube_position = draw(st.sampled_from([-1, 0, 1]))
        if action == CubeAction.DOUBLED and cube_position == (-1 if x_on_roll else 1):
            cube_position = 0
    if length:
        action = (
            CubeAction.NONE if action in (CubeAction.BEAVERED, CubeAction.RACCOONED) else action
        )
    dice = None
    if action == CubeAction.NONE:
        dice = draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    return Xgid(
        position=pos if x_on_roll else pos.swap(),
        x_on_roll=x_on_roll,
        cube=cube,
        cube_position=cube_position,
        dice=dice,
        cube_action=action,
        score_x=score[0],
        score_o=score[1],
        match_length=length,
        crawford=crawford,
        jacoby=not length and draw(st.booleans()),
        beavers=not length and draw(st.booleans()),
        max_cube=1 << draw(st.integers(0, 31)),
    )


@given(xgids())
def test_parse_of_format_is_identity(x: Xgid) -> None:
    text = format_xgid(x)
    assert parse_xgid(text, x.position.variant) == x
    assert format_xgid(parse_xgid(text, x.position.variant)) == text
    assert str(x) == text
    assert parse_position(text, x.position.variant) == x.position


@given(xgids())
def test_the_board_shows_x_uppercase_from_xs_side(x: Xgid) -> None:
    """An independent reading of the board: uppercase counts X's points by index."""
    board = format_xgid(x)[5:31]
    xs, os = (
        (x.position.mine, x.position.theirs)
        if x.x_on_roll
        else (
            x.position.theirs,
            x.position.mine,
        )
    )
    for i, c in enumerate(board):
        upper = ord(c) - ord("A") + 1 if c.isupper() else 0
        lower = ord(c) - ord("a") + 1 if c.islower() else 0
        x_index = BAR if i == 25 else i
        assert upper == (xs[x_index] if i > 0 else 0)
        assert lower == (os[BAR] if i == 0 else os[25 - i] if i < 25 else 0)


# -- malformed input -----------------------------------------------------------------------

VALID = f"XGID={START}:0:0:1:31:0:0:1:0:10"


def _swap_field(index: int, value: str) -> str:
    parts = VALID.removeprefix("XGID=").split(":")
    parts[index] = value
    return "XGID=" + ":".join(parts)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (VALID.rsplit(":", 1)[0], "got 9 parts"),
        (VALID + ":0", "got 11 parts"),
        ("", "got 1 parts"),
        ("4HPwATDgc/ABMA:cAkAAAAAAAAA", "got 2 parts"),
        (_swap_field(0, START[:-1]), "has 25 characters, not 26"),
        (_swap_field(0, START[:-1] + "?"), "board character 25 is '?'"),
        (_swap_field(0, START[:-2] + "P-"), "'P': 16 checkers"),
        (_swap_field(0, START[:-2] + "Z-"), "'Z': 26 checkers"),
        (_swap_field(0, START[:-2] + "C-"), "X has 16 checkers"),
        (_swap_field(0, "a" + START[1:]), "O has 16 checkers"),
        (_swap_field(0, "A" + START[1:]), "character 0 is O's bar, but holds X's"),
        (_swap_field(0, START[:-1] + "a"), "character 25 is X's bar, but holds O's"),
        (_swap_field(1, "x"), "cube 'x' is not a number"),
        (_swap_field(1, "16"), "cube 16 is not 0 to 15"),
        (_swap_field(1, "-1"), "cube -1 is not 0 to 15"),
        (_swap_field(2, "2"), "cube position 2 is not -1 to 1"),
        (_swap_field(3, "0"), "turn 0"),
        (_swap_field(3, "2"), "turn 2 is not -1 to 1"),
        (_swap_field(4, "71"), "dice '71' are not two dice 1-6"),
        (_swap_field(4, "30"), "dice '30' are not two dice 1-6"),
        (_swap_field(4, "0"), "dice '0' are not two dice 1-6"),
        (_swap_field(4, "312"), "dice '312' are not two dice 1-6"),
        (_swap_field(4, "X"), "dice 'X' are not two dice 1-6"),
        (_swap_field(5, "-1"), "X's score -1 is not 0 to 32767"),
        (_swap_field(6, "1.5"), "O's score '1.5' is not a number"),
        (_swap_field(7, "4"), "Crawford/Jacoby field 4 is not 0 to 3"),
        (f"XGID={START}:0:0:1:31:0:0:2:7:10", "Crawford/Jacoby field 2 is not 0 to 1"),
        (f"XGID={START}:0:0:1:31:7:0:0:7:10", "already won the 7-point match"),
        (f"XGID={START}:0:0:1:31:0:9:0:7:10", "already won the 7-point match"),
        (f"XGID={START}:0:0:1:31:5:3:1:7:10", "the Crawford game needs a player at 6"),
        (f"XGID={START}:0:0:1:31:6:6:1:7:10", "both players need one point"),
        (f"XGID={START}:1:0:1:31:6:3:1:7:10", "cube is out of play in the Crawford game"),
        (f"XGID={START}:0:1:1:31:6:3:1:7:10", "cube is out of play in the Crawford game"),
        (f"XGID={START}:0:0:1:D:6:3:1:7:10", "no double can be offered in the Crawford game"),
        (f"XGID={START}:1:-1:1:D:0:0:0:7:10", "cannot double while the opponent owns"),
        (f"XGID={START}:1:1:-1:D:0:0:0:7:10", "cannot double while the opponent owns"),
        (_swap_field(9, "32"), "max cube 32 is not 0 to 31"),
    ],
)
def test_malformed_xgids_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError, match="XGID") as info:
        parse_xgid(text)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"cube": 3}, "cube 3 is not a power of two"),
        ({"cube": 1 << 16}, "is not a power of two from 1 to 32768"),
        ({"max_cube": 0}, "max cube 0 is not a power of two"),
        ({"cube_position": 2}, "cube position 2 is not 1 (X), -1 (O) or 0"),
        ({"x_on_roll": 1}, "x_on_roll must be True or False"),
        ({"dice": (0, 1)}, "are not two dice of 1-6"),
        ({"dice": (3, 1), "cube_action": CubeAction.DOUBLED}, "share one field"),
        ({"cube_action": "D"}, "is not a CubeAction"),
        ({"score_x": -1}, "X's score -1 is not 0-32767"),
        ({"match_length": 5, "jacoby": True}, "for money play, not a match"),
        ({"match_length": 5, "beavers": True}, "for money play, not a match"),
        ({"crawford": True}, "money play has no Crawford game"),
        (
            {"match_length": 5, "cube_action": CubeAction.BEAVERED},
            "beavered cube belongs to money play",
        ),
    ],
)
def test_invalid_xgids_cannot_be_built(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(NotationError) as info:
        Xgid(BACKGAMMON.start(), **fields)
    assert message in str(info.value)


def test_an_impossible_position_is_a_notation_error() -> None:
    both_on_one_point = Position(BACKGAMMON, side({6: 15}), side({19: 1}))
    with pytest.raises(NotationError, match="both sides have checkers on my point 6"):
        Xgid(both_on_one_point)


def test_parse_position_says_which_format_failed() -> None:
    with pytest.raises(NotationError, match="XGID"):
        parse_position(_swap_field(4, "71"))
    with pytest.raises(NotationError, match="not a Position ID"):
        parse_position("4HPwATDgc/ABM")
    with pytest.raises(NotationError, match="empty position"):
        parse_position("   ")
    with_bar = position_id(parse_xgid(BAR_AND_OFF).position)
    with pytest.raises(NotationError, match=r"is not a Long nardy position: .* has no bar"):
        parse_position(with_bar, "long")


# -- GNU Backgammon as the oracle ----------------------------------------------------------


@pytest.mark.gnubg
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(xgids(max_length=64))
def test_gnubg_reads_our_xgids_to_the_same_board_cube_score_and_dice(x: Xgid) -> None:
    """Random XGIDs that gnubg can read (no beaver or raccoon, matches up to 64, cubes up to
    4096): gnubg's board and Position ID equal ours, and the Match ID it derives equals the
    one :meth:`Xgid.to_match_state` derives. For ``D`` gnubg steps back to before the double
    (it says so), so there we compare with the state before the double."""
    gnubg = gnubg_oracle()
    assume(x.cube_action not in (CubeAction.BEAVERED, CubeAction.RACCOONED) and x.cube <= 4096)
    text = format_xgid(x)
    gnubg.setgnubgid(text)
    assert gnubg.positionid() == position_id(x.position)
    board = gnubg.board()  # (side not on roll, side on roll), points 1-24 then the bar
    assert tuple(board[1]) == tuple(x.position.mine[1:26])
    assert tuple(board[0]) == tuple(x.position.theirs[1:26])
    state = x.to_match_state()
    if state.doubled:
        state = dataclasses.replace(state, doubled=False, turn=state.on_roll)
    assert gnubg.matchid() == encode_match_id(state)
    ci, pi = gnubg.cubeinfo(), gnubg.posinfo()
    assert ci["move"] == (1 if x.x_on_roll else 0)  # turn 1 = X = gnubg's player 1
    assert ci["cube"] == x.cube
    assert ci["cubeowner"] == {1: 1, -1: 0, 0: -1}[x.cube_position]
    if x.match_length:  # gnubg's cubeinfo() zeroes money-play scores
        assert tuple(ci["score"]) == (x.score_o, x.score_x)  # gnubg: (player 0, player 1)
    assert tuple(pi["dice"]) == tuple(sorted(x.dice or (0, 0), reverse=True))


@given(xgids(), st.integers(0, 60), st.sampled_from("-0123456789:ABCOPZabcop=DBRX "))
def test_any_edit_of_an_xgid_is_read_or_refused_clearly(x: Xgid, at: int, char: str) -> None:
    """One character changed anywhere: either a valid XGID or a NotationError, never a crash;
    and an XGID read from valid text writes back to text that reads the same."""
    text = format_xgid(x)
    at = 5 + at % (len(text) - 5)
    edited = text[:at] + char + text[at + 1 :]
    try:
        y = parse_xgid(edited, x.position.variant)
    except NotationError as exc:
        assert str(exc).startswith("XGID ") or "is not an XGID" in str(exc)
        assert str(exc).count("XGID '") <= 1
        return
    assert parse_xgid(format_xgid(y), x.position.variant) == y


def test_the_examples_in_the_docs_and_docstrings_run() -> None:
    """docs/notation.md and the codecs' docstrings hold examples users paste: run them."""
    import doctest
    from pathlib import Path

    import nardy.notation.match_id
    import nardy.notation.position_text
    import nardy.notation.xgid

    docs = Path(__file__).resolve().parents[1] / "docs" / "notation.md"
    assert doctest.testfile(str(docs), module_relative=False).failed == 0
    for module in (nardy.notation.match_id, nardy.notation.xgid, nardy.notation.position_text):
        assert doctest.testmod(module).failed == 0
