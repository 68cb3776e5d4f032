"""The analyses of finished matches as the database keeps them (table ``analyses``): one per
game, from the request that queued it to its result, and the per-user and per-process rules
of the queue (nardy.server.analysis.jobs) decided in one transaction each, so that several
server processes agree."""

from __future__ import annotations

import datetime
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from nardy.server.store.schema import analyses
from nardy.server.store.store import Store, _utc, now


class JobStatus(enum.StrEnum):
    """Where an analysis stands."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


ACTIVE = (JobStatus.QUEUED, JobStatus.RUNNING)


@dataclass(frozen=True, slots=True)
class AnalysisRow:
    """One game's analysis: who asked, where it stands, and its result once done."""

    game_id: str
    user_id: int
    status: JobStatus
    worker: str
    ply: int
    done: int
    total: int
    result: Mapping[str, Any] | None
    error: str | None
    queued_at: datetime.datetime
    updated_at: datetime.datetime

    def lost(self, stale_before: datetime.datetime) -> bool:
        """Queued or running, but not heard of since ``stale_before``: its process is gone."""
        return self.status in ACTIVE and self.updated_at < stale_before


class Outcome(enum.StrEnum):
    """What a request to analyse a game did."""

    QUEUED = "queued"
    """A new job joined the queue."""
    KEPT = "kept"
    """The game's analysis is done, or already queued or running: nothing new."""
    BUSY = "busy"
    """The user already has another job queued or running."""
    FULL = "full"
    """The process's queue is full."""


def _at(value: datetime.datetime) -> datetime.datetime:
    at = _utc(value)
    assert at is not None
    return at


def _row(row: sa.Row[Any]) -> AnalysisRow:
    return AnalysisRow(
        row.game_id,
        row.user_id,
        JobStatus(row.status),
        row.worker,
        row.ply,
        row.done,
        row.total,
        row.result,
        row.error,
        _at(row.queued_at),
        _at(row.updated_at),
    )


class Analyses:
    """The ``analyses`` table, one method per question or change."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, game_id: str) -> AnalysisRow | None:
        """The game's analysis, if one was ever asked for."""
        with self.store.engine.connect() as c:
            row = c.execute(sa.select(analyses).where(analyses.c.game_id == game_id)).first()
        return None if row is None else _row(row)

    def ahead(self, job: AnalysisRow, stale_before: datetime.datetime) -> int:
        """How many jobs of the same process's queue come before this one (the running one
        included)."""
        query = sa.select(sa.func.count()).where(
            analyses.c.worker == job.worker,
            analyses.c.status.in_(list(ACTIVE)),
            analyses.c.updated_at >= stale_before,
            analyses.c.queued_at < job.queued_at,
        )
        with self.store.engine.connect() as c:
            return int(c.execute(query).scalar_one())

    def queue(
        self,
        game_id: str,
        user_id: int,
        worker: str,
        ply: int,
        stale: datetime.datetime,
        limit: int,
    ) -> tuple[Outcome, AnalysisRow | None]:
        """Queue the game's analysis for ``user_id`` in ``worker``'s queue, unless it is done
        or under way (a failed one, or one lost: not heard of since ``stale``, is queued
        again), the user has another job under way, or the worker already holds ``limit``
        jobs; what happened, and the game's row (the user's other job's, when busy)."""
        active = analyses.c.status.in_(list(ACTIVE))
        fresh = analyses.c.updated_at >= stale
        with self.store._write() as c:
            existing = c.execute(sa.select(analyses).where(analyses.c.game_id == game_id)).first()
            if existing is not None:
                row = _row(existing)
                if row.status == JobStatus.DONE or (row.status in ACTIVE and not row.lost(stale)):
                    return Outcome.KEPT, row
            mine = c.execute(
                sa.select(analyses).where(analyses.c.user_id == user_id, active, fresh)
            ).first()
            if mine is not None:
                return Outcome.BUSY, _row(mine)
            held = c.execute(
                sa.select(sa.func.count()).where(analyses.c.worker == worker, active, fresh)
            ).scalar_one()
            if held >= limit:
                return Outcome.FULL, None
            at = now()
            values = {
                "user_id": user_id,
                "status": JobStatus.QUEUED.value,
                "worker": worker,
                "ply": ply,
                "done": 0,
                "total": 0,
                "result": None,
                "error": None,
                "queued_at": at,
                "updated_at": at,
            }
            if existing is None:
                c.execute(sa.insert(analyses).values(game_id=game_id, **values))
            else:
                c.execute(sa.update(analyses).where(analyses.c.game_id == game_id).values(values))
        created = self.get(game_id)
        assert created is not None
        return Outcome.QUEUED, created

    def _set(self, game_id: str, **values: Any) -> None:
        with self.store._write() as c:
            c.execute(
                sa.update(analyses)
                .where(analyses.c.game_id == game_id, analyses.c.status.in_(list(ACTIVE)))
                .values(updated_at=now(), **values)
            )

    def progress(self, game_id: str, done: int, total: int) -> None:
        """The job runs: ``done`` turns of ``total`` judged."""
        self._set(game_id, status=JobStatus.RUNNING.value, done=done, total=total)

    def finish(self, game_id: str, result: Mapping[str, Any], total: int) -> None:
        """The job is done: its result."""
        self._set(
            game_id, status=JobStatus.DONE.value, result=dict(result), done=total, total=total
        )

    def fail(self, game_id: str, error: str) -> None:
        """The job failed: why."""
        self._set(game_id, status=JobStatus.FAILED.value, error=error[:500])

    def touch(self, worker: str) -> None:
        """The process holding these jobs is alive: each is heard of now."""
        with self.store._write() as c:
            c.execute(
                sa.update(analyses)
                .where(analyses.c.worker == worker, analyses.c.status.in_(list(ACTIVE)))
                .values(updated_at=now())
            )

    def fail_all(self, worker: str, error: str) -> None:
        """Every job ``worker`` still holds failed (its process stops)."""
        with self.store._write() as c:
            c.execute(
                sa.update(analyses)
                .where(analyses.c.worker == worker, analyses.c.status.in_(list(ACTIVE)))
                .values(status=JobStatus.FAILED.value, error=error, updated_at=now())
            )
