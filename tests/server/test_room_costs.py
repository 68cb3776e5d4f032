"""What an accepted action costs a room (bench/load.py found these the hot spots): its
messages take no snapshot of the match (which grows with the match), each is encoded once
per distinct viewer (a match's two seats and its spectators, the sender's own copy with its
ref), not once a socket, and an ``events`` message stays small and the same size deep in a
long session as at its start (docs/protocol.md: no snapshot, log or records on the wire)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nardy.core.actions import RollOpening, action_from_json
from nardy.core.match import Match
from nardy.server import protocol
from nardy.server.room.actor import Room
from nardy.server.room.host import Host
from nardy.server.room.member import Member
from tests.server.gameplay import plain, playing_room, queued


@contextlib.contextmanager
def _counted(monkeypatch: pytest.MonkeyPatch, room: Room) -> Iterator[dict[str, int]]:
    """Count the encodings and the match snapshots taken other than the one the commit
    stores (Host.stored)."""
    calls = {"encode": 0, "snapshot": 0}
    encode, snapshot, stored = protocol.encode, Match.snapshot, type(room.host).stored
    storing = [False]

    def counting_encode(message: protocol.ServerMessage) -> str:
        calls["encode"] += 1
        return encode(message)

    def counting_snapshot(match: Match) -> dict[str, object]:
        calls["snapshot"] += 0 if storing[0] else 1
        return snapshot(match)

    def storing_snapshot(self: Host) -> Any:
        storing[0] = True
        try:
            return stored(self)
        finally:
            storing[0] = False

    monkeypatch.setattr(protocol, "encode", counting_encode)
    monkeypatch.setattr(Match, "snapshot", counting_snapshot)
    monkeypatch.setattr(type(room.host), "stored", storing_snapshot)
    try:
        yield calls
    finally:
        monkeypatch.undo()


async def _one_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with playing_room(tmp_path / "costs.sqlite3", {"match-length": 3}) as played:
        _, row, room = played
        first, second = row.seats
        # Two sockets of seat 0 (the first sends), one of seat 1, three spectators.
        members = [Member(first, 0), Member(first, 0), Member(second, 1)]
        members += [Member(None, None) for _ in range(3)]
        for member in members:
            await room.join(member)
        for member in members:
            queued(member)  # the welcome, and how many watch as the spectators came
        with _counted(monkeypatch, room) as calls:
            refused = await room.act(0, RollOpening(0), 7, sender=members[0].key)
            assert refused is None
            # The events are told to the room's own sockets as soon as it is committed.
            texts = [await asyncio.wait_for(member.queue.get(), 10) for member in members]
        assert all(isinstance(text, str) for text in texts)
        heard = [json.loads(str(text)) for text in texts]
        assert all(m["type"] == "events" and m["seq"] == 1 for m in heard)
        assert [m["ref"] for m in heard] == [7, None, None, None, None, None]
        assert texts[1] != texts[2] != texts[3] == texts[4] == texts[5]
        assert calls == {"encode": 4, "snapshot": 0}  # seat 0, its sender, seat 1, spectators


def test_an_actions_messages_take_no_snapshot_and_one_encoding_per_viewer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asyncio.run(_one_action(tmp_path, monkeypatch))


def test_what_each_viewer_is_told(tmp_path: Path) -> None:
    """A seat's state names its seat, side and the actions open to it; a spectator's none;
    nothing of the match's snapshot, log or records is in it."""

    async def run() -> None:
        async with playing_room(tmp_path / "viewers.sqlite3", {"match-length": 3}) as played:
            _, _, room = played
            state = room.state()
            seat0, seat1, spectator = (state.seen_by(s) for s in (0, 1, None))
            assert seat0["you"] == {"seat": 0, "side": 0, "actions": ["roll-opening"]}
            assert seat1["you"] == {"seat": 1, "side": 1, "actions": ["roll-opening"]}
            assert spectator["you"] == {"seat": None, "side": None, "actions": []}
            assert "match" not in spectator and "awaiting" not in spectator
            # no game yet: the board is the first game as the opening roll will start it
            board = spectator["board"]
            assert board["phase"] == "opening" and board["turn"] is None
            assert board["pips"] == [167, 167] and board["last-play"] is None
            assert spectator["length"] == 3 and spectator["score"] == [0, 0]
            assert spectator["kind"] == "match" and spectator["proposals"] == []
            assert await room.act(0, RollOpening(0)) is None
            state = room.state()
            mover = state.public["board"]["turn"]
            kinds = state.seen_by(mover)["you"]["actions"]
            assert "move" in kinds
            assert state.seen_by(1 - mover)["you"]["actions"] == []
            assert state.seen_by(None)["you"]["actions"] == []
            assert state.public["board"]["awaiting"]["actors"] == [
                {"player": mover, "actions": kinds}
            ]

    asyncio.run(run())


async def _long_session(tmp_path: Path, sizes: dict[int, list[int]]) -> None:
    """Play a money session by the plain policy for 620 actions, and on until its third game
    has begun (the dice are the server's, so how long a game lasts is chance); each events
    message's size by the action it tells of, for seat 0 and a spectator."""
    async with playing_room(tmp_path / "long.sqlite3", {"match-length": 0}) as played:
        _, row, room = played
        members = [Member(row.seats[0], 0), Member(row.seats[1], 1), Member(None, None)]
        for member in members:
            await room.join(member)
        states = {m.seat: queued(m)[0]["state"] for m in members}
        for done in itertools.count():
            if done >= 620 and room.match is not None and len(room.match.games) >= 3:
                break
            assert done < 5000, "three games take far fewer actions"
            mover = next(seat for seat in (0, 1) if states[seat]["you"]["actions"])
            action = action_from_json({**plain(states[mover], mover), "player": mover})
            assert await room.act(mover, action) is None
            for member in members:
                while True:
                    text = await asyncio.wait_for(member.queue.get(), 10)
                    assert isinstance(text, str)
                    message = json.loads(text)
                    if message["type"] == "events":
                        break
                states[member.seat] = message["state"]
                if member.seat != 1:
                    sizes.setdefault(message["seq"], []).append(len(text.encode()))


def test_an_events_message_stays_small_and_does_not_grow_with_the_session(
    tmp_path: Path,
) -> None:
    sizes: dict[int, list[int]] = {}
    asyncio.run(_long_session(tmp_path, sizes))
    assert max(max(s) for s in sizes.values()) < 4096
    early = [size for seq in range(1, 41) for size in sizes[seq]]
    late = [size for seq in range(580, 621) for size in sizes[seq]]
    # The same kinds of actions early and late; a snapshot, a log or the records would
    # make the late ones several times the early ones.
    assert sum(late) / len(late) < 1.25 * sum(early) / len(early)
    assert max(late) < 1.5 * max(early)
