"""GNU Backgammon Match ID (NOTATION.md, "Positions"): bit-exact encode and decode.

The gnubg-marked tests use the ``gnubg`` package (GPL, test-only) as the oracle: its
``matchid(cubeinfo, posinfo)`` writer and its ``setgnubgid`` reader.
"""

from __future__ import annotations

import base64
import dataclasses
import random
import string
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from oracle import Oracle, gnubg_oracle

from nardy.core import NotationError
from nardy.notation import parse_position
from nardy.notation.match_id import (
    CubeOwner,
    GameState,
    MatchState,
    Resignation,
    decode_match_id,
    encode_match_id,
)

START_ID = "4HPwATDgc/ABMA"

# -- states --------------------------------------------------------------------------------


@st.composite
def match_states(draw: st.DrawFn, max_length: int = 32767) -> MatchState:
    """An arbitrary valid :class:`MatchState`: every combination the validation allows."""
    game_state = draw(st.sampled_from(GameState))
    finished = game_state in (GameState.OVER, GameState.RESIGNED, GameState.DROPPED)
    length = draw(st.one_of(st.just(0), st.integers(1, 25), st.integers(1, max_length)))
    crawford = False
    if length == 0:
        score = (draw(st.integers(0, 32767)), draw(st.integers(0, 32767)))
    elif finished:
        winner = draw(st.integers(0, 1))
        low = draw(st.integers(0, length - 1))
        high = draw(st.integers(0, 32767))
        score = (high, low) if winner == 0 else (low, high)
        crawford = draw(st.booleans())
    else:
        score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
        if length > 1 and draw(st.booleans()):
            leader = draw(st.integers(0, 1))
            other = draw(st.integers(0, length - 2))
            score = (length - 1, other) if leader == 0 else (other, length - 1)
            crawford = True
    if crawford:
        cube, owner, doubled = 1, CubeOwner.CENTRED, False
    else:
        cube = 1 << draw(st.integers(0, 15))
        owner = draw(st.sampled_from(CubeOwner))
        doubled = draw(st.booleans())
    dice = None if doubled else draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    resigned = draw(st.sampled_from(Resignation))
    on_roll = draw(st.integers(0, 1))
    free_turn = doubled or resigned or game_state != GameState.PLAYING
    turn = draw(st.integers(0, 1)) if free_turn else on_roll
    return MatchState(
        cube=cube,
        cube_owner=owner,
        on_roll=on_roll,
        crawford=crawford,
        game_state=game_state,
        turn=turn,
        doubled=doubled,
        resigned=resigned,
        dice=dice,
        match_length=length,
        score=score,
        jacoby=draw(st.booleans()),
    )


# -- known IDs -----------------------------------------------------------------------------

MANUAL_STATE = MatchState(
    cube=2,
    cube_owner=CubeOwner.PLAYER_0,
    on_roll=1,
    turn=1,
    dice=(5, 2),
    match_length=9,
    score=(2, 4),
)


def test_the_manuals_example_as_documented_and_as_gnubg_writes_it() -> None:
    """gnubg's manual: ``QYkqASAAIAAA`` is a 9-point match at 2-4, player 0 owning a cube on
    2, player 1 on roll with 5-2. gnubg itself writes bit 66 (``!fJacoby``) as well."""
    assert decode_match_id("QYkqASAAIAAA") == dataclasses.replace(MANUAL_STATE, jacoby=True)
    assert decode_match_id("QYkqASAAIAAE") == MANUAL_STATE
    assert encode_match_id(MANUAL_STATE) == "QYkqASAAIAAE"
    for text in ("QYkqASAAIAAA", "QYkqASAAIAAE"):
        assert encode_match_id(decode_match_id(text)) == text


def test_a_new_money_game() -> None:
    """``cAkAAAAAAAAA``: money play, cube 1 centred, player 1 to roll, Jacoby on."""
    assert decode_match_id("cAkAAAAAAAAA") == MatchState(on_roll=1, turn=1, jacoby=True)


def test_field_by_field() -> None:
    """Each field lands on the bits gnubg's MatchID() gives it."""
    # All bits zero but the game state (1, "playing", at bit 8).
    base = MatchState(cube_owner=CubeOwner.PLAYER_0, jacoby=True)
    assert int.from_bytes(_raw(encode_match_id(base)), "little") == 1 << 8
    cases: list[tuple[dict[str, Any], int]] = [
        ({"cube": 8}, 3),
        ({"cube_owner": CubeOwner.PLAYER_1}, 1 << 4),
        ({"cube_owner": CubeOwner.CENTRED}, 3 << 4),
        ({"on_roll": 1, "turn": 1}, 1 << 6 | 1 << 11),
        ({"doubled": True, "turn": 1}, 1 << 12 | 1 << 11),
        ({"resigned": Resignation.BACKGAMMON, "turn": 1}, 3 << 13 | 1 << 11),
        ({"dice": (3, 6)}, 6 << 15 | 3 << 18),
        (
            {"match_length": 7, "score": (6, 3), "crawford": True, "cube_owner": CubeOwner.CENTRED},
            1 << 7 | 3 << 4 | 7 << 21 | 6 << 36 | 3 << 51,
        ),
        ({"score": (32767, 32767)}, 32767 << 36 | 32767 << 51),
        ({"jacoby": False}, 1 << 66),
    ]
    for change, bits in cases:
        state = dataclasses.replace(base, **change)
        assert int.from_bytes(_raw(encode_match_id(state)), "little") == 1 << 8 | bits, change


def _raw(text: str) -> bytes:

    return base64.b64decode(text)


def test_dice_are_stored_larger_first_as_gnubg_writes_them() -> None:
    assert MatchState(dice=(2, 5)).dice == (5, 2)
    low_first = encode_match_id(MatchState(dice=(5, 2)))
    # An ID written low die first (gnubg never does) still reads.
    bits = int.from_bytes(_raw(low_first), "little") & ~(63 << 15) | 2 << 15 | 5 << 18

    swapped = base64.b64encode(bits.to_bytes(9, "little")).decode()
    assert decode_match_id(swapped).dice == (5, 2)


# -- round trips ---------------------------------------------------------------------------


@given(match_states())
def test_decode_of_encode_is_identity(state: MatchState) -> None:
    text = encode_match_id(state)
    assert len(text) == 12
    assert decode_match_id(text) == state
    assert encode_match_id(decode_match_id(text)) == text


@given(st.text(alphabet=string.ascii_letters + string.digits + "+/", min_size=12, max_size=12))
def test_any_id_that_decodes_encodes_back(text: str) -> None:
    """Random 12-character strings: either a clear error or an exact round trip (up to the
    order of the dice, which gnubg writes larger first)."""
    try:
        state = decode_match_id(text)
    except NotationError as exc:
        assert "Match ID" in str(exc)
        return
    again = encode_match_id(state)
    if state.dice is not None:
        assume(again == text)  # the rare low-die-first ID re-encodes larger first
    assert again == text


# -- malformed input -----------------------------------------------------------------------


def _with_bits(**fields: int) -> str:
    """An ID with raw field values, bypassing MatchState's validation."""

    layout = {
        "cube": 0,
        "owner": 4,
        "on_roll": 6,
        "crawford": 7,
        "state": 8,
        "turn": 11,
        "doubled": 12,
        "resigned": 13,
        "d1": 15,
        "d2": 18,
        "length": 21,
        "s0": 36,
        "s1": 51,
        "nojacoby": 66,
        "extra": 67,
    }
    values = {"owner": 3, "state": 1} | fields
    bits = sum(v << layout[k] for k, v in values.items())
    return base64.b64encode(bits.to_bytes(9, "little")).decode()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("QYkqASAAIAA", "expected 12 characters, got 11"),
        ("QYkqASAAIAAAA", "expected 12 characters, got 13"),
        ("", "expected 12 characters, got 0"),
        ("QYkqASAAIA=A", "'=' not in base64"),
        ("QYkqAS AIAAA", "' ' not in base64"),
        ("QYkqASAAIA-_", "'-_' not in base64"),
        (_with_bits(extra=1), "bits above bit 66"),
        (_with_bits(owner=2), "cube owner field is 2"),
        (_with_bits(state=5), "game state 5 is not 0-4"),
        (_with_bits(state=7), "game state 7 is not 0-4"),
        (_with_bits(d1=7, d2=2), "a die of 7"),
        (_with_bits(d1=5, d2=7), "a die of 7"),
        (_with_bits(d1=3, d2=0), "either both are rolled or neither"),
        (_with_bits(crawford=1), "money play has no Crawford game"),
        (_with_bits(length=7, s0=7), "already won the 7-point match"),
        (_with_bits(length=7, s1=9, state=0), "already won the 7-point match"),
        (_with_bits(length=7, s0=7, s1=8, state=2), "both scores 7-8 reach the match length 7"),
        (_with_bits(length=7, s0=5, s1=3, crawford=1), "the Crawford game needs a player at 6"),
        (_with_bits(length=7, s0=6, s1=6, crawford=1), "both players need one point"),
        (_with_bits(length=1, crawford=1), "both players need one point"),
        (_with_bits(length=7, s0=6, crawford=1, cube=1), "cube is out of play"),
        (_with_bits(length=7, s0=6, crawford=1, owner=1), "cube is out of play"),
        (_with_bits(doubled=1, turn=1, d1=3, d2=1), "a double is offered before rolling"),
        (_with_bits(turn=1), "turn is player 1 but player 0 is on roll"),
    ],
)
def test_malformed_ids_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError, match="Match ID") as info:
        decode_match_id(text)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"cube": 3}, "cube value 3 is not a power of two"),
        ({"cube": 0}, "cube value 0 is not 1-32768"),
        ({"cube": 65536}, "cube value 65536 is not 1-32768"),
        ({"cube_owner": 2}, "cube owner 2 is not"),
        ({"game_state": 9}, "game state 9 is not 0-4"),
        ({"resigned": 4}, "resignation 4 is not 0-3"),
        ({"on_roll": 2}, "on_roll must be player 0 or 1"),
        ({"turn": -1}, "turn must be player 0 or 1"),
        ({"crawford": 2}, "crawford must be True or False"),
        ({"dice": (0, 3)}, "are not two dice of 1-6"),
        ({"dice": (7, 1)}, "are not two dice of 1-6"),
        ({"dice": (1, 2, 3)}, "are not two dice of 1-6"),
        ({"match_length": 32768}, "match length 32768 is not 0-32767"),
        ({"match_length": -1}, "match length -1 is not 0-32767"),
        ({"score": (-1, 0)}, "is not two numbers 0-32767"),
        ({"score": (0, 40000)}, "is not two numbers 0-32767"),
        ({"crawford": True}, "money play has no Crawford game"),
        ({"crawford": True, "match_length": 5, "score": (4, 0), "doubled": True}, "Crawford"),
    ],
)
def test_invalid_states_cannot_be_built(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(NotationError) as info:
        MatchState(**fields)
    assert message in str(info.value)


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError, match="expected 12 characters"):
        decode_match_id("nonsense")


def test_parse_position_checks_the_match_id() -> None:
    assert parse_position(f"{START_ID}:QYkqASAAIAAE") == parse_position(START_ID)
    with pytest.raises(NotationError, match="a die of 7"):
        parse_position(f"{START_ID}:{_with_bits(d1=7, d2=1)}")
    with pytest.raises(NotationError, match="nothing after ':'"):
        parse_position(f"{START_ID}:")
    with pytest.raises(NotationError, match="no Position ID before"):
        parse_position(":QYkqASAAIAAE")
    with pytest.raises(NotationError, match="has 2 ':'"):
        parse_position(f"{START_ID}:QYkqASAAIAAE:QYkqASAAIAAE")


# -- GNU Backgammon as the oracle ----------------------------------------------------------

_OWNER_TO_GNUBG = {CubeOwner.CENTRED: -1, CubeOwner.PLAYER_0: 0, CubeOwner.PLAYER_1: 1}


def _gnubg_writes(gnubg: Oracle, state: MatchState) -> str:
    """gnubg's own MatchID() of ``state``, through its Python cubeinfo/posinfo dictionaries."""
    ci = gnubg.cubeinfo(state.cube, _OWNER_TO_GNUBG[state.cube_owner], state.on_roll, 0, (0, 0))
    # cubeinfo() checks the score against the match and zeroes money scores; MatchID() itself
    # writes whatever the dictionary holds, so fill in the rest afterwards.
    ci.update(
        matchto=state.match_length,
        score=state.score,
        crawford=int(state.crawford),
        jacoby=int(state.jacoby),
    )
    pi = gnubg.posinfo(
        state.turn,
        int(state.resigned),
        int(state.doubled),
        int(state.game_state),
        state.dice or (0, 0),
    )
    return str(gnubg.matchid(ci, pi))


@pytest.mark.gnubg
def test_gnubg_writes_what_we_write_and_we_read_it_back() -> None:
    """Random valid states, every field: gnubg's matchid() equals our encoding, and decoding
    gnubg's text gives back the same fields."""
    gnubg = gnubg_oracle()
    rng = random.Random(67)
    for _ in range(400):
        state = _random_state(rng)
        theirs = _gnubg_writes(gnubg, state)
        assert encode_match_id(state) == theirs, state
        assert decode_match_id(theirs) == state


@pytest.mark.gnubg
def test_gnubg_reads_what_we_write() -> None:
    """gnubg's reader (setgnubgid) keeps a game in play as written: the fields it reports
    equal ours, and its match ID written back is ours bit for bit. (Its reader refuses or
    rewrites finished games, pending doubles and resignations, matches over 64 points and
    cubes over 4096, which it resets to 1.)"""
    gnubg = gnubg_oracle()
    rng = random.Random(2026)
    checked = 0
    while checked < 300:
        state = _random_state(rng)
        if (
            state.game_state != GameState.PLAYING
            or state.doubled
            or state.resigned
            or state.match_length > 64
            or state.cube > 4096
        ):
            continue
        ours = encode_match_id(state)
        gnubg.setgnubgid(f"{START_ID}:{ours}")
        assert gnubg.matchid() == ours, state
        ci, pi = gnubg.cubeinfo(), gnubg.posinfo()
        assert (ci["cube"], ci["cubeowner"], ci["move"], ci["matchto"], ci["crawford"]) == (
            state.cube,
            _OWNER_TO_GNUBG[state.cube_owner],
            state.on_roll,
            state.match_length,
            int(state.crawford),
        )
        if state.match_length:  # gnubg's cubeinfo() zeroes money-play scores
            assert tuple(ci["score"]) == state.score
        assert tuple(pi["dice"]) == (state.dice or (0, 0))
        assert (pi["turn"], pi["gamestate"]) == (state.turn, 1)
        checked += 1


def _random_state(rng: random.Random) -> MatchState:
    """A random valid state without Hypothesis (for the oracle loops)."""
    while True:
        game_state = GameState(rng.randrange(5))
        length = rng.choice([0, 0, rng.randint(1, 25), rng.randint(1, 32767)])
        finished = game_state in (GameState.OVER, GameState.RESIGNED, GameState.DROPPED)
        crawford = length > 1 and rng.random() < 0.3
        if length == 0:
            score = (rng.randrange(32768), rng.randrange(32768))
        elif finished:
            score = (rng.randrange(length), rng.randrange(32768))
        elif crawford:
            score = (length - 1, rng.randrange(length - 1))
        else:
            score = (rng.randrange(length), rng.randrange(length))
        if rng.random() < 0.5:
            score = score[::-1]
        doubled = not crawford and rng.random() < 0.3
        resigned = Resignation(rng.randrange(4)) if rng.random() < 0.3 else Resignation.NONE
        on_roll = rng.randrange(2)
        pending = doubled or resigned or game_state != GameState.PLAYING
        dice = None if doubled or rng.random() < 0.3 else (rng.randint(1, 6), rng.randint(1, 6))
        try:
            return MatchState(
                cube=1 if crawford else 1 << rng.randrange(16),
                cube_owner=CubeOwner.CENTRED if crawford else rng.choice(list(CubeOwner)),
                on_roll=on_roll,
                crawford=crawford,
                game_state=game_state,
                turn=rng.randrange(2) if pending else on_roll,
                doubled=doubled,
                resigned=resigned,
                dice=dice,
                match_length=length,
                score=score,
                jacoby=rng.random() < 0.5,
            )
        except NotationError:
            continue  # e.g. a Crawford flag on a finished game that cannot have one
