"""A room member's outgoing queue ends with the code its socket closes with: 1000 when the
client left normally, 1008 for a client that broke the protocol's rules, 1013 for one that
fell too far behind."""

from __future__ import annotations

import asyncio

from nardy.server import protocol
from nardy.server.room.member import (
    NORMAL_CLOSURE,
    POLICY_VIOLATION,
    QUEUE_LIMIT,
    TRY_AGAIN_LATER,
    Member,
)


def _drain(member: Member) -> list[str | int]:
    items: list[str | int] = []
    while not member.queue.empty():
        items.append(member.queue.get_nowait())
    return items


def test_a_normal_end_closes_with_1000_after_what_is_queued() -> None:
    async def run() -> list[str | int]:
        member = Member(1, 0, "ann")
        member.send(protocol.Pong(7))
        member.finish()
        return _drain(member)

    queued = asyncio.run(run())
    assert queued[-1] == NORMAL_CLOSURE == 1000
    assert queued[:-1] == [protocol.encode(protocol.Pong(7))]


def test_abuse_closes_with_1008_and_a_slow_reader_with_1013() -> None:
    async def run() -> tuple[list[str | int], list[str | int]]:
        abuser = Member(1, 0, "ann")
        abuser.send(protocol.Error("malformed", "no", None))
        abuser.finish(POLICY_VIOLATION)
        slow = Member(2, 1, "bob")
        for n in range(QUEUE_LIMIT + 1):  # one more than it may fall behind by
            slow.send(protocol.Pong(n))
        return _drain(abuser), _drain(slow)

    abuser, slow = asyncio.run(run())
    assert abuser[-1] == POLICY_VIOLATION == 1008
    assert slow == [TRY_AGAIN_LATER] and TRY_AGAIN_LATER == 1013  # nothing more is sent
