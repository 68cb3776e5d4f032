"""The schema the migrations build is the one the server's code declares (tables.py)."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from nardy.server.store.store import create_engine, metadata, migrate


def test_the_migrations_create_exactly_the_declared_tables(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'nardy.sqlite'}")
    try:
        migrate(engine)
        with engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), metadata)
        assert differences == []
    finally:
        engine.dispose()
