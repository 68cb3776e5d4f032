"""Nackgammon and acey-deucey, written from RULES.md 2 (not from the code).

In acey-deucey the checkers a side lacks (fewer than 15 on the board, bar and off) are the
ones still waiting to enter; :func:`conftest.pos` leaves them so.
"""

from __future__ import annotations

import pytest
from conftest import points, pos, text_set, texts

import nardy
from nardy import (
    ACEY_DEUCEY,
    BACKGAMMON,
    NACKGAMMON,
    AceyDeucey,
    InvalidPositionError,
    Outcome,
    Position,
    ResultKind,
)

A = "acey-deucey"

# -- Nackgammon -----------------------------------------------------------------------------


def test_2_nackgammon_start_layout() -> None:
    """RULES.md 2: 4 on the 24-point, 1 on the 23, 2 on the 13, 3 on the 8, 5 on the 6."""
    start = NACKGAMMON.start()
    layout = {24: 4, 23: 1, 13: 2, 8: 3, 6: 5}
    assert points(start.mine) == layout
    assert points(start.theirs) == layout
    assert start.pips() == (4 * 24 + 23 + 2 * 13 + 3 * 8 + 5 * 6,) * 2


def test_2_nackgammon_is_backgammon_with_another_start() -> None:
    """RULES.md 2: everything else as backgammon: the same position gives the same plays."""
    start = NACKGAMMON.start()
    same = Position(BACKGAMMON, start.mine, start.theirs)
    for d1, d2 in ((6, 5), (3, 1), (4, 4), (2, 1)):
        assert texts(start, d1, d2) == texts(same, d1, d2)
    assert "13/2*" in text_set(start, 6, 5)  # the opponent's 23-point blot is my 2
    assert nardy.variant("nack") is NACKGAMMON


def test_2_nackgammon_ballard_is_gnubgs_classical_layout() -> None:
    """RULES.md 2: ``nackgammon-ballard`` starts from Nack Ballard's layout, 2 on 24, 2 on 23,
    4 on 13, 3 on 8, 4 on 6; ``nackgammon`` stays the seed's. Everything else as backgammon."""
    ballard = nardy.variant("nackgammon-ballard")
    assert ballard is not NACKGAMMON and nardy.variant("nack-ballard") is ballard
    start = ballard.start()
    layout = {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}
    assert points(start.mine) == layout and points(start.theirs) == layout
    assert points(NACKGAMMON.start().mine) == {24: 4, 23: 1, 13: 2, 8: 3, 6: 5}
    same = Position(BACKGAMMON, start.mine, start.theirs)
    for d1, d2 in ((6, 5), (3, 1), (4, 4), (2, 1)):
        assert texts(start, d1, d2) == texts(same, d1, d2)
    assert Position.from_points(ballard, {0: 15}, {25: 1, 6: 14}).outcome() == Outcome(
        True, ResultKind.BACKGAMMON
    )


def test_2_nackgammon_results_are_backgammons() -> None:
    """RULES.md 2: scoring as in backgammon."""
    assert Position.from_points(NACKGAMMON, {0: 15}, {25: 1, 6: 14}).outcome() == Outcome(
        True, ResultKind.BACKGAMMON
    )


# -- Acey-deucey: start and entering ---------------------------------------------------------


def test_2_acey_deucey_all_fifteen_start_off_the_board() -> None:
    """RULES.md 2: all 15 checkers start off the board, waiting to enter."""
    start = ACEY_DEUCEY.start()
    assert points(start.mine) == {} and points(start.theirs) == {}
    assert start.waiting() == start.waiting(mine=False) == 15
    assert start.pips() == (375, 375)
    assert start.outcome() is None
    # NOTATION.md: the ID's acey-deucey extension counts the waiting checkers.
    assert nardy.position_id(start) == "AAAAAAAAAAAAAA-ff"
    assert nardy.position_from_id("AAAAAAAAAAAAAA-ff", A) == start


def test_2_acey_deucey_fewer_than_fifteen_is_valid_but_sixteen_is_not() -> None:
    """RULES.md 2: waiting checkers are simply not on the board; 16 is still too many."""
    assert pos(A, {20: 3}, {}).waiting() == 12
    with pytest.raises(InvalidPositionError):
        Position.from_points(nardy.variant(A), {20: 16}, {})


def test_2_acey_deucey_checkers_enter_like_bar_checkers() -> None:
    """RULES.md 2: a die d enters a waiting checker on my 25 - d; the other die may move it on."""
    start = ACEY_DEUCEY.start()
    assert text_set(start, 6, 5) == {"bar/20 bar/19", "bar/14"}
    assert text_set(start, 1, 2) == {"bar/24 bar/23", "bar/22"}
    assert "bar/19(4)" in text_set(start, 6, 6)


def test_2_acey_deucey_entry_is_blocked_by_a_made_point() -> None:
    """RULES.md 2 / 1.2: entering needs an open point: with my 19 held a 6 cannot enter, so
    the 5 enters and the 6 moves that checker on."""
    position = pos(A, {}, {6: 2})  # their 6 is my 19
    plays = position.legal_plays(6, 5)
    assert [str(p) for p in plays] == ["bar/14"]
    assert all(m.end != 19 for p in plays for m in p.moves)


def test_2_acey_deucey_waiting_checkers_do_not_block_others() -> None:
    """RULES.md 2 Decision: a checker on the board may move before all 15 have entered."""
    position = pos(A, {20: 1}, {})
    assert text_set(position, 6, 5) == {"bar/20 bar/19", "bar/19 20/15", "bar/14", "20/9"}


def test_2_acey_deucey_entering_may_hit() -> None:
    """RULES.md 2: hitting as in backgammon; entering on a blot hits it."""
    position = pos(A, {14: 1}, {6: 1})  # their blot on my 19
    play = position.parse_play("bar/19*/14", 6, 5)
    assert play.position.theirs[25] == 1
    assert "bar/20 14/8" in text_set(position, 6, 5)  # hitting is not compulsory


def test_2_acey_deucey_hit_checker_enters_before_anything_else() -> None:
    """RULES.md 2 Decision: a hit checker goes to the bar and must enter before anything else
    moves, the waiting checkers included: with my 20 blocked, the 6 must enter the bar
    checker; a waiting checker may not take it."""
    position = pos(A, {25: 1}, {5: 2})  # their 5 is my 20
    plays = position.legal_plays(6, 5)
    assert [str(p) for p in plays] == ["bar/14"]
    assert plays[0].position.mine[25] == 0
    assert plays[0].position.waiting() == 14


def test_2_acey_deucey_bar_checker_that_cannot_enter_stops_everything() -> None:
    """RULES.md 2 / 1.2: with the bar checker unable to enter, neither the board checker nor a
    waiting checker moves."""
    position = pos(A, {25: 1, 10: 1}, {5: 2, 6: 2})
    plays = position.legal_plays(6, 5)
    assert [str(p) for p in plays] == [""]
    assert plays[0].position == position


def test_2_acey_deucey_no_bear_off_while_a_checker_is_waiting() -> None:
    """RULES.md 2: bearing off as in backgammon: only with all 15 home, so not while one is
    waiting to enter; once all are home it is allowed."""
    waiting = pos(A, {6: 5, 5: 5, 4: 4}, {})
    for d1, d2 in ((6, 5), (4, 4), (6, 6), (2, 1)):
        assert all(m.end != 0 for p in waiting.legal_plays(d1, d2) for m in p.moves)
    assert text_set(waiting, 6, 5) == {"bar/14", "bar/19 6/1"}
    home = pos(A, {6: 5, 5: 5, 4: 5}, {})
    assert text_set(home, 6, 5) == {"6/off 5/off", "6/1 6/off"}


# -- Acey-deucey: the 1-2 roll ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("d1", "d2", "expected"),
    [(1, 2, True), (2, 1, True), (1, 1, False), (2, 2, False), (1, 3, False), (6, 5, False)],
)
def test_2_acey_deucey_roll_is_1_2(d1: int, d2: int, expected: bool) -> None:
    """RULES.md 2: the roll 1-2 ("acey-deucey"), in either order."""
    assert AceyDeucey.is_acey_deucey_roll(d1, d2) is expected
    assert isinstance(ACEY_DEUCEY, AceyDeucey)
    assert ACEY_DEUCEY.is_acey_deucey_roll(d1, d2) is expected


def test_2_acey_deucey_chosen_double_is_a_second_step_on_the_same_side() -> None:
    """RULES.md 2: play the 1 and the 2, then name any double and play it as four moves, on
    the position after the 1-2 and still from the same side."""
    after = ACEY_DEUCEY.start().apply("bar/22", 1, 2)
    assert points(after.mine) == {22: 1}
    plays = after.legal_plays(6, 6)
    assert all(len(p.moves) == 4 for p in plays)
    names = {str(p) for p in plays}
    assert {"bar/19(4)", "bar/19(3) 22/16", "bar/19 22/4", "bar/1"} <= names
    final = after.apply("bar/19(3) 22/16", 6, 6)
    assert points(final.mine) == {19: 3, 16: 1}
    assert final.waiting() == 11
    assert final.waiting(mine=False) == 15


def test_2_acey_deucey_what_cannot_be_played_of_the_double_is_lost() -> None:
    """RULES.md 2: the chosen double, where nothing can move, is the empty play."""
    position = pos(A, {22: 1}, {6: 2, 9: 2})  # my 19 and my 16 held by the opponent
    plays = position.legal_plays(6, 6)
    assert [str(p) for p in plays] == [""]
    assert plays[0].position == position
    assert texts(position, 3, 3) == ["bar/22(4)"]


@pytest.mark.parametrize(
    ("dice", "moves", "chosen", "expected"),
    [
        ((1, 2), 2, False, "name"),  # the 1-2 played in full: name a double
        ((2, 1), 2, False, "name"),
        ((1, 2), 1, False, None),  # a 1-2 not played in full: the double is lost
        ((1, 2), 0, False, None),
        ((6, 6), 4, True, "roll"),  # the named double played in full: roll again
        ((6, 6), 3, True, None),  # not in full: the extra roll is lost too
        ((3, 3), 0, True, None),
        ((6, 6), 4, False, None),  # a double rolled, not named: the turn passes
        ((6, 5), 2, False, None),
    ],
)
def test_2_acey_deucey_what_the_mover_does_after_a_play(
    dice: tuple[int, int], moves: int, chosen: bool, expected: str | None
) -> None:
    """RULES.md 2: play the 1 and the 2, then name any double and play it, then roll again;
    what cannot be played of that sequence is lost, and so is the extra roll."""
    assert ACEY_DEUCEY.after_play(*dice, moves, chosen) == expected
    assert BACKGAMMON.after_play(*dice, moves) is None  # RULES.md 1.2: no 1-2 bonus


# -- Acey-deucey: end of game ----------------------------------------------------------------


def test_2_acey_deucey_scoring_as_backgammon() -> None:
    """RULES.md 2: scoring as in backgammon (all 15 of the loser accounted for here)."""
    single = Position.from_points(nardy.variant(A), {0: 15}, {0: 2, 6: 13})
    gammon = Position.from_points(nardy.variant(A), {0: 15}, {6: 15})
    backgammon = Position.from_points(nardy.variant(A), {0: 15}, {20: 1, 6: 14})  # their 20 is my 5
    assert single.outcome() == Outcome(True, ResultKind.SINGLE)
    assert gammon.outcome() == Outcome(True, ResultKind.GAMMON)
    assert backgammon.outcome() == Outcome(True, ResultKind.BACKGAMMON)


def test_2_acey_deucey_pips_count_waiting_checkers_as_25_and_no_race_while_waiting() -> None:
    """RULES.md 2: a waiting checker enters like a bar checker, 25 pips from off; while any
    checker waits, the sides can still meet."""
    position = pos(A, {6: 14}, {6: 15})
    assert position.pips() == (6 * 14 + 25, 6 * 15)
    assert not position.is_race()
    assert pos(A, {6: 15}, {6: 15}).is_race()
