"""What an accepted action costs a room (bench/load.py found these the hot spots): the match
snapshot, which grows with the match, is taken once an action, and the events message is
encoded once for everyone in the room, not once a member."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from nardy.core.match import Match
from nardy.server import protocol
from nardy.server.room.member import Member
from tests.server.gameplay import playing_room


async def _one_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with playing_room(tmp_path / "costs.sqlite3", {"match-length": 3}) as played:
        _, row, room = played
        members = [Member(row.seats[0], 0), Member(row.seats[1], 1), Member(None, None)]
        for member in members:
            await room.join(member)
            member.queue.get_nowait()  # the welcome
        calls = {"encode": 0, "snapshot": 0}
        encode, snapshot = protocol.encode, Match.snapshot

        def counting_encode(message: protocol.ServerMessage) -> str:
            calls["encode"] += 1
            return encode(message)

        def counting_snapshot(match: Match) -> dict[str, object]:
            calls["snapshot"] += 1
            return snapshot(match)

        monkeypatch.setattr(protocol, "encode", counting_encode)
        monkeypatch.setattr(Match, "snapshot", counting_snapshot)
        assert await room.act(0, {"type": "roll-opening"}) is None
        # The events are told to the room's own sockets as soon as the action is committed.
        texts = [await asyncio.wait_for(member.queue.get(), 10) for member in members]
        monkeypatch.undo()

        assert texts[0] == texts[1] == texts[2]
        assert isinstance(texts[0], str)
        heard = json.loads(texts[0])
        assert heard["type"] == "events" and heard["seq"] == 1
        assert heard["state"]["match"] == room.host.committed
        assert calls == {"encode": 1, "snapshot": 1}


def test_an_action_takes_one_snapshot_and_one_encoding_for_the_whole_room(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asyncio.run(_one_action(tmp_path, monkeypatch))
