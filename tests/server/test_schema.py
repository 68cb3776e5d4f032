"""The schema the migrations build is the one the server's code declares (tables.py)."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext

from nardy.server.store import checkpoints
from nardy.server.store.schema import actions, games
from nardy.server.store.store import Store, create_engine, metadata, migrate


def test_the_migrations_create_exactly_the_declared_tables(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'nardy.sqlite'}")
    try:
        migrate(engine)
        with engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), metadata)
        assert differences == []
    finally:
        engine.dispose()


def test_a_game_in_progress_takes_its_last_action_time_in_the_upgrade(tmp_path: Path) -> None:
    """Revision 0011 adds when a game last moved (the live list leaves out the games nobody
    moves in); a game in progress before it takes the time of its last action in the log,
    one without actions none (its start counts)."""
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    store = Store.open(url)
    user = store.create_user("mover", None, {}, guest=True)
    for name in ("moved", "unmoved"):
        store.create_game(name, {}, user.id, (user.id, None), status="playing", private=False)
    for seq in range(3):
        store.append_action("moved", seq, {"type": "roll"}, [])
    store.close()
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(Path(checkpoints.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0010_seeks")
    engine.dispose()
    Store.open(url).close()  # migrates to the newest revision
    engine = create_engine(url)
    with engine.connect() as connection:
        moved = dict(connection.execute(sa.select(games.c.id, games.c.moved_at)).tuples().all())
        last = connection.execute(
            sa.select(sa.func.max(actions.c.created_at)).where(actions.c.game_id == "moved")
        ).scalar_one()
    engine.dispose()
    assert moved == {"moved": last, "unmoved": None} and last is not None
