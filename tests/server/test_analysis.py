"""The analysis of finished matches in the browser (issue 19, feature 2): the queue holds one
job per user, tells each job its place and the turns judged so far, stores the result with
the match for whoever may see its replay (and keeps it over a restart), and a job its process
dropped counts as failed; over HTTP, a real 1-point match analysed as ``nardy analyze``
judges it, with the boards of the best plays and the winning chances drawn beside."""

from __future__ import annotations

import asyncio
import datetime
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from nardy.engine.analysis import analyze
from nardy.engine.analysis_json import analysis_json
from nardy.server.analysis import jobs as jobs_module
from nardy.server.analysis.jobs import ANALYSIS_PLY, STOPPED, AnalysisJobs
from nardy.server.store.analyses import JobStatus, Outcome
from nardy.server.store.schema import analyses
from nardy.server.store.store import Store
from tests.server.gameplay import finished_match, players, resigning, seek
from tests.server.serverutil import Client, ServerProcess

gate = threading.Event()
"""What the gated work waits for before it finishes."""


def gated(game_id: str, records: list[dict[str, Any]], ply: int) -> dict[str, Any]:
    """A job's work that tells one turn judged of three, then waits for the gate."""
    jobs_module._progress.put((game_id, 1, 3))
    assert gate.wait(10)
    return {"analysis": {"game": game_id, "ply": ply}, "boards": []}


def _store(path: Path) -> tuple[Store, list[int]]:
    store = Store.open(f"sqlite:///{path}")
    users = [store.create_user(name, None, {}, guest=True).id for name in ("a", "b", "c")]
    for game in ("g1", "g2", "g3"):
        store.create_game(
            game,
            {"match-length": 1},
            users[0],
            (users[0], users[1]),
            status="finished",
            private=False,
        )
    return store, users


async def _until(
    jobs: AnalysisJobs, game: str, status: JobStatus, tries: int = 400
) -> tuple[Any, int]:
    for _ in range(tries):
        found = await jobs.job(game)
        if (
            found is not None
            and found[0].status == status
            and (status != JobStatus.RUNNING or found[0].done)
        ):
            return found
        await asyncio.sleep(0.025)
    raise AssertionError(f"{game} never became {status}: {found}")


def test_one_job_per_user_a_place_in_the_queue_progress_and_the_result_kept(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        gate.clear()
        store, (a, b, c) = _store(tmp_path / "db.sqlite")
        jobs = AnalysisJobs(store, "w1", work=gated, threads=True, limit=2)
        try:
            first = await jobs.request("g1", a, list)
            assert first.outcome == Outcome.QUEUED
            # the same user's second match waits for the first; another user's queues
            busy = await jobs.request("g2", a, list)
            assert busy.outcome == Outcome.BUSY and busy.job is not None
            assert busy.job.game_id == "g1"
            assert (await jobs.request("g2", b, list)).outcome == Outcome.QUEUED
            # a full queue (two jobs here) takes no more
            assert (await jobs.request("g3", c, list)).outcome == Outcome.FULL
            running, ahead = await _until(jobs, "g1", JobStatus.RUNNING)
            assert (running.done, running.total, ahead) == (1, 3, 0)
            waiting, ahead = await jobs.job("g2") or (None, -1)
            assert waiting.status == JobStatus.QUEUED and ahead == 1
            # asking again for a job under way queues nothing
            assert (await jobs.request("g1", c, list)).outcome == Outcome.KEPT
            gate.set()
            done, ahead = await _until(jobs, "g1", JobStatus.DONE)
            assert done.result == {"analysis": {"game": "g1", "ply": ANALYSIS_PLY}, "boards": []}
            assert (done.done, done.total, ahead) == (0, 0, 0)  # records without turns
            await _until(jobs, "g2", JobStatus.DONE)
            # one's job done, one may ask for another; a done analysis is kept, not redone
            assert (await jobs.request("g3", a, list)).outcome == Outcome.QUEUED
            assert (await jobs.request("g1", b, list)).outcome == Outcome.KEPT
            await _until(jobs, "g3", JobStatus.DONE)
        finally:
            await jobs.close()
            store.close()
        # a restart keeps what was done
        again = Store.open(f"sqlite:///{tmp_path / 'db.sqlite'}")
        try:
            found = await AnalysisJobs(again, "w2").job("g1")
            assert found is not None and found[0].status == JobStatus.DONE
        finally:
            again.close()

    asyncio.run(scenario())


def test_a_job_its_process_stopped_or_lost_has_failed_and_may_be_asked_again(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        gate.clear()
        store, (a, b, _) = _store(tmp_path / "db.sqlite")
        jobs = AnalysisJobs(store, "w1", work=gated, threads=True)
        try:
            await jobs.request("g1", a, list)
            await jobs.request("g2", b, list)
            await _until(jobs, "g1", JobStatus.RUNNING)
            await jobs.close()  # the server stops: both jobs it held fail
            gate.set()
            for game in ("g1", "g2"):
                found = await jobs.job(game)
                assert found is not None
                assert (found[0].status, found[0].error) == (JobStatus.FAILED, STOPPED)
            # a crash: the job was never marked, but nobody has heard of it for a minute
            gate.clear()
            other = AnalysisJobs(store, "w2", work=gated, threads=True)
            assert (await other.request("g1", a, list)).outcome == Outcome.QUEUED
            await _until(other, "g1", JobStatus.RUNNING)
            long_ago = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=5)
            with store.engine.begin() as c:
                c.execute(sa.update(analyses).values(updated_at=long_ago))
            found = await other.job("g1")
            assert found is not None and found[0].status == JobStatus.FAILED
            # lost, so its user is free again, and the game may be queued anew
            assert (await other.request("g2", a, list)).outcome == Outcome.QUEUED
            gate.set()
            await other.close()
        finally:
            store.close()

    asyncio.run(scenario())


def dying(game_id: str, records: list[dict[str, Any]], ply: int) -> dict[str, Any]:
    """A job's work whose worker process dies (killed, out of memory)."""
    os._exit(1)


def quick(game_id: str, records: list[dict[str, Any]], ply: int) -> dict[str, Any]:
    return {"analysis": {"game": game_id}, "boards": []}


def test_a_worker_process_that_dies_fails_its_job_and_the_next_job_gets_another(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        store, (a, _, _) = _store(tmp_path / "db.sqlite")
        jobs = AnalysisJobs(store, "w1", work=dying)
        try:
            await jobs.request("g1", a, list)
            failed, _ = await _until(jobs, "g1", JobStatus.FAILED, tries=1200)
            assert failed.error is not None and failed.error.startswith("the analysis stopped")
            jobs.work = quick
            await jobs.request("g2", a, list)
            done, _ = await _until(jobs, "g2", JobStatus.DONE, tries=1200)
            assert done.result == {"analysis": {"game": "g2"}, "boards": []}
        finally:
            await jobs.close()
            store.close()

    asyncio.run(scenario())


# -- over HTTP, with the real analysis ------------------------------------------------------------


def _analysed(client: Client, game: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    seen = set()
    while time.monotonic() < deadline:
        view: dict[str, Any] = client.get(f"/api/games/{game}/analysis").json()
        seen.add(view["status"])
        if view["status"] == "done":
            return view
        assert view["status"] in ("queued", "running"), view
        time.sleep(0.2)
    raise AssertionError(f"not analysed in {timeout} s: {seen}")


def test_a_finished_match_is_analysed_as_nardy_analyze_judges_it(server: ServerProcess) -> None:
    a, b = players(server)
    game = finished_match(a, b)
    anyone = Client(server)
    assert anyone.get(f"/api/games/{game}/analysis").json() == {"status": "none"}
    r = anyone.post(f"/api/games/{game}/analysis")
    assert (r.status_code, r.json()["error"]) == (401, "not-signed-in")
    r = a.post(f"/api/games/{game}/analysis")
    assert r.status_code == 202 and r.json()["status"] in ("queued", "running", "done"), r.text
    # nardy analyze's judgement (its default ply) of the downloaded records, made here while
    # the server's worker makes its own (each on a core of its own)
    records = anyone.get(f"/api/games/{game}/record.json").json()
    expected = analysis_json(analyze(records, ply=ANALYSIS_PLY, jobs=1))
    view = _analysed(anyone, game)  # anyone who may see the replay sees the analysis
    assert view["ply"] == ANALYSIS_PLY and view["done"] == view["total"] > 10
    # the same judgement as nardy analyze's
    got = view["analysis"]
    assert [p["mark"] for p in got["games"][0]["plays"]] == [
        p["mark"] for p in expected["games"][0]["plays"]
    ]
    assert got["stats"][0]["rating"] == expected["stats"][0]["rating"]
    (boards,) = view["boards"]
    turns = anyone.get(f"/api/games/{game}/replay").json()["games"][0]["turns"]
    assert len(boards["chances"]) == len(turns) + 1
    assert all(0 <= x <= 1 for x in boards["chances"])
    winner = got["games"][0]["winner"]
    assert boards["chances"][-1] == (1.0 if winner == 0 else 0.0)  # a 1-point match ends it
    for turn, board in boards["best"].items():
        play = next(p for p in got["games"][0]["plays"] if p["turn"] == int(turn))
        assert play["best"] != play["played"]
        assert [sum(side) for side in board["sides"]] == [15, 15]  # the borne off counted at 0
    # asked again: kept, and downloadable with the record
    again = b.post(f"/api/games/{game}/analysis")
    assert again.status_code == 200 and again.json()["status"] == "done"
    r = anyone.get(f"/api/games/{game}/analysis.json")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    assert r.json() == got


def test_only_a_finished_match_one_may_see_is_analysed(server: ServerProcess) -> None:
    a, b = players(server)
    playing = seek(a)
    assert b.post(f"/api/games/{playing}/join").status_code == 200
    r = a.post(f"/api/games/{playing}/analysis")
    assert (r.status_code, r.json()["error"]) == (409, "not-finished")
    private = a.post("/api/games", {"settings": {"match-length": 1}, "opponent": "invite"})
    assert private.status_code == 201
    hidden = private.json()["id"]
    stranger = Client(server)
    stranger.sign_up("stranger-analysis")
    for r in (
        stranger.get(f"/api/games/{hidden}/analysis"),
        stranger.post(f"/api/games/{hidden}/analysis"),
        stranger.get(f"/api/games/{hidden}/analysis.json"),
    ):
        assert (r.status_code, r.json()["error"]) == (404, "no-such-game")
    r = stranger.get(f"/api/games/{playing}/analysis.json")
    assert (r.status_code, r.json()["error"]) == (404, "not-analysed")


@pytest.fixture(autouse=True)
def _open_gate() -> Any:
    yield
    gate.set()  # a failed test leaves no worker thread waiting


def test_a_restart_keeps_a_finished_analysis_and_fails_the_one_in_flight(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, None, NARDY_AUTH_RATE="1000/60").start()
    try:
        a, b = players(server)
        # the first match resigned at once (its analysis quick), the second played out
        first, second = finished_match(a, b, resigning), finished_match(a, b)
        assert a.post(f"/api/games/{first}/analysis").status_code == 202
        _analysed(a, first)
        assert b.post(f"/api/games/{second}/analysis").status_code == 202
        deadline = time.monotonic() + 60
        while b.get(f"/api/games/{second}/analysis").json()["status"] != "running":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        server.kill()  # the server stops while the job runs
        server.start()
        a, b = a.on(server), b.on(server)
        assert a.get(f"/api/games/{first}/analysis").json()["status"] == "done"
        stopped = b.get(f"/api/games/{second}/analysis").json()
        assert stopped["status"] == "failed" and stopped["error"], stopped
        # its user asks again, and this time it is done
        assert b.post(f"/api/games/{second}/analysis").status_code == 202
        assert _analysed(b, second)["analysis"]["games"]
    finally:
        server.kill()
