"""The browser-facing safeguards: CSRF tokens, the Origin of WebSockets and unsafe requests,
and rate limits on sign-in and sign-up."""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from nardy.server.config import RateLimit

CSRF_COOKIE = "nardy_csrf"
CSRF_HEADER = "x-csrf-token"
SESSION_COOKIE = "nardy_session"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def new_csrf_token() -> str:
    """A fresh random CSRF token (the double-submit cookie's value)."""
    return secrets.token_urlsafe(24)


def csrf_ok(cookie: str | None, header: str | None) -> bool:
    """A state-changing request is the site's own when it repeats the CSRF cookie's value in
    the ``X-CSRF-Token`` header: another site can make a browser send the cookie but can
    neither read it nor set the header."""
    if not cookie or not header:
        return False
    return hmac.compare_digest(cookie.encode(), header.encode())


def origin_ok(origin: str, scheme: str, host: str | None, allowed: Iterable[str]) -> bool:
    """Whether a request's ``Origin`` is exactly this site's, the scheme (``http`` or
    ``https``; a socket's ``ws`` or ``wss``) and the ``Host`` header's host and port, or one
    of the allowed origins. ``https://host:port`` is another site than ``http://host:port``."""
    if origin.rstrip("/") in set(allowed):
        return True
    scheme = _WEB_SCHEME.get(scheme, scheme)
    try:
        theirs, ours = urlsplit(origin), urlsplit(f"{scheme}://{host}")
        return (
            bool(host)
            and theirs.scheme == scheme
            and f"{theirs.scheme}://{theirs.netloc}" == origin  # no path or query
            and "@" not in theirs.netloc
            and theirs.hostname == ours.hostname
            and _port(theirs.port, scheme) == _port(ours.port, scheme)
        )
    except ValueError:  # a port that is not a number
        return False


_WEB_SCHEME = {"ws": "http", "wss": "https"}
_DEFAULT_PORT = {"http": 80, "https": 443}


def _port(port: int | None, scheme: str) -> int | None:
    return _DEFAULT_PORT.get(scheme) if port is None else port


def bearer_token(authorization: str | None) -> str | None:
    """The session token of an ``Authorization: Bearer TOKEN`` header, if there is one: how
    a program that sends no ``Origin`` (it is no browser) presents its session."""
    scheme, _, token = (authorization or "").partition(" ")
    return (token.strip() or None) if scheme.lower() == "bearer" else None


def client_key(host: str | None) -> str:
    """Who a client is, for the rate limits and the caps on sockets: its IPv4 address, or the
    /64 network of its IPv6 address, since one IPv6 subscriber is handed a whole /64 and
    could take a new address for every attempt."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:  # not an address (a test client's name): itself
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class RateLimiter:
    """A sliding window per key (a client address): at most ``limit.count`` hits in
    ``limit.seconds``. Kept in memory, per process."""

    def __init__(self, limit: RateLimit, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}

    def hit(self, key: str) -> float | None:
        """Count a hit; None when allowed, else the seconds until the next one is."""
        now = self._clock()
        hits = self._hits.setdefault(key, deque())
        while hits and hits[0] <= now - self.limit.seconds:
            hits.popleft()
        if len(hits) >= self.limit.count:
            return hits[0] + self.limit.seconds - now
        hits.append(now)
        if len(self._hits) > 100_000:  # forget idle clients rather than grow without bound
            self._forget(now)
        return None

    def _forget(self, now: float) -> None:
        for key in [k for k, h in self._hits.items() if not h or h[-1] <= now - self.limit.seconds]:
            del self._hits[key]
