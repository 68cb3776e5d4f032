"""How a room follows its game's news in the process it lives in (nardy.server.room with
nardy.server.bus.bus), without any service: two ``Rooms`` on one SQLite file stand for two
server processes. On one in-process bus they tell each other's sockets every action once and
in order; when news is lost (separate buses), a jump in ``seq``, a gap, a socket joining or a
refused commit makes the room reload the game from the database."""

from __future__ import annotations

import asyncio
from pathlib import Path

from nardy.core.actions import Action, Move, action_from_json
from nardy.server.bus.bus import BusDown, LocalBus, game_channel
from nardy.server.lobby.matches import Lobby
from nardy.server.room.actor import Room
from nardy.server.room.member import Member
from nardy.server.room.registry import Rooms
from nardy.server.store.store import Store
from tests.server.gameplay import public, queued, settle


def _game(store: Store) -> tuple[str, int, int]:
    """A started one-point match between two guests: its id and the two users."""
    ann = store.create_user("ann", None, {}, guest=True)
    bob = store.create_user("bob", None, {}, guest=True)
    lobby = Lobby(store)
    game = lobby.create(ann, {"settings": {"match-length": 1}}).game
    lobby.join(bob, game.id)
    return game.id, ann.id, bob.id


def _plain(room: Room) -> tuple[int, Action]:
    """Whoever is to act in this room's match, and their first plain action."""
    assert room.match is not None
    awaiting = room.match.awaiting().to_json()
    seat = awaiting["actors"][0]["player"]
    kinds = awaiting["actors"][0]["actions"]
    if "move" in kinds:
        m = awaiting["moves"][0]
        return seat, Move(seat, m["from"], m["to"])
    kind = next(k for k in ("roll-opening", "confirm", "roll") if k in kinds)
    return seat, action_from_json({"type": kind, "player": seat})


async def _step(room: Room) -> None:
    """The next plain action in this room, accepted."""
    assert await room.act(*_plain(room)) is None


async def _two_processes(
    tmp_path: Path,
) -> tuple[Rooms, Rooms, Room, Room, Member, Member]:
    """One game's room held by two processes on one bus, ann's socket on the first and
    bob's on the second."""
    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    game, ann, bob = _game(store)
    bus = LocalBus()
    here, there = Rooms(store, bus), Rooms(store, bus)
    room_here, room_there = await here.get(game), await there.get(game)
    assert room_here is not None and room_there is not None
    a, b = Member(ann, None, "ann"), Member(bob, None, "bob")
    await room_here.join(a)
    await room_there.join(b)
    return here, there, room_here, room_there, a, b


def test_two_processes_on_one_bus_hear_every_action_once_in_order(tmp_path: Path) -> None:
    async def run() -> None:
        here, there, room_here, room_there, a, b = await _two_processes(tmp_path)
        for _ in range(8):  # actions committed on either side
            await _step(room_here if _plain(room_here)[0] == 0 else room_there)
            await settle()
        for member, room in ((a, room_here), (b, room_there)):
            heard = queued(member)
            assert heard[0]["type"] == "welcome" and member.seat == (0 if member is a else 1)
            seqs = [m["seq"] for m in heard if m["type"] == "events"]
            assert seqs == list(range(1, 9))
            assert room.seq == 8
        assert public(room_here.state().seen_by(None)) == public(room_there.state().seen_by(None))
        await here.close()
        await there.close()
        here.store.close()

    asyncio.run(run())


def test_lost_news_a_gap_a_join_or_a_refused_commit_reload_from_the_database(
    tmp_path: Path,
) -> None:
    async def run() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        game, ann, bob = _game(store)
        here, there = Rooms(store, LocalBus()), Rooms(store, LocalBus())  # no news between
        room_here, room_there = await here.get(game), await there.get(game)
        assert room_here is not None and room_there is not None
        a = Member(ann, None, "ann")
        await room_here.join(a)
        queued(a)
        # Two actions elsewhere; only the news of the second arrives: a jump in seq.
        await _step(room_there)
        await _step(room_there)
        assert room_here.seq == 0
        news = {"kind": "events", "seq": 2, "action": {}, "events": [], "from": "elsewhere"}
        await here.bus.publish(game_channel(game), news)
        await settle()
        (reloaded,) = queued(a)
        assert reloaded["type"] == "state"
        assert public(reloaded["state"]) == public(room_there.state().seen_by(None))
        assert room_here.seq == 2
        # An action committed elsewhere, unheard: a commit here is refused and reloads.
        await _step(room_there)
        refused = await room_here.act(*_plain(room_here))  # legal in what it knew
        assert refused is not None and refused.code == "busy"
        assert room_here.seq == 3 and public(room_here.state().seen_by(None)) == public(
            room_there.state().seen_by(None)
        )
        # Another, unheard: a socket joining sees it (the process catches up first).
        await _step(room_there)
        late = Member(bob, None, "bob")
        await room_here.join(late)
        (welcome,) = queued(late)
        assert welcome["state"]["seq"] == 4 == room_here.seq and late.seat == 1
        # A gap on the bus (Redis was away): the whole state again, chat included.
        line = store.add_chat_line(game, bob, "bob", 1, "said while we were apart")
        await _step(room_there)
        await here.bus.publish(game_channel(game), {"kind": "gap"})
        await settle()
        heard = queued(a)
        # the line said meanwhile reaches the socket too, then the state
        assert [m["type"] for m in heard] == ["chat", "state"] and heard[1]["state"]["seq"] == 5
        assert heard[0]["text"] == line.text
        assert [said.text for said in room_here.chat.history(ann, 0, False)] == [line.text]
        await here.close()
        await there.close()
        store.close()

    asyncio.run(run())


def test_no_room_and_no_channel_for_a_game_that_does_not_exist(tmp_path: Path) -> None:
    async def run() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        rooms = Rooms(store, LocalBus())
        assert await rooms.get("nosuchgame") is None
        assert await rooms.get("not a game/../id") is None  # nor a name a channel may have
        assert rooms.bus.channels == frozenset() and rooms.rooms == {}
        await rooms.close()
        store.close()

    asyncio.run(run())


def test_an_action_just_after_a_seed_reaches_every_socket_as_its_events(tmp_path: Path) -> None:
    """A player's seed changes the dice's commitment, not the numbering of the actions: the
    action committed right after it reaches every socket, on either process, as its
    ``events`` (it used to be swallowed by the reload the seed's news caused)."""

    async def run() -> None:
        here, there, room_here, _, a, b = await _two_processes(tmp_path)
        await settle()
        queued(a), queued(b)
        assert await room_here.contribute(0, "ann-seed") is None
        await _step(room_here)  # at once, while the seed's news is on its way
        await settle()
        for member in (a, b):
            heard = queued(member)
            assert [m["seq"] for m in heard if m["type"] == "events"] == [1], heard
            assert heard[-1]["state"]["seq"] == 1
            if member is a:  # the seed shown here at once, before the action
                assert heard[0]["type"] == "state" and heard[0]["state"]["seq"] == 0
                assert "ann-seed" in str(heard[0]["state"]["dice"])
        await here.close()
        await there.close()
        here.store.close()

    asyncio.run(run())


class FlakyBus(LocalBus):
    """An in-process bus that can be down, as a Redis that is away: publishing fails at once
    and nothing passes."""

    down = False

    @property
    def healthy(self) -> bool:
        return not self.down and super().healthy

    async def _publish(self, name: str, text: str) -> None:
        if self.down:
            raise BusDown("down")
        await super()._publish(name, text)


def test_with_the_bus_down_a_process_tells_its_sockets_and_the_others_read_the_database(
    tmp_path: Path,
) -> None:
    """The bus down: an action reaches the sockets of its own process at once, the other
    process's by its poll of the game's row; a chat line said meanwhile reaches them once the
    bus is back (the sender tells the others a gap). Nothing is lost."""

    async def run() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        game, ann, bob = _game(store)
        bus = FlakyBus()
        here, there = Rooms(store, bus, poll_seconds=0.05), Rooms(store, bus, poll_seconds=0.05)
        room_here, room_there = await here.get(game), await there.get(game)
        assert room_here is not None and room_there is not None
        a, b = Member(ann, None, "ann"), Member(bob, None, "bob")
        await room_here.join(a)
        await room_there.join(b)
        await settle()
        queued(a), queued(b)
        bus.down = True
        await _step(room_here)
        assert [m["type"] for m in queued(a)] == ["events"]  # at once, not through the bus
        await settle()
        (polled,) = queued(b)
        assert polled["type"] == "state" and polled["state"]["seq"] == 1 == room_there.seq
        assert await room_there.say(b, "are you there?") is None
        assert [m["type"] for m in queued(b)] == ["chat"]
        await settle()
        assert queued(a) == []
        bus.down = False
        await settle()
        heard = queued(a)
        assert [m["type"] for m in heard] == ["chat", "state"]
        assert heard[0]["text"] == "are you there?" and heard[1]["state"]["seq"] == 1
        await _step(room_there)  # and the news flows again
        await settle()
        assert [m["seq"] for m in queued(a) if m["type"] == "events"] == [2]
        await here.close()
        await there.close()
        store.close()

    asyncio.run(run())
