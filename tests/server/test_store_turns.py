"""The store's writes on SQLite take turns within a process: the server writes from many
worker threads at once, and a writer that found the database busy used to sleep in SQLite's
busy handler (up to 100 ms a try), which was the latency under load (bench/load.py)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from nardy.server.store.checkpoints import Checkpoint
from nardy.server.store.store import ConflictError, Store, migrate


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


def _store(url: str | None, tmp_path: Path) -> Store:
    return Store.open(url or f"sqlite:///{tmp_path / 'append.sqlite3'}")


def test_an_action_sets_what_it_names_and_only_at_its_seq(
    database_url: str | None, tmp_path: Path
) -> None:
    """append_action's statements are built once: the columns each commit sets are the ones
    it was given (the seq always; a checkpoint, the clock, the result where given), and a
    commit at the wrong seq or after the end changes nothing."""
    store = _store(database_url, tmp_path)
    try:
        user = store.create_user("a", None, {}, guest=True)
        game = store.create_game(
            "g", {}, user.id, (user.id, None), status="playing", private=False
        ).id
        store.append_action(game, 0, {"type": "roll"}, [{"type": "rolled", "dice": [3, 1]}])
        row = store.game(game)
        assert row is not None and row.seq == 1 and row.status == "playing"
        assert row.snapshot_seq == 0 and row.clock_state is None and row.result is None
        store.append_action(game, 1, {"type": "confirm"}, [], Checkpoint({"n": 2}, {"d": 1}))
        store.append_action(game, 2, {"type": "roll"}, [], clock_state={"left": [5, 6]})
        row = store.game(game)
        assert row is not None and row.seq == 3 and row.snapshot_seq == 2
        assert row.snapshot == {"n": 2} and row.clock_state == {"left": [5, 6]}
        with pytest.raises(ConflictError):  # another process committed action 3 first
            store.append_action(game, 2, {"type": "roll"}, [])
        store.append_action(game, 3, {"type": "resign"}, [], result={"winner": 0, "points": 1})
        row = store.game(game)
        assert row is not None and row.seq == 4 and row.status == "finished"
        assert row.result == {"winner": 0, "points": 1} and row.finished_at is not None
        with pytest.raises(ConflictError):  # no longer being played
            store.append_action(game, 4, {"type": "roll"}, [])
        logged, _ = store.actions_between(game, 0, 4)
        assert [a["type"] for a in logged] == ["roll", "confirm", "roll", "resign"]
    finally:
        store.close()
