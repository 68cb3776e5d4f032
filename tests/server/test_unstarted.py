"""A match being played whose opening roll nobody makes (a rematch nobody starts, a game both
players left before it began) is withdrawn after a while, on every process holding its room,
and leaves the live list (issue 21); a match that was rolled in time goes on."""

from __future__ import annotations

import asyncio
import datetime
from pathlib import Path

import pytest

from nardy.core.actions import RollOpening
from nardy.server.bus.bus import LocalBus
from nardy.server.games import GameStatus
from nardy.server.lobby.http import LIVE_IDLE
from nardy.server.lobby.matches import Lobby
from nardy.server.room import actor
from nardy.server.room.member import Member
from nardy.server.room.registry import Rooms
from nardy.server.store.schema import games
from nardy.server.store.store import GameRow, Store, now
from tests.server.gameplay import queued, settle


def _started_matches(tmp_path: Path, count: int) -> tuple[Store, list[GameRow]]:
    """A store with ``count`` one-point matches of ann's that bob joined: started, nobody
    has rolled."""
    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    ann, bob = (store.create_user(name, None, {}, guest=True) for name in ("ann", "bob"))
    lobby = Lobby(store)
    started = []
    for _ in range(count):
        game = lobby.create(ann, {"settings": {"match-length": 1}, "opponent": "open"}).game
        started.append(lobby.join(bob, game.id))
    return store, started


def test_a_match_nobody_starts_is_withdrawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(actor, "UNSTARTED_EXPIRY_S", 0.3)

    async def run() -> None:
        store, matches = _started_matches(tmp_path, 2)
        idle, rolled = (g.id for g in matches)
        bob = store.user_by_name("bob")
        assert bob is not None
        bus = LocalBus()
        here, there = Rooms(store, bus), Rooms(store, bus)
        room_here, room_there = await here.get(idle), await there.get(idle)
        assert room_here is not None and room_there is not None
        watcher = Member(bob.id, None, "bob")  # bob's socket on the other process
        await room_there.join(watcher)
        queued(watcher)
        other = await here.get(rolled)
        assert other is not None
        assert await other.act(0, RollOpening(0)) is None  # this one is rolled in time
        await asyncio.sleep(0.4)
        await settle()
        row = store.game(idle)
        assert row is not None and row.status == GameStatus.CANCELLED
        told = [m["state"]["status"] for m in queued(watcher) if m["type"] == "state"]
        assert told and told[-1] == GameStatus.CANCELLED  # the other process heard it
        assert room_there.row.status == GameStatus.CANCELLED
        # a roll sent late, on either process, hears that the game is gone, not to try again
        for room in (room_here, room_there):
            refused = await room.act(0, RollOpening(0))
            assert refused is not None and refused.code == "game-over", refused
        going = store.game(rolled)
        assert going is not None and going.status == GameStatus.PLAYING
        assert [g.id for g in store.live_games(now() - LIVE_IDLE)] == [rolled]
        await here.close()
        await there.close()
        store.close()

    asyncio.run(run())


def test_the_wait_counts_from_the_start_not_from_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(actor, "UNSTARTED_EXPIRY_S", 60.0)

    async def run() -> None:
        store, (started,) = _started_matches(tmp_path, 1)
        assert started.started_at is not None
        # The server comes back after its players waited longer than the expiry.
        with store.engine.begin() as c:
            c.execute(
                games.update()
                .where(games.c.id == started.id)
                .values(started_at=started.started_at - datetime.timedelta(seconds=61))
            )
        rooms = Rooms(store, LocalBus())
        assert await rooms.get(started.id) is not None
        await asyncio.sleep(0.2)
        await settle()
        row = store.game(started.id)
        assert row is not None and row.status == GameStatus.CANCELLED
        await rooms.close()
        store.close()

    asyncio.run(run())
