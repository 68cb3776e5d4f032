"""Move notation (NOTATION.md, "Moves"), Move and Play behaviour, and the errors raised for
bad input (illegal plays, malformed notation, bad dice, invalid positions)."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import pos, text_set

import nardy
from nardy import (
    BACKGAMMON,
    LONG_NARDY,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPositionError,
    Move,
    NardyError,
    NotationError,
    Play,
    Position,
    format_moves,
    parse_moves,
)

START = {24: 2, 13: 5, 8: 3, 6: 5}
# The opponent's blots on their 22 and 20 are my 3 and my 5.
TWO_BLOTS = {20: 1, 22: 1, 6: 5, 8: 3, 13: 5}
ONE_BLOT = {3: 1, 6: 5, 8: 2, 13: 5, 22: 1, 24: 1}


def m(start: int, end: int, hit: bool = False) -> Move:
    """A move, short."""
    return Move(start, end, hit)


# -- Move ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (m(24, 18), "24/18"),
        (m(25, 22), "bar/22"),
        (m(25, 22, True), "bar/22*"),
        (m(6, 0), "6/off"),
        (m(13, 7, True), "13/7*"),
    ],
)
def test_notation_move_str(move: Move, text: str) -> None:
    """NOTATION.md: a single move is ``start/end``, bar and off by name, ``*`` for a hit."""
    assert str(move) == text


def test_notation_move_is_a_frozen_value() -> None:
    """NOTATION.md: moves are values: equal by content, hashable, immutable."""
    assert m(24, 18) == Move(24, 18, False)
    assert hash(m(24, 18)) == hash(Move(24, 18))
    assert m(24, 18) != m(24, 18, True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        m(24, 18).start = 23  # type: ignore[misc]


# -- format_moves ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "text"),
    [
        ([], ""),
        ([m(24, 18), m(18, 13)], "24/13"),
        ([m(24, 18, True), m(18, 13)], "24/18*/13"),
        ([m(13, 10), m(13, 10)], "13/10(2)"),
        ([m(6, 5), m(13, 8)], "13/8 6/5"),
        ([m(13, 8), m(24, 18)], "24/18 13/8"),
        ([m(8, 5), m(8, 5), m(6, 5), m(6, 5)], "8/5(2) 6/5(2)"),
        ([m(13, 7, True), m(13, 7)], "13/7*(2)"),
        ([m(24, 18), m(24, 18), m(13, 7, True), m(13, 7)], "24/18(2) 13/7*(2)"),
        ([m(6, 0), m(6, 0)], "6/off(2)"),
        ([m(3, 0), m(3, 0), m(2, 0), m(1, 0)], "3/off(2) 2/off 1/off"),
        ([m(25, 22, True), m(13, 7)], "bar/22* 13/7"),
        ([m(13, 10), m(10, 7), m(7, 4), m(4, 1, True)], "13/1*"),
        ([m(24, 23), m(24, 23), m(23, 22), m(22, 21)], "24/21 24/23"),
        ([m(8, 7), m(8, 7), m(7, 6), m(6, 5)], "8/5 8/7"),
    ],
)
def test_notation_format_moves_is_gnubgs_canonical_form(moves: list[Move], text: str) -> None:
    """NOTATION.md: canonical notation as GNU Backgammon writes it (each expected string here
    was printed by gnubg's ``movetupletostring`` for the same moves): highest start first,
    one checker's moves joined keeping only hit intermediate points, repeats as ``(n)``."""
    assert format_moves(moves) == text
    assert format_moves(tuple(reversed(moves))) == text


# -- parse_moves -----------------------------------------------------------------------------


def test_notation_parse_moves_gives_single_hops() -> None:
    """NOTATION.md: ``24/18*/13`` is two hops, the first starred; ``(2)`` repeats."""
    hops = parse_moves("24/18*/13 13/10(2)")
    assert [(h.start, h.end, h.starred) for h in hops] == [
        (24, 18, True),
        (18, 13, False),
        (13, 10, False),
        (13, 10, False),
    ]


@pytest.mark.parametrize("text", ["bar/22", "b/22", "25/22", "BAR/22", "B/22"])
def test_notation_parse_bar_spellings(text: str) -> None:
    """NOTATION.md: parse generously: ``bar``, ``b`` and ``25`` are the bar."""
    [hop] = parse_moves(text)
    assert (hop.start, hop.end) == (25, 22)


@pytest.mark.parametrize("text", ["6/off", "6/0", "6/o", "6/OFF"])
def test_notation_parse_off_spellings(text: str) -> None:
    """NOTATION.md: parse generously: ``off``, ``o`` and ``0`` are off."""
    [hop] = parse_moves(text)
    assert (hop.start, hop.end) == (6, 0)


@pytest.mark.parametrize(
    "text",
    [
        "24-18",
        "24/",
        "/18",
        "24//18",
        "24",
        "26/20",
        "18/24",
        "24/24",
        "24/18(5)",
        "24/18(0)",
        "24/18(2",
        "abc",
        "x/18",
        "24/18/",
    ],
)
def test_notation_malformed_text_raises_notation_error(text: str) -> None:
    """NOTATION.md: malformed input is rejected with an error naming what is wrong."""
    with pytest.raises(NotationError) as info:
        parse_moves(text)
    assert str(info.value)
    with pytest.raises(NotationError):
        BACKGAMMON.start().parse_play(text, 6, 5)


@pytest.mark.parametrize(
    "text", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMA!", "4HPwATDgc/AB-A", "/" * 14]
)
def test_notation_malformed_position_id_raises_notation_error(text: str) -> None:
    """NOTATION.md: a malformed Position ID is rejected with a NotationError."""
    with pytest.raises(NotationError):
        nardy.position_from_id(text, "backgammon")


# -- parse_play ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["24/18 13/8", "13/8 24/18", "24/18, 13/8", "24/18,13/8", " 24/18   13/8 "],
)
def test_notation_parse_play_any_order_and_separators(text: str) -> None:
    """NOTATION.md: parse generously: any order, spaces or commas, ``*`` optional."""
    assert str(BACKGAMMON.start().parse_play(text, 6, 5)) == "24/18 13/8"


@pytest.mark.parametrize("text", ["13/8 24/18*", "24/18* 13/8", "24/13*"])
def test_notation_parse_play_refuses_a_star_where_nothing_is_hit(text: str) -> None:
    """NOTATION.md: ``*`` marks a hit; written where the play hits nothing it misreads the
    position and is refused (issue 9), the message keeping the ``*`` as written."""
    with pytest.raises(IllegalPlayError, match=r"\*.*hits nothing") as refused:
        BACKGAMMON.start().parse_play(text, 6, 5)
    assert repr(text) in str(refused.value)


@pytest.mark.parametrize("text", ["24/13", "24/18/13", "24/19/13", "24/18 18/13"])
def test_notation_parse_play_one_checker_both_dice(text: str) -> None:
    """NOTATION.md: ``24/18/13`` and ``24/13`` name the same play (one checker, both dice)."""
    assert str(BACKGAMMON.start().parse_play(text, 6, 5)) == "24/13"


@pytest.mark.parametrize("text", ["bar/20 8/2", "b/20 8/2", "25/20 8/2", "8/2 bar/20"])
def test_notation_parse_play_from_the_bar(text: str) -> None:
    """NOTATION.md: bar spellings in a whole play."""
    position = pos("backgammon", {25: 1, 8: 14}, {})
    assert str(position.parse_play(text, 6, 5)) == "bar/20 8/2"


@pytest.mark.parametrize("text", ["3/off 2/off", "3/0 2/0", "2/o 3/o", "3/OFF 2/Off"])
def test_notation_parse_play_bearing_off(text: str) -> None:
    """NOTATION.md: off spellings in a whole play."""
    position = pos("backgammon", {3: 1, 2: 1}, {})
    assert str(position.parse_play(text, 6, 5)) == "3/off 2/off"


@pytest.mark.parametrize("text", ["8/5(2) 6/3(2)", "8/5 8/5 6/3 6/3", "6/3(2) 8/5(2)"])
def test_notation_parse_play_repeats(text: str) -> None:
    """NOTATION.md: ``(n)`` counts identical moves."""
    assert str(BACKGAMMON.start().parse_play(text, 3, 3)) == "8/5(2) 6/3(2)"


def test_notation_star_decides_between_plays_that_differ_by_a_hit() -> None:
    """NOTATION.md: a play is identified by the position it reaches; 6/2 through an empty 5 and
    6/3*/2 through the blot reach different positions and are told apart by the text."""
    position = pos("backgammon", START, ONE_BLOT)
    quiet = position.parse_play("6/2", 3, 1)
    hit = position.parse_play("6/3*/2", 3, 1)
    assert quiet != hit
    assert str(quiet) == "6/2" and str(hit) == "6/3*/2"
    assert quiet.position.theirs[25] == 0 and hit.position.theirs[25] == 1
    assert position.parse_play("6/3/2", 3, 1) == hit  # the star is optional
    assert position.parse_play("6/5/2", 3, 1) == quiet


def test_notation_ambiguous_text_is_refused_with_the_choices() -> None:
    """NOTATION.md: 6/2 with blots on both my 5 and my 3 could hit either: refused, naming
    both; the written intermediate point decides."""
    position = pos("backgammon", START, TWO_BLOTS)
    with pytest.raises(IllegalPlayError, match=r"6/5\*/2.*6/3\*/2|6/3\*/2.*6/5\*/2"):
        position.parse_play("6/2", 3, 1)
    assert str(position.parse_play("6/5/2", 3, 1)) == "6/5*/2"
    assert str(position.parse_play("6/3*/2", 3, 1)) == "6/3*/2"


@pytest.mark.parametrize("text", ["", "pass", "-", "(no legal move)", "PASS"])
def test_notation_pass_is_the_empty_play_when_nothing_can_move(text: str) -> None:
    """RULES.md 1.2: with no legal move the empty play is the only one and may be written."""
    position = pos("backgammon", {25: 1, 8: 14}, {5: 2, 6: 2})
    assert position.parse_play(text, 6, 5).moves == ()
    assert position.parse_play(text, 6, 5).position == position


def test_notation_round_trip_on_every_opening_roll() -> None:
    """NOTATION.md: parse(format(play)) is the play, for each play of every roll at the start of
    each variant (acey-deucey's entering written ``bar/``)."""
    for v in nardy.variants():
        start = v.start()
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                for play in start.legal_plays(d1, d2):
                    again = start.parse_play(str(play), d1, d2)
                    assert again == play
                    assert str(again) == str(play)


def test_notation_long_nardy_plays_use_the_same_notation() -> None:
    """NOTATION.md: long nardy moves are written in the mover's numbering like backgammon."""
    start = LONG_NARDY.start()
    assert str(start.parse_play("24/18/13", 6, 5)) == "24/13"
    assert str(start.parse_play("24/18 24/18", 6, 6)) == "24/18(2)"


# -- Play behaviour ------------------------------------------------------------------------


def test_play_is_identified_by_the_position_it_reaches() -> None:
    """NOTATION.md: two plays that reach the same position are the same play."""
    start = BACKGAMMON.start()
    target = start.parse_play("24/13", 6, 5).position
    via_18 = Play((m(24, 18), m(18, 13)), target)
    via_19 = Play((m(24, 19), m(19, 13)), target)
    assert via_18 == via_19
    assert hash(via_18) == hash(via_19)
    assert len({via_18, via_19}) == 1
    assert via_18 != start.parse_play("24/18 13/8", 6, 5)
    assert str(via_18) == format_moves(via_18.moves) == "24/13"


def test_play_and_position_are_immutable() -> None:
    """A position is an immutable value; so is a play."""
    start = BACKGAMMON.start()
    play = start.legal_plays(6, 5)[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        start.mine = bytes(26)  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        play.moves = ()  # type: ignore[misc]
    assert isinstance(start.mine, bytes) and isinstance(start.theirs, bytes)


def test_apply_returns_the_position_after_a_legal_play_from_the_movers_side() -> None:
    """``apply`` accepts a Play or its notation; the result is still from the mover's side."""
    start = BACKGAMMON.start()
    play = start.parse_play("13/2", 6, 5)
    assert start.apply(play, 6, 5) == start.apply("13/2", 6, 5) == play.position
    assert play.position.mine[2] == 1
    assert play.position.theirs == start.theirs


def test_swap_is_an_involution() -> None:
    """The side on roll changes and changes back."""
    position = pos("backgammon", START, ONE_BLOT)
    assert position.swap().swap() == position
    assert position.swap().mine == position.theirs


# -- Errors --------------------------------------------------------------------------------


def test_errors_are_value_errors() -> None:
    """Every nardy error is a ``ValueError`` (as in python-chess)."""
    for error in (
        IllegalPlayError,
        NotationError,
        InvalidDiceError,
        InvalidPositionError,
        nardy.UnknownVariantError,
    ):
        assert issubclass(error, NardyError)
        assert issubclass(error, ValueError)


@pytest.mark.parametrize("text", ["24/12", "24/18(2)", "13/8 13/8", "24/18 13/8 6/5", "8/3"])
def test_illegal_play_raises_with_a_message_and_leaves_the_position(text: str) -> None:
    """RULES.md 1.2: plays the rules do not allow raise IllegalPlayError naming the play."""
    start = BACKGAMMON.start()
    before = (start.mine, start.theirs)
    with pytest.raises(IllegalPlayError, match="6-5"):
        start.parse_play(text, 6, 5)
    with pytest.raises(IllegalPlayError):
        start.apply(text, 6, 5)
    assert (start.mine, start.theirs) == before
    assert start == BACKGAMMON.start()


def test_illegal_play_object_from_elsewhere_is_refused() -> None:
    """A Play of another roll or another position is not legal here."""
    start = BACKGAMMON.start()
    other_roll = start.parse_play("24/18(2) 13/7(2)", 6, 6)
    with pytest.raises(IllegalPlayError, match="not a legal play"):
        start.apply(other_roll, 6, 5)
    other_variant = LONG_NARDY.start().parse_play("24/13", 6, 5)
    with pytest.raises(IllegalPlayError):
        start.apply(other_variant, 6, 5)
    assert start == BACKGAMMON.start()


@pytest.mark.parametrize(("d1", "d2"), [(0, 1), (1, 0), (7, 1), (3, 7), (-1, 2), (6, 60)])
def test_dice_outside_1_to_6_raise_invalid_dice_error(d1: int, d2: int) -> None:
    """Dice are 1-6."""
    start = BACKGAMMON.start()
    with pytest.raises(InvalidDiceError):
        start.legal_plays(d1, d2)
    with pytest.raises(InvalidDiceError):
        start.parse_play("24/18 13/8", d1, d2)
    with pytest.raises(InvalidDiceError):
        start.apply("24/18 13/8", d1, d2)
    with pytest.raises(InvalidDiceError):
        LONG_NARDY.start().legal_plays(d1, d2)
    assert start == BACKGAMMON.start()


def test_non_integer_dice_raise_invalid_dice_error() -> None:
    """Dice are the integers 1-6."""
    with pytest.raises(InvalidDiceError):
        BACKGAMMON.start().legal_plays(3.0, 2)  # type: ignore[arg-type]
    with pytest.raises(InvalidDiceError):
        BACKGAMMON.start().legal_plays("3", 2)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("variant", "mine", "theirs", "why"),
    [
        ("backgammon", {**START, 6: 6}, START, "16"),
        ("backgammon", START, {**START, 24: 3}, "16"),
        ("backgammon", {6: 14}, {6: 15}, "14"),
        ("backgammon", {13: 15}, {12: 15}, "point 13"),  # their 12 is my 13
        ("long", {24: 15}, {24: 16}, "16"),
        ("long", {24: 14, 25: 1}, {24: 15}, "bar"),
        ("long", {24: 15}, {24: 14, 25: 1}, "bar"),
        ("long", {24: 14, 6: 1}, {24: 14, 18: 1}, "point 6"),  # their 18 is my 6
        ("acey-deucey", {20: 16}, {}, "16"),
        ("backgammon", {0: 15}, {0: 15}, "both"),
        ("backgammon", {26: 15}, START, "26"),
        ("backgammon", {24: -1}, START, "-1"),
    ],
)
def test_invalid_positions_raise_invalid_position_error(
    variant: str, mine: dict[int, int], theirs: dict[int, int], why: str
) -> None:
    """RULES.md 1.1/3.1: 15 checkers each, one colour per point, no bar in long nardy."""
    with pytest.raises(InvalidPositionError, match=why):
        Position.from_points(variant, mine, theirs)


def test_unknown_variant_is_refused() -> None:
    """Variants are found by key or alias; anything else is an error naming the known ones."""
    with pytest.raises(nardy.UnknownVariantError, match="backgammon"):
        nardy.variant("chess")
    assert nardy.variant("Long-Nardy") is LONG_NARDY
    assert nardy.variant("bg") is BACKGAMMON


def test_hit_plays_are_marked_and_quiet_plays_are_not() -> None:
    """RULES.md 1.2: hitting is never compulsory: both kinds are among the legal plays."""
    plays = text_set(pos("backgammon", START, ONE_BLOT), 3, 1)
    assert any("*" in p for p in plays) and any("*" not in p for p in plays)
