"""Team play (RULES.md 1.8): consultation sides, whose captain alone acts and whose members'
proposals stay within the side, and team matches of three boards, best of three."""

from __future__ import annotations

import random

import pytest

from nardy.core.dice import SeededDice
from nardy.core.game import GameError, Phase
from nardy.core.match import Match
from nardy.core.settings import Settings, SettingsError
from nardy.core.team import Consultation, TeamError, TeamMatch


def consultation() -> Consultation:
    return Consultation((("Ann", "Bob", "Cy"), ("Dee", "Eve")), dice=SeededDice(1))


def test_only_the_captain_acts_for_a_side() -> None:
    """RULES.md 1.8 (Decision): each side's captain makes the moves; anyone else is refused
    and nothing changes."""
    c = consultation()
    assert (c.captain(0), c.captain(1)) == ("Ann", "Dee")
    with pytest.raises(TeamError):
        c.roll("Ann")  # no game yet
    game = c.new_game()
    c.roll_opening()
    captain = c.captain(game.turn)
    other_captain = c.captain(1 - game.turn)
    member = c.sides[game.turn][1]
    before = (game.phase, game.turn, game.position, len(game.records))
    with pytest.raises(TeamError):
        c.play(member, game.legal_plays()[0])  # a member, not the captain
    with pytest.raises(TeamError):
        c.play("Zed", game.legal_plays()[0])  # a spectator
    with pytest.raises(GameError):
        c.play(other_captain, game.legal_plays()[0])  # the other side, out of turn
    assert (game.phase, game.turn, game.position, len(game.records)) == before
    c.play(captain, game.legal_plays()[0])
    assert len(game.records) == 1


def test_a_consultation_match_has_the_dead_cube() -> None:
    """RULES.md 1.5, 1.8: a consultation plays a match like two players: in a 1-point match
    the cube is dead from the start, so no captain is offered a double."""
    c = Consultation((("Ann", "Bob"), ("Dee", "Eve")), Settings(match_length=1), SeededDice(1))
    game = c.new_game()
    c.roll_opening()
    c.play(c.captain(game.turn), game.legal_plays()[0])
    assert game.phase is Phase.ROLL
    captain = c.captain(game.turn)
    assert "double" not in c.awaiting().kinds(captain)
    with pytest.raises(GameError, match="the cube is dead: a win at 1 already wins the match"):
        c.double(captain)


def test_proposals_stay_within_the_side() -> None:
    """RULES.md 1.8 (Decision): members propose moves visible to their own side only, never
    to the other side or to spectators."""
    c = consultation()
    with pytest.raises(TeamError):
        c.propose("Bob", "13/7 8/7")  # no game yet
    c.new_game()
    c.roll_opening()
    bob = c.propose("Bob", "13/7 8/7")
    cy = c.propose("Cy", "24/18 13/8")
    eve = c.propose("Eve", "double next turn")
    with pytest.raises(TeamError):
        c.propose("Zed", "resign")
    with pytest.raises(TeamError):
        c.propose("Bob", "  ")
    for member in ("Ann", "Bob", "Cy"):
        assert c.proposals(member) == [bob, cy]
    for member in ("Dee", "Eve"):
        assert c.proposals(member) == [eve]
    assert c.proposals("Zed") == []
    assert (bob.member, bob.side, bob.game, bob.turn) == ("Bob", 0, 0, 0)


def test_consultation_game_to_the_end() -> None:
    """RULES.md 1.8: a consultation game is an ordinary game played by the captains; cube
    decisions are the captains' too."""
    rng = random.Random(2)
    c = consultation()
    game = c.new_game()
    while not game.over:
        captain = c.captain(game.turn)
        if game.phase is Phase.OPENING:
            c.roll_opening()
        elif game.phase is Phase.ROLL:
            if game.can_double(game.turn) and rng.random() < 0.1:
                with pytest.raises(TeamError):
                    c.double(c.sides[game.turn][1])
                c.double(captain)
            else:
                c.roll(captain)
        elif game.phase is Phase.DOUBLED:
            responder = c.captain(1 - game.turn)
            (c.take if rng.random() < 0.8 else c.pass_double)(responder)
        else:
            c.play(captain, rng.choice(game.legal_plays()))
    assert game.result is not None
    assert sum(c.match.score) == game.result.points


def test_sides_need_distinct_members() -> None:
    """RULES.md 1.8: every member plays on one side only."""
    with pytest.raises(TeamError):
        Consultation((("Ann", "Bob"), ("Bob", "Cy")))
    with pytest.raises(TeamError):
        Consultation((("Ann",), ()))


# -- team matches ------------------------------------------------------------------------

TEAMS = (("Ann", "Bob", "Cy"), ("Dee", "Eve", "Fay"))


def win_match(match: Match, winner: int) -> None:
    """Play a 1-point match to its end: the loser resigns on their first turn."""
    game = match.new_game()
    game.roll_opening()
    while not game.over:
        if game.phase is Phase.MOVING:
            game.play(game.turn, game.legal_plays()[0])
        elif game.turn == 1 - winner:
            game.resign(game.turn)
            game.accept_resignation(winner)
        else:
            game.roll(game.turn)
    assert match.over and match.winner == winner


def test_team_match_pairs_the_players_on_three_boards() -> None:
    """RULES.md 1.8: three matches, each pairing one player of each team."""
    tm = TeamMatch(TEAMS, Settings(match_length=3), SeededDice(3))
    assert [m.players for m in tm.matches] == [("Ann", "Dee"), ("Bob", "Eve"), ("Cy", "Fay")]
    assert all(m.length == 3 for m in tm.matches)
    match, side = tm.board("Eve")
    assert (match, side) == (tm.matches[1], 1)
    with pytest.raises(TeamError):
        tm.board("Zed")
    assert (tm.wins, tm.winner, tm.over) == ((0, 0), None, False)


def test_team_winning_two_matches_wins_at_once() -> None:
    """RULES.md 1.8: the team that wins two of the three matches wins, as soon as it has."""
    tm = TeamMatch(TEAMS, Settings(match_length=1), SeededDice(4))
    win_match(tm.matches[2], 1)
    assert (tm.wins, tm.winner) == ((0, 1), None)
    win_match(tm.matches[0], 1)
    assert (tm.wins, tm.winner, tm.over) == ((0, 2), 1, True)
    assert tm.matches[1].game is None  # the third match decides nothing now


def test_team_match_decided_by_the_third_board() -> None:
    """RULES.md 1.8: with one match each, the third decides."""
    tm = TeamMatch(TEAMS, Settings(match_length=1), SeededDice(5))
    win_match(tm.matches[0], 0)
    win_match(tm.matches[1], 1)
    assert tm.winner is None
    win_match(tm.matches[2], 0)
    assert (tm.wins, tm.winner) == ((2, 1), 0)


def test_team_match_setup_is_checked() -> None:
    """RULES.md 1.8: two teams of three, playing matches (not money play)."""
    with pytest.raises(TeamError):
        TeamMatch((("Ann", "Bob"), ("Dee", "Eve")), Settings(match_length=1))
    with pytest.raises(TeamError):
        TeamMatch((("Ann", "Bob", "Cy"), ("Ann", "Eve", "Fay")), Settings(match_length=1))
    with pytest.raises(SettingsError):
        TeamMatch(TEAMS, Settings())
