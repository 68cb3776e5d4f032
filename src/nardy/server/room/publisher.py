"""The publisher of a process's room news: the rooms hand it what they committed and go
on; it takes the news to the bus in the order it was handed over, each publish bounded in
time, so that a slow or dead Redis never holds a room up.

While the bus is down the news is not sent at all (the bus is a circuit breaker:
:attr:`nardy.server.bus.Bus.healthy`), and the channel is remembered: once the bus is back
its rooms on the other processes are told a :class:`~nardy.server.room.news.Gap`, and
read the game (chat included) from the database, which holds everything. Meanwhile the
registry polls the rows of the rooms with sockets (:meth:`nardy.server.room.registry.Rooms`),
so a Redis outage slows cross-process news down and loses none of it.
"""

from __future__ import annotations

import asyncio
import logging

from nardy.server.bus.bus import Bus, game_channel
from nardy.server.room import news as n

log = logging.getLogger(__name__)

PUBLISH_BOUND_S = 1.0
"""The longest one publish may take before the news counts as lost."""
RETRY_S = 0.5
"""How often the gaps of channels whose news was lost are retried while the bus is away."""


class Publisher:
    """One process's queue of room news on their way to the bus."""

    def __init__(self, bus: Bus, token: str, bound_s: float = PUBLISH_BOUND_S) -> None:
        self.bus = bus
        self.token = token
        self.bound_s = bound_s
        self.lost: set[str] = set()
        """The games whose news did not reach the bus: the others are told a gap."""
        self._queue: asyncio.Queue[tuple[str, n.News]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def healthy(self) -> bool:
        """Whether news goes out now (the bus is up and none is waiting to be told lost)."""
        return self.bus.healthy and not self.lost

    def publish(self, game_id: str, news: n.News) -> None:
        """Send ``news`` of a game's room after the news handed over before it."""
        if self._closed:  # the server is stopping: the others read the database
            return
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="room news")
        self._queue.put_nowait((game_id, news))

    async def _run(self) -> None:
        while True:
            try:
                async with asyncio.timeout(RETRY_S):
                    game_id, news = await self._queue.get()
            except TimeoutError:
                await self._tell_lost()
                continue
            await self._tell_lost()
            if self.lost and game_id in self.lost:
                continue  # its gap is still to be told, which covers this too
            if not await self._send(game_id, news):
                self.lost.add(game_id)

    async def _tell_lost(self) -> None:
        """Tell each game whose news was lost a gap, once the bus takes news again."""
        for game_id in sorted(self.lost):
            if not self.bus.healthy or not await self._send(game_id, n.Gap(self.token)):
                return
            self.lost.discard(game_id)

    async def _send(self, game_id: str, news: n.News) -> bool:
        if not self.bus.healthy:
            return False
        try:
            async with asyncio.timeout(self.bound_s):
                await self.bus.publish(game_channel(game_id), n.encode(news))
        except Exception as exc:  # Redis away or slow: the others catch up from the database
            log.warning(
                "game %s: the bus did not take %s news (%r)", game_id, type(news).__name__, exc
            )
            return False
        return True

    async def close(self) -> None:
        """Stop sending (what waits is dropped: the server is stopping)."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=1.0)  # never held up by the bus
            self._task = None
