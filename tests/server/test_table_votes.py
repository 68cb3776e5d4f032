"""A chouette's team vote on doubling where bots and people play together (issue 21): a bot
captain waits for the votes of the people on its team before it rolls, three times the
table's pace, and only while a person may still vote."""

from __future__ import annotations

from pathlib import Path

from nardy.core.actions import Vote
from nardy.core.chouette import TEAM, Chouette
from nardy.core.dice import SeededDice
from nardy.core.game import Phase
from nardy.server.lobby.tables import TableLobby
from nardy.server.room.table_host import VOTE_WAIT_PACES, TableHost
from nardy.server.store.store import Store, member_name


def _team_on_roll(chouette: Chouette) -> None:
    """Play each side's first legal play until the team is on roll, the cube in the middle."""
    chouette.new_game()
    game = chouette.game
    assert game is not None
    while not (game.phase is Phase.ROLL and game.turn == TEAM):
        actor = chouette.box if game.turn != TEAM else chouette.captain
        if game.phase is Phase.OPENING:
            chouette.roll_opening()
        elif game.phase is Phase.ROLL:
            chouette.roll(actor)
        else:
            chouette.play(actor, game.legal_plays()[0])
    assert game.can_double(TEAM)


def test_a_bot_captain_waits_for_a_persons_vote(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    ann = store.create_user("ann", None, {}, guest=True)
    body = {"kind": "chouette", "seats": 3, "bots": 2, "bot": "heuristic", "bot-delay-ms": 200}
    row = store.game(TableLobby(store).create(ann, body).id)
    assert row is not None
    person = member_name(ann.id)
    host = TableHost(store, row)
    host.people = {
        person: {"id": ann.id},
        "bot1": {"bot": "heuristic"},
        "bot2": {"bot": "heuristic"},
    }
    # a lot that seats the person as a team member behind a bot captain
    chouette = next(
        c
        for c in (Chouette([person, "bot1", "bot2"], dice=SeededDice(seed)) for seed in range(50))
        if c.line[1] == person
    )
    host.table = chouette
    _team_on_roll(chouette)
    captain, box = chouette.captain, chouette.box
    assert host.bot_delay(row, captain) == VOTE_WAIT_PACES * 0.2  # the person may still vote
    assert host.bot_delay(row, box) == 0.2  # the box does not wait for the team's votes
    chouette.apply(Vote(person, True))
    assert host.bot_delay(row, captain) == 0.2  # voted: nobody left to wait for
    store.close()
