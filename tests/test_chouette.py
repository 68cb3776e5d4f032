"""Chouette (RULES.md 1.7): the lot, the box against the team, the team's unanimous double,
each member's own take or pass, settlement, rotation and running scores."""

from __future__ import annotations

import random

import pytest

from nardy.core.chouette import (
    BOX,
    TEAM,
    Chouette,
    ChouetteError,
    ChouetteGame,
    VoteResult,
    draw_lot,
)
from nardy.core.dice import FixedDice, SeededDice
from nardy.core.errors import InvalidInputError
from nardy.core.game import Cube, GameError, Phase
from nardy.core.settings import Settings, SettingsError

PLAYERS = ("Ann", "Bob", "Cy", "Dee")


def actor(ch: Chouette) -> str:
    """Who acts for the side on turn: the box or the captain."""
    game = ch.game
    assert game is not None
    return ch.box if game.turn == BOX else ch.captain


def advance_to_roll(ch: Chouette, side: int) -> None:
    """Play the first legal play each turn until ``side`` is on roll before rolling."""
    game = ch.game
    assert game is not None
    while not (game.phase is Phase.ROLL and game.turn == side):
        if game.phase is Phase.OPENING:
            ch.roll_opening()
        elif game.phase is Phase.ROLL:
            ch.roll(actor(ch))
        else:
            assert game.phase is Phase.MOVING
            ch.play(actor(ch), game.legal_plays()[0])


def snapshot(ch: Chouette) -> tuple[object, ...]:
    game = ch.game
    assert game is not None
    return (
        game.phase,
        game.turn,
        len(game.records),
        game.position,
        game.cube.value,
        ch.votes,
        ch.answers,
        tuple(ch.games[-1].in_game),
        ch.scores,
    )


def check_zero_sum(ch: Chouette) -> None:
    for record in ch.games:
        assert sum(record.settlements.values()) == 0
    assert sum(ch.scores.values()) == 0


# -- the lot -----------------------------------------------------------------------------


def test_lot_ties_reroll_among_the_tied_only() -> None:
    """RULES.md 1.7: highest is the box, second the captain, the rest by their rolls; ties
    roll again among themselves."""
    # Ann 5, Bob 6, Cy 5, Dee 2; then only Ann and Cy: 3, 4.
    order, rounds = draw_lot(PLAYERS, FixedDice([5, 6, 5, 2, 3, 4]))
    assert order == ["Bob", "Cy", "Ann", "Dee"]
    assert rounds == [{"Ann": 5, "Bob": 6, "Cy": 5, "Dee": 2}, {"Ann": 3, "Cy": 4}]


def test_lot_nested_and_total_ties() -> None:
    """RULES.md 1.7: a tie among everyone rolls everyone again; a tie within a re-roll is
    settled among those still tied."""
    # All four 3; then Ann 2, Bob 6, Cy 2, Dee 6; Bob and Dee 1, 1, then 4, 5; Ann, Cy 6, 1.
    dice = FixedDice([3, 3, 3, 3, 2, 6, 2, 6, 1, 1, 4, 5, 6, 1])
    order, rounds = draw_lot(PLAYERS, dice)
    assert order == ["Dee", "Bob", "Ann", "Cy"]
    assert len(rounds) == 5
    assert dice.remaining() == 0


def test_chouette_seats_the_lot() -> None:
    """RULES.md 1.7: box, captain, then the team line from the lot."""
    ch = Chouette(PLAYERS, dice=FixedDice([5, 6, 5, 2, 3, 4]))
    assert (ch.box, ch.captain, ch.line) == ("Bob", "Cy", ["Cy", "Ann", "Dee"])
    assert ch.players == ["Bob", "Cy", "Ann", "Dee"]
    assert ch.lot[0]["Bob"] == 6
    assert ch.scores == dict.fromkeys(PLAYERS, 0)


def test_chouette_refuses_bad_setups() -> None:
    """RULES.md 1.7: three or more players; a chouette is money play with one shared cube."""
    with pytest.raises(ChouetteError):
        Chouette(("Ann", "Bob"))
    with pytest.raises(ChouetteError):
        Chouette(("Ann", "Bob", "Ann"))
    with pytest.raises(SettingsError):
        Chouette(PLAYERS, Settings(match_length=5))
    with pytest.raises(SettingsError):
        Chouette(PLAYERS, Settings(beaver=True))


# -- the cube ----------------------------------------------------------------------------


def test_team_double_needs_every_vote_and_team_win_rotates() -> None:
    """RULES.md 1.7: the team's double must be unanimous; one "no" blocks it. When the team
    wins (the box passes), the captain moves into the box and the box goes to the end."""
    ch = Chouette(PLAYERS, dice=SeededDice(1))
    box, (captain, second, third) = ch.box, ch.line
    ch.new_game()
    advance_to_roll(ch, TEAM)
    game = ch.game
    assert game is not None and game.can_double(TEAM)

    with pytest.raises(ChouetteError):
        ch.vote_double(box)  # the box is not on the team
    with pytest.raises(ChouetteError):
        ch.double(captain)  # the captain alone cannot double
    assert not ch.vote_double(captain)
    before = snapshot(ch)
    with pytest.raises(ChouetteError):
        ch.vote_double(captain)  # one vote each
    assert snapshot(ch) == before
    assert not ch.vote_double(second, agree=False)  # one "no" blocks the double
    assert ch.games[-1].refused_doubles == [second]
    assert ch.votes == set()
    assert game.phase is Phase.ROLL

    assert not ch.vote_double(third)
    assert not ch.vote_double(second)
    assert ch.vote_double(captain)  # the last vote makes it unanimous: the double is offered
    assert game.phase is Phase.DOUBLED and game.turn == TEAM

    with pytest.raises(ChouetteError):
        ch.take(second)  # the box answers the team's double
    ch.pass_double(box)
    assert game.over and game.result is not None and game.result.winner == TEAM
    record = ch.games[-1]
    assert record.settlements == {box: -3, captain: 1, second: 1, third: 1}
    assert (ch.box, ch.line) == (captain, [second, third, box])
    assert ch.game is None
    check_zero_sum(ch)


def test_the_last_vote_says_who_voted_how_and_why_it_ended() -> None:
    """Issue 21: a vote against, the captain's roll and a unanimous vote each end the vote,
    and the chouette keeps how (who had agreed, who ended it) until the next vote begins or
    the box rolls; the snapshot keeps it too."""
    ch = Chouette(PLAYERS, dice=SeededDice(1))
    captain, second, third = ch.line
    ch.new_game()
    advance_to_roll(ch, TEAM)
    assert ch.last_vote is None
    ch.vote_double(third)
    ch.vote_double(second, agree=False)
    assert ch.last_vote == VoteResult((third,), second, "against")
    assert Chouette.restore(ch.snapshot()).last_vote == ch.last_vote
    ch.vote_double(captain)  # a new vote begins: the last one is forgotten
    assert ch.last_vote is None
    ch.roll(captain)  # before the others voted: the vote lapses
    assert ch.last_vote == VoteResult((captain,), captain, "rolled")
    advance_to_roll(ch, 0)
    ch.roll(ch.box)  # the team's turn the vote was for is over
    assert ch.last_vote is None
    advance_to_roll(ch, TEAM)
    for member in (second, third, captain):
        ch.vote_double(member)
    assert ch.last_vote == VoteResult((second, third, captain), captain, "doubled")
    with pytest.raises(InvalidInputError):
        VoteResult.from_dict({"agreed": [], "by": captain, "ended": "shrugged"})


def test_the_chouettes_cube_stops_at_the_money_limit() -> None:
    """RULES.md 1.5, 1.7: a chouette is money play, whose cube stops at 4096: at 4096 the
    team is asked for no vote and the box's double is refused saying why."""
    ch = Chouette(PLAYERS, dice=SeededDice(1))
    ch.new_game()
    game = ch.game
    assert game is not None
    game.cube = Cube(4096)
    advance_to_roll(ch, TEAM)
    assert all("vote" not in kinds for _, kinds in ch.awaiting().actors)
    with pytest.raises(ChouetteError, match="cannot double"):
        ch.vote_double(ch.captain)
    advance_to_roll(ch, BOX)
    assert "double" not in ch.awaiting().kinds(ch.box)
    with pytest.raises(GameError, match="at its limit"):
        ch.double(ch.box)


def test_box_double_each_member_answers_and_captain_hands_over() -> None:
    """RULES.md 1.7: when the box doubles, each member takes or passes on their own; a passer
    pays the stake before the double and leaves; the next member captains the rest of the
    game. Rotation follows the first captain's result (his pass loses to the box)."""
    ch = Chouette(PLAYERS, dice=SeededDice(2))
    box, (captain, second, third) = ch.box, ch.line
    ch.new_game()
    advance_to_roll(ch, BOX)
    game = ch.game
    assert game is not None
    with pytest.raises(ChouetteError):
        ch.double(captain)
    ch.double(box)

    before = snapshot(ch)
    for wrong in (box, "Zed"):
        with pytest.raises(ChouetteError):
            ch.take(wrong)
    with pytest.raises(GameError):
        ch.roll(box)  # the double waits for its answers
    assert snapshot(ch) == before

    ch.pass_double(captain)
    with pytest.raises(ChouetteError):
        ch.take(captain)  # one answer each
    ch.take(second)
    assert game.phase is Phase.DOUBLED  # still waiting for the third member
    ch.take(third)
    record = ch.games[-1]
    assert record.passed == {captain: 1}
    assert record.in_game == [second, third]
    assert ch.captain == second
    assert (game.phase, game.cube.value, game.cube.owner) == (Phase.ROLL, 2, TEAM)
    assert ch.scores[captain] == -1 and ch.scores[box] == 1

    with pytest.raises(ChouetteError):
        ch.vote_double(captain)  # out of this game
    with pytest.raises(ChouetteError):
        ch.resign(captain)  # no longer the captain
    ch.resign(box)  # the box resigns a single to the team; the new captain answers
    with pytest.raises(ChouetteError):
        ch.accept_resignation(third)
    with pytest.raises(ChouetteError):
        ch.accept_resignation(box)
    ch.accept_resignation(second)
    assert game.result is not None and game.result.points == 2
    assert record.settlements == {box: 1 - 4, captain: -1, second: 2, third: 2}
    # The first captain lost (he passed): the box stays, he goes to the end of the line.
    assert (ch.box, ch.line) == (box, [second, third, captain])
    check_zero_sum(ch)


def test_everyone_passes_and_team_loss_rotates() -> None:
    """RULES.md 1.7: if every member passes the box's double, each pays the stake and the
    game ends; the team lost, so the box stays and the captain goes to the end."""
    ch = Chouette(PLAYERS, Settings(automatic_doubles=1), dice=SeededDice(3))
    box, (captain, second, third) = ch.box, ch.line
    ch.new_game()
    advance_to_roll(ch, BOX)
    game = ch.game
    assert game is not None
    stake = game.cube.value
    ch.double(box)
    for member in (third, captain, second):
        ch.pass_double(member)
    assert game.over and game.result is not None and game.result.kind == "pass"
    record = ch.games[-1]
    assert record.passed == dict.fromkeys((third, captain, second), stake)
    assert record.settlements == {box: 3 * stake, captain: -stake, second: -stake, third: -stake}
    assert (ch.box, ch.line) == (box, [second, third, captain])
    check_zero_sum(ch)


def test_team_resigns_through_its_captain() -> None:
    """RULES.md 1.4, 1.7 (Decision): the captain resigns for the team; the box answers, and
    every member still in pays (a gammon: no Jacoby here)."""
    ch = Chouette(("Ann", "Bob", "Cy"), Settings(jacoby=False), dice=SeededDice(4))
    box, (captain, second) = ch.box, ch.line
    ch.new_game()
    advance_to_roll(ch, TEAM)
    with pytest.raises(ChouetteError):
        ch.resign(second)
    ch.resign(captain, 2)
    with pytest.raises(ChouetteError):
        ch.decline_resignation(captain)  # not the team's own offer
    ch.decline_resignation(box)
    ch.resign(captain, 2)
    ch.accept_resignation(box)
    assert ch.games[-1].settlements == {box: 4, captain: -2, second: -2}
    assert (ch.box, ch.line) == (box, [second, captain])


# -- the wrong participant ---------------------------------------------------------------


def test_actions_by_the_wrong_participant_change_nothing() -> None:
    """RULES.md 1.7: the box plays side 0, only the captain plays for the team."""
    ch = Chouette(PLAYERS, dice=SeededDice(5))
    box, (captain, second, _) = ch.box, ch.line
    with pytest.raises(ChouetteError):
        ch.roll(box)  # no game yet
    ch.new_game()
    with pytest.raises(ChouetteError):
        ch.new_game()  # one game at a time
    advance_to_roll(ch, TEAM)
    before = snapshot(ch)
    with pytest.raises(ChouetteError):
        ch.roll(second)  # a member, not the captain
    with pytest.raises(ChouetteError):
        ch.roll("Zed")  # not in the chouette
    with pytest.raises(GameError):
        ch.roll(box)  # out of turn: the game refuses
    with pytest.raises(ChouetteError):
        ch.take(captain)  # no double to answer
    with pytest.raises(ChouetteError):
        ch.join("Eve")  # between games only
    with pytest.raises(ChouetteError):
        ch.leave(second)
    assert snapshot(ch) == before
    ch.roll(captain)
    game = ch.game
    assert game is not None
    if game.phase is Phase.MOVING:
        play = game.legal_plays()[0]
        with pytest.raises(ChouetteError):
            ch.play(second, play)
        with pytest.raises(GameError):
            ch.play(box, play)
        with pytest.raises(ChouetteError):
            ch.vote_double(second)  # a double comes before the roll
        ch.play(captain, play)


def test_join_and_leave_between_games() -> None:
    """RULES.md 1.7 (Decision): newcomers join at the end of the line; a leaving box is
    replaced by the captain; the scores keep those who left; fewer than three cannot play."""
    ch = Chouette(("Ann", "Bob", "Cy"), dice=SeededDice(6))
    box, (captain, second) = ch.box, ch.line
    with pytest.raises(ChouetteError):
        ch.join(captain)
    ch.join("Dee")
    assert ch.line == [captain, second, "Dee"]
    ch.leave(box)
    assert (ch.box, ch.line) == (captain, [second, "Dee"])
    ch.leave("Dee")
    with pytest.raises(ChouetteError):
        ch.leave("Dee")
    with pytest.raises(ChouetteError):
        ch.new_game()
    assert set(ch.scores) == {"Ann", "Bob", "Cy", "Dee"}
    ch.join(box)  # back, at the end of the line
    assert ch.players == [captain, second, box]
    ch.new_game()


# -- whole sessions ----------------------------------------------------------------------


def random_action(ch: Chouette, rng: random.Random) -> None:
    """One random legal action by whoever must act now."""
    game = ch.game
    record = ch.games[-1]
    assert game is not None
    if game.phase is Phase.OPENING:
        ch.roll_opening()
    elif game.phase is Phase.ROLL:
        r = rng.random()
        if game.can_double(game.turn) and r < 0.15:
            if game.turn == BOX:
                ch.double(ch.box)
            else:
                refusals = len(record.refused_doubles)
                for member in list(record.in_game):
                    agree = rng.random() < 0.8
                    if ch.vote_double(member, agree) or len(record.refused_doubles) > refusals:
                        break
                else:
                    raise AssertionError("a unanimous vote must double")
        elif r < 0.16:
            ch.resign(actor(ch), rng.randint(1, 3))
        else:
            ch.roll(actor(ch))
    elif game.phase is Phase.DOUBLED:
        if game.turn == TEAM:
            (ch.take if rng.random() < 0.7 else ch.pass_double)(ch.box)
        else:
            for member in list(record.in_game):
                (ch.take if rng.random() < 0.6 else ch.pass_double)(member)
    elif game.phase is Phase.RESIGNED:
        resigner = game.resignation()
        assert resigner is not None
        answerer = ch.captain if resigner[0] == BOX else ch.box
        if rng.random() < 0.4:
            ch.accept_resignation(answerer)
        else:
            ch.decline_resignation(answerer)
    else:
        assert game.phase is Phase.MOVING
        ch.play(actor(ch), rng.choice(game.legal_plays()))


def expected_settlements(record: ChouetteGame) -> dict[str, int]:
    """RULES.md 1.7 settlement, written from the record: passers paid their stake; the box
    and each member still in exchange the game's points."""
    result = record.game.result
    assert result is not None
    expected = dict.fromkeys((record.box, *record.team), 0)
    for member, stake in record.passed.items():
        expected[member] -= stake
        expected[record.box] += stake
    sign = {BOX: 1, TEAM: -1, None: 0}[result.winner]
    for member in record.in_game:
        expected[member] -= sign * result.points
        expected[record.box] += sign * result.points
    return expected


def test_four_player_session_with_random_play() -> None:
    """RULES.md 1.7: games to the end with seeded dice and random legal actions; after each,
    settlement, rotation and zero-sum running scores."""
    rng = random.Random(7)
    ch = Chouette(PLAYERS, dice=SeededDice(7))
    seen = {"team won": 0, "team lost": 0, "passes": 0, "captain passed": 0, "refused": 0}
    for number in range(10):
        if number == 5:
            ch.join("Eve")
        box, line = ch.box, list(ch.line)
        ch.new_game()
        record = ch.games[-1]
        while not record.game.over:
            random_action(ch, rng)
            check_zero_sum(ch)
        result = record.game.result
        assert result is not None
        assert record.settlements == expected_settlements(record)
        captain = line[0]
        seen["passes"] += len(record.passed)
        seen["captain passed"] += captain in record.passed
        seen["refused"] += len(record.refused_doubles)
        if result.winner == TEAM and captain in record.in_game:
            seen["team won"] += 1
            assert (ch.box, ch.line) == (captain, [*line[1:], box])
        else:
            seen["team lost"] += 1
            assert (ch.box, ch.line) == (box, [*line[1:], captain])
        check_zero_sum(ch)
    assert all(seen.values()), seen
    assert len(ch.scores) == 5
