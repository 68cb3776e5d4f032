"""How checkpointed storage (nardy.server.store.checkpoints) costs with a match's age: the time a
room takes to restore an aged match from the database (its last checkpoint and the actions
after it) as a ratio against restoring a fresh game in the same run, and the bytes an action
writes to the game's row and the action log, summed over the match, against what writing the
whole snapshot with every action (before checkpoints) wrote.

    PYTHONPATH=src python3 bench/restore.py [--actions 1000] [--money-actions 3000]
        [--folder /dev/shm]

Each game is played in process through a real room on a SQLite file (random legal play, no
doubling, no resigning), so the commits, checkpoints and restores are the server's own.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from nardy.core.awaiting import Awaiting
from nardy.server import gamedice
from nardy.server.room.actor import Room
from nardy.server.room.registry import Rooms, host_for
from nardy.server.store.checkpoints import CHECKPOINT_EVERY
from nardy.server.store.store import Store

REPEATS = 15
"""Restores timed per game (the median is shown). Times are the process's CPU time, not the
wall clock's: on a shared machine the wall clock mostly measures the neighbours."""


def _size(data: Any) -> int:
    return len(json.dumps(data, separators=(",", ":")))


def _action(awaiting: Awaiting, rng: random.Random) -> tuple[int, dict[str, Any]]:
    player, kinds = next((p, k) for p, k in awaiting.actors if k)
    assert isinstance(player, int)
    for kind in ("roll-opening", "roll", "take", "confirm"):
        if kind in kinds:
            return player, {"type": kind}
    if "move" in kinds:
        move = rng.choice(awaiting.moves)
        return player, {"type": "move", "from": move.start, "to": move.end}
    if "choose-double" in kinds:
        return player, {"type": "choose-double", "die": rng.randint(1, 6)}
    raise AssertionError(f"nothing to do with {kinds}")


class Written:
    """The bytes the room's commits write, and what writing the whole snapshot (and the
    dice) with every action would have written."""

    def __init__(self, store: Store, room: Room) -> None:
        self.now = 0
        self.before = 0
        self.checkpoints = 0
        append = store.append_action

        def counting(*args: Any, **kwargs: Any) -> None:
            action, events, checkpoint = args[2], args[3], args[4]
            logged = _size(action) + _size(events)
            assert room.match is not None
            self.before += logged + _size(room.match.snapshot())
            self.before += _size(gamedice.dice_state(room.match))
            self.now += logged
            if checkpoint is not None:
                self.checkpoints += 1
                self.now += _size(dict(checkpoint.snapshot)) + _size(dict(checkpoint.dice))
            append(*args, **kwargs)

        store.append_action = counting  # type: ignore[method-assign]


async def _played(rooms: Rooms, game_id: str, settings: dict[str, Any], actions: int) -> Written:
    store = rooms.store
    a = store.create_user(f"a{game_id}", None, {}, guest=True)
    b = store.create_user(f"b{game_id}", None, {}, guest=True)
    store.create_game(game_id, settings, a.id, (a.id, b.id), status="playing", private=False)
    room = await rooms.get(game_id)
    assert room is not None and room.match is not None
    written = Written(store, room)
    rng = random.Random(game_id)
    while room.seq < actions and not room.over:
        refused = await room.act(*_action(room.match.awaiting(), rng))
        assert refused is None, refused
    store.append_action = Store.append_action.__get__(store)  # type: ignore[method-assign]
    return written


async def _restore_time(rooms: Rooms, game_id: str) -> float:
    """The median time to restore the game's match from the database as a room does: its
    row read, the actions after its checkpoint read, the checkpoint restored and the
    actions replayed."""
    times = []
    for _ in range(REPEATS):
        start = time.process_time()
        row = rooms.store.game(game_id)
        assert row is not None
        await host_for(rooms.store, row).load(row, None)
        times.append(time.process_time() - start)
    return statistics.median(times)


def _old_restore_time(rooms: Rooms, game_id: str) -> float:
    """The median time restoring the whole snapshot at the last action took before
    checkpoints (decoding its JSON and restoring it; the row's read not counted)."""
    room = rooms.rooms[game_id]
    assert room.match is not None
    snapshot, dice = room.match.snapshot(), gamedice.dice_state(room.match)
    times = []
    for _ in range(REPEATS):
        start = time.process_time()
        encoded = json.dumps(snapshot)  # as the row was read: JSON decoded, then restored
        gamedice.restore(json.loads(encoded), dice)
        times.append(time.process_time() - start)
    return statistics.median(times)


async def main(actions: int, money_actions: int, where: str | None) -> None:
    with tempfile.TemporaryDirectory(dir=where) as folder:
        store = Store.open(f"sqlite:///{Path(folder) / 'restore.sqlite3'}")
        rooms = Rooms(store)
        try:
            await _played(rooms, "fresh", {"match-length": 7}, 1)
            fresh = await _restore_time(rooms, "fresh")
            old_fresh = _old_restore_time(rooms, "fresh")
            print(
                f"checkpoint every {CHECKPOINT_EVERY} actions; a fresh game restores in "
                f"{fresh * 1e3:.2f} ms (its snapshot alone: {old_fresh * 1e3:.2f} ms)"
            )
            cases = [
                ("7-point match", "aged7", {"match-length": 7}, actions),
                ("money session", "money", {"match-length": 0}, money_actions),
            ]
            for name, game_id, settings, count in cases:
                written = await _played(rooms, game_id, settings, count)
                row = store.game(game_id)
                assert row is not None
                took = await _restore_time(rooms, game_id)
                old = _old_restore_time(rooms, game_id)
                room = rooms.rooms[game_id]
                assert room.match is not None
                print(
                    f"{name} at action {row.seq} ({len(room.match.games)} games, "
                    f"checkpoint at {row.snapshot_seq}, {written.checkpoints} checkpoints): "
                    f"restore {took * 1e3:.2f} ms = {took / fresh:.1f}x fresh "
                    f"(before, the whole snapshot: {old * 1e3:.2f} ms = {old / old_fresh:.1f}x); "
                    f"bytes written {written.now:,} = {written.now / row.seq:,.0f}/action "
                    f"(before: {written.before:,} = {written.before / row.seq:,.0f}/action, "
                    f"{written.before / written.now:.1f}x)"
                )
        finally:
            await rooms.close()
            store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1000, help="the 7-point match's age")
    parser.add_argument("--money-actions", type=int, default=3000, help="the session's age")
    parser.add_argument("--folder", help="where the SQLite file goes (default: the temp dir)")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.actions, arguments.money_actions, arguments.folder))
