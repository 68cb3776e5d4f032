"""Where the server listens and keeps its data: command-line options over environment
variables (``NARDY_HOST`` ...) over the defaults of a single machine."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


class ConfigError(ValueError):
    """A setting of the server that cannot be used (a port out of range, a bad rate...)."""


def default_data_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user's data directory for nardy: ``$XDG_DATA_HOME/nardy``, else
    ``~/.local/share/nardy`` (the XDG base directory convention)."""
    env = os.environ if env is None else env
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "nardy"


@dataclass(frozen=True, slots=True)
class RateLimit:
    """At most ``count`` attempts in ``seconds`` from one client address."""

    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str) -> RateLimit:
        """``"10/60"``: ten attempts a minute."""
        count, sep, seconds = text.partition("/")
        try:
            limit = cls(int(count), float(seconds))
        except ValueError:
            raise ConfigError(f"a rate limit is COUNT/SECONDS (10/60), not {text!r}") from None
        if not sep or limit.count < 1 or limit.seconds <= 0:
            raise ConfigError(f"a rate limit is COUNT/SECONDS (10/60), not {text!r}")
        return limit


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Everything ``nardy serve`` needs to start.

    ``database_url`` ``None`` means the SQLite file ``nardy.sqlite3`` in ``data_dir``;
    ``redis_url`` ``None`` means one process with an in-process event bus.
    ``allowed_origins`` are the browser origins besides the server's own that may open a
    WebSocket or send a state-changing request.
    """

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    data_dir: Path = field(default_factory=default_data_dir)
    database_url: str | None = None
    redis_url: str | None = None
    workers: int = 1
    auth_rate: RateLimit = RateLimit(10, 60.0)
    allowed_origins: tuple[str, ...] = ()
    forwarded_allow_ips: tuple[str, ...] = ()
    """The proxies (addresses, networks, or ``*`` for any) whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` name the client's address and scheme; from any other the headers
    are ignored, so that no client chooses the address its rate limit counts."""
    allowed_hosts: tuple[str, ...] = ()
    """The names the site answers to in the ``Host`` header (``example.com``,
    ``*.example.com``, or ``*`` for any); none named: see :attr:`trusted_hosts`."""
    dice_stats_seconds: int = 10
    """How long the public dice page's figures are shown before they are counted again."""
    grace_seconds: float = 60.0
    """How long a disconnected player has to come back before the opponent may claim."""
    seek_grace_seconds: float = 60.0
    """How long a public seek outlives its creator's last sign of life (a closed browser's
    seeks are withdrawn after it)."""
    sockets_per_user: int = 10
    """How many room sockets one signed-in user may hold open at once (in one process)."""
    sockets_per_address: int = 20
    """How many room sockets one client address may hold open at once (in one process)."""

    def __post_init__(self) -> None:
        if self.dice_stats_seconds < 0:
            seconds = self.dice_stats_seconds
            raise ConfigError(f"the dice page's seconds are 0 or more, not {seconds}")
        if not 0 <= self.port <= 65535:
            raise ConfigError(f"the port is 0-65535, not {self.port}")
        if not 0 <= self.grace_seconds <= 86_400:
            raise ConfigError(f"the grace period is 0-86400 seconds, not {self.grace_seconds}")
        if not 1 <= self.seek_grace_seconds <= 86_400:
            grace = self.seek_grace_seconds
            raise ConfigError(f"a seek's grace period is 1-86400 seconds, not {grace}")
        for name in ("sockets_per_user", "sockets_per_address"):
            if (cap := getattr(self, name)) < 1:
                option = name.replace("_", "-")
                raise ConfigError(f"{option} (NARDY_{name.upper()}) is at least 1, not {cap}")
        if self.workers < 1:
            raise ConfigError(f"--workers is at least 1, not {self.workers}")
        if self.workers > 1 and self.redis_url is None:
            # Without Redis each process would hear only its own rooms' news.
            raise ConfigError(
                f"--workers {self.workers} needs --redis-url (redis://host:port): the "
                "processes share the rooms' events through Redis"
            )
        if self.workers > 1 and not (self.database_url or "").startswith("postgresql"):
            # SQLite is one file on one machine and lets one writer in at a time.
            raise ConfigError(
                f"--workers {self.workers} needs a PostgreSQL --database-url "
                "(postgresql+psycopg://user@host/db): the processes share one database"
            )

    @property
    def sqlite_path(self) -> Path | None:
        """The SQLite file, when the server keeps its data in one."""
        if self.database_url is None:
            return self.data_dir / "nardy.sqlite3"
        if self.database_url.startswith("sqlite:///"):
            return Path(self.database_url.removeprefix("sqlite:///"))
        return None

    @property
    def resolved_database_url(self) -> str:
        """The SQLAlchemy URL of the database."""
        if self.database_url is not None:
            return self.database_url
        return f"sqlite:///{self.data_dir / 'nardy.sqlite3'}"

    @property
    def trusted_hosts(self) -> tuple[str, ...]:
        """The ``Host`` names requests may give: the ones named, else, on a loopback address,
        only ``127.0.0.1`` and ``localhost``, so that a page of another site whose name was
        made to point at this machine (DNS rebinding) reaches nothing; on any other address,
        any name (an IPv6 loopback too: Starlette's check cannot read a bracketed address, so
        name the hosts there)."""
        if self.allowed_hosts:
            return self.allowed_hosts
        if self.host == "localhost" or self.host.startswith("127."):
            return tuple(dict.fromkeys(("127.0.0.1", "localhost", self.host)))
        return ("*",)

    @property
    def url(self) -> str:
        """Where a browser finds the site."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **options: object) -> ServerConfig:
        """Settings from ``NARDY_*`` environment variables, each overridden by an option
        given here that is not ``None``."""
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        readers: dict[str, tuple[str, Callable[[str], object]]] = {
            "host": ("NARDY_HOST", str),
            "port": ("NARDY_PORT", _int("NARDY_PORT")),
            "data_dir": ("NARDY_DATA_DIR", Path),
            "database_url": ("NARDY_DATABASE_URL", str),
            "redis_url": ("NARDY_REDIS_URL", str),
            "workers": ("NARDY_WORKERS", _int("NARDY_WORKERS")),
            "auth_rate": ("NARDY_AUTH_RATE", RateLimit.parse),
            "allowed_origins": ("NARDY_ALLOWED_ORIGINS", _origins),
            "forwarded_allow_ips": ("NARDY_FORWARDED_ALLOW_IPS", proxy_addresses),
            "allowed_hosts": ("NARDY_ALLOWED_HOSTS", host_names),
            "dice_stats_seconds": ("NARDY_DICE_STATS_SECONDS", _int("NARDY_DICE_STATS_SECONDS")),
            "grace_seconds": ("NARDY_GRACE_SECONDS", _seconds("NARDY_GRACE_SECONDS")),
            "seek_grace_seconds": (
                "NARDY_SEEK_GRACE_SECONDS",
                _seconds("NARDY_SEEK_GRACE_SECONDS"),
            ),
            "sockets_per_user": ("NARDY_SOCKETS_PER_USER", _int("NARDY_SOCKETS_PER_USER")),
            "sockets_per_address": (
                "NARDY_SOCKETS_PER_ADDRESS",
                _int("NARDY_SOCKETS_PER_ADDRESS"),
            ),
        }
        for name, (variable, read) in readers.items():
            if env.get(variable):
                values[name] = read(env[variable])
        for name, value in options.items():
            if name not in readers:
                raise TypeError(f"unknown server setting {name!r}")
            if value is not None:
                values[name] = value
        return cls(**values)  # type: ignore[arg-type]


def _int(variable: str) -> Callable[[str], int]:
    def read(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise ConfigError(f"{variable} must be a whole number, not {text!r}") from None

    return read


def _seconds(variable: str) -> Callable[[str], float]:
    def read(text: str) -> float:
        try:
            return float(text)
        except ValueError:
            raise ConfigError(f"{variable} must be a number of seconds, not {text!r}") from None

    return read


def _items(text: str) -> tuple[str, ...]:
    """The items of a comma-separated list, without blanks."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


def host_names(text: str) -> tuple[str, ...]:
    """``"example.com, *.example.com"``: the names the site answers to, lower-cased."""
    return tuple(name.lower() for name in _items(text))


def _origins(text: str) -> tuple[str, ...]:
    return tuple(origin.rstrip("/") for origin in _items(text))


def proxy_addresses(text: str) -> tuple[str, ...]:
    """``"10.0.0.1, 10.1.0.0/16"``: the trusted proxies, each an IP address or network, or
    ``*`` for any (only when no client can reach the server but through the proxy)."""
    addresses = _items(text)
    for address in addresses:
        if address == "*":
            continue
        try:
            ipaddress.ip_network(address, strict=False)
        except ValueError:
            raise ConfigError(
                f"a trusted proxy is an IP address, a network (10.0.0.0/8) or *, not {address!r}"
            ) from None
    return addresses
