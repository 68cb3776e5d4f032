"""A consultation game held by two server processes (two ``Rooms`` on one SQLite file and one
in-process bus, as in test_room_news): the table starts on both when the last person sits
down, a proposal made on one process reaches only the proposer's side on the other (the
others hear that a proposal was made, not what it was), and a table member's chat line keeps
their name at the table through the database. And a bot that lets its decision pass hands
it on to the next bot the table waits for."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from nardy.core.actions import Propose, RollOpening
from nardy.server.bus.bus import LocalBus
from nardy.server.lobby.tables import TableLobby
from nardy.server.room.actor import Room
from nardy.server.room.host import Host
from nardy.server.room.member import Member
from nardy.server.room.registry import Rooms
from nardy.server.room.table_host import TableHost
from nardy.server.store.store import Store, member_name
from tests.server.gameplay import queued, settle


def test_a_proposal_reaches_only_its_side_on_every_process(tmp_path: Path) -> None:
    async def run() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        ann, bob, cat, dan = (
            store.create_user(name, None, {}, guest=True) for name in ("ann", "bob", "cat", "dan")
        )
        lobby = TableLobby(store)
        body = {"kind": "consultation", "settings": {"match-length": 1}, "sides": [2, 2]}
        game = lobby.create(ann, body).id
        bus = LocalBus()
        here, there = Rooms(store, bus), Rooms(store, bus)
        room_here, room_there = await here.get(game), await there.get(game)
        assert room_here is not None and room_there is not None
        for user, side in ((bob, 0), (cat, 1), (dan, 1)):  # the last one starts the table
            lobby.join(user, game, {"side": side})
        await room_here.refresh()  # the lobby's join tells every process holding the room
        await settle()
        assert room_there.started and isinstance(room_there.host, TableHost)
        partner = Member(bob.id, None, "bob")  # on the other process: bob on ann's side,
        opponent = Member(cat.id, None, "cat")  # cat on the other side
        await room_there.join(partner)
        await room_there.join(opponent)
        assert (partner.seat, opponent.seat) == (member_name(bob.id), member_name(cat.id))
        queued(partner), queued(opponent)
        assert await room_here.act(member_name(ann.id), RollOpening(member_name(ann.id))) is None
        proposal = Propose(member_name(ann.id), "8/2 6/2")
        assert await room_here.act(member_name(ann.id), proposal) is None
        await settle()
        told = [m for m in queued(partner) if m["type"] == "events"]
        hidden = [m for m in queued(opponent) if m["type"] == "events"]
        assert [m["seq"] for m in told] == [m["seq"] for m in hidden] == [1, 2]
        assert told[-1]["action"]["text"] == "8/2 6/2"
        assert told[-1]["events"][0]["type"] == "proposed"
        assert hidden[-1]["action"] == {"type": "propose", "player": member_name(ann.id)}
        assert hidden[-1]["events"] == []
        # The state says the side's recent proposals to that side alone.
        mine = {"player": member_name(ann.id), "text": "8/2 6/2"}
        assert told[-1]["state"]["proposals"] == [mine]
        assert hidden[-1]["state"]["proposals"] == []
        assert room_there.state().seen_by(member_name(bob.id))["proposals"] == [mine]
        assert room_there.state().seen_by(None)["proposals"] == []
        # A member's chat line keeps their name at the table, here and after a reload.
        assert await room_there.say(partner, "a prime") is None
        await settle()
        (line,) = room_here.chat.history(ann.id, member_name(ann.id), False)
        assert line.seat == member_name(bob.id) and line.text == "a prime"
        (stored,) = store.chat_history(game, 10)
        assert stored.seat == member_name(bob.id)
        await here.close()
        await there.close()
        store.close()

    asyncio.run(run())


def test_a_bot_that_lets_its_decision_pass_hands_it_on_to_the_next_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A team member who would not double lets the vote pass; the table may be waiting for
    another bot (its captain, to roll), which is asked next, and none is asked twice."""

    async def run() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        ann = store.create_user("ann", None, {}, guest=True)
        body = {"kind": "chouette", "seats": 3, "bots": 2, "bot": "heuristic", "bot-delay-ms": 0}
        game = TableLobby(store).create(ann, body).id
        asked: list[str] = []

        def job(host: Host, row: object, player: str) -> Callable[[], None]:
            asked.append(player)
            return lambda: None  # every bot lets its decision pass

        monkeypatch.setattr(TableHost, "bot_job", job)
        monkeypatch.setattr(TableHost, "bot_waits", lambda host, player: True)
        rooms = Rooms(store, LocalBus())
        with ThreadPoolExecutor(1) as pool:
            monkeypatch.setattr(rooms, "bot_pool", lambda: pool)
            room = await rooms.get(game)
            assert isinstance(room, Room) and isinstance(room.host, TableHost)
            await settle()
            assert asked == ["bot1", "bot2"]
            await rooms.close()
        store.close()

    asyncio.run(run())
