"""Every room of this process (:class:`Rooms`), created on first use from the database,
each with the host of its game's kind (:func:`host_for`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from nardy.core.errors import NardyError
from nardy.server.bus.bus import Bus, BusError, LocalBus, game_channel
from nardy.server.games import GameKind, GameStatus
from nardy.server.http import HTTPError, off_loop
from nardy.server.lobby.matches import unavailable_message
from nardy.server.room import news as n
from nardy.server.room.actor import Room
from nardy.server.room.host import Host
from nardy.server.room.match_host import MatchHost
from nardy.server.room.publisher import Publisher
from nardy.server.room.table_host import TableHost
from nardy.server.store.commits import Commits
from nardy.server.store.store import GameRow, Store

log = logging.getLogger(__name__)

GRACE_SECONDS = 60.0
"""How long an absent player has to come back before the opponent may claim the game."""
POLL_SECONDS = 1.0
"""How often, while the bus is down, each room with sockets reads its game's row."""

DAMAGED = (NardyError, LookupError, TypeError, ValueError, ArithmeticError, AttributeError)
"""What a game's own data raises when the core or the room cannot be built from it (a
snapshot, settings or clock damaged, or stored before their bounds); not the database's own
errors: a game is never set aside because the database could not be reached."""

HOSTS: dict[GameKind, type[Host]] = {
    GameKind.MATCH: MatchHost,
    GameKind.CHOUETTE: TableHost,
    GameKind.CONSULTATION: TableHost,
}


def host_for(store: Store, row: GameRow) -> Host:
    """The host of a game of ``row.kind``."""
    return HOSTS[row.kind](store, row)


class GameUnavailable(HTTPError):
    """A game set aside: its data cannot be restored (``row.unavailable`` says why), so it
    has no room; the lobby answers 503 ``game-unavailable`` and its socket says so."""

    def __init__(self, row: GameRow) -> None:
        super().__init__(503, "game-unavailable", unavailable_message(row))
        self.row = row


class Rooms:
    """Every room of this process, created on first use from the database."""

    def __init__(
        self,
        store: Store,
        bus: Bus | None = None,
        grace: float = GRACE_SECONDS,
        poll_seconds: float = POLL_SECONDS,
    ) -> None:
        self.store = store
        self.bus: Bus = LocalBus() if bus is None else bus
        self.grace = grace
        """Seconds an absent player has to come back before the game may be claimed."""
        self.poll_seconds = poll_seconds
        self.token = secrets.token_hex(8)
        """This process among those holding the same rooms (every news says who sent it)."""
        self.publisher = Publisher(self.bus, self.token)
        self.commits = Commits(store)
        """The process's group commit: every room's actions go through it."""
        self.rooms: dict[str, Room] = {}
        self._load = asyncio.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._poller: asyncio.Task[None] | None = None

    def publish(self, game_id: str, news: n.News) -> None:
        """Send news of a room to the other processes, after this process's sockets heard
        it; never waits. On a bus of this process alone that no room but this registry's own
        follows (which passes over its own news), there is nobody to tell: the news is not
        encoded at all."""
        if not self.bus.crosses_processes:
            own = 1 if game_id in self.rooms else 0
            if self.bus.listeners(game_channel(game_id)) <= own:
                return
        self.publisher.publish(game_id, news)

    def bot_pool(self) -> ProcessPoolExecutor:
        """The processes the bots think in (started on first use)."""
        if self._pool is None:
            import multiprocessing

            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    async def get(self, game_id: str) -> Room | None:
        """The room of a game, loaded (or restored) from the database; None for no game.
        :class:`GameUnavailable` for a game whose data cannot be restored: it is set aside
        (:meth:`Store.set_aside`) and logged the first time."""
        if self._poller is None:
            self._poller = asyncio.create_task(self._poll(), name="rooms poll")
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        async with self._load:
            room = self.rooms.get(game_id)
            if room is None:
                # Following the channel before reading the game: nothing committed after
                # the read can pass unheard.
                try:
                    subscription = await self.bus.subscribe(game_channel(game_id))
                except BusError:  # not a name the lobby gives a game (nor a channel)
                    return None
                try:
                    row = await off_loop(self.store.game, game_id)
                    room = None if row is None else await self._build_or_set_aside(row)
                except BaseException:
                    await subscription.close()
                    raise
                if room is None:
                    await subscription.close()
                    return None
                room.follow(subscription)
                self.rooms[game_id] = room
                room.clock.schedule(room.seq, room.over)
        room.bots.schedule()
        return room

    async def _build_or_set_aside(self, row: GameRow) -> Room:
        reason = row.unavailable
        if reason is None:
            try:
                return await self._build(row)
            except DAMAGED as exc:
                reason = f"{type(exc).__name__}: {exc}"[:200]
                log.exception("game %s cannot be restored from its data", row.id)
        if await off_loop(self.store.set_aside, row.id, reason):
            log.error("game %s is set aside, unavailable: %s", row.id, reason)
        raise GameUnavailable(replace(row, unavailable=reason))

    async def _build(self, row: GameRow) -> Room:
        host = host_for(self.store, row)
        await host.load(row, None)
        room = Room(self, row, host)
        await room.chat.load()
        await host.settle(row)  # a crash between a game's end and its settling: now
        return room

    async def _poll(self) -> None:
        """While the bus is down, each room with sockets reads its game's row every
        :attr:`poll_seconds`: what other processes commit still reaches them."""
        while True:
            await asyncio.sleep(self.poll_seconds)
            if self.publisher.healthy:
                continue
            for room in list(self.rooms.values()):
                if not room.members:
                    continue
                try:
                    await room.catch_up()
                except Exception:  # the database away too: try again at the next poll
                    log.warning("game %s: could not read the game", room.id, exc_info=True)

    async def started(self, row: GameRow) -> None:
        """A waiting game found its players: its room starts on every process that holds
        it (where the waiting player's socket is), and here, so that a bot can begin."""
        room = await self.get(row.id)
        if room is not None:
            await room.refresh()

    async def renamed(self, user_id: int) -> None:
        """A user's name changed (a guest claimed an account): the room of each of their
        games not yet over reads the names again on every process that holds it, and tells
        its sockets (the players' strips show the new name at once)."""
        for row in await off_loop(self.store.games_of, user_id):
            if row.status not in (GameStatus.OPEN, GameStatus.INVITED, GameStatus.PLAYING):
                continue
            room = self.rooms.get(row.id)
            if room is not None:
                await room.refresh()
            else:  # held elsewhere, if anywhere: the news finds it there
                self.publish(row.id, n.Reload(self.token, row.seq))

    async def cancelled(self, row: GameRow) -> None:
        """A waiting game was withdrawn: whoever waits in its room hears it."""
        room = self.rooms.get(row.id)
        if room is None:
            return
        async with room.lock:
            room.row = row
            room._tell_state()

    async def restore(self) -> None:
        """At start-up: bring back every game being played, so bots resume their turns. A
        game that cannot be restored is set aside (:meth:`get`), and any other failure of
        one game is logged: neither stops the others, nor the server, from starting."""
        for row in await off_loop(self.store.playing_games):
            try:
                room = await self.get(row.id)
            except GameUnavailable:
                continue
            except Exception:
                log.exception("game %s was not restored at start-up", row.id)
                continue
            if room is not None:  # both were playing: whoever does not come back is absent
                room.presence.arrived.update((0, 1))

    async def close(self) -> None:
        """Stop every room, the poll, the publisher, the bus and the bots' processes."""
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
        for room in self.rooms.values():
            room.close()
        await self.publisher.close()
        await self.bus.close()
        self.commits.close()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
