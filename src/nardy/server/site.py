"""What one server process holds: the configuration, the store, accounts, rate limits and
the rooms; and who a request comes from."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from nardy.server.accounts.connections import Connections
from nardy.server.accounts.security import (
    SESSION_COOKIE,
    RateLimiter,
    bearer_token,
    client_key,
    origin_ok,
)
from nardy.server.accounts.users import Accounts
from nardy.server.analysis.jobs import AnalysisJobs
from nardy.server.bus.bus import bus_from_url
from nardy.server.config import ServerConfig
from nardy.server.dicestats import DiceStats
from nardy.server.http import HTTPError, off_loop
from nardy.server.room.registry import Rooms
from nardy.server.store.store import Store, User


class Site:
    """Everything one server process holds: the configuration, the store, accounts, the
    rate limits, the rooms with the bus between this process and the others, the open
    sockets and the queue of analyses."""

    def __init__(self, config: ServerConfig, store: Store) -> None:
        self.config = config
        self.store = store
        self.accounts = Accounts(store)
        self.auth_limiter = RateLimiter(config.auth_rate)
        self.rooms = Rooms(store, bus_from_url(config.redis_url), config.grace_seconds)
        self.connections = Connections(
            store, self.rooms.bus, config.sockets_per_user, config.sockets_per_address
        )
        self.dice_stats = DiceStats(store, fresh_for=config.dice_stats_seconds)
        self.analysis = AnalysisJobs(store, self.rooms.token)
        """This process's queue of match analyses."""

    def client(self, connection: HTTPConnection) -> str:
        """Who the request comes from, for the rate limits and the caps on sockets: its
        address (a trusted proxy's ``X-Forwarded-For``, docs/server.md), an IPv6 address by
        its /64."""
        return client_key(connection.client.host if connection.client else None)

    def session_token(self, connection: HTTPConnection) -> str | None:
        """The session a request presents: its ``Authorization: Bearer`` token when it has
        one, else its session cookie."""
        token = bearer_token(connection.headers.get("authorization"))
        return connection.cookies.get(SESSION_COOKIE) if token is None else token

    async def user(self, connection: HTTPConnection) -> User | None:
        """Who the request's session signs in, if anyone."""
        return await off_loop(self.accounts.session_user, self.session_token(connection))

    async def require_user(self, connection: HTTPConnection) -> User:
        """The signed-in user; 401 when nobody is."""
        user = await self.user(connection)
        if user is None:
            raise HTTPError(401, "not-signed-in", "sign in (or play as a guest) first")
        return user

    def origin_allowed(self, connection: HTTPConnection) -> bool:
        """Whether a request that names its ``Origin`` names this site's (the request's own
        scheme, host and port) or an allowed one. Browsers name it on every WebSocket and
        every unsafe request; a request without one comes from a program, not a page."""
        origin = connection.headers.get("origin")
        if origin is None:
            return True
        scheme, host = connection.url.scheme, connection.headers.get("host")
        return origin_ok(origin, scheme, host, self.config.allowed_origins)

    def cookie_alone(self, connection: HTTPConnection) -> bool:
        """Whether a request without an ``Origin`` would be signed in by the session cookie
        alone, which is refused where nothing else proves it no other site's (a WebSocket,
        which has no CSRF header): such a program presents its session as a bearer token."""
        headers = connection.headers
        return (
            "origin" not in headers
            and bearer_token(headers.get("authorization")) is None
            and SESSION_COOKIE in connection.cookies
        )


def site_of(connection: HTTPConnection) -> Site:
    site: Site = connection.app.state.site
    return site
