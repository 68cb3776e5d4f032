"""The group commit of a server process: one writer commits the actions of every room.

A room that commits an action hands it over and waits for its own outcome; the writer
takes everything handed over since its last transaction and commits it in one
(:meth:`~nardy.server.store.store.Store.append_actions`), in a thread of its own so that
the event loop never waits on the disk. Under load many rooms share a transaction and a
trip to the thread, where each had one before; alone, an action is committed at once, as
before. Each action keeps its own outcome: a :class:`~nardy.server.store.store.ConflictError`
refuses only the action whose game moved on, a failed write only its own action.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from nardy.server.store.store import Append, Store, StoreError

BATCH = 256
"""The most actions one transaction commits (the rest wait for the next)."""


class Commits:
    """The process's writer of actions (:meth:`append`), from first use to :meth:`close`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.transactions = 0
        """Transactions begun so far (each of one action or more)."""
        self._waiting: list[tuple[Append, asyncio.Future[Exception | None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="nardy-commits")

    async def append(self, append: Append) -> None:
        """Commit one action (as :meth:`Store.append_action`), with whatever other rooms
        commit meanwhile; :class:`ConflictError` if its game is no longer at ``append.seq``,
        and the database's error where it could not be stored.
        A cancelled caller still waits for the outcome, as a commit already under way
        cannot be taken back, and is then cancelled."""
        outcome: asyncio.Future[Exception | None] = asyncio.get_running_loop().create_future()
        self._waiting.append((append, outcome))
        if self._writer is None:
            self._writer = asyncio.create_task(self._write(), name="group commit")
        error = await _outcome(outcome)
        if error is not None:
            raise error

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        batch: list[tuple[Append, asyncio.Future[Exception | None]]] = []
        try:
            while self._waiting:
                batch, self._waiting = self._waiting[:BATCH], self._waiting[BATCH:]
                self.transactions += 1
                try:
                    outcomes = await loop.run_in_executor(
                        self._thread, self.store.append_actions, [a for a, _ in batch]
                    )
                except Exception as exc:  # the database away: every room of the batch hears it
                    for _, outcome in batch:
                        outcome.set_exception(exc)
                    continue
                for (_, outcome), error in zip(batch, outcomes, strict=True):
                    outcome.set_result(error)
        finally:
            self._writer = None
            # Stopped midway (the server is stopping): no room waits for ever.
            for _, outcome in batch + self._waiting:
                if not outcome.done():
                    outcome.set_exception(StoreError("the server stopped before the commit"))

    def close(self) -> None:
        """Stop the writer's thread (after the transaction under way, if any)."""
        self._thread.shutdown(wait=True)


async def _outcome(
    outcome: asyncio.Future[Exception | None],
) -> Exception | None:
    cancelled = False
    while not outcome.done():
        try:
            await asyncio.shield(outcome)
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    return outcome.result()
