"""What one server process holds: the configuration, the store, accounts, rate limits and
the rooms; and who a request comes from."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from nardy.server.accounts import Accounts
from nardy.server.bus import bus_from_url
from nardy.server.config import ServerConfig
from nardy.server.connections import Connections
from nardy.server.dicestats import DiceStats
from nardy.server.http import HTTPError, off_loop
from nardy.server.rooms import Rooms
from nardy.server.security import SESSION_COOKIE, RateLimiter, origin_ok
from nardy.server.store import Store, User


class Site:
    """Everything one server process holds: the configuration, the store, accounts, the
    rate limits, the rooms with the bus between this process and the others, and the open
    sockets."""

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

    async def user(self, connection: HTTPConnection) -> User | None:
        """Who the request's session cookie signs in, if anyone."""
        return await off_loop(self.accounts.session_user, connection.cookies.get(SESSION_COOKIE))

    async def require_user(self, connection: HTTPConnection) -> User:
        """The signed-in user; 401 when nobody is."""
        user = await self.user(connection)
        if user is None:
            raise HTTPError(401, "not-signed-in", "sign in (or play as a guest) first")
        return user

    def origin_allowed(self, connection: HTTPConnection) -> bool:
        """Whether the request comes from this site's pages (or an allowed origin)."""
        return origin_ok(
            connection.headers.get("origin"),
            connection.headers.get("host"),
            self.config.allowed_origins,
        )


def site_of(connection: HTTPConnection) -> Site:
    site: Site = connection.app.state.site
    return site
