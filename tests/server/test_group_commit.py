"""The group commit: the actions many rooms commit at once share a transaction, and each
keeps its own outcome (a conflict, or a failed write, refuses only its own action); on
SQLite and on PostgreSQL, whose failed statement fails its whole transaction."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import pytest
import sqlalchemy as sa

from nardy.server.store.checkpoints import Checkpoint
from nardy.server.store.commits import Commits
from nardy.server.store.store import Append, ConflictError, Store


def _store(tmp_path: Path, url: str | None, games: int) -> tuple[Store, list[str]]:
    """A store (PostgreSQL's database is the session's: names of this test's own) and
    ``games`` games being played."""
    store = Store.open(url or f"sqlite:///{tmp_path / 'group.sqlite3'}")
    own = secrets.token_hex(4)
    user = store.create_user(f"a{own}", None, {}, guest=True)
    ids = [
        store.create_game(
            f"g{own}{i:02}", {}, user.id, (user.id, None), status="playing", private=False
        ).id
        for i in range(games)
    ]
    return store, ids


def test_many_rooms_share_transactions_and_every_action_is_stored(
    tmp_path: Path, database_url: str | None
) -> None:
    store, games = _store(tmp_path, database_url, 12)
    commits = Commits(store)

    async def room(game_id: str) -> None:
        for seq in range(10):
            await commits.append(Append(game_id, seq, {"type": "roll", "n": seq}, [{"e": seq}]))

    async def scenario() -> None:
        await asyncio.gather(*(room(g) for g in games))

    asyncio.run(scenario())
    commits.close()
    assert commits.transactions < 12 * 10  # shared: far fewer transactions than actions
    for game_id in games:
        assert store.game(game_id).seq == 10  # type: ignore[union-attr]
        actions, _ = store.actions_between(game_id, 0, 10)
        assert [a["n"] for a in actions] == list(range(10))
    store.close()


def test_a_conflict_in_a_batch_refuses_only_its_own_action(
    tmp_path: Path, database_url: str | None
) -> None:
    store, games = _store(tmp_path, database_url, 4)
    store.append_action(games[1], 0, {"type": "roll"}, [])  # another process got there first
    appends = [Append(g, 0, {"type": "roll", "game": g}, []) for g in games]
    appends[2] = Append(games[2], 0, {"type": "roll"}, [], Checkpoint({"n": 1}, {"d": 1}))
    outcomes = store.append_actions(appends)
    assert [type(o) for o in outcomes] == [type(None), ConflictError, type(None), type(None)]
    assert [store.game(g).seq for g in games] == [1, 1, 1, 1]  # type: ignore[union-attr]
    assert store.game(games[2]).snapshot == {"n": 1}  # type: ignore[union-attr]
    actions, _ = store.actions_between(games[1], 0, 1)
    assert "game" not in actions[0]  # the first process's action stands, untouched
    store.close()


def test_an_action_that_cannot_be_written_fails_alone(
    tmp_path: Path, database_url: str | None
) -> None:
    store, games = _store(tmp_path, database_url, 3)
    # A row the transaction cannot take (an action number already logged) fails the
    # batch's transaction: each is then committed on its own, and only that one fails.
    store.append_action(games[1], 0, {"type": "roll"}, [])
    with store.engine.begin() as c:  # the game's row put back, its action left in the log
        c.execute(sa.text("UPDATE games SET seq = 0 WHERE id = :id"), {"id": games[1]})
    outcomes = store.append_actions([Append(g, 0, {"type": "roll"}, []) for g in games])
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], ConflictError)
    assert [store.game(g).seq for g in games] == [1, 0, 1]  # type: ignore[union-attr]
    store.close()


def test_the_conflict_reaches_the_room_that_committed(
    tmp_path: Path, database_url: str | None
) -> None:
    store, games = _store(tmp_path, database_url, 2)
    store.append_action(games[0], 0, {"type": "roll"}, [])
    commits = Commits(store)

    async def scenario() -> list[BaseException | None]:
        results = await asyncio.gather(
            *(commits.append(Append(g, 0, {"type": "roll"}, [])) for g in games),
            return_exceptions=True,
        )
        return list(results)

    first, second = asyncio.run(scenario())
    commits.close()
    assert isinstance(first, ConflictError) and second is None
    with pytest.raises(ConflictError):
        store.append_action(games[1], 0, {"type": "roll"}, [])
    store.close()


def test_a_batch_writes_what_each_action_alone_would(
    tmp_path: Path, database_url: str | None
) -> None:
    """Actions of one batch that change different columns (a checkpoint, the clock, the
    result, none) leave the games' rows and logs as committing each alone does."""
    alone, alone_games = _store(tmp_path / "alone", database_url, 4)
    batch, batch_games = _store(tmp_path / "batch", database_url, 4)

    def appends(ids: list[str]) -> list[Append]:
        action, events = {"type": "roll"}, [{"type": "rolled", "dice": [3, 1]}]
        return [
            Append(ids[0], 0, action, events),
            Append(ids[1], 0, action, events, clock_state={"left": [60, 60]}),
            Append(ids[2], 0, action, events, Checkpoint({"s": 1}, {"d": 2})),
            Append(ids[3], 0, action, events, result={"winner": 0}, clock_state={"left": [1]}),
        ]

    for a in appends(alone_games):
        assert alone.append_actions([a]) == [None]
    assert batch.append_actions(appends(batch_games)) == [None] * 4

    def written(store: Store, game_id: str) -> tuple[object, ...]:
        row = store.game(game_id)
        assert row is not None
        actions, events = store.actions_between(game_id, 0, 1)
        return (
            row.seq,
            row.status,
            row.result,
            row.clock_state,
            actions,
            events,
            row.snapshot,
            row.dice,
            row.snapshot_seq,
            row.finished_at is None,
        )

    for mine, theirs in zip(batch_games, alone_games, strict=True):
        assert written(batch, mine) == written(alone, theirs)
    assert written(batch, batch_games[2])[6:9] == ({"s": 1}, {"d": 2}, 1)
    assert written(batch, batch_games[3])[1:3] == ("finished", {"winner": 0})
    alone.close()
    batch.close()
