"""Property tests (Hypothesis) on positions from random games of every variant.

Games are played from each variant's start with Hypothesis drawing the dice and the choice of
play (:func:`conftest.game_turns`), so failures shrink to short games. Every run is
deterministic (``derandomize=True``, no example database).
"""

from __future__ import annotations

import pytest
from conftest import (
    BAR,
    CHECKERS,
    Turn,
    game_turns,
    near_six_blocks,
    plays_reach,
    random_positions,
    reference_results,
    their_to_my_point,
    to_mine_map,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nardy
from nardy import BACKGAMMON, Position, position_from_id, position_id
from nardy.core.dice import FixedDice
from nardy.core.errors import IllegalPlayError
from nardy.core.game import Game, Phase
from nardy.core.settings import Settings

VARIANTS = ["backgammon", "nackgammon", "acey-deucey", "long"]
VARIANT = pytest.mark.parametrize("variant", VARIANTS)
PLIES = {"backgammon": 250, "nackgammon": 250, "acey-deucey": 150, "long": 250}
"""Most random games end well before 250 rolls; acey-deucey's run longer and are cut."""


def props(examples: int) -> settings:
    """Deterministic settings for a property of ``examples`` examples."""
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def everything_reached(turns: list[Turn]) -> list[Position]:
    """Each position on roll and every position any of its legal plays reaches."""
    out: list[Position] = []
    for turn in turns:
        out.append(turn.position)
        out.extend(p.position for p in turn.position.legal_plays(turn.d1, turn.d2))
    return out


def check_position(position: Position) -> None:
    """15 checkers a side (acey-deucey: with the waiting ones), none negative, and no point
    holding both colours, by the variant's geometry and by RULES.md's (1.1, 3.1)."""
    v = position.variant
    for side in (position.mine, position.theirs):
        assert len(side) == 26
        total = sum(side)
        if v.enters_from_outside:
            assert total <= CHECKERS
        else:
            assert total == CHECKERS
    assert position.waiting() + sum(position.mine) == CHECKERS
    assert position.waiting(mine=False) + sum(position.theirs) == CHECKERS
    if not v.has_bar:
        assert position.mine[BAR] == position.theirs[BAR] == 0
    theirs_mine = v.to_mine(position.theirs)
    independent = to_mine_map(v, position.theirs)
    for p in range(1, 25):
        assert theirs_mine[p] == independent[p]
        assert not (position.mine[p] and theirs_mine[p]), p
    v.validate(position)


# -- the properties --------------------------------------------------------------------------


@VARIANT
@props(4)
@given(data=st.data())
def test_checkers_are_conserved_and_no_point_holds_both_colours(
    variant: str, data: st.DataObject
) -> None:
    """RULES.md 1.1, 2, 3.1: 15 checkers per side (counting acey-deucey's waiting ones), and a
    point holds one colour, in every position of a random game and after every legal play."""
    turns = data.draw(game_turns(variant, PLIES[variant]))
    for position in everything_reached(turns):
        check_position(position)
    if variant == "acey-deucey":
        for turn in turns:  # checkers enter, and never go back to waiting
            for play in turn.position.legal_plays(turn.d1, turn.d2):
                assert play.position.waiting() <= turn.position.waiting()
                assert play.position.waiting(mine=False) == turn.position.waiting(mine=False)


@VARIANT
@props(3)
@given(data=st.data())
def test_every_play_uses_the_most_dice_and_matches_the_reference(
    variant: str, data: st.DataObject
) -> None:
    """RULES.md 1.2/3.2 forced play: every legal play uses as many dice as an independent brute
    force over single moves finds possible, and the set of positions reached is exactly the
    brute force's (most dice, then the larger die)."""
    turns = data.draw(game_turns(variant, PLIES[variant]))
    for turn in turns:
        plays = turn.position.legal_plays(turn.d1, turn.d2)
        most, expected = reference_results(turn.position, turn.d1, turn.d2)
        assert plays_reach(plays) == expected, (turn.position, turn.d1, turn.d2)
        for play in plays:
            assert len(play.moves) == most, (turn.position, turn.d1, turn.d2, str(play))


@VARIANT
@props(2)
@given(data=st.data())
def test_single_moves_confirm_exactly_where_a_legal_play_ends(
    variant: str, data: st.DataObject
) -> None:
    """RULES.md 1.9: moving checker by checker, a turn may be confirmed exactly at the
    positions the roll's legal plays reach, and never on the way; every single move offered
    leads on to one of them (the game's search of the roll is kept from move to move, and
    the roll's whole plays are not built for it)."""
    turns = data.draw(game_turns(variant, 60))
    for turn in data.draw(st.lists(st.sampled_from(turns), min_size=1, max_size=3)):
        expected = plays_reach(turn.position.legal_plays(turn.d1, turn.d2))
        game = Game(
            Settings(variant=variant),
            FixedDice([turn.d1, turn.d2]),
            position=turn.position,
            first_player=0,
        )
        game.roll(0)
        if game.phase is not Phase.MOVING:  # no legal move: the turn passed by itself
            assert expected == {(turn.position.mine, turn.position.theirs)}
            continue
        ends: set[tuple[bytes, bytes]] = set()
        whole = _confirmable_ends(game, ends)
        assert ends <= expected, (turn.position, turn.d1, turn.d2)
        assert ends == expected or not whole, (turn.position, turn.d1, turn.d2)


WIDEST = 5
"""How many of the single moves offered at each step the search below follows (a double's
tree is wide): all of them where there are no more."""


def _confirmable_ends(game: Game, ends: set[tuple[bytes, bytes]]) -> bool:
    """Add to ``ends`` the positions where the turn under way, moved on from here by single
    moves, may be confirmed, checking that it may not be confirmed before; True where every
    way was followed."""
    following = sorted(set(game.next_moves()), key=str)
    if not following:
        reached = game.position
        ends.add((reached.mine, reached.theirs))
        confirmed = Game.restore(game.snapshot(), FixedDice([1, 1]))
        confirmed.confirm(0)
        assert confirmed.phase is not Phase.MOVING or confirmed.turn == 1
        return True
    with pytest.raises(IllegalPlayError):
        game.confirm(0)
    whole = len(following) <= WIDEST
    for move in following[:WIDEST]:
        game.move(0, move.start, move.end)
        whole = _confirmable_ends(game, ends) and whole
        game.undo(0)
    return whole


@VARIANT
@props(4)
@given(data=st.data())
def test_distinct_plays_reach_distinct_positions(variant: str, data: st.DataObject) -> None:
    """NOTATION.md: a play is identified by its position: no two legal plays reach the same
    one, and there is always at least one play (the empty one when nothing moves); the order
    of the two dice does not matter."""
    turns = data.draw(game_turns(variant, PLIES[variant]))
    for turn in turns:
        plays = turn.position.legal_plays(turn.d1, turn.d2)
        assert plays
        assert len(plays_reach(plays)) == len(plays) == len(set(plays))
        if not plays[0].moves:
            assert len(plays) == 1 and plays[0].position == turn.position
        if turn.d1 != turn.d2:  # RULES.md 1.2: 6-5 and 5-6 are the same roll
            swapped = turn.position.legal_plays(turn.d2, turn.d1)
            assert plays_reach(swapped) == plays_reach(plays)


@VARIANT
@props(4)
@given(data=st.data())
def test_position_id_round_trips(variant: str, data: st.DataObject) -> None:
    """NOTATION.md: ``position_from_id(position_id(p), variant) == p`` for both sides on roll,
    acey-deucey's waiting checkers included."""
    turns = data.draw(game_turns(variant, PLIES[variant]))
    for turn in turns:
        for position in (turn.position, turn.position.swap()):
            text = position_id(position)
            assert position_from_id(text, variant) == position
            assert len(text.partition("-")[0]) == 14


@VARIANT
@props(4)
@given(data=st.data())
def test_move_notation_round_trips(variant: str, data: st.DataObject) -> None:
    """NOTATION.md: ``pos.parse_play(str(play), d1, d2) == play`` for legal plays (up to three
    of each roll, spread over the sorted list, to keep the run short)."""
    turns = data.draw(game_turns(variant, PLIES[variant]))
    for turn in turns:
        plays = turn.position.legal_plays(turn.d1, turn.d2)
        for play in plays[:: -(-len(plays) // 3)]:
            again = turn.position.parse_play(str(play), turn.d1, turn.d2)
            assert again == play, (turn.position, turn.d1, turn.d2, str(play))
            assert str(again) == str(play)


@VARIANT
@props(4)
@given(data=st.data())
def test_pips_fall_by_the_distance_moved_and_hits_add_to_the_opponent(
    variant: str, data: st.DataObject
) -> None:
    """RULES.md 1.2/1.3: my pips fall by the distance each move covers (bar and waiting
    checkers start from 25); a hit on my point t sends a checker of theirs back t pips."""
    turns = data.draw(game_turns(variant, PLIES[variant]))
    for turn in turns:
        mine, theirs = turn.position.pips()
        for play in turn.position.legal_plays(turn.d1, turn.d2):
            moved = sum(m.start - m.end for m in play.moves)
            assert all(0 < m.start - m.end <= max(turn.d1, turn.d2) for m in play.moves)
            assert play.position.pips()[0] == mine - moved
            sent_back = sum(m.end for m in play.moves if m.hit)
            assert play.position.pips()[1] == theirs + sent_back


@VARIANT
@props(4)
@given(data=st.data())
def test_results_only_when_a_side_has_borne_off_fifteen(variant: str, data: st.DataObject) -> None:
    """RULES.md 1.4/3.4: a result exists exactly when one side has borne off all 15, with the
    variant family's result kinds."""
    turns = data.draw(game_turns(variant, PLIES[variant]))
    long = variant == "long"
    kinds = {"oin", "mars"} if long else {"single", "gammon", "backgammon"}
    for position in everything_reached(turns):
        outcome = position.outcome()
        done = CHECKERS in (position.mine[0], position.theirs[0])
        assert (outcome is not None) == done
        if outcome is not None:
            assert outcome.kind.value in kinds
            assert outcome.winner_is_me == (position.mine[0] == CHECKERS)


@props(200)
@given(
    st.sampled_from(["backgammon", "acey-deucey", "long"]).flatmap(random_positions),
    st.integers(1, 6),
    st.integers(1, 6),
)
def test_arbitrary_positions_match_the_reference(position: Position, d1: int, d2: int) -> None:
    """RULES.md 1.2, 1.3, 2, 3.2, 3.3 on arbitrary valid positions (bar, bear-off, blocks):
    the legal plays reach exactly what the brute-force reference reaches."""
    most, expected = reference_results(position, d1, d2)
    plays = position.legal_plays(d1, d2)
    assert plays_reach(plays) == expected
    assert all(len(p.moves) == most for p in plays)


@props(120)
@given(near_six_blocks(), st.integers(1, 6), st.integers(1, 6))
def test_six_block_rule_matches_the_reference_next_to_a_block(
    position: Position, d1: int, d2: int
) -> None:
    """RULES.md 3.2 six-block rule, checked after every single move: positions one checker
    short of six in a row along the opponent's path, with the opponent often all behind."""
    most, expected = reference_results(position, d1, d2)
    plays = position.legal_plays(d1, d2)
    assert plays_reach(plays) == expected
    assert all(len(p.moves) == most for p in plays)


@props(60)
@given(random_positions("backgammon"), st.integers(1, 6), st.integers(1, 6))
def test_nackgammon_moves_like_backgammon(position: Position, d1: int, d2: int) -> None:
    """RULES.md 2: nackgammon is backgammon with another start: same plays everywhere."""
    nack = Position(nardy.NACKGAMMON, position.mine, position.theirs)
    assert plays_reach(nack.legal_plays(d1, d2)) == plays_reach(
        Position(BACKGAMMON, position.mine, position.theirs).legal_plays(d1, d2)
    )


@props(40)
@given(st.sampled_from(VARIANTS), st.integers(1, 24))
def test_geometry_is_an_involution(variant: str, point: int) -> None:
    """RULES.md 1.1/3.1: my p is their q and their q is my p."""
    v = nardy.variant(variant)
    q = v.opponent_point(point)
    assert q == their_to_my_point(v, point)
    assert v.opponent_point(q) == point
