"""Fixtures of the server suite: the database each run uses (SQLite, and PostgreSQL when one
is reachable; CI=true makes an unreachable one a failure) and a real server process on it."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.serverutil import ServerProcess

POSTGRES_URL = os.environ.get(
    "NARDY_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)


def _postgres_database() -> Iterator[str]:
    import sqlalchemy as sa

    admin = sa.create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            name = f"nardy_test_{secrets.token_hex(4)}"
            c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    except sa.exc.OperationalError as exc:
        admin.dispose()
        reason = (
            f"PostgreSQL is not reachable at {POSTGRES_URL} (NARDY_TEST_POSTGRES_URL): {exc.orig}"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    url = sa.engine.make_url(POSTGRES_URL).set(database=name)
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str | None]:
    """None (the server's own SQLite file) or a fresh PostgreSQL database, dropped after."""
    if request.param == "sqlite":
        yield None
    else:
        yield from _postgres_database()


@pytest.fixture(scope="module")
def server(
    database_url: str | None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """One server process for a test module, with a generous sign-in rate and sockets cap."""
    process = ServerProcess(
        tmp_path_factory.mktemp("data"),
        database_url,
        NARDY_AUTH_RATE="1000/60",
        NARDY_SOCKETS_PER_ADDRESS="10000",  # every test client is 127.0.0.1
    ).start()
    yield process
    process.kill()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"
