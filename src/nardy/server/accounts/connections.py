"""The room sockets open in this process: whose session and address each one has, the caps
on how many one user and one client address may hold, and the end of a session's sockets
on every process when the session ends (sign-out, a guest's claim).

A session ends in the process that answered the request; it ends that session's sockets
here at once and tells the others on the bus (channel ``nardy:sessions``), which end theirs.
When the bus reports a :class:`~nardy.server.bus.Gap` (news may be lost), every session
with a socket here is looked up again in the database, and the sockets of those that are
gone end too. A session also ends when it expires, which nobody announces: the sessions are
looked up again every :data:`RECHECK_SECONDS` for that.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import TypeVar

from nardy.server.bus.bus import Bus, Gap, Subscription
from nardy.server.http import off_loop
from nardy.server.room.member import Member
from nardy.server.store.store import Store

log = logging.getLogger(__name__)
K = TypeVar("K")

SESSION_ENDED = 4001
"""A socket's close code when the session it was opened with ended (its user signed out,
or the guest claimed an account): the client is no longer signed in as that user."""
TOO_MANY_SOCKETS = 4029
"""A socket's close code when its user or its client address holds too many sockets."""

SESSIONS = "sessions"
"""The bus channel on which a process says which session ended."""
RECHECK_SECONDS = 300.0
"""How often the sessions of the open sockets are looked up again, so that a socket whose
session expired (30 days after sign-in) closes within five minutes."""


@dataclass(eq=False)
class Connection:
    """One open socket: the client address, the hash of the session token it came with
    (None without a cookie), the user it signed in (once known), and whether its session has
    ended, after which it may do nothing more."""

    address: str
    session: str | None
    user_id: int | None = None
    ended: bool = False
    member: Member | None = field(default=None, repr=False)

    def attach(self, member: Member) -> None:
        """The socket is in its room as ``member``; if the session has ended meanwhile, it
        closes at once."""
        self.member = member
        if self.ended:
            member.drop(SESSION_ENDED)

    def end(self) -> None:
        """The session is over: the socket closes now, its unsent messages dropped."""
        if not self.ended:
            self.ended = True
            if self.member is not None:
                self.member.drop(SESSION_ENDED)


class Connections:
    """Every socket of this process, by client address, user and session."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        per_user: int,
        per_address: int,
        recheck_seconds: float = RECHECK_SECONDS,
    ) -> None:
        self.store = store
        self.bus = bus
        self.per_user = per_user
        self.per_address = per_address
        self.recheck_seconds = recheck_seconds
        self._by_address: dict[str, set[Connection]] = {}
        self._by_user: dict[int, set[Connection]] = {}
        self._by_session: dict[str, set[Connection]] = {}
        self._tasks: list[asyncio.Task[None]] = []

    def open(self, address: str, session: str | None) -> Connection:
        """Count a socket from the moment it arrives, before its session is looked up, so
        that a session ending meanwhile reaches it."""
        connection = Connection(address, session)
        self._by_address.setdefault(address, set()).add(connection)
        if session is not None:
            self._by_session.setdefault(session, set()).add(connection)
        return connection

    def address_full(self, connection: Connection) -> bool:
        """Whether the socket's address holds more sockets than the cap, this one included."""
        return len(self._by_address.get(connection.address, ())) > self.per_address

    def sign_in(self, connection: Connection, user_id: int) -> bool:
        """The socket is the user's; False (and not counted) when they hold the cap already."""
        mine = self._by_user.setdefault(user_id, set())
        if len(mine) >= self.per_user:
            return False
        mine.add(connection)
        connection.user_id = user_id
        return True

    def close(self, connection: Connection) -> None:
        """The socket is gone."""
        _discard(self._by_address, connection.address, connection)
        if connection.session is not None:
            _discard(self._by_session, connection.session, connection)
        if connection.user_id is not None:
            _discard(self._by_user, connection.user_id, connection)

    async def end_session(self, session: str) -> None:
        """The session (its token's hash) has ended: its sockets close here now, and on
        every other process once the bus carries the news."""
        self._end(session)
        try:
            await self.bus.publish(SESSIONS, {"session": session})
        except Exception:  # the bus is down: the other processes catch up at its Gap
            log.warning("could not tell the other processes that a session ended", exc_info=True)

    def _end(self, session: str) -> None:
        for connection in list(self._by_session.get(session, ())):
            connection.end()

    async def start(self) -> None:
        """Listen for the sessions that end on the other processes, and look for the ones
        that expire."""
        subscription = await self.bus.subscribe(SESSIONS)
        self._tasks = [
            asyncio.create_task(self._listen(subscription), name="sessions"),
            asyncio.create_task(self._expire(), name="sessions-expiring"),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    async def _expire(self) -> None:
        while True:
            await asyncio.sleep(self.recheck_seconds)
            await self._recheck()

    async def _listen(self, subscription: Subscription) -> None:
        async with subscription:
            async for delivery in subscription:
                if isinstance(delivery, Gap):
                    await self._recheck()
                elif isinstance(session := delivery.data.get("session"), str):
                    self._end(session)

    async def _recheck(self) -> None:
        """News may have been lost, or a session expired: end the sockets of every session
        the database no longer holds, or holds expired. The database away, it tries again at
        the next look-up, and the listener and the expiry go on."""
        try:
            for session in list(self._by_session):
                if await off_loop(self.store.session_user, session) is None:
                    self._end(session)
        except Exception:
            log.warning("could not look the sessions of open sockets up", exc_info=True)


def _discard(groups: dict[K, set[Connection]], key: K, connection: Connection) -> None:
    group = groups.get(key)
    if group is not None:
        group.discard(connection)
        if not group:
            del groups[key]
