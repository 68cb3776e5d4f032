"""``nardy serve``: the online play server (HTTP and WebSocket), with its database created
and migrated at start-up. Needs the ``server`` extra: ``pip install 'nardy[server]'``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from nardy.cli.about import version

_ENV = {
    "host": "NARDY_HOST",
    "port": "NARDY_PORT",
    "data_dir": "NARDY_DATA_DIR",
    "database_url": "NARDY_DATABASE_URL",
    "redis_url": "NARDY_REDIS_URL",
    "workers": "NARDY_WORKERS",
    "grace_seconds": "NARDY_GRACE_SECONDS",
    "forwarded_allow_ips": "NARDY_FORWARDED_ALLOW_IPS",
    "allowed_hosts": "NARDY_ALLOWED_HOSTS",
    "sockets_per_user": "NARDY_SOCKETS_PER_USER",
    "sockets_per_address": "NARDY_SOCKETS_PER_ADDRESS",
}


def add_parser(subparsers: Any) -> None:
    """Register ``nardy serve``."""
    parser = subparsers.add_parser(
        "serve",
        help="run the online play server",
        description="Run the online play server: the HTTP API and the game WebSockets "
        "(docs/protocol.md). Each option may also come from the environment variable named "
        "in its help; the option wins.",
    )
    parser.add_argument("--host", help="address to listen on (NARDY_HOST; 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to listen on (NARDY_PORT; 8000)")
    parser.add_argument(
        "--data-dir",
        type=Path,
        help="where the SQLite database lives (NARDY_DATA_DIR; $XDG_DATA_HOME/nardy or "
        "~/.local/share/nardy)",
    )
    parser.add_argument(
        "--database-url",
        help="a SQLAlchemy URL instead of SQLite, e.g. postgresql+psycopg://user@host/db "
        "(NARDY_DATABASE_URL)",
    )
    parser.add_argument(
        "--redis-url",
        help="redis://host:port: the bus between several server processes, on this machine "
        "or others, that serve one site (NARDY_REDIS_URL; without it one process, with an "
        "in-process bus)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        help="server processes on this address (NARDY_WORKERS; 1); more than 1 needs "
        "--redis-url and a PostgreSQL --database-url",
    )
    parser.add_argument(
        "--grace-seconds",
        type=float,
        help="how long a disconnected player has to come back before the opponent may "
        "claim the game (NARDY_GRACE_SECONDS; 60)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        type=_proxies,
        help="comma-separated addresses or networks of the reverse proxies in front of the "
        "server, or *: only their X-Forwarded-For and X-Forwarded-Proto are believed "
        "(NARDY_FORWARDED_ALLOW_IPS; none: the connecting address is the client's)",
    )
    parser.add_argument(
        "--allowed-hosts",
        metavar="NAMES",
        type=_hosts,
        help="comma-separated names the site answers to in the Host header (example.com, "
        "*.example.com, or *); any other Host is refused (NARDY_ALLOWED_HOSTS; on a loopback "
        "--host only 127.0.0.1 and localhost, on any other address any name)",
    )
    parser.add_argument(
        "--sockets-per-user",
        type=int,
        metavar="N",
        help="the most game sockets one signed-in user may hold open in each process "
        "(NARDY_SOCKETS_PER_USER; 10)",
    )
    parser.add_argument(
        "--sockets-per-address",
        type=int,
        metavar="N",
        help="the most game sockets one client address may hold open in each process "
        "(NARDY_SOCKETS_PER_ADDRESS; 20)",
    )
    parser.set_defaults(handler=run)


def _hosts(text: str) -> tuple[str, ...]:
    from nardy.server.config import host_names

    return host_names(text)


def _proxies(text: str) -> tuple[str, ...]:
    from nardy.server.config import ConfigError, proxy_addresses

    try:
        return proxy_addresses(text)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    """Start the server and serve until interrupted."""
    try:
        import uvicorn

        from nardy.server.config import ConfigError, ServerConfig
        from nardy.server.protocol import MAX_MESSAGE
        from nardy.server.store.store import Store
    except ImportError as exc:
        print(
            f"nardy serve: error: the server needs its extra ({exc.name} is missing): "
            "python3 -m pip install 'nardy[server]'",
            file=sys.stderr,
        )
        return 2
    try:
        config = ServerConfig.from_env(**{name: getattr(args, name) for name in _ENV})
    except ConfigError as exc:
        print(f"nardy serve: error: {exc}", file=sys.stderr)
        return 2
    print(f"nardy {version()}", flush=True)
    # Migrate once here, so that the workers start on an up-to-date schema.
    Store.open(config.resolved_database_url).close()
    # The workers build their site from the environment (nardy.server.app.app_from_env).
    values = {name: getattr(config, name) for name in _ENV}
    values["data_dir"] = config.data_dir
    for name, variable in _ENV.items():
        value = values[name]
        if value is not None:
            os.environ[variable] = ",".join(value) if isinstance(value, tuple) else str(value)
    print(f"nardy server at {config.url}", flush=True)
    sqlite = config.sqlite_path
    print(f"database: {sqlite if sqlite is not None else config.database_url}", flush=True)
    uvicorn.run(
        "nardy.server.app:app_from_env",
        factory=True,
        host=config.host,
        port=config.port,
        workers=config.workers,
        log_level="warning",
        # A message a little over the protocol's limit is answered `too-large`; a frame
        # over twice it closes the socket (1009) before it is held in memory.
        ws_max_size=2 * MAX_MESSAGE,
        # Trust X-Forwarded-* from the named proxies only (uvicorn's default, 127.0.0.1,
        # would let any local client choose its address for the sign-in rate limit).
        proxy_headers=bool(config.forwarded_allow_ips),
        forwarded_allow_ips=list(config.forwarded_allow_ips) or None,
        timeout_graceful_shutdown=5,  # open game sockets do not hold a restart up
        # websockets' Sans-I/O protocol, not its legacy one (uvicorn's "auto"): about 15% less
        # CPU an action, and permessage-deflate with a 4 KB window rather than 32 KB
        # (docs/benchmarks.md, "The WebSocket layer").
        ws="websockets-sansio",
    )
    return 0
