"""The load benchmark (bench/load.py) on a tiny scale, so that it cannot rot: it reads either
version of the room's state, it plays a short run through and reports, and it refuses to
report when its server died during the run or another process answers on its port."""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from load import Figures, parse_think, print_server_errors  # noqa: E402
from load_play import Ages, Tally, Turn, choose, turn_of  # noqa: E402
from load_server import HOST, own_server  # noqa: E402

LOAD = [sys.executable, str(ROOT / "bench" / "load.py")]
TINY = [
    *("--games", "2", "--ages", "uniform:0-12", "--think", "0.05-0.2", "--warmup", "1"),
    *("--ping", "1"),
]
AWAITING = {
    "phase": "moving",
    "actors": [{"player": 1, "actions": ["move", "undo"]}],
    "moves": [{"from": 24, "to": 18, "hit": False}, {"from": 13, "to": 8, "hit": False}],
    "dice": [6, 5],
}


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def v2_state(seat: int, actions: list[str], board: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "seq": 7,
        "status": "playing",
        "you": {"seat": seat, "side": seat, "actions": actions},
        "board": board,
    }


def test_both_versions_of_the_state_give_the_same_turn() -> None:
    v1 = turn_of(1, {"seq": 7, "status": "playing", "awaiting": AWAITING, "match": {}})
    v2 = Turn.merged(
        [
            turn_of(2, v2_state(0, [], {"awaiting": AWAITING})),
            turn_of(2, v2_state(1, ["move", "undo"], {"awaiting": AWAITING})),
        ]
    )
    assert v1 == v2 == Turn(7, False, {1: ("move", "undo")}, ((24, 18), (13, 8)))
    assert v1.actor == 1
    assert choose(v1, 1, random.Random(1))["type"] == "move"


def test_version_2_takes_each_viewers_own_actions() -> None:
    own = turn_of(2, v2_state(1, ["confirm"], {"awaiting": AWAITING}))
    assert choose(Turn.merged([own]), 1, random.Random(1)) == {"type": "confirm"}
    # Before the first game there is no board: the viewers' own actions say who acts.
    opening = Turn.merged(
        [turn_of(2, v2_state(0, ["roll-opening"], None)), turn_of(2, v2_state(1, [], None))]
    )
    assert opening.actors == {0: ("roll-opening",)}
    assert choose(opening, opening.actor, random.Random(1)) == {"type": "roll-opening"}


def test_a_player_takes_rolls_and_moves_only_as_awaited() -> None:
    rng = random.Random(1)

    def turn(*kinds: str) -> Turn:
        return Turn(3, False, {1: kinds}, ((13, 8),))

    assert choose(turn("take", "pass", "beaver"), 1, rng) == {"type": "take"}
    assert choose(turn("roll", "double"), 1, rng) == {"type": "roll"}
    assert choose(turn("move", "undo"), 1, rng) == {"type": "move", "from": 13, "to": 8}
    assert choose(turn("confirm", "undo"), 1, rng) == {"type": "confirm"}
    with pytest.raises(ValueError, match="nothing this player knows"):
        choose(turn("resign"), 1, rng)


def test_think_times_are_read_and_checked() -> None:
    assert parse_think("0.5-3") == (0.5, 3.0)
    assert parse_think("0") == (0.0, 0.0)
    for bad in ("3-1", "x", "-1-2", "1-100"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_think(bad)


def test_ages_are_a_uniform_range_or_one_number() -> None:
    assert Ages.parse("uniform:0-1000") == Ages(0, 1000)
    assert Ages.parse("300") == Ages(300, 300)
    assert {Ages(3, 5).draw(random.Random(i)) for i in range(200)} == {3, 4, 5}
    for bad in ("uniform:9-1", "1-5", "many"):
        with pytest.raises(ValueError):
            Ages.parse(bad)


def test_a_tiny_run_reports_its_figures() -> None:
    done = subprocess.run(
        [*LOAD, *TINY, "--duration", "2"],
        env=environment(),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for figure in (
        "mean action number measured at",
        "ms an action",
        "bytes on the",
        "KiB a game",
        "p99",
        "idle HTTP round trip",
        "a ping answered",
        "errors: none",
    ):
        assert figure in done.stdout, done.stdout


@pytest.mark.parametrize("ping_ms", [0.0, -0.004])
def test_a_reference_no_dearer_than_idle_is_said_not_measured(ping_ms: float) -> None:
    """A small run's pings may cost no clock tick of the server's CPU above its idle (or
    less, in noise): the report says so instead of dividing by it."""
    tally = Tally(latencies=[0.004, 0.006], seqs=[3, 4], wire=900, text=2000, held=2)
    figures = Figures(
        ages=Ages(0, 12), games=2, held=2, tallies=[tally], seconds=2.0, cpu=0.02,
        rss=50 << 20, rss_idle=40 << 20, idle_ms=0.5, idle_cores=0.001, loaded_ms=0.6,
        ping_ms=ping_ms, clients=1, aged_actions=10, aged_seconds=1.0, load=(0.5, 0.6),
    )  # fmt: skip
    report = "\n".join(figures.lines())
    assert "reference: not measured" in report and "no ratio" in report, report
    assert "x that" not in report


def test_it_refuses_to_report_when_the_server_dies(tmp_path: Path) -> None:
    with own_server(tmp_path) as (port, server):
        run = subprocess.Popen(
            [*LOAD, *TINY, "--duration", "20", "--target", str(port)],
            env=environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert run.stderr is not None
        deadline = time.monotonic() + 120
        for line in run.stderr:  # the window has begun: kill the server in it
            if line.startswith("... measuring") or time.monotonic() > deadline:
                break
        assert server.root is not None
        os.killpg(server.root.pid, signal.SIGKILL)
        out, err = run.communicate(timeout=120)
    assert run.returncode == 3, out + err
    assert "refusing to report" in err and "server" in err
    assert "mean action number" not in out


def test_it_refuses_to_start_where_another_process_answers() -> None:
    with socket.socket() as other:
        other.bind((HOST, 0))
        other.listen()
        done = subprocess.run(
            [*LOAD, *TINY, "--duration", "2", "--port", str(other.getsockname()[1])],
            env=environment(),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert "another process answers" in done.stderr
    assert "mean action number" not in done.stdout


def test_a_run_that_lost_games_shows_what_the_servers_log_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "server.log"
    log.write_text("started\n")
    print_server_errors(log)
    assert capsys.readouterr().err == ""  # nothing went wrong: nothing is said
    log.write_text(
        "started\ngame g1: the action could not be stored\nTraceback (most recent call last):\n"
        '  File "store.py", line 1\nsqlite3.OperationalError: database is locked\n'
    )
    print_server_errors(log)
    err = capsys.readouterr().err
    assert "1 errors" in err and "could not be stored" in err and "database is locked" in err
    print_server_errors(tmp_path / "none.log")  # no log at all: nothing to say
