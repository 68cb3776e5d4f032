"""The event bus (issue 10, item 8): one suite run against the in-process bus and the Redis
bus, so both behave the same — per-channel order, a copy per subscriber, channels apart,
subscribe-then-publish never lost, bad messages refused — plus what only Redis has: two
processes on one Redis, and reconnection after a dropped connection or an outage, which
hands each subscription a Gap.

Redis is at ``NARDY_TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379/0``); without one the
Redis half is skipped with the reason, and with ``CI=true`` it fails instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
import redis
import redis.asyncio as aioredis

from nardy.server.bus.bus import (
    PREFIX,
    Bus,
    BusDown,
    BusError,
    Gap,
    LocalBus,
    Message,
    RedisBus,
    bus_from_url,
    game_channel,
)

REDIS_URL = os.environ.get("NARDY_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_available() -> None:
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        reason = f"Redis is not reachable at {REDIS_URL} (NARDY_TEST_REDIS_URL): {exc}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


def unique(name: str = "game") -> str:
    """A channel no other test (or other run on the same Redis) uses."""
    return f"test-{uuid.uuid4().hex[:12]}:{name}"


BusFactory = Callable[[], Bus]


@pytest.fixture(params=["local", "redis"])
def make_bus(request: pytest.FixtureRequest) -> BusFactory:
    """A factory of buses of one kind. Two local buses share nothing (they are two
    processes without Redis), so the cross-bus tests are Redis-only."""
    if request.param == "redis":
        redis_available()
        return lambda: RedisBus(REDIS_URL, name=f"nardy-test-{uuid.uuid4().hex[:8]}")
    return LocalBus


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 30))


@contextlib.asynccontextmanager
async def opened(make_bus: BusFactory) -> AsyncIterator[Bus]:
    bus = make_bus()
    try:
        yield bus
    finally:
        await bus.close()


def test_messages_arrive_in_order(make_bus: BusFactory) -> None:
    async def scenario() -> None:
        async with opened(make_bus) as bus:
            name = unique()
            async with await bus.subscribe(name) as sub:
                for i in range(500):
                    await bus.publish(name, {"seq": i, "event": {"type": "dice-rolled"}})
                got = [await sub.get(5) for _ in range(500)]
            assert all(isinstance(m, Message) and m.channel == PREFIX + name for m in got)
            assert [m.data["seq"] for m in got if isinstance(m, Message)] == list(range(500))

    run(scenario)


def test_every_subscriber_gets_its_own_copy(make_bus: BusFactory) -> None:
    async def scenario() -> None:
        async with opened(make_bus) as bus:
            name = unique()
            first, second = await bus.subscribe(name), await bus.subscribe(name)
            await bus.publish(name, {"moves": [[24, 18]]})
            a, b = await first.get(5), await second.get(5)
            assert isinstance(a, Message) and isinstance(b, Message)
            a.data["moves"].append("changed")
            assert b.data == {"moves": [[24, 18]]}
            await first.close()
            await bus.publish(name, {"n": 2})
            assert await second.get(5) == Message(PREFIX + name, {"n": 2})
            assert bus.channels == {PREFIX + name}
            await second.close()
            assert bus.channels == frozenset()

    run(scenario)


def test_channels_are_kept_apart(make_bus: BusFactory) -> None:
    async def scenario() -> None:
        async with opened(make_bus) as bus:
            one, two = unique("1"), unique("2")
            sub_one, sub_two = await bus.subscribe(one), await bus.subscribe(two)
            await bus.publish(two, {"for": "two"})
            await bus.publish(one, {"for": "one"})
            assert (await sub_one.get(5)) == Message(PREFIX + one, {"for": "one"})
            assert (await sub_two.get(5)) == Message(PREFIX + two, {"for": "two"})
            with pytest.raises(TimeoutError):
                await sub_one.get(0.2)

    run(scenario)


def test_what_was_published_before_subscribing_is_not_received(make_bus: BusFactory) -> None:
    async def scenario() -> None:
        async with opened(make_bus) as bus:
            name = unique()
            await bus.publish(name, {"early": True})
            sub = await bus.subscribe(name)
            await bus.publish(name, {"early": False})  # right after subscribe returns
            assert await sub.get(5) == Message(PREFIX + name, {"early": False})

    run(scenario)


def test_two_publishers_each_keep_their_order(make_bus: BusFactory) -> None:
    async def scenario() -> None:
        async with opened(make_bus) as bus:
            name = unique()
            sub = await bus.subscribe(name)

            async def publisher(who: str) -> None:
                for i in range(100):
                    await bus.publish(name, {"who": who, "seq": i})

            await asyncio.gather(publisher("a"), publisher("b"))
            got = [await sub.get(5) for _ in range(200)]
            for who in "ab":
                seqs = [
                    m.data["seq"] for m in got if isinstance(m, Message) and m.data["who"] == who
                ]
                assert seqs == list(range(100))

    run(scenario)


@pytest.mark.parametrize(
    "message",
    [{"x": {1, 2}}, {"x": float("nan")}, ["not", "an", "object"], "text", {"x": object()}],
)
def test_a_message_that_is_not_a_json_object_is_refused(make_bus: BusFactory, message: Any) -> None:
    async def scenario() -> None:
        async with opened(make_bus) as bus:
            name = unique()
            sub = await bus.subscribe(name)
            with pytest.raises(BusError):
                await bus.publish(name, message)
            with pytest.raises(TimeoutError):
                await sub.get(0.2)  # nothing was sent

    run(scenario)


@pytest.mark.parametrize("name", ["", "has space", "x" * 300, "game/1", "ünï"])
def test_bad_channel_names_are_refused(make_bus: BusFactory, name: str) -> None:
    async def scenario() -> None:
        async with opened(make_bus) as bus:
            with pytest.raises(BusError):
                await bus.subscribe(name)
            with pytest.raises(BusError):
                await bus.publish(name, {})
            assert bus.channels == frozenset()

    run(scenario)


def test_closing_ends_the_subscriptions(make_bus: BusFactory) -> None:
    async def scenario() -> None:
        bus = make_bus()
        name = unique()
        sub = await bus.subscribe(name)
        received: list[Any] = []

        async def consume() -> None:
            async for item in sub:
                received.append(item)

        consumer = asyncio.create_task(consume())
        await bus.publish(name, {"n": 1})
        while not received:
            await asyncio.sleep(0.01)
        await bus.close()
        await asyncio.wait_for(consumer, 5)  # the async for ended
        assert received == [Message(PREFIX + name, {"n": 1})]
        with pytest.raises(BusError):
            await sub.get()
        with pytest.raises(BusError, match="closed"):
            await bus.publish(name, {})
        with pytest.raises(BusError, match="closed"):
            await bus.subscribe(name)

    run(scenario)


def test_game_channels() -> None:
    assert game_channel(42) == "nardy:game:42" == game_channel("42")
    with pytest.raises(BusError):
        game_channel("4 2")


def test_bus_from_url() -> None:
    assert isinstance(bus_from_url(None), LocalBus)
    bus = bus_from_url("redis://127.0.0.1:6379/0")
    assert isinstance(bus, RedisBus)
    asyncio.run(bus.close())


# -- Redis only: between processes, and losing the connection ---------------------------------


@pytest.fixture
def redis_url() -> str:
    redis_available()
    return REDIS_URL


def test_two_processes_share_a_channel(redis_url: str) -> None:
    """A subscriber here, a publisher in another Python process."""

    async def scenario() -> None:
        async with RedisBus(redis_url, name="nardy-test-receiver") as bus:
            name = unique()
            sub = await bus.subscribe(name)
            code = (
                "import asyncio, sys\n"
                "from nardy.server.bus.bus import RedisBus\n"
                "async def main():\n"
                "    async with RedisBus(sys.argv[1]) as bus:\n"
                "        for i in range(20):\n"
                "            await bus.publish(sys.argv[2], {'seq': i})\n"
                "asyncio.run(main())\n"
            )
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-c", code, redis_url, name, env={**os.environ}
            )
            assert await process.wait() == 0
            got = [await sub.get(5) for _ in range(20)]
            assert [m.data["seq"] for m in got if isinstance(m, Message)] == list(range(20))

    run(scenario)


async def kill_clients(url: str, name: str) -> int:
    """Close the server side of every connection called ``name`` (only this test's)."""
    admin = aioredis.Redis.from_url(url)
    try:
        clients = await admin.client_list()
        ids = [c["id"] for c in clients if c.get("name") == name]
        for client_id in ids:
            await admin.client_kill_filter(_id=client_id)
        return len(ids)
    finally:
        await admin.aclose()


def test_a_dropped_connection_reconnects_and_reports_a_gap(redis_url: str) -> None:
    async def scenario() -> None:
        bus_name = f"nardy-test-{uuid.uuid4().hex[:8]}"
        async with RedisBus(redis_url, name=bus_name) as receiver, RedisBus(redis_url) as sender:
            one, two = unique("1"), unique("2")
            sub_one, also_one, sub_two = (
                await receiver.subscribe(one),
                await receiver.subscribe(one),
                await receiver.subscribe(two),
            )
            await sender.publish(one, {"n": 1})
            assert (await sub_one.get(5)) == Message(PREFIX + one, {"n": 1})
            assert (await also_one.get(5)) == Message(PREFIX + one, {"n": 1})
            assert await kill_clients(redis_url, f"{bus_name}-sub") == 1
            for sub, name in ((sub_one, one), (also_one, one), (sub_two, two)):
                assert await sub.get(10) == Gap(PREFIX + name)
            assert receiver.reconnects == 1
            await sender.publish(one, {"n": 2})
            await sender.publish(two, {"n": 3})
            assert (await sub_one.get(5)) == Message(PREFIX + one, {"n": 2})
            assert (await also_one.get(5)) == Message(PREFIX + one, {"n": 2})
            assert (await sub_two.get(5)) == Message(PREFIX + two, {"n": 3})
            # the publishing connection dropped: redis-py's retry sends the message anyway
            await receiver.publish(two, {"n": 4})
            assert (await sub_two.get(5)) == Message(PREFIX + two, {"n": 4})
            assert await kill_clients(redis_url, bus_name) == 1
            await receiver.publish(two, {"n": 5})
            assert (await sub_two.get(5)) == Message(PREFIX + two, {"n": 5})
            assert receiver.reconnects == 1  # the receiving side did not notice

    run(scenario)


class Outage:
    """A TCP relay to Redis that can go down (closing its connections and refusing new
    ones) and come back on the same port: Redis unreachable for a while."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []

    async def up(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def down(self) -> None:
        assert self._server is not None
        self._server.close()
        for writer in self._writers:
            writer.close()
        self._writers.clear()
        await self._server.wait_closed()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        self._writers += [writer, up_writer]

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))


def address(url: str) -> tuple[str, int]:
    parsed = redis.connection.parse_url(url)
    return parsed.get("host", "127.0.0.1"), int(parsed.get("port", 6379))


def test_an_outage_is_bridged_once_redis_is_back(redis_url: str) -> None:
    async def scenario() -> None:
        outage = Outage(address(redis_url))
        await outage.up()
        async with (
            RedisBus(f"redis://127.0.0.1:{outage.port}/0", retry_delays=(0.05, 0.1)) as bus,
            RedisBus(redis_url) as sender,
        ):
            name = unique()
            sub = await bus.subscribe(name)
            await sender.publish(name, {"n": 1})
            assert (await sub.get(5)) == Message(PREFIX + name, {"n": 1})
            await outage.down()
            await asyncio.sleep(0.5)  # the bus tries, and fails, to reconnect meanwhile
            await sender.publish(name, {"n": "lost"})  # nobody is listening: Redis drops it
            assert not bus.healthy  # the breaker is open: publishing fails at once
            began = time.monotonic()
            with pytest.raises(BusDown):
                await bus.publish(name, {"n": "refused"})
            assert time.monotonic() - began < 0.1
            await outage.up()
            assert await sub.get(10) == Gap(PREFIX + name)
            assert bus.healthy
            assert bus.reconnects == 1
            await sender.publish(name, {"n": 3})
            await bus.publish(name, {"n": 4})  # publishing through the relay works again
            assert (await sub.get(5)) == Message(PREFIX + name, {"n": 3})
            assert (await sub.get(5)) == Message(PREFIX + name, {"n": 4})

    run(scenario)


def test_a_foreign_message_is_dropped_and_reading_goes_on(redis_url: str) -> None:
    """Something else publishing text that is not JSON on a server channel: dropped, with
    no gap, and the next message arrives."""

    async def scenario() -> None:
        async with RedisBus(redis_url) as bus:
            name = unique()
            sub = await bus.subscribe(name)
            raw = aioredis.Redis.from_url(redis_url)
            await raw.publish(PREFIX + name, b"\xff not json")
            await raw.publish(PREFIX + name, b"[1, 2]")
            await raw.aclose()
            await bus.publish(name, {"n": 1})
            assert (await sub.get(5)) == Message(PREFIX + name, {"n": 1})
            assert bus.reconnects == 0

    run(scenario)


def test_publishes_started_in_order_arrive_in_order(make_bus: BusFactory) -> None:
    """Many tasks publishing on one channel at once (as several sockets of one room might):
    the messages arrive in the order the publish calls began, whichever connection of the
    pool each one took."""

    async def scenario() -> None:
        async with opened(make_bus) as bus:
            name = unique()
            sub = await bus.subscribe(name)
            await asyncio.gather(*(bus.publish(name, {"seq": i}) for i in range(300)))
            got = [await sub.get(5) for _ in range(300)]
            assert [m.data["seq"] for m in got if isinstance(m, Message)] == list(range(300))

    run(scenario)
