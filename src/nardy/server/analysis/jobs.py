"""The queue of analysis jobs of one server process (docs/analysis.md, "In the browser").

A job analyses one finished match in a worker process of its own pool (one process: the bots'
pool, :meth:`nardy.server.room.registry.Rooms.bot_pool`, stays free for their moves, and two
cores share the two), one job at a time in the order asked. A user has at most one job queued
or running; the queue holds at most :data:`QUEUE_LIMIT` jobs. Where each job stands lives in
the database (:mod:`nardy.server.store.analyses`): its place in the queue, the turns judged
so far and, once done, the result, which a restart keeps. The process writes that it holds
its jobs every :data:`HEARTBEAT_SECONDS`; a job not heard of for :data:`STALE_SECONDS` was
lost with its process and counts as failed, as do the jobs a stopping process still holds:
the user may ask again."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import multiprocessing
import queue
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from nardy.core.errors import NardyError
from nardy.engine.analysis import DEFAULT_PLY
from nardy.server.http import off_loop
from nardy.server.store.analyses import ACTIVE, Analyses, AnalysisRow, JobStatus, Outcome
from nardy.server.store.store import Store, now

log = logging.getLogger(__name__)

ANALYSIS_PLY = DEFAULT_PLY
"""The lookahead of the analysis in the browser: ``nardy analyze``'s default, 1-ply (a
7-point match in 7-8 s on this 2-core machine; docs/analysis.md, "In the browser")."""
QUEUE_LIMIT = 20
"""The most jobs one process holds, queued and running."""
HEARTBEAT_SECONDS = 10.0
STALE_SECONDS = 60.0
PROGRESS_SECONDS = 0.5
"""How often the turns judged so far are read from the worker and written down."""

Work = Callable[[str, list[dict[str, Any]], int], dict[str, Any]]
"""What a worker does with a job: the game's id, its records and the ply; the result."""

_progress: Any = None
"""In a worker: where it tells the turns it has judged, ``(game id, done, total)``."""


def _start_worker(channel: Any) -> None:
    global _progress
    _progress = channel


def analyse(game_id: str, records: list[dict[str, Any]], ply: int) -> dict[str, Any]:
    """A job's work in the worker: the match analysed (:mod:`nardy.server.analysis.work`),
    each turn judged told to the queue."""
    from nardy.server.analysis.work import analyse_records

    def tell(done: int, total: int) -> None:
        if _progress is not None:
            _progress.put((game_id, done, total))

    return analyse_records(records, ply, tell)


@dataclass(frozen=True, slots=True)
class Request:
    """What a request to analyse a game did: the outcome and the job it concerns."""

    outcome: Outcome
    job: AnalysisRow | None


class AnalysisJobs:
    """This process's queue of analyses."""

    def __init__(
        self,
        store: Store,
        worker: str,
        *,
        ply: int = ANALYSIS_PLY,
        work: Work = analyse,
        threads: bool = False,
        limit: int = QUEUE_LIMIT,
    ) -> None:
        self.analyses = Analyses(store)
        self.worker = worker
        """This process among those sharing the database (the queue's order is its own)."""
        self.ply = ply
        self.work = work
        self.threads = threads
        """Run jobs in a thread instead of a process (tests)."""
        self.limit = limit
        self._pending: asyncio.Queue[tuple[str, list[dict[str, Any]]]] = asyncio.Queue()
        self._runner: asyncio.Task[None] | None = None
        self._pool: Executor | None = None
        self._channel: Any = None
        self._lock = asyncio.Lock()

    @staticmethod
    def stale_before() -> datetime.datetime:
        """Jobs not heard of since this time were lost with their process."""
        return now() - datetime.timedelta(seconds=STALE_SECONDS)

    async def request(
        self, game_id: str, user_id: int, records: Callable[[], list[dict[str, Any]]]
    ) -> Request:
        """Queue the analysis of a finished game for a user (``records`` gives the match's
        game records), unless it is done or under way, the user has another job under way,
        or the queue is full."""
        async with self._lock:  # this process's requests one at a time
            outcome, job = await off_loop(
                self.analyses.queue,
                game_id,
                user_id,
                self.worker,
                self.ply,
                self.stale_before(),
                self.limit,
            )
            if outcome == Outcome.QUEUED:
                self._pending.put_nowait((game_id, records()))
                if self._runner is None:
                    self._runner = asyncio.create_task(self._run(), name="analysis jobs")
        return Request(outcome, job)

    async def job(self, game_id: str) -> tuple[AnalysisRow, int] | None:
        """The game's analysis as it stands (a lost job as failed), with how many jobs are
        ahead of it in its queue; None if none was asked for."""
        row = await off_loop(self.analyses.get, game_id)
        if row is None:
            return None
        stale = self.stale_before()
        if row.lost(stale):
            return replace(row, status=JobStatus.FAILED, error=LOST), 0
        ahead = await off_loop(self.analyses.ahead, row, stale) if row.status in ACTIVE else 0
        return row, ahead

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.threads:
                self._channel = queue.SimpleQueue()
                self._pool = ThreadPoolExecutor(1, "analysis", _start_worker, (self._channel,))
            else:
                context = multiprocessing.get_context("spawn")
                self._channel = context.SimpleQueue()
                self._pool = ProcessPoolExecutor(
                    1, mp_context=context, initializer=_start_worker, initargs=(self._channel,)
                )
        return self._pool

    async def _run(self) -> None:
        """The jobs one after another, as they were asked for."""
        while True:
            game_id, records = await self._pending.get()
            try:
                await self._one(game_id, records)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database away: the job is lost, the queue goes on
                log.exception("analysis of %s: could not be recorded", game_id)

    async def _one(self, game_id: str, records: list[dict[str, Any]]) -> None:
        total = sum(len(r.get("turns", [])) for r in records)
        await off_loop(self.analyses.progress, game_id, 0, total)
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor(), self.work, game_id, records, self.ply)
        beat = time.monotonic()
        while True:
            done, _ = await asyncio.wait([future], timeout=PROGRESS_SECONDS)
            told = self._told()
            if told is not None:
                await off_loop(self.analyses.progress, game_id, *told)
            if time.monotonic() - beat >= HEARTBEAT_SECONDS:
                await off_loop(self.analyses.touch, self.worker)
                beat = time.monotonic()
            if done:
                break
        try:
            result = future.result()
        except NardyError as exc:  # what cannot be analysed, said why
            await off_loop(self.analyses.fail, game_id, str(exc))
            return
        except BrokenExecutor as exc:  # its process died: the next job starts another
            log.error("analysis of %s: the worker process died", game_id)
            self._pool = None
            await off_loop(self.analyses.fail, game_id, f"the analysis stopped: {exc}")
            return
        except Exception as exc:
            log.exception("analysis of %s failed", game_id)
            await off_loop(self.analyses.fail, game_id, f"{type(exc).__name__}: {exc}")
            return
        await off_loop(self.analyses.finish, game_id, result, total)

    def _told(self) -> tuple[int, int] | None:
        """The latest turns judged the worker told, if it told any since last asked."""
        latest = None
        while self._channel is not None and not self._channel.empty():
            _, done, total = self._channel.get()
            latest = (done, total)
        return latest

    async def close(self) -> None:
        """Stop: the jobs this process still holds fail (their users may ask again)."""
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner
        if self._pool is not None:
            # a job runs for seconds: its process is stopped, not waited for
            processes = getattr(self._pool, "_processes", None) or {}
            for process in list(processes.values()):
                process.terminate()
            self._pool.shutdown(wait=False, cancel_futures=True)
        with contextlib.suppress(Exception):  # the database away: they go stale instead
            await off_loop(self.analyses.fail_all, self.worker, STOPPED)


LOST = "lost: the server stopped while it ran"
STOPPED = "stopped: the server stopped before it finished"
