"""Watching a game (issue 19, feature 5): anybody may watch a public game without an
account, and the players see how many watch, as spectators come and go, on every process;
a spectator hears no consultation side's proposals and cannot act, and a private game stays
shut to a visitor."""

from __future__ import annotations

import datetime
import secrets
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus

from nardy.server.lobby.http import LIVE_IDLE
from nardy.server.room.watchers import Watchers
from nardy.server.store.schema import games
from nardy.server.store.store import Store, now
from tests.server.gameplay import Seat, sit, start_game, wait_for
from tests.server.serverutil import Client, ServerProcess
from tests.server.test_multiproc import _process
from tests.server.test_multiproc import postgres_url as postgres_url  # the fixture


def _watching(seat: Seat, count: int) -> None:
    """Read ``seat``'s socket until it hears that ``count`` watch."""
    while wait_for(seat, "watching")["spectators"] != count:
        pass


def test_a_visitor_without_an_account_watches_and_the_players_see_the_count(
    server: ServerProcess,
) -> None:
    a, b, game = start_game(server)
    seats = sit(a, b, game)
    assert seats[0].state["spectators"] == 0
    visitor = Client(server)  # signed in as nobody: no cookie at all
    assert visitor.get(f"/api/games/{game}").status_code == 200
    assert any(g["id"] == game for g in visitor.get("/api/games/live").json())
    first = Seat(visitor, game)
    assert first.seat is None and first.state["you"]["actions"] == []
    assert first.state["spectators"] == 1
    for s in seats:
        _watching(s, 1)
    second = Seat(Client(server), game)
    assert second.state["spectators"] == 2
    for s in seats:
        _watching(s, 2)
    refused = first.act({"type": "roll"})
    assert refused["type"] == "refused" and refused["code"] == "spectator"
    first.close()
    for s in (*seats, second):
        _watching(s, 1)
    # A player with a second tab is no spectator.
    Seat(a, game)
    second.close()
    for s in seats:
        _watching(s, 0)


def test_a_game_nobody_moves_in_is_not_listed_to_watch(
    tmp_path: Path, database_url: str | None
) -> None:
    """A game whose players left it (no clock to end it) stays being played, but once
    nobody has moved in it for :data:`LIVE_IDLE` it is not offered to watch; a move brings
    it back. A game without a move yet counts from its start."""
    store = Store.open(database_url or f"sqlite:///{tmp_path / 'live.sqlite3'}")
    try:
        own = secrets.token_hex(4)  # PostgreSQL's database is the session's: own names
        user = store.create_user(f"w{own}", None, {}, guest=True)
        moved, left, fresh = (
            store.create_game(
                f"{name}{own}", {}, user.id, (user.id, None), status="playing", private=False
            ).id
            for name in ("moved", "left", "fresh")
        )
        for game in (moved, left):
            store.append_action(game, 0, {"type": "roll"}, [])

        def listed() -> set[str]:
            return {g.id for g in store.live_games(now() - LIVE_IDLE)} & {moved, left, fresh}

        assert listed() == {moved, left, fresh}
        long_ago = now() - LIVE_IDLE - datetime.timedelta(minutes=1)
        with store.engine.begin() as c:  # its players gone since
            c.execute(
                games.update()
                .where(games.c.id.in_([left, fresh]))
                .values(moved_at=long_ago, started_at=long_ago)
            )
        assert listed() == {moved}
        store.append_action(left, 1, {"type": "move"}, [])  # somebody came back and moved
        assert listed() == {moved, left}
        assert store.game(left).status == "playing"  # type: ignore[union-attr]
    finally:
        store.close()


def test_a_visitor_cannot_open_a_private_game(server: ServerProcess) -> None:
    a = Client(server)
    a.sign_up(f"inviter{id(a) % 10_000}")
    r = a.post("/api/games", {"settings": {"match-length": 1}, "opponent": "invite"})
    assert r.status_code == 201, r.text
    visitor = Client(server)
    assert visitor.get(f"/api/games/{r.json()['id']}").status_code == 404
    with pytest.raises(InvalidStatus):  # refused before the handshake: 403
        visitor.ws(r.json()["id"])


def test_the_count_crosses_processes(tmp_path: Path, postgres_url: str) -> None:
    first = _process(tmp_path, "first", postgres_url).start()
    second = _process(tmp_path, "second", postgres_url).start()
    try:
        a, b, game = start_game(first, other=second)
        seats = [Seat(a, game), Seat(b, game)]  # the players on two processes
        watcher = Seat(Client(second), game)  # a visitor on the second
        for s in seats:
            _watching(s, 1)
        other = Seat(Client(first), game)  # and one on the first
        assert other.state["spectators"] == 2
        for s in seats:
            _watching(s, 2)
        watcher.close()
        for s in (*seats, other):
            _watching(s, 1)
    finally:
        first.kill()
        second.kill()


def test_a_process_that_took_the_room_up_late_learns_the_others_counts() -> None:
    early, late = Watchers(), Watchers()
    assert early.counted(2) and not early.counted(2)  # a change, then none
    late.counted(1)  # its first spectator: it tells the others its count
    assert early.heard("late", 1)  # new to the early one: it answers with its own
    assert late.heard("early", 2)  # the answer, new to the late one: it tells its count again
    assert not early.heard("late", 1)  # heard before: no answer again, and it ends
    assert (early.count, late.count) == (3, 3)
    early.counted(0)
    late.heard("early", 0)  # nobody watches there now: forgotten
    assert late.count == 1 and late.elsewhere == {}
