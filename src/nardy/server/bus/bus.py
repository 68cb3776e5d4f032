"""The event bus between the server's rooms and sockets (issue 10, item 8).

A room publishes each game's events on the game's channel after they are committed; every
socket that shows that game, in this process or another, subscribes to the channel. Two
implementations behave the same: :class:`LocalBus` within one process (no ``--redis-url``)
and :class:`RedisBus` between processes, over Redis publish/subscribe.

- Messages are JSON objects; both buses send them as JSON text, so a message that is not JSON
  is refused at ``publish`` by either, and every subscriber gets its own copy.
- Each subscription receives a channel's messages from the moment ``subscribe`` returns, in
  the order the ``publish`` calls of one process began. Messages from two processes have no
  order between them: where that matters, a message carries its place in the game (the
  number of the action the database committed), and the receiver puts them in order.
- Redis publish/subscribe keeps nothing: a subscriber whose connection drops misses what was
  published meanwhile. :class:`RedisBus` reconnects by itself, subscribes again, and hands each
  subscription a :class:`Gap`, so that the room or socket reloads the game from the database
  (which holds every committed action) instead of showing a state with events missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any, Self

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

PREFIX = "nardy:"
"""Every channel's name starts with this, so that the server's traffic is recognisable (and
kept apart from anything else on a shared Redis)."""

_CHANNEL = re.compile(r"[A-Za-z0-9_.:\-]{1,200}")


class BusError(Exception):
    """A message that is not a JSON object, a bad channel name, or a closed bus."""


class BusDown(BusError):
    """The bus cannot reach its Redis now: the message was not sent."""


def game_channel(game_id: str | int) -> str:
    """The channel of one game's events."""
    return channel(f"game:{game_id}")


def channel(name: str) -> str:
    """A channel of the server (the lobby's, a user's), checked and prefixed."""
    own = name.removeprefix(PREFIX) if isinstance(name, str) else name
    if not (isinstance(own, str) and _CHANNEL.fullmatch(own)):
        raise BusError(f"a channel is 1-200 letters, digits and _.:-, not {name!r}")
    return PREFIX + own


@dataclass(frozen=True)
class Message:
    """One message published on ``channel``."""

    channel: str
    data: dict[str, Any]


@dataclass(frozen=True)
class Gap:
    """The bus lost its connection to Redis and is back: messages of ``channel`` published
    in between may be missing. Reload the game from the database."""

    channel: str


Delivery = Message | Gap


def encode(message: Mapping[str, Any]) -> str:
    """The JSON text of a message (a JSON object), or :class:`BusError`."""
    if not isinstance(message, Mapping):
        raise BusError(f"a message is a JSON object, not {type(message).__name__}")
    try:
        return json.dumps(message, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise BusError(f"a message must be JSON: {exc}") from None


class _ClosedAtTheEnd:
    """``async with`` closes it at the end of the block."""

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()


class Subscription(_ClosedAtTheEnd):
    """What one subscriber receives from one channel, in order: iterate with ``async for``
    or ``await get()``. Use as an ``async with`` block, which unsubscribes at its end."""

    def __init__(self, bus: Bus, name: str) -> None:
        self.channel = name
        self._bus = bus
        self._queue: asyncio.Queue[Delivery | None] = asyncio.Queue()
        self.closed = False

    def _deliver(self, item: Delivery) -> None:
        if not self.closed:
            self._queue.put_nowait(item)

    async def get(self, timeout: float | None = None) -> Delivery:
        """The next message (or gap); :class:`TimeoutError` after ``timeout`` seconds, and
        :class:`BusError` once the subscription or the bus is closed."""
        if self.closed and self._queue.empty():
            raise BusError(f"the subscription to {self.channel} is closed")
        item = await asyncio.wait_for(self._queue.get(), timeout)
        if item is None:
            raise BusError(f"the subscription to {self.channel} is closed")
        return item

    def __aiter__(self) -> AsyncIterator[Delivery]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Delivery]:
        while True:
            try:
                yield await self.get()
            except BusError:
                return

    async def close(self) -> None:
        """Stop receiving; a waiting ``get`` ends with :class:`BusError`."""
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(None)
            await self._bus._unsubscribe(self)


class Bus(_ClosedAtTheEnd, ABC):
    """Publish/subscribe of JSON messages on named channels."""

    crosses_processes: bool = True
    """Whether a message may reach another process (else only this one's subscriptions)."""

    def __init__(self) -> None:
        self._subscriptions: dict[str, list[Subscription]] = {}
        self._closed = False

    async def publish(self, name: str, message: Mapping[str, Any]) -> None:
        """Send ``message`` to every subscription of channel ``name``, here and elsewhere."""
        self._check_open()
        await self._publish(channel(name), encode(message))

    async def subscribe(self, name: str) -> Subscription:
        """A subscription to channel ``name`` that receives everything published from now."""
        self._check_open()
        full = channel(name)
        subscription = Subscription(self, full)
        others = self._subscriptions.setdefault(full, [])
        others.append(subscription)
        if len(others) == 1:
            try:
                await self._listen(full)
            except BaseException:
                others.remove(subscription)
                if not others:
                    del self._subscriptions[full]
                raise
        return subscription

    @property
    def healthy(self) -> bool:
        """Whether messages go out and come in now; while not, ``publish`` fails at once
        (messages are lost, and whoever needs them reads the database)."""
        return not self._closed

    @property
    def channels(self) -> frozenset[str]:
        """The channels with a subscription in this process."""
        return frozenset(self._subscriptions)

    def listeners(self, name: str) -> int:
        """How many subscriptions of this process channel ``name`` has."""
        return len(self._subscriptions.get(channel(name), ()))

    async def close(self) -> None:
        """Close every subscription and the bus."""
        if self._closed:
            return
        for subscriptions in list(self._subscriptions.values()):
            for subscription in list(subscriptions):
                await subscription.close()
        self._closed = True
        await self._shutdown()

    def _check_open(self) -> None:
        if self._closed:
            raise BusError("the bus is closed")

    def _dispatch(self, name: str, text: str | bytes) -> None:
        """Hand a message received on ``name`` to each local subscription, each its own copy
        (decoded once per subscription, so that no two share a mutable object)."""
        for subscription in self._subscriptions.get(name, ()):
            try:
                data = json.loads(text)
            except ValueError:  # UnicodeDecodeError too
                data = None
            if not isinstance(data, dict):  # not from a bus, which sends JSON objects only
                log.warning("bus: a message on %s that is not a JSON object was dropped", name)
                return
            subscription._deliver(Message(name, data))

    async def _unsubscribe(self, subscription: Subscription) -> None:
        others = self._subscriptions.get(subscription.channel, [])
        if subscription in others:
            others.remove(subscription)
            if not others:
                del self._subscriptions[subscription.channel]
                await self._forget(subscription.channel)

    @abstractmethod
    async def _publish(self, name: str, text: str) -> None: ...

    @abstractmethod
    async def _listen(self, name: str) -> None:
        """Start receiving channel ``name`` (its first local subscription); return once a
        message published after this returns is sure to arrive."""

    @abstractmethod
    async def _forget(self, name: str) -> None:
        """Stop receiving channel ``name`` (its last local subscription is gone)."""

    @abstractmethod
    async def _shutdown(self) -> None: ...


class LocalBus(Bus):
    """The bus of a single server process: delivery is a queue per subscription."""

    crosses_processes = False

    async def _publish(self, name: str, text: str) -> None:
        self._dispatch(name, text)

    async def _listen(self, name: str) -> None:
        return None

    async def _forget(self, name: str) -> None:
        return None

    async def _shutdown(self) -> None:
        return None


class RedisBus(Bus):
    """The bus between server processes, over Redis publish/subscribe at ``url``.

    One connection publishes: a writer task sends whatever messages are waiting in one
    pipeline, in the order the ``publish`` calls began; a pipeline whose connection broke is
    sent once more at once on a new connection (so a message may then arrive twice), and
    each connection attempt and reply is bounded (``timeout``). One connection receives
    every channel this process listens to: a reader task hands what arrives to the local
    subscriptions. When the receiving connection breaks, the reader connects again
    with a growing delay (``retry_delays``, then its last value), subscribes to every channel
    again and gives each subscription a :class:`Gap`.

    The bus is a circuit breaker: from a failed publish, or the receiving connection's loss,
    until the reader is connected again (and, after a failed publish, ``cool_down`` seconds
    have passed), :attr:`healthy` is false and ``publish`` fails at once with
    :class:`BusDown`, so that nobody waits on a Redis that is away.
    """

    def __init__(
        self,
        url: str = "redis://127.0.0.1:6379/0",
        *,
        name: str = "nardy-bus",
        retry_delays: tuple[float, ...] = (0.05, 0.1, 0.2, 0.5),
        health_check_interval: int = 10,
        timeout: float = 1.0,
        cool_down: float = 0.5,
    ) -> None:
        super().__init__()
        self.url = url
        self.name = name
        self._delays = retry_delays
        self._cool_down = cool_down
        self._redis = aioredis.Redis.from_url(
            url,
            client_name=name,
            retry=Retry(NoBackoff(), 1),
            retry_on_error=[RedisConnectionError, RedisTimeoutError],
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
        )
        # The receiving side never retries inside redis-py: a broken connection must reach
        # the reader, which knows that messages may have been lost and says so.
        self._listener = aioredis.Redis.from_url(
            url,
            client_name=f"{name}-sub",
            health_check_interval=health_check_interval,
            retry=Retry(NoBackoff(), 0),
            socket_connect_timeout=timeout,
        )
        self._reading = True  # the receiving connection is up (or not needed yet)
        self._broken_until = 0.0  # a publish failed: publishing waits this long to try again
        self._outbox: asyncio.Queue[tuple[str, str, asyncio.Future[None]]] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._pubsub: PubSub | None = None
        self._reader: asyncio.Task[None] | None = None
        self._confirmed: dict[str, asyncio.Future[None]] = {}
        self._lock = asyncio.Lock()  # subscribing and reconnecting never interleave
        self.reconnects = 0
        """How often the receiving connection was made again (for the logs and tests)."""

    async def ping(self) -> None:
        """Check that Redis answers (raises redis-py's ``ConnectionError`` if not)."""
        await self._redis.ping()

    @property
    def healthy(self) -> bool:
        return not self._closed and self._reading and time.monotonic() >= self._broken_until

    async def _publish(self, name: str, text: str) -> None:
        if not self.healthy:
            raise BusDown(f"bus {self.name}: Redis is away")
        if self._outbox is None:
            self._outbox = asyncio.Queue()
            self._writer = asyncio.create_task(
                self._write(self._outbox), name=f"{self.name} writer"
            )
        sent = asyncio.get_running_loop().create_future()
        self._outbox.put_nowait((name, text, sent))
        await sent

    async def _write(self, outbox: asyncio.Queue[tuple[str, str, asyncio.Future[None]]]) -> None:
        """Send what waits in ``outbox``, all of it in one pipeline: one round trip for a
        burst of messages, and the order of the calls kept."""
        while True:
            batch = [await outbox.get()]
            while len(batch) < 1000 and not outbox.empty():
                batch.append(outbox.get_nowait())
            failure: BaseException | None = None
            try:
                pipe = self._redis.pipeline(transaction=False)
                for name, text, _ in batch:
                    pipe.publish(name, text)
                await pipe.execute()
            except asyncio.CancelledError:
                failure = BusError("the bus is closed")
                raise
            except Exception as exc:  # Redis away even after the retry: the callers hear it
                failure = exc
                self._broken_until = time.monotonic() + self._cool_down
            finally:
                for _, _, sent in batch:
                    if not sent.done():
                        if failure is None:
                            sent.set_result(None)
                        else:
                            sent.set_exception(failure)

    async def _listen(self, name: str) -> None:
        async with self._lock:
            if self._pubsub is None:
                self._pubsub = self._new_pubsub()
            try:
                await self._subscribe(self._pubsub, [name], read_here=self._reader is None)
            except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
                # Redis is away: the subscription stands, and the reader subscribes to it
                # once Redis is back (with a Gap, as for every channel).
                log.warning(
                    "bus %s: could not subscribe to %s (%s); reconnecting", self.name, name, exc
                )
                self._reading = False
                if self._reader is not None:
                    self._reader.cancel()
                self._reader = asyncio.create_task(self._recover(), name=f"{self.name} reader")
                return
            if self._reader is None:
                self._reader = asyncio.create_task(self._read(), name=f"{self.name} reader")

    async def _recover(self) -> None:
        await self._reconnect()
        await self._read()

    def _new_pubsub(self) -> PubSub:
        return self._listener.pubsub(ignore_subscribe_messages=False)

    async def _subscribe(self, pubsub: PubSub, names: list[str], *, read_here: bool) -> None:
        """Subscribe and wait for Redis to confirm: read the confirmations here, or (while
        the reader runs) let the reader see them."""
        loop = asyncio.get_running_loop()
        waiting = {name: loop.create_future() for name in names}
        self._confirmed.update(waiting)
        try:
            await pubsub.subscribe(*names)
            if read_here:
                async with asyncio.timeout(10.0):
                    while not all(f.done() for f in waiting.values()):
                        self._handle(await pubsub.get_message(timeout=1.0))
            else:
                await asyncio.wait_for(asyncio.gather(*waiting.values()), 10.0)
        finally:
            for name, future in waiting.items():
                if self._confirmed.get(name) is future:
                    del self._confirmed[name]

    async def _forget(self, name: str) -> None:
        async with self._lock:
            if self._pubsub is not None:
                with contextlib.suppress(RedisConnectionError, RedisTimeoutError):
                    await self._pubsub.unsubscribe(name)

    def _handle(self, message: dict[str, Any] | None) -> None:
        if message is None:
            return
        kind = message["type"]
        name = message["channel"]
        name = name.decode() if isinstance(name, bytes) else name
        if kind == "message":
            self._dispatch(name, message["data"])
        elif kind == "subscribe":
            future = self._confirmed.pop(name, None)
            if future is not None and not future.done():
                future.set_result(None)

    async def _read(self) -> None:
        while not self._closed:
            pubsub = self._pubsub
            try:
                if pubsub is None or pubsub.connection is None:
                    await asyncio.sleep(0.1)  # reconnected with no channel: none to read
                    continue
                self._handle(await pubsub.get_message(timeout=1.0))
            except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
                if self._closed:
                    return
                log.warning("bus %s: lost the Redis connection (%s); reconnecting", self.name, exc)
                self._reading = False
                await self._reconnect()
            except Exception:  # anything else: the reader must not die and leave all waiting
                if self._closed:
                    return
                log.exception("bus %s: the reader failed; reconnecting", self.name)
                self._reading = False
                await self._reconnect()

    async def _reconnect(self) -> None:
        attempt = 0
        while not self._closed:
            async with self._lock:
                old, self._pubsub = self._pubsub, self._new_pubsub()
                if old is not None:
                    with contextlib.suppress(Exception):
                        # typed from redis-py 8 on, untyped before: either is accepted
                        await old.aclose()  # type: ignore[no-untyped-call, unused-ignore]
                names = list(self._subscriptions)
                try:
                    if names:  # the reader itself is here: it reads the confirmations
                        await self._subscribe(self._pubsub, names, read_here=True)
                    self.reconnects += 1
                    self._reading = True
                    self._broken_until = 0.0
                    for name in names:
                        for subscription in self._subscriptions.get(name, ()):
                            subscription._deliver(Gap(name))
                    log.warning("bus %s: reconnected to Redis", self.name)
                    return
                except Exception as exc:  # Redis still away (or worse): try again later
                    log.debug("bus %s: reconnecting failed: %r", self.name, exc)
            await asyncio.sleep(self._delays[min(attempt, len(self._delays) - 1)])
            attempt += 1

    async def _shutdown(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        while self._outbox is not None and not self._outbox.empty():
            _, _, sent = self._outbox.get_nowait()
            if not sent.done():
                sent.set_exception(BusError("the bus is closed"))
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
            self._reader = None
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]
            self._pubsub = None
        await self._listener.aclose()
        await self._redis.aclose()


def bus_from_url(url: str | None) -> Bus:
    """The bus of ``nardy serve``: :class:`RedisBus` with ``--redis-url``, else
    :class:`LocalBus`."""
    return LocalBus() if url is None else RedisBus(url)
