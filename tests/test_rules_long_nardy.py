"""Long nardy rules, written from RULES.md 3.1-3.5 (not from the code).

Each side is written in its own numbering: my point p is the opponent's p + 12 (p <= 12) or
p - 12 (RULES.md 3.1). :func:`conftest.pos` fills each side's borne-off count up to 15.
"""

from __future__ import annotations

import pytest
from conftest import points, pos, text_set, texts

from nardy import (
    LONG_NARDY,
    InvalidPositionError,
    Outcome,
    Position,
    ResultKind,
    position_from_id,
    position_id,
)

L = "long"

# -- 3.1 Setup and geometry -----------------------------------------------------------------


def test_3_1_start_is_fifteen_on_the_head_for_each_side() -> None:
    """RULES.md 3.1: all 15 on the player's 24-point, the head."""
    start = LONG_NARDY.start()
    assert points(start.mine) == {24: 15}
    assert points(start.theirs) == {24: 15}
    assert start == Position.from_points(LONG_NARDY, {24: 15}, {24: 15})


def test_3_1_start_position_id_is_fifteen_on_the_24_point_for_both() -> None:
    """RULES.md 3.1 / NOTATION.md: the long nardy start has the ID of "15 on the 24-point" for
    both sides (checked against gnubg_nn.position_id of that board)."""
    assert position_id(LONG_NARDY.start()) == "AACA/z8AAID/Pw"
    assert position_from_id("AACA/z8AAID/Pw", L) == LONG_NARDY.start()


def test_3_1_sides_are_a_half_turn_apart() -> None:
    """RULES.md 3.1: my p is the opponent's p + 12 (p <= 12) or p - 12; my head is their 12;
    their home board 1-6 is my 13-18."""
    for p in range(1, 13):
        assert LONG_NARDY.opponent_point(p) == p + 12
    for p in range(13, 25):
        assert LONG_NARDY.opponent_point(p) == p - 12
    mapped = LONG_NARDY.to_mine(LONG_NARDY.start().theirs)
    assert mapped[12] == 15  # the opponent's head is my 12
    home = Position.from_points(LONG_NARDY, {24: 15}, {1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2})
    op = LONG_NARDY.to_mine(home.theirs)
    assert {p for p in range(1, 25) if op[p]} == set(range(13, 19))


def test_3_1_both_sides_move_the_same_way_round() -> None:
    """RULES.md 3.1: the first player's 24/13 puts a checker on their 13, which is my 1."""
    after = LONG_NARDY.start().apply("24/13", 6, 5)
    assert points(after.mine) == {24: 14, 13: 1}
    assert LONG_NARDY.to_mine(after.mine)[1] == 1  # seen from the second player


def test_3_1_there_is_no_bar_in_long_nardy() -> None:
    """RULES.md 3.2: no hitting and no bar, so a bar checker is an invalid position."""
    with pytest.raises(InvalidPositionError, match="bar"):
        Position.from_points(LONG_NARDY, {24: 14, 25: 1}, {24: 15})


def test_3_1_a_point_cannot_hold_both_colours() -> None:
    """RULES.md 3.1: my 1 is their 13; both cannot stand there."""
    with pytest.raises(InvalidPositionError):
        Position.from_points(LONG_NARDY, {24: 14, 1: 1}, {24: 14, 13: 1})


# -- 3.5 Worked examples, first moves --------------------------------------------------------


def test_3_5_start_6_5_only_24_13() -> None:
    """RULES.md 3.5: start, 6-5: the only play is 24/13 (one head checker, both dice)."""
    assert texts(LONG_NARDY.start(), 6, 5) == ["24/13"]


def test_3_5_start_6_6_two_head_checkers_two_sixes() -> None:
    """RULES.md 3.5: start, 6-6: 24/18(2); 18/12 is closed by the opponent's head."""
    assert texts(LONG_NARDY.start(), 6, 6) == ["24/18(2)"]


def test_3_5_start_4_4_two_head_checkers() -> None:
    """RULES.md 3.5: start, 4-4: 24/16(2)."""
    assert texts(LONG_NARDY.start(), 4, 4) == ["24/16(2)"]


def test_3_5_start_3_3_two_results() -> None:
    """RULES.md 3.5: start, 3-3: 24/15 24/21 or 24/18(2)."""
    assert text_set(LONG_NARDY.start(), 3, 3) == {"24/15 24/21", "24/18(2)"}


def test_3_5_start_5_5_one_checker_24_4() -> None:
    """RULES.md 3.5: start, 5-5: 24/4 with one checker (5-5 is not an exception)."""
    assert texts(LONG_NARDY.start(), 5, 5) == ["24/4"]


def test_3_5_second_player_4_4_after_5_5_plays_only_24_20() -> None:
    """RULES.md 3.2/3.5: after the first player's 24/4 with 5-5 (my 16 closed), the second
    player's 4-4 takes one checker from the head: 24/20 only."""
    second = LONG_NARDY.start().apply("24/4", 5, 5).swap()
    assert LONG_NARDY.to_mine(second.theirs)[16] == 1
    assert texts(second, 4, 4) == ["24/20"]


def test_3_2_second_player_other_doubles_after_5_5_are_still_exceptions() -> None:
    """RULES.md 3.2: the 5-5 exception is only for 4-4; 6-6 and 3-3 still take two."""
    second = LONG_NARDY.start().apply("24/4", 5, 5).swap()
    assert texts(second, 6, 6) == ["24/18(2)"]
    assert text_set(second, 3, 3) == {"24/15 24/21", "24/18(2)"}
    assert texts(second, 5, 5) == ["24/4"]


@pytest.mark.parametrize(
    ("d1", "d2", "expected"),
    [
        (6, 5, {"24/13"}),
        (6, 6, {"24/18(2)"}),
        (4, 4, {"24/16(2)"}),
        (3, 3, {"24/15 24/21", "24/18(2)"}),
        (5, 5, {"24/4"}),
        (2, 2, {"24/16"}),
        (1, 1, {"24/20"}),
        (2, 1, {"24/21"}),
    ],
)
def test_3_2_second_players_first_move(d1: int, d2: int, expected: set[str]) -> None:
    """RULES.md 3.2: the second player's first move follows the same head rule and exceptions
    (after the first player opened 24/13, which stands on my 1)."""
    second = LONG_NARDY.start().apply("24/13", 6, 5).swap()
    assert text_set(second, d1, d2) == expected


# -- 3.2 Head rule --------------------------------------------------------------------------


@pytest.mark.parametrize(("d1", "d2"), [(1, 1), (2, 2), (5, 5), (2, 1), (6, 1)])
def test_3_2_head_rule_one_checker_on_the_first_move_without_the_exception(
    d1: int, d2: int
) -> None:
    """RULES.md 3.2: at most one checker leaves the head per turn; 1-1, 2-2, 5-5 and every
    non-double are no exception on the first move."""
    for play in LONG_NARDY.start().legal_plays(d1, d2):
        assert play.position.mine[24] == 14


def test_3_2_head_rule_one_checker_per_later_turn() -> None:
    """RULES.md 3.2: after the first move, 6-5 may not move two head checkers."""
    position = pos(L, {24: 14, 13: 1}, {24: 14, 13: 1})
    assert text_set(position, 6, 5) == {"24/19 13/7", "24/13", "24/18 13/8", "13/2"}


@pytest.mark.parametrize(("die", "expected"), [(6, {"24/18 13/7"}), (4, {"24/16 13/5"})])
def test_3_2_head_rule_doubles_on_the_second_turn_take_one_checker(
    die: int, expected: set[str]
) -> None:
    """RULES.md 3.2: the 6-6/4-4/3-3 exception is for the first move only; on the second turn
    one head checker leaves and what cannot be played is lost."""
    position = pos(L, {24: 14, 13: 1}, {24: 14, 13: 1})
    assert text_set(position, die, die) == expected


def test_3_2_head_rule_3_3_on_the_second_turn() -> None:
    """RULES.md 3.2: 3-3 on the second turn: one head checker at most."""
    position = pos(L, {24: 14, 13: 1}, {24: 14, 13: 1})
    plays = position.legal_plays(3, 3)
    assert {str(p) for p in plays} == {"24/15 13/10", "24/18 13/7", "24/21 13/4"}
    assert all(p.position.mine[24] == 13 for p in plays)


# -- 3.2 Closed points, no hitting, stacking ------------------------------------------------


def test_3_2_one_opponent_checker_closes_a_point_and_is_never_hit() -> None:
    """RULES.md 3.2: a point with any opponent checker cannot be landed on; no hitting."""
    position = pos(L, {24: 14, 7: 1}, {24: 14, 13: 1})  # their 13 is my 1
    plays = position.legal_plays(6, 5)
    assert {str(p) for p in plays} == {"24/13", "24/18 7/2"}
    assert all(m.end != 1 and not m.hit for p in plays for m in p.moves)
    assert all(p.position.theirs == position.theirs for p in plays)


def test_3_2_own_checkers_stack_without_limit() -> None:
    """RULES.md 3.2: own checkers stack without limit: all 15 may stand on one point."""
    position = pos(L, {24: 1, 18: 14}, {24: 15})
    plays = position.legal_plays(6, 6)
    assert [str(p) for p in plays] == ["24/18"]
    assert plays[0].position.mine[18] == 15


# -- 3.2 Six-block rule ----------------------------------------------------------------------


def test_3_5_six_block_20_14_is_illegal_without_an_opponent_checker_past_it() -> None:
    """RULES.md 3.5: me 24:9 20:1 19:1 18:1 17:1 16:1 15:1, opponent all on their head,
    6-1: 20/14 would make 19-14 six in a row with no opponent checker past it."""
    position = pos(L, {24: 9, 20: 1, 19: 1, 18: 1, 17: 1, 16: 1, 15: 1}, {24: 15})
    plays = position.legal_plays(6, 1)
    names = {str(p) for p in plays}
    assert "20/14 15/14" in names  # 15/14 first, then 20/14: the run is broken at 15
    for play in plays:
        held = {p for p in range(13, 20) if play.position.mine[p]}
        assert not set(range(14, 20)) <= held, str(play)
    assert "24/23 20/14" not in names  # the block would stand after 20/14 in either order


def test_3_2_six_block_is_legal_with_an_opponent_checker_past_it() -> None:
    """RULES.md 3.2: the same block is allowed when an opponent checker is already past it
    (their 1-point, my 13)."""
    position = pos(L, {24: 9, 20: 1, 19: 1, 18: 1, 17: 1, 16: 1, 15: 1}, {24: 14, 1: 1})
    assert "24/23 20/14" in text_set(position, 6, 1)


EXAMPLE_2 = {24: 5, 23: 1, 22: 1, 2: 2, 1: 2, 10: 3, 9: 1}


def test_3_5_six_block_across_my_1_and_24_points_is_illegal() -> None:
    """RULES.md 3.5: 9/3 with a 6 would complete 3-2-1-24-23-22 along the opponent's path with
    no opponent checker past it: illegal."""
    position = pos(L, EXAMPLE_2, {20: 10, 18: 5})
    for d1, d2 in ((6, 1), (6, 2), (6, 5), (6, 6)):
        for play in position.legal_plays(d1, d2):
            mine = play.position.mine
            assert not all(mine[p] for p in (3, 2, 1, 24, 23, 22)), (d1, d2, str(play))
    assert "9/3 2/1" not in text_set(position, 6, 1)


def test_3_5_six_block_across_the_boundary_is_legal_with_a_checker_past_it() -> None:
    """RULES.md 3.5: with one opponent checker on their 5-point (my 17, past the block) the
    same 9/3 is legal."""
    position = pos(L, EXAMPLE_2, {20: 10, 18: 4, 5: 1})
    assert {"9/3 2/1", "24/23 9/3", "22/21 9/3"} <= text_set(position, 6, 1)


def test_3_2_six_block_checked_after_every_single_move() -> None:
    """RULES.md 3.2 Decision: 9/3/2 makes the illegal block with the 6 (9/8 is closed), even
    though the 1 would break it again: 9/2 is illegal without, legal with a checker past."""
    blocked = pos(L, EXAMPLE_2, {20: 10, 18: 5})  # their 20 is my 8: 9/8/2 is closed
    assert "9/2" not in text_set(blocked, 6, 1)
    with pytest.raises(ValueError, match="not a legal play"):
        blocked.parse_play("9/2", 6, 1)
    free = pos(L, EXAMPLE_2, {20: 10, 18: 4, 5: 1})
    assert "9/2" in text_set(free, 6, 1)


@pytest.mark.parametrize(("d1", "d2"), [(1, 1), (2, 1), (4, 1), (6, 1)])
def test_3_2_six_block_ending_on_my_13_is_never_allowed(d1: int, d2: int) -> None:
    """RULES.md 3.2: my 13 is the last point of the opponent's path (their 1-point), so no
    opponent checker can be past a block 18-13: 19/18 may not complete it, in any order."""
    mine = {24: 9, 19: 1, 17: 1, 16: 1, 15: 1, 14: 1, 13: 1}
    position = pos(L, mine, {24: 14, 8: 1})  # their 8 is my 20, behind the block
    plays = position.legal_plays(d1, d2)
    assert plays and plays[0].moves
    for play in plays:
        assert not all(play.position.mine[q] for q in range(13, 19)), str(play)


# -- 3.2 Forced play ------------------------------------------------------------------------


def test_3_2_both_dice_must_be_played_when_possible() -> None:
    """RULES.md 3.2: 13/7 is closed (one opponent checker), so 13/8/2 is the only play."""
    position = pos(L, {13: 1, 1: 14}, {19: 1, 24: 14})  # their 19 is my 7
    assert texts(position, 6, 5) == ["13/2"]


def test_3_2_larger_die_rule() -> None:
    """RULES.md 3.2: either die can be played but not both (my 2 is closed): the larger."""
    position = pos(L, {13: 1, 1: 14}, {14: 1, 24: 14})  # their 14 is my 2
    assert texts(position, 6, 5) == ["13/7"]


def test_3_2_smaller_die_when_the_larger_cannot_be_played() -> None:
    """RULES.md 3.2: the 6 is unplayable (my 7 closed), so the 5 is played alone."""
    position = pos(L, {13: 1, 1: 14}, {14: 1, 19: 1, 24: 13})
    assert texts(position, 6, 5) == ["13/8"]


def test_3_2_no_legal_move_the_turn_passes() -> None:
    """RULES.md 3.2: with no legal move the turn passes: the empty play, position unchanged."""
    position = pos(L, {13: 1, 1: 14}, {19: 1, 20: 1, 24: 13})  # my 7 and 8 closed
    plays = position.legal_plays(6, 5)
    assert [str(p) for p in plays] == [""]
    assert plays[0].position == position


# -- 3.3 Bearing off ------------------------------------------------------------------------


def test_3_3_bear_off_only_with_all_fifteen_home() -> None:
    """RULES.md 3.3: the checker on 7 comes home first; then the other die bears off."""
    assert text_set(pos(L, {7: 1, 3: 14}, {24: 15}), 6, 5) == {"7/1 3/off", "7/2 3/off"}


def test_3_3_bear_off_from_a_lower_point_when_the_dies_and_higher_points_are_empty() -> None:
    """RULES.md 3.3: 6-5 with checkers on 3 and 2 only: both come off."""
    assert texts(pos(L, {3: 1, 2: 1}, {24: 15}), 6, 5) == ["3/off 2/off"]


def test_3_3_normal_move_inside_home_first_where_possible() -> None:
    """RULES.md 3.3: a 5 with the 5-point empty and a checker on 6 moves 6/1 rather than
    bearing off the checker on 3."""
    assert text_set(pos(L, {6: 1, 3: 1}, {24: 15}), 5, 1) == {"6/1 3/2", "6/off"}


def test_3_3_both_dice_must_be_played_in_the_bear_off() -> None:
    """RULES.md 3.3: both dice where possible: with 6:1 1:1 and 6-1, 6/off alone is not a
    play; 6/5/off (written 6/off) and 6/off 1/off use both dice."""
    plays = pos(L, {6: 1, 1: 1}, {24: 15}).legal_plays(6, 1)
    assert {str(p) for p in plays} == {"6/off 1/off", "6/off"}
    assert all(len(p.moves) == 2 for p in plays)


# -- 3.4 End of game (oin / mars) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("loser", "kind"),
    [
        ({0: 1, 6: 14}, ResultKind.OIN),
        ({0: 14, 24: 1}, ResultKind.OIN),
        ({6: 15}, ResultKind.MARS),
        ({24: 15}, ResultKind.MARS),
    ],
)
def test_3_4_oin_and_mars(loser: dict[int, int], kind: ResultKind) -> None:
    """RULES.md 3.4: oin if the loser has borne off at least one, mars if none."""
    position = Position.from_points(LONG_NARDY, {0: 15}, loser)
    assert position.outcome() == Outcome(True, kind)
    assert position.swap().outcome() == Outcome(False, kind)


def test_3_4_game_over_after_the_last_checker_is_borne_off() -> None:
    """RULES.md 3.4: the first to bear off all 15 wins."""
    position = pos(L, {2: 1}, {0: 3, 6: 12})
    assert position.outcome() is None
    after = position.apply("2/off", 4, 1)
    assert after.outcome() == Outcome(True, ResultKind.OIN)


# -- Pip counts and races -------------------------------------------------------------------


def test_long_nardy_pips_start_is_360() -> None:
    """RULES.md 3.1: 15 checkers on the 24-point: 360 pips each."""
    assert LONG_NARDY.start().pips() == (360, 360)
    assert pos(L, {6: 2, 1: 3}, {24: 15}).pips() == (15, 360)


def test_long_nardy_is_race() -> None:
    """A race: no checker can still be blocked by the other side's."""
    assert not LONG_NARDY.start().is_race()
    assert pos(L, {3: 15}, {3: 15}).is_race()  # both sides home: mine 1-6, theirs my 13-18
    assert not pos(L, {13: 15}, {24: 15}).is_race()  # my 13 still has to pass their head
    assert not pos(L, {1: 15}, {18: 15}).is_race()  # their 18 (my 6) has to pass my 1
    assert pos(L, {7: 15}, {7: 15}).is_race()  # mine on 7, theirs on my 19: passed
