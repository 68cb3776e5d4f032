"""Checkpointed storage (nardy.server.store.checkpoints): a room restored at any action from
its last checkpoint and the actions after it is the live one — the same snapshot, the same awaiting,
the same dice to come — for every variant, a chouette and a consultation; a snapshot is not
written on every action; a commit that fails leaves the room as it was; and a database
migrated from revision 0006 with a game in progress goes on with it."""

from __future__ import annotations

import asyncio
import random
import secrets
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardy.core.actions import Action, RollOpening, action_from_json
from nardy.core.awaiting import Awaiting
from nardy.core.chouette import Chouette
from nardy.core.fair_dice import FairDice
from nardy.core.variants import VARIANTS
from nardy.server import gamedice
from nardy.server.room.actor import Room
from nardy.server.room.registry import GameUnavailable, Rooms, host_for
from nardy.server.room.table_host import TableHost
from nardy.server.store import checkpoints
from nardy.server.store.store import Store, create_engine, member_name
from tests.server.gameplay import playing_room

EVERY = 6
"""Checkpoints this often in these tests, so that short games replay both from a game's
start and from a checkpoint taken mid-game."""


def _timeless(data: Any) -> Any:
    """A snapshot without the minutes played (the wall clock's, not the game's)."""
    if isinstance(data, dict):
        return {k: _timeless(v) for k, v in data.items() if k != "elapsed"}
    if isinstance(data, list):
        return [_timeless(v) for v in data]
    return data


def _action(awaiting: Awaiting, rng: random.Random) -> tuple[Any, Action] | None:
    """A random action open now (a legal move where one is due), or None when none is."""
    actors = [(p, k) for p, k in awaiting.actors if k]
    if not actors:
        return None
    player, kinds = rng.choice(actors)
    usual = [k for k in kinds if k in ("roll-opening", "roll", "move", "confirm", "take")]
    rare = [k for k in kinds if k not in ("forfeit", "play", "leave", "join", "surrender")]
    kind = rng.choice(usual if usual and rng.random() < 0.85 else rare or kinds)
    action: dict[str, Any] = {"type": kind}
    if kind == "move":
        move = rng.choice(awaiting.moves)
        action.update({"from": move.start, "to": move.end})
    elif kind == "choose-double":
        action["die"] = rng.randint(1, 6)
    elif kind == "propose":
        action["text"] = rng.choice(["13/8 6/5", "roll", "take it"])
    elif kind == "vote":
        action["agree"] = rng.random() < 0.5
    elif kind == "resign":
        action["level"] = 1
    return player, action_from_json({**action, "player": player})


def _next_rolls(dice: dict[str, Any]) -> list[list[int]]:
    """The next dice each stored dice source of a game object would deal."""
    sources = [*dice.get("games", [])[-1:], dice["next"]]
    rolls = []
    for state in sources:
        source = FairDice.from_state(state)
        rolls.append([source.die() for _ in range(4)])
    return rolls


async def _compare(room: Room, store: Store, replayed: list[int]) -> None:
    """The room restored from the database is the live one."""
    row = store.game(room.id)
    assert row is not None and row.seq == room.seq
    assert row.seq - row.snapshot_seq < checkpoints.CHECKPOINT_EVERY
    replayed.append(row.seq - row.snapshot_seq)
    fresh = host_for(store, row)  # the host of a room being built from the database
    await fresh.load(row, None)
    live, restored = room.host.held, fresh.held
    assert live is not None and restored is not None
    live_dice, restored_dice = room.host.stored()[1], fresh.stored()[1]
    assert _timeless(restored.snapshot()) == _timeless(live.snapshot())
    assert restored.awaiting() == live.awaiting()
    assert restored_dice == live_dice
    assert _next_rolls(restored_dice) == _next_rolls(live_dice)


async def _play(room: Room, store: Store, seed: int, actions: int) -> list[int]:
    """Random legal play, the room compared with its restoration after every action; how
    many actions each restoration replayed."""
    rng = random.Random(seed)
    replayed: list[int] = []
    held = room.host.held
    tries = 0
    while len(replayed) < actions and tries < 20 * actions and not room.over:
        tries += 1
        held = room.host.held
        assert held is not None
        chosen = _action(held.awaiting(), rng)
        if chosen is None:
            break
        seat, action = chosen
        if await room.act(seat, action) is None:
            await _compare(room, store, replayed)
    return replayed


_examples = settings(
    max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@_examples
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from([v.key for v in VARIANTS]))
def test_a_match_restored_at_any_action_is_the_live_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, variant: str
) -> None:
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", EVERY)

    async def run() -> list[int]:
        path = tmp_path / f"{secrets.token_hex(6)}.sqlite3"
        length = random.Random(seed).choice([0, 1, 3])
        async with playing_room(path, {"variant": variant, "match-length": length}) as played:
            store, _, room = played
            return await _play(room, store, seed, 80)

    replayed = asyncio.run(run())
    # Some restorations replayed several actions (unless the match ended at once: a
    # resignation straight after the opening roll replays none).
    assert replayed and (max(replayed) > 1 or len(replayed) <= 3)


async def _table_room(path: Path, kind: str) -> tuple[Store, Rooms, Room]:
    """A chouette of three people or a consultation of two against two, started."""
    store = Store.open(f"sqlite:///{path}")
    people = [store.create_user(f"p{n}", None, {}, guest=True) for n in range(4)]
    seating = {"seats": 3, "bots": 0} if kind == "chouette" else {"sides": [2, 2]}
    row = store.create_game(
        "t", {}, people[0].id, (people[0].id, None), status="open", private=False, kind=kind,
        seating=seating,
    )  # fmt: skip
    others = people[1:3] if kind == "chouette" else people[1:]
    for n, person in enumerate(others):
        side = None if kind == "chouette" else [0, 1, 1][n]
        store.add_member(row.id, person.id, side, n == len(others) - 1)
    rooms = Rooms(store)
    room = await rooms.get(row.id)
    assert room is not None and isinstance(room.host, TableHost) and room.host.table is not None
    assert all(member_name(p.id) for p in people)
    return store, rooms, room


@_examples
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(["chouette", "consultation"]))
def test_a_table_restored_at_any_action_is_the_live_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, kind: str
) -> None:
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", EVERY)

    async def run() -> list[int]:
        store, rooms, room = await _table_room(tmp_path / f"{secrets.token_hex(6)}.db", kind)
        try:
            replayed = await _play(room, store, seed, 80)
            assert kind != "chouette" or isinstance(room.host.held, Chouette)
            return replayed
        finally:
            await rooms.close()
            store.close()

    replayed = asyncio.run(run())
    assert replayed and max(replayed) > 1


def test_most_actions_write_no_snapshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only checkpoints write a snapshot: a game's start and end, and every few actions."""
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", EVERY)
    written: list[bool] = []

    async def run() -> None:
        async with playing_room(tmp_path / "few.sqlite3", {"match-length": 5}) as played:
            store, _, room = played
            append = store.append_action

            def counting(*args: Any, **kwargs: Any) -> None:
                written.append(args[4] is not None)
                append(*args, **kwargs)

            store.append_action = counting  # type: ignore[method-assign]
            await _play(room, store, 7, 200)

    asyncio.run(run())
    assert written[0]  # the opening roll starts the game
    assert len(written) > 3 * EVERY
    checkpoints_written = sum(written)  # every EVERY actions, and at each game start
    assert len(written) // EVERY <= checkpoints_written < len(written) // 2


def test_a_commit_that_fails_leaves_the_room_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", EVERY)

    async def run() -> None:
        async with playing_room(tmp_path / "fails.sqlite3", {"match-length": 3}) as played:
            store, _, room = played
            rng = random.Random(3)
            append = store.append_action
            failed = 0
            for _ in range(60):
                assert room.match is not None
                if room.over:
                    break
                chosen = _action(room.match.awaiting(), rng)
                assert chosen is not None
                before = (_timeless(room.match.snapshot()), room.seq, room.host.committed)
                dice = gamedice.dice_state(room.match)

                def broken(*args: Any, **kwargs: Any) -> None:
                    raise OSError("the disk is full")

                store.append_action = broken  # type: ignore[method-assign]
                refused = await room.act(*chosen)
                store.append_action = append  # type: ignore[method-assign]
                if refused is None or refused.code != "busy":
                    continue  # refused by the rules: nothing was stored either
                failed += 1
                assert (_timeless(room.match.snapshot()), room.seq, room.host.committed) == before
                assert gamedice.dice_state(room.match) == dice
                assert await room.act(*chosen) is None  # and it goes through next time
            assert failed > 10

    asyncio.run(run())


def test_a_game_in_progress_at_revision_0006_goes_on_after_the_upgrade(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database of the last revision before checkpoints (a snapshot with every action)
    is upgraded; the game in progress is restored and played on. A money session, so that
    nothing ends the session within the 50 actions played."""
    path = tmp_path / "old.sqlite3"
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", 1)  # as 0006 stored every action

    async def before() -> dict[str, Any]:
        async with playing_room(path, {"match-length": 0}) as played:
            store, _, room = played
            await _play(room, store, 11, 30)
            assert room.match is not None
            return dict(_timeless(room.match.snapshot()))

    live = asyncio.run(before())
    engine = create_engine(f"sqlite:///{path}")
    config = Config()
    config.set_main_option("script_location", str(Path(checkpoints.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0006_unavailable")
    with engine.connect() as connection:
        columns = {c["name"] for c in sa.inspect(connection).get_columns("games")}
    engine.dispose()
    assert "snapshot_seq" not in columns
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", EVERY)

    async def after() -> None:
        store = Store.open(f"sqlite:///{path}")  # migrates to the newest revision
        try:
            row = store.game("g")
            assert row is not None and row.snapshot_seq == row.seq > 0
            rooms = Rooms(store)
            room = await rooms.get("g")
            assert room is not None and room.match is not None
            assert _timeless(room.match.snapshot()) == live
            replayed = await _play(room, store, 12, 20)
            assert len(replayed) == 20 and store.game("g").seq == row.seq + 20  # type: ignore[union-attr]
            await rooms.close()
        finally:
            store.close()

    asyncio.run(after())


def test_the_time_played_since_the_checkpoint_counts_after_a_restore(tmp_path: Path) -> None:
    """A money session's time limit counts the minutes played: restored from an older
    checkpoint, the session has still played the time up to its last action."""

    async def run() -> None:
        settings = {"match-length": 0, "limit-minutes": 30}
        async with playing_room(tmp_path / "time.sqlite3", settings) as played:
            store, _, room = played
            assert await room.act(0, RollOpening(0)) is None  # a checkpoint
            await asyncio.sleep(1.5)
            for _ in range(2):  # the opening roll's two checkers
                assert room.match is not None
                awaiting = room.match.awaiting()
                (player,) = awaiting.players
                move = awaiting.moves[0]
                action = action_from_json(
                    {"type": "move", "from": move.start, "to": move.end, "player": player}
                )
                assert await room.act(player, action) is None
            row = store.game(room.id)
            assert row is not None and row.snapshot_seq == 1 and row.seq == 3
            fresh = host_for(store, row)
            await fresh.load(row, None)
            assert fresh.match is not None and fresh.match.snapshot()["elapsed"] >= 1.4

    asyncio.run(run())


def test_a_log_missing_actions_after_the_checkpoint_sets_the_game_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", EVERY)

    async def run() -> None:
        async with playing_room(tmp_path / "lost.sqlite3", {"match-length": 3}) as played:
            store, row, room = played
            await _play(room, store, 21, 4 * EVERY)
            stored = store.game(row.id)
            assert stored is not None
            if stored.snapshot_seq == stored.seq:  # land between two checkpoints
                assert room.match is not None
                chosen = _action(room.match.awaiting(), random.Random(1))
                assert chosen is not None and await room.act(*chosen) is None
                stored = store.game(row.id)
                assert stored is not None
            assert stored.snapshot_seq < stored.seq
            with store.engine.begin() as connection:
                connection.execute(
                    sa.text("DELETE FROM actions WHERE game_id = :g AND seq = :s"),
                    {"g": row.id, "s": stored.seq},
                )
            with pytest.raises(GameUnavailable):
                await Rooms(store).get(row.id)
            again = store.game(row.id)
            assert again is not None and "lacks" in (again.unavailable or "")

    asyncio.run(run())
