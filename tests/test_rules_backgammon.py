"""Backgammon rules, written from RULES.md 1.1-1.4 (not from the code).

Positions are written ``{point: checkers}`` for each side in its own numbering (RULES.md
preamble); :func:`conftest.pos` fills each side's borne-off count up to 15.
"""

from __future__ import annotations

import pytest
from conftest import points, pos, text_set, texts

import nardy
from nardy import BACKGAMMON, InvalidPositionError, Outcome, Position, ResultKind

B = "backgammon"
START = {24: 2, 13: 5, 8: 3, 6: 5}
ALL_ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]

# -- 1.1 Setup ------------------------------------------------------------------------------


def test_1_1_start_has_fifteen_each_on_24_13_8_6() -> None:
    """RULES.md 1.1: 2 on the 24-point, 5 on the 13, 3 on the 8, 5 on the 6, for each side."""
    start = BACKGAMMON.start()
    assert points(start.mine) == START
    assert points(start.theirs) == START
    assert sum(start.mine) == sum(start.theirs) == 15
    assert start == Position.from_points(BACKGAMMON, START, START)


def test_1_1_sides_mirror_my_p_is_their_25_minus_p() -> None:
    """RULES.md 1.1: my point p is the opponent's point 25 - p."""
    for p in range(1, 25):
        assert BACKGAMMON.opponent_point(p) == 25 - p
    mirrored = BACKGAMMON.to_mine(BACKGAMMON.start().theirs)
    assert {p: mirrored[p] for p in range(1, 25) if mirrored[p]} == {1: 2, 12: 5, 17: 3, 19: 5}


def test_1_1_opening_6_5_has_gnubgs_seven_plays() -> None:
    """RULES.md 1.1: the first player plays the opening dice; 6-5 from the start gives exactly
    the seven plays GNU Backgammon lists, back checkers first."""
    assert texts(BACKGAMMON.start(), 6, 5) == [
        "24/13",
        "24/18 13/8",
        "24/18 8/3",
        "13/8 13/7",
        "13/7 8/3",
        "13/2",
        "8/3 8/2",
    ]
    assert texts(BACKGAMMON.start(), 5, 6) == texts(BACKGAMMON.start(), 6, 5)


def test_1_1_start_position_id_is_gnubgs() -> None:
    """RULES.md 1.1 / NOTATION.md: the start is GNU Backgammon's ``4HPwATDgc/ABMA``."""
    assert nardy.position_id(BACKGAMMON.start()) == "4HPwATDgc/ABMA"
    assert nardy.position_from_id("4HPwATDgc/ABMA", B) == BACKGAMMON.start()


def test_1_1_sixteen_checkers_is_an_invalid_position() -> None:
    """RULES.md 1.1: 15 checkers each, no more and (outside acey-deucey) no fewer."""
    with pytest.raises(InvalidPositionError, match="15"):
        Position.from_points(BACKGAMMON, {**START, 6: 6}, START)
    with pytest.raises(InvalidPositionError):
        Position.from_points(BACKGAMMON, {**START, 6: 4}, START)


def test_1_1_a_point_cannot_hold_both_colours() -> None:
    """RULES.md 1.1 geometry: my 13-point is the opponent's 12-point; both cannot hold it."""
    with pytest.raises(InvalidPositionError, match="13"):
        pos(B, {13: 15}, {12: 1})


# -- 1.2 Moving -----------------------------------------------------------------------------


def test_1_2_each_die_is_a_separate_move_and_one_checker_may_use_both() -> None:
    """RULES.md 1.2: 24/13 with 6-5 is one checker using both dice; 24/18 13/8 uses them on two
    checkers."""
    plays = {str(p): p for p in BACKGAMMON.start().legal_plays(6, 5)}
    assert len(plays["24/13"].moves) == 2
    assert {(m.start, m.end) for m in plays["24/18 13/8"].moves} == {(24, 18), (13, 8)}


def test_1_2_one_checker_with_both_dice_needs_an_open_intermediate_point() -> None:
    """RULES.md 1.2: 24/13 with 6-5 goes through 18 or 19; with both blocked it is impossible
    (and here only the 5 can be played at all, 6/1)."""
    # Opponent's 7 and 6 are my 18 and 19.
    assert texts(pos(B, {24: 1, 6: 14}, {7: 2, 6: 2}), 6, 5) == ["6/1"]
    # Only my 18 blocked: through 19 it is fine.
    assert texts(pos(B, {24: 1, 6: 14}, {7: 2}), 6, 5) == ["24/13"]


def test_1_2_moving_over_a_blocked_point_is_allowed_landing_on_one_is_not() -> None:
    """RULES.md 1.2: from the start with 6-6, 24/18 jumps my blocked 19 and 13/7 jumps my
    blocked 12; no move ends on the blocked 12 or 1 (opponent's 13 and 24)."""
    plays = BACKGAMMON.start().legal_plays(6, 6)
    assert "24/18(2) 13/7(2)" in {str(p) for p in plays}
    ends = {m.end for p in plays for m in p.moves}
    assert 12 not in ends and 1 not in ends and 19 not in ends


def test_1_2_a_point_is_open_unless_two_or_more_opponent_checkers_hold_it() -> None:
    """RULES.md 1.2: one opponent checker does not close a point (it can be hit), two do."""
    blot = pos(B, {13: 1, 1: 14}, {18: 1})  # their 18 is my 7
    assert "13/7*/2" in text_set(blot, 6, 5)
    made = pos(B, {13: 1, 1: 14}, {18: 2})
    assert all(m.end != 7 for p in made.legal_plays(6, 5) for m in p.moves)


def test_1_2_doubles_are_played_four_times() -> None:
    """RULES.md 1.2: doubles are played four times."""
    plays = BACKGAMMON.start().legal_plays(1, 1)
    assert all(len(p.moves) == 4 for p in plays)
    assert {"8/7(2) 6/5(2)", "6/5(4)", "24/20", "8/4"} <= {str(p) for p in plays}
    assert all(len(p.moves) == 4 for p in BACKGAMMON.start().legal_plays(6, 6))


def test_1_2_doubles_play_as_many_as_the_position_allows() -> None:
    """RULES.md 1.2 forced play: of 6-6 only one six can be played (18/12 is blocked and the
    checkers on my 6 cannot bear off while one is outside)."""
    position = pos(B, {24: 1, 6: 14}, {13: 2})  # their 13 is my 12
    assert texts(position, 6, 6) == ["24/18"]


def test_1_2_landing_on_a_blot_hits_it_to_the_bar() -> None:
    """RULES.md 1.2: a single opponent checker landed on goes to the bar."""
    position = pos(B, START, {3: 1, 6: 5, 8: 2, 13: 5, 22: 1, 24: 1})  # blot on my 3
    play = position.parse_play("8/7 6/3*", 3, 1)
    assert play.position.theirs[22] == 0
    assert play.position.theirs[25] == 1
    assert any(m.hit for m in play.moves)


def test_1_2_hitting_is_never_compulsory() -> None:
    """RULES.md 1.2: with a hit available, plays that do not hit are still legal."""
    position = pos(B, START, {3: 1, 6: 5, 8: 2, 13: 5, 22: 1, 24: 1})
    plays = text_set(position, 3, 1)
    assert {"6/3*/2", "8/7 6/3*", "6/5 6/3*"} <= plays
    assert {"8/5 6/5", "6/2", "13/9", "24/20"} <= plays
    # 6/2 through 5 and 6/3*/2 through the blot are two plays: they reach different positions.
    assert position.parse_play("6/2", 3, 1) != position.parse_play("6/3*/2", 3, 1)


def test_1_2_forced_both_dice_must_be_played_when_possible() -> None:
    """RULES.md 1.2: the checker on 13 cannot play the 6 first (my 7 is blocked) but can play
    5 then 6, so 13/8 alone is not legal: only 13/2."""
    position = pos(B, {13: 1, 1: 14}, {18: 2})  # their 18 is my 7
    assert texts(position, 6, 5) == ["13/2"]
    with pytest.raises(nardy.IllegalPlayError):
        position.parse_play("13/8", 6, 5)


def test_1_2_larger_die_must_be_played_when_only_one_can_be() -> None:
    """RULES.md 1.2: 13/7 and 13/8 are each possible but neither can be followed (my 2 is
    blocked): the larger die must be played."""
    position = pos(B, {13: 1, 1: 14}, {23: 2})  # their 23 is my 2
    assert texts(position, 6, 5) == ["13/7"]
    with pytest.raises(nardy.IllegalPlayError):
        position.apply("13/8", 6, 5)


def test_1_2_smaller_die_is_played_when_the_larger_cannot_be() -> None:
    """RULES.md 1.2: with the 6 unplayable, the 5 alone is played (the 6 is lost)."""
    position = pos(B, {13: 1, 1: 14}, {23: 2, 18: 2})  # my 2 and 7 blocked
    assert texts(position, 6, 5) == ["13/8"]


def test_1_2_no_legal_move_gives_the_empty_play_and_unplayable_dice_are_lost() -> None:
    """RULES.md 1.2: passing only when nothing can move; the empty play keeps the position."""
    position = pos(B, {13: 1, 1: 14}, {17: 2, 18: 2})  # my 7 and 8 blocked
    plays = position.legal_plays(6, 5)
    assert len(plays) == 1
    assert plays[0].moves == ()
    assert str(plays[0]) == ""
    assert plays[0].position == position
    assert position.parse_play("", 6, 5) == plays[0]


def test_1_2_passing_is_forbidden_while_a_legal_move_exists() -> None:
    """RULES.md 1.2: the empty play is not legal from the start."""
    with pytest.raises(nardy.IllegalPlayError, match="pass"):
        BACKGAMMON.start().parse_play("", 6, 5)
    assert all(p.moves for p in BACKGAMMON.start().legal_plays(2, 1))


def test_1_2_bar_checkers_enter_before_anything_else_moves() -> None:
    """RULES.md 1.2: on the bar with 6-5 and my 20 blocked, the 6 must enter (bar/19); 8/2 8/3
    without entering is not legal."""
    position = pos(B, {25: 1, 8: 14}, {5: 2})  # their 5 is my 20
    assert text_set(position, 6, 5) == {"bar/14", "bar/19 8/3"}
    assert all(p.position.mine[25] == 0 for p in position.legal_plays(6, 5))
    with pytest.raises(nardy.IllegalPlayError):
        position.parse_play("8/2 8/3", 6, 5)


def test_1_2_a_die_enters_on_my_point_25_minus_d() -> None:
    """RULES.md 1.2: a die d enters on my point 25 - d (the opponent's d-point)."""
    for die in range(1, 7):
        position = pos(B, {25: 1, 8: 14}, {})
        entries = {(m.start, m.end) for p in position.legal_plays(die, die) for m in p.moves}
        assert {(s, e) for s, e in entries if s == 25} == {(25, 25 - die)}


def test_1_2_dice_cannot_be_combined_to_enter() -> None:
    """RULES.md 1.2: with my 19 and 20 blocked, 6-5 cannot enter (no entering with 11), and
    nothing else may move."""
    position = pos(B, {25: 1, 8: 14}, {5: 2, 6: 2})
    plays = position.legal_plays(6, 5)
    assert [str(p) for p in plays] == [""]
    assert plays[0].position == position


def test_1_2_partial_entry_loses_the_rest_of_the_roll() -> None:
    """RULES.md 1.2: two on the bar, only the 5 enters: bar/20 and the 6 is lost."""
    position = pos(B, {25: 2, 8: 13}, {6: 2})  # their 6 is my 19
    assert texts(position, 6, 5) == ["bar/20"]
    assert texts(position, 6, 6) == [""]


def test_1_2_after_the_last_bar_checker_enters_the_rest_moves_any_checker() -> None:
    """RULES.md 1.2: after entering, the other die moves the entered checker or any other."""
    position = pos(B, {25: 1, 8: 14}, {})
    assert text_set(position, 6, 5) == {"bar/14", "bar/19 8/3", "bar/20 8/2"}


def test_1_2_two_on_the_bar_with_doubles_enter_both_then_move_freely() -> None:
    """RULES.md 1.2: both bar checkers enter first, then the remaining dice move anything."""
    position = pos(B, {25: 2, 8: 13}, {})
    plays = text_set(position, 4, 4)
    assert plays == {"bar/17(2)", "bar/13 bar/21", "bar/17 bar/21 8/4", "bar/21(2) 8/4(2)"}


@pytest.mark.parametrize(("d1", "d2"), ALL_ROLLS)
def test_1_2_closed_board_no_move_at_all(d1: int, d2: int) -> None:
    """RULES.md 1.2: my 19-24 all blocked and a checker on the bar: the empty play, which
    leaves the position unchanged, whatever the other checkers could do."""
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
    position = pos(B, {25: 1, 13: 7, 8: 7}, closed)
    plays = position.legal_plays(d1, d2)
    assert len(plays) == 1
    assert plays[0].moves == ()
    assert plays[0].position == position


# -- 1.3 Bearing off ------------------------------------------------------------------------


def test_1_3_bear_off_only_with_all_fifteen_home() -> None:
    """RULES.md 1.3: the checker on 7 must come home before any checker is borne off."""
    position = pos(B, {7: 1, 3: 14}, {})
    assert text_set(position, 6, 5) == {"7/1 3/off", "7/2 3/off"}


def test_1_3_a_die_removes_a_checker_from_its_own_point() -> None:
    """RULES.md 1.3: a 5 bears off from the 5-point, a 4 from the 4-point."""
    position = pos(B, {6: 1, 5: 1, 4: 1}, {})
    assert text_set(position, 5, 4) == {"5/off 4/off", "6/2 5/off", "6/1 5/1", "6/1 4/off"}


def test_1_3_higher_die_bears_off_from_the_highest_point_when_none_above() -> None:
    """RULES.md 1.3: 6-5 with checkers on 3 and 2 only: both come off."""
    assert texts(pos(B, {3: 1, 2: 1}, {}), 6, 5) == ["3/off 2/off"]


def test_1_3_a_legal_move_with_a_higher_checker_must_be_made_first() -> None:
    """RULES.md 1.3: a 5 with the 5-point empty and a checker on 6 moves 6/1; it may not bear
    off the checker on 3."""
    position = pos(B, {6: 1, 3: 1}, {})
    assert text_set(position, 5, 1) == {"6/1 3/2", "6/off"}
    with pytest.raises(nardy.IllegalPlayError):
        position.parse_play("3/off 6/5", 5, 1)


def test_1_3_bearing_off_is_never_compulsory() -> None:
    """RULES.md 1.3: with 3-1, 6/3 6/5 (no checker off) is as legal as 6/5 3/off."""
    position = pos(B, {6: 2, 3: 1}, {})
    assert text_set(position, 3, 1) == {"6/5 6/3", "6/5 3/off", "6/2"}


def test_1_3_a_hit_checker_must_re_enter_and_come_home_before_bearing_off() -> None:
    """RULES.md 1.3: hit while bearing off, the checker enters and the other die cannot bear
    off while it is outside the home board."""
    position = pos(B, {25: 1, 6: 4, 5: 4, 4: 3, 3: 3}, {})
    plays = position.legal_plays(6, 5)
    assert {str(p) for p in plays} == {"bar/14", "bar/19 6/1"}
    assert all(m.end != 0 for p in plays for m in p.moves)


def test_1_3_bearing_off_may_hit_on_the_way() -> None:
    """RULES.md 1.2/1.3: 2/1* hits the opponent's blot on my 1-point before bearing off."""
    position = pos(B, {2: 2}, {24: 1})  # their 24 is my 1
    assert texts(position, 2, 1) == ["2/1* 2/off"]
    assert position.parse_play("2/1* 2/off", 2, 1).position.theirs[25] == 1


# -- 1.4 End of game ------------------------------------------------------------------------


def test_1_4_game_over_after_the_last_checker_is_borne_off() -> None:
    """RULES.md 1.4: the first to bear off all 15 wins; not before."""
    position = pos(B, {1: 1}, {6: 15})
    assert position.outcome() is None
    after = position.apply("1/off", 2, 1)
    assert after.outcome() == Outcome(True, ResultKind.GAMMON)
    assert after.swap().outcome() == Outcome(False, ResultKind.GAMMON)


@pytest.mark.parametrize(
    ("loser", "kind"),
    [
        ({0: 1, 6: 14}, ResultKind.SINGLE),
        ({0: 14, 24: 1}, ResultKind.SINGLE),  # one off: single even with a checker far back
        ({6: 15}, ResultKind.GAMMON),
        ({18: 1, 6: 14}, ResultKind.GAMMON),  # their 18 is my 7: outside my home board
        ({25: 1, 6: 14}, ResultKind.BACKGAMMON),  # on the bar
        ({19: 1, 6: 14}, ResultKind.BACKGAMMON),  # their 19 is my 6: in my home board
        ({24: 15}, ResultKind.BACKGAMMON),
    ],
)
def test_1_4_single_gammon_backgammon(loser: dict[int, int], kind: ResultKind) -> None:
    """RULES.md 1.4: single; gammon (none off); backgammon (none off and a checker on the bar
    or in the winner's home board)."""
    position = Position.from_points(BACKGAMMON, {0: 15}, loser)
    assert position.outcome() == Outcome(True, kind)
    assert position.swap().outcome() == Outcome(False, kind)


def test_1_4_start_is_not_over() -> None:
    """RULES.md 1.4: no result while both sides have checkers to bear off."""
    assert BACKGAMMON.start().outcome() is None


# -- Pip counts and races -------------------------------------------------------------------


def test_pip_count_of_the_start_is_167_each() -> None:
    """RULES.md 1.1 layout: 2*24 + 5*13 + 3*8 + 5*6 = 167."""
    assert BACKGAMMON.start().pips() == (167, 167)


def test_pip_count_counts_the_bar_as_25() -> None:
    """RULES.md 1.2: a bar checker enters on 25 - d, so it is 25 pips from off."""
    position = pos(B, {25: 1, 6: 14}, {0: 15 - 3, 1: 3})
    assert position.pips() == (25 + 6 * 14, 3)


def test_is_race_when_the_sides_have_passed_each_other() -> None:
    """A race: no checker of either side can hit or block the other's any more."""
    assert not BACKGAMMON.start().is_race()
    assert pos(B, {6: 15}, {6: 15}).is_race()  # their 6 is my 19, behind all mine
    assert not pos(B, {20: 1, 6: 14}, {6: 15}).is_race()  # my 20 still has to pass my 19
    assert not pos(B, {25: 1, 6: 14}, {6: 15}).is_race()  # a bar checker has contact
