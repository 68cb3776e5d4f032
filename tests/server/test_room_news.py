"""How a room follows its game's news in the process it lives in (nardy.server.room with
nardy.server.bus.bus), without any service: two ``Rooms`` on one SQLite file stand for two
server processes. On one in-process bus they tell each other's sockets every action once and
in order; when news is lost (separate buses), a jump in ``seq``, a gap, a socket joining or a
refused commit makes the room reload the game from the database."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from nardy.core.actions import Accept, Action, Move, Player, Resign, action_from_json
from nardy.core.match import Match
from nardy.server.bus.bus import BusDown, LocalBus, game_channel
from nardy.server.lobby.matches import Lobby
from nardy.server.lobby.tables import TableLobby
from nardy.server.room import news as n
from nardy.server.room.actor import Room
from nardy.server.room.member import Member
from nardy.server.room.registry import Rooms
from nardy.server.store.checkpoints import Committed
from nardy.server.store.store import Store, member_name
from tests.server.gameplay import public, queued, settle

ONE_POINT: dict[str, Any] = {"settings": {"match-length": 1}}


def _game(store: Store, body: dict[str, Any] = ONE_POINT) -> tuple[str, int, int]:
    """A started match between two guests (a one-point match unless ``body`` says what
    the lobby creates): its id and the two users."""
    ann = store.create_user("ann", None, {}, guest=True)
    bob = store.create_user("bob", None, {}, guest=True)
    lobby = Lobby(store)
    game = lobby.create(ann, body).game
    lobby.join(bob, game.id)
    return game.id, ann.id, bob.id


def _plain(room: Room) -> tuple[Player, Action]:
    """Whoever is to act in this room's game (a match or a table), and their first plain
    action: the first legal single move, else the opening roll, a confirmation or a roll."""
    assert room.host.held is not None
    awaiting = room.host.held.awaiting().to_json()
    for actor in awaiting["actors"]:
        seat, kinds = actor["player"], actor["actions"]
        if "move" in kinds:
            m = awaiting["moves"][0]
            return seat, Move(seat, m["from"], m["to"])
        kind = next((k for k in ("roll-opening", "confirm", "roll") if k in kinds), None)
        if kind is not None:
            return seat, action_from_json({"type": kind, "player": seat})
    raise AssertionError(f"no plain action open: {awaiting}")


def _games(room: Room) -> int:
    """How many games of the room's match or table have started."""
    held = room.host.held
    match = held if isinstance(held, Match) else getattr(held, "match", None)
    games = held.games if match is None else match.games  # a chouette's own records
    return len(games)


def _shortened(room: Room, since: int) -> tuple[Player, Action]:
    """The next action of a game cut short, so that a match has several games in a few
    hundred actions: plain actions for 60 after the game started (at action ``since``),
    then whoever may resigns a single, which is accepted."""
    assert room.host.held is not None
    for actor in room.host.held.awaiting().to_json()["actors"]:
        seat, kinds = actor["player"], actor["actions"]
        if "accept" in kinds:
            return seat, Accept(seat)
        if room.seq - since >= 60 and "resign" in kinds:
            return seat, Resign(seat, 1)
    return _plain(room)


async def _step(room: Room) -> None:
    """The next plain action in this room, accepted."""
    assert await room.act(*_plain(room)) is None


async def _two_processes(
    tmp_path: Path, body: dict[str, Any] = ONE_POINT
) -> tuple[Rooms, Rooms, Room, Room, Member, Member]:
    """One game's room held by two processes on one bus, ann's socket on the first and
    bob's on the second."""
    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    game, ann, bob = _game(store, body)
    bus = LocalBus()
    here, there = Rooms(store, bus), Rooms(store, bus)
    room_here, room_there = await here.get(game), await there.get(game)
    assert room_here is not None and room_there is not None
    a, b = Member(ann, None, "ann"), Member(bob, None, "bob")
    await room_here.join(a)
    await room_there.join(b)
    return here, there, room_here, room_there, a, b


async def _apart(tmp_path: Path) -> tuple[Rooms, Rooms, Room, Room, Member]:
    """One game's room held by two processes with no news between them (each on a bus of
    its own), ann's socket on the first, its welcome taken out."""
    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    game, ann, _ = _game(store)
    here, there = Rooms(store, LocalBus()), Rooms(store, LocalBus())
    room_here, room_there = await here.get(game), await there.get(game)
    assert room_here is not None and room_there is not None
    a = Member(ann, None, "ann")
    await room_here.join(a)
    queued(a)
    return here, there, room_here, room_there, a


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
        here, there, room_here, room_there, a = await _apart(tmp_path)
        store, game, (ann, bob) = here.store, room_here.id, room_there.row.seats
        assert ann is not None and bob is not None
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


def _timeless(snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """A snapshot without the time played, which a room reading the game counts from the
    actions' timestamps and one that followed it from its own clock."""
    kept = {k: v for k, v in snapshot.items() if k != "elapsed"}
    inner = kept.get("match")
    if isinstance(inner, Mapping):
        kept["match"] = _timeless(inner)
    return kept


def _committed(committed: Committed | None) -> object:
    """What a room holds as committed, in stored (JSON) forms."""
    if committed is None:
        return None
    checkpoint = committed.checkpoint
    parts = (_timeless(checkpoint.snapshot), checkpoint.dice, committed.actions)
    return json.loads(json.dumps(parts)), committed.seq, committed.stored


def _seen(state: dict[str, Any]) -> dict[str, Any]:
    """A viewer's state without what depends on the moment it is taken (how long the
    running clock has run) or on where the sockets are (who is absent)."""
    return {**public(state), "you": state.get("you")}


async def _as_read_again(room: Room, viewers: tuple[Player | None, ...]) -> None:
    """The room holds what a process that reads the game from the database now would:
    each viewer's state, what is committed, the clock, the row's status and result."""
    again = Rooms(room.rooms.store, LocalBus())
    fresh = await again.get(room.id)
    assert fresh is not None
    try:
        assert (room.seq, room.delivered) == (fresh.seq, fresh.seq)
        for viewer in viewers:
            assert _seen(room.state().seen_by(viewer)) == _seen(fresh.state().seen_by(viewer))
        assert room.clock.state == fresh.clock.state
        assert _committed(room.host.committed) == _committed(fresh.host.committed)
        assert (room.row.status, room.row.result) == (fresh.row.status, fresh.row.result)
    finally:
        await again.close()


def _reads(room: Room, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The actions at which this room reads its game from the database again, from now on."""
    reads: list[int] = []
    read = room._reload

    async def counted(*args: Any, **kwargs: Any) -> None:
        reads.append(room.seq)
        await read(*args, **kwargs)

    monkeypatch.setattr(room, "_reload", counted)
    return reads


async def _caught_up(*rooms: Room) -> None:
    """Wait until every room has heard the last action committed (of the first room's)."""
    for _ in range(5000):
        if all((r.seq, r.delivered) == (rooms[0].seq, rooms[0].seq) for r in rooms):
            return
        await asyncio.sleep(0.001)
    raise AssertionError(f"not caught up: {[(r.seq, r.delivered) for r in rooms]}")


def test_a_process_applies_what_another_committed_as_reading_the_game_would_leave_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A three-point match with a clock, each player acting on their own process: after
    every action the process that did not commit it holds exactly what reading the game
    from the database would give (each viewer's state, what is committed, the clock, and
    at the end the row's status and result), without reading it: across the games' starts
    (the next game's dice drawn elsewhere), the checkpoints and the end."""

    async def run() -> None:
        body = {"settings": {"match-length": 3}, "clock": "standard"}
        here, there, room_here, room_there, a, b = await _two_processes(tmp_path, body)
        await settle()
        queued(a), queued(b)
        reads = [_reads(room, monkeypatch) for room in (room_here, room_there)]
        where = {0: room_here, 1: room_there}  # each seat acts on its socket's process
        heard: list[list[int]] = [[], []]
        games, since = 0, 0
        while not room_here.over:
            if _games(room_here) != games:
                games, since = _games(room_here), room_here.seq
            seat, action = _shortened(room_here, since)
            assert await where[seat].act(seat, action) is None
            await _caught_up(room_here, room_there)
            await _as_read_again(where[1 - seat], (None, 0, 1))
            for seqs, member in zip(heard, (a, b), strict=True):
                seqs += [m["seq"] for m in queued(member) if m["type"] == "events"]
        await _as_read_again(room_here, (None, 0, 1))
        assert reads == [[], []]
        assert room_there.row.status == "finished" and room_there.row.result is not None
        assert _games(room_there) >= 3 and room_there.seq > 3 * 60
        assert heard == [list(range(1, room_here.seq + 1))] * 2
        await here.close()
        await there.close()
        here.store.close()

    asyncio.run(run())


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "chouette", "seats": 3, "settings": {}},
        {"kind": "consultation", "sides": [2, 2], "settings": {"match-length": 1}},
    ],
    ids=["chouette", "consultation"],
)
def test_a_table_on_two_processes_follows_every_action_without_reading_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: dict[str, Any]
) -> None:
    """A chouette (into its third game) or a consultation (to its end), its people's
    actions committed on either process: the other holds what reading the table again would
    give, each person's view included, and never reads it."""

    async def run() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        people = ("ann", "bob", "cat", "dan")[: 4 if "sides" in body else 3]
        users = [store.create_user(name, None, {}, guest=True) for name in people]
        lobby = TableLobby(store)
        game = lobby.create(users[0], body).id
        for user, side in zip(users[1:], (0, 1, 1), strict=False):  # the last one starts the table
            lobby.join(user, game, {"side": side} if "sides" in body else {})
        bus = LocalBus()
        here, there = Rooms(store, bus), Rooms(store, bus)
        room_here, room_there = await here.get(game), await there.get(game)
        assert room_here is not None and room_there is not None and room_here.started
        names = [member_name(user.id) for user in users]
        for user, room in zip(users, (room_here, room_there, room_there, room_here), strict=False):
            await room.join(Member(user.id, None, user.username))
        await settle()
        reads = [_reads(room, monkeypatch) for room in (room_here, room_there)]
        viewers = (None, *names)
        games, since = 0, 0
        for turn in range(400):
            if _games(room_here) != games:
                games, since = _games(room_here), room_here.seq
            if room_here.over or games > 2:
                break
            seat, action = _shortened(room_here, since)
            room, other = (room_here, room_there) if turn % 2 else (room_there, room_here)
            assert await room.act(seat, action) is None
            await _caught_up(room_here, room_there)
            await _as_read_again(other, viewers)
        else:
            raise AssertionError("the table did not get far enough")
        assert reads == [[], []] and room_there.seq > 60
        assert room_there.row.status == ("finished" if "sides" in body else "playing")
        await here.close()
        await there.close()
        store.close()

    asyncio.run(run())


@pytest.mark.parametrize("damage", ["events", "action", "checkpoint"])
def test_news_that_does_not_apply_makes_the_room_read_the_game_again(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    damage: str,
) -> None:
    """News of an action that gives other events here, names no action the core knows, or
    says no checkpoint was written where one was: the room reads the game from the database
    instead (and logs why), and its sockets get the whole state, not the news's events."""

    async def run() -> None:
        here, there, room_here, room_there, a = await _apart(tmp_path)
        store, game = here.store, room_here.id
        sent: list[n.News] = []
        monkeypatch.setattr(there, "publish", lambda game_id, news: sent.append(news))
        assert await room_there.act(*_plain(room_there)) is None
        (news,) = sent
        assert isinstance(news, n.Events) and news.checkpoint is True and news.seq == 1
        damaged = {
            "events": replace(news, events=[{"type": "game-started"}]),
            "action": replace(news, action={"type": "nonsense"}),
            "checkpoint": replace(news, checkpoint=False),
        }[damage]
        reads = _reads(room_here, monkeypatch)
        with caplog.at_level(logging.WARNING, "nardy.server.room.actor"):
            await here.bus.publish(game_channel(game), n.encode(replace(damaged, origin="else")))
            await settle()
        assert reads == [0] and "action 1 read again, not applied" in caplog.text
        (told,) = queued(a)
        assert told["type"] == "state" and told["state"]["seq"] == 1
        assert public(told["state"]) == public(room_there.state().seen_by(0))
        await _as_read_again(room_here, (None, 0, 1))
        await here.close()
        await there.close()
        store.close()

    asyncio.run(run())


def test_the_news_of_an_action_or_a_seed_reads_back_as_sent_and_refuses_damage() -> None:
    """The news of an action carries the clock after it and whether a checkpoint was written
    with it, a seed's news the seat and the seed, each read back as sent; news of an older
    server, which says neither, still reads (the follower then reads the game), and a
    damaged field is refused."""
    clock = {"reserve": [60.0, 58.5], "running": 1, "since": 1.5}
    sent: list[n.News] = [
        n.Events("p", 3, {"type": "roll", "player": 1}, [{"type": "dice-rolled"}], clock, True),
        n.Events("p", 4, {"type": "confirm", "player": 1}, [], None, False),
        n.Seeded("p", 0, 1, "bob-seed"),
    ]
    assert [n.parse(json.loads(json.dumps(n.encode(news)))) for news in sent] == sent
    old = {"kind": "events", "seq": 2, "action": {}, "events": [], "from": "p"}
    assert n.parse(old) == n.Events("p", 2, {}, [], None, None)
    assert n.parse({"kind": "seeded", "seq": 0, "from": "p"}) == n.Seeded("p", 0)
    for damaged in (
        {**old, "clock": [1, 2]},
        {**old, "checkpoint": "yes"},
        {"kind": "seeded", "seq": 0, "seat": "0", "seed": "s"},
        {"kind": "seeded", "seq": 0, "seat": 0, "seed": 7},
    ):
        with pytest.raises(n.NewsError):
            n.parse(damaged)
