"""Nothing a client sends crashes a room or changes it wrongly (issue 10 point 7): hypothesis
sends rooms sequences of messages, legal and not, from both seats and spectators, and checks
after each one that the room still answers, a refused message changed nothing, an accepted
action was open to its sender, and the database holds exactly the room's state."""

from __future__ import annotations

import asyncio
import json
import secrets
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardy.core.match import Match
from nardy.server import protocol
from nardy.server.room.member import Member
from nardy.server.room.registry import host_for
from tests.server.gameplay import playing_room

KINDS = [
    "roll-opening", "roll", "move", "undo", "confirm", "play", "double", "take", "pass",
    "beaver", "resign", "accept", "decline", "surrender", "choose-double", "vote", "leave",
    "propose", "nonsense",
]  # fmt: skip
values = st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=12)


@st.composite
def messages(draw: st.DrawFn) -> tuple[int | None, str]:
    """A seat (0, 1 or None for a spectator) and the raw text it sends."""
    sender = draw(st.sampled_from([0, 1, 1, 0, None]))
    choice = draw(st.integers(0, 9))
    if choice == 0:  # garbage
        return sender, draw(st.text(max_size=40))
    if choice == 1:  # any JSON object
        obj = draw(st.dictionaries(st.sampled_from(["type", "action", "ref", "x"]), values))
        return sender, json.dumps(obj)
    action: dict[str, Any] = {"type": draw(st.sampled_from(KINDS))}
    for name in draw(st.sets(st.sampled_from(["from", "to", "level", "die", "moves", "player"]))):
        action[name] = draw(values)
    return sender, json.dumps({"type": "action", "action": action})


def _public(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in snapshot.items() if k != "elapsed"}


@st.composite
def sessions(draw: st.DrawFn) -> list[tuple[int | None, str | None]]:
    """Messages, some replaced by None: "send an action the room waits for now"."""
    return draw(st.lists(st.one_of(messages(), st.just((None, None))), min_size=1, max_size=60))


def _open_action(room_match: Match, seat: int | None) -> tuple[int, str]:
    awaiting = room_match.awaiting()
    player, kinds = awaiting.actors[0]
    assert isinstance(player, int)
    if "move" in kinds:
        move = awaiting.moves[0]
        action: dict[str, Any] = {"type": "move", "from": move.start, "to": move.end}
    else:
        action = {"type": next(k for k in kinds if k not in ("resign", "double", "surrender"))}
    return player, json.dumps({"type": "action", "action": action})


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(session=sessions(), variant=st.sampled_from(["backgammon", "long", "acey-deucey"]))
def test_no_message_crashes_a_room_or_changes_it_wrongly(
    tmp_path: Path, session: list[tuple[int | None, str | None]], variant: str
) -> None:
    asyncio.run(_run(tmp_path, session, variant))


async def _run(tmp_path: Path, session: list[tuple[int | None, str | None]], variant: str) -> None:
    path = tmp_path / f"{secrets.token_hex(6)}.sqlite3"
    async with playing_room(path, {"variant": variant, "match-length": 3}) as played:
        store, row, room = played
        assert room.match is not None
        watcher = Member(None, None)
        await room.join(watcher)
        for sender, text in session:
            if text is None:
                sender, text = _open_action(room.match, sender)
            before, seq = _public(room.match.snapshot()), room.seq
            awaiting = room.match.awaiting()
            try:
                message = protocol.parse(text)
            except protocol.ProtocolError:
                continue
            if not isinstance(message, protocol.ActionMessage):
                continue  # an action the core cannot read is refused as it is parsed
            refused = await room.act(sender, message.action, named=message.named)
            if refused is not None:
                assert refused.code != "internal-error", refused
                assert room.seq == seq
                assert _public(room.match.snapshot()) == before
                continue
            assert room.seq == seq + 1
            assert sender is not None and message.action.kind in awaiting.kinds(sender)
            stored = store.game(row.id)
            assert stored is not None and stored.seq == room.seq
            # Restored from its checkpoint and the actions since, the match is the live one.
            fresh = host_for(store, stored)  # the host of a room built from the database
            await fresh.load(stored, None)
            restored = fresh.match
            assert restored is not None
            assert _public(restored.snapshot()) == _public(room.match.snapshot())
            assert restored.awaiting() == room.match.awaiting()
