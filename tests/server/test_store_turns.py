"""The store's writes on SQLite take turns within a process: the server writes from many
worker threads at once, and a writer that found the database busy used to sleep in SQLite's
busy handler (up to 100 ms a try), which was the latency under load (bench/load.py)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from nardy.server.store.checkpoints import Checkpoint
from nardy.server.store.store import Store, migrate


def test_writes_from_many_threads_never_find_the_database_busy(tmp_path: Path) -> None:
    # No busy timeout at all: a write that found another one under way would fail at once
    # with "database is locked" instead of sleeping, so any overlap shows.
    engine = sa.create_engine(
        f"sqlite:///{tmp_path / 'turns.sqlite3'}",
        connect_args={"check_same_thread": False, "timeout": 0},
        pool_size=16,
    )

    @sa.event.listens_for(engine, "connect")
    def _wal(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute("PRAGMA journal_mode=WAL")

    migrate(engine)
    store = Store(engine)
    user = store.create_user("a", None, {}, guest=True)
    games = [
        store.create_game(f"g{i}", {}, user.id, (user.id, None), status="playing", private=False).id
        for i in range(8)
    ]
    failures: list[BaseException] = []
    start = threading.Barrier(len(games))

    def write(game_id: str) -> None:
        start.wait()
        try:
            for seq in range(40):
                store.append_action(
                    game_id, seq, {"type": "roll"}, [], Checkpoint({"n": seq}, {"d": 1})
                )
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=write, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert all(store.game(g).seq == 40 for g in games)  # type: ignore[union-attr]
    store.close()
