"""The load benchmark (bench/load.py): its players only send what the state awaits, and a
short run against a real server holds its games without an error and prints its figures."""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import load  # noqa: E402


def _state(actions: list[str], moves: list[dict[str, object]]) -> dict[str, object]:
    return {"awaiting": {"actors": [{"player": 1, "actions": actions}], "moves": moves}}


def test_a_player_takes_rolls_and_moves_only_as_awaited() -> None:
    rng = random.Random(1)
    moves: list[dict[str, object]] = [{"from": 13, "to": 8, "hit": False}]
    assert load.choose(_state(["take", "pass", "beaver"], []), 1, rng) == {"type": "take"}
    assert load.choose(_state(["roll", "double"], []), 1, rng) == {"type": "roll"}
    assert load.choose(_state(["move", "undo"], moves), 1, rng) == {
        "type": "move",
        "from": 13,
        "to": 8,
    }
    assert load.choose(_state(["confirm", "undo"], []), 1, rng) == {"type": "confirm"}
    with pytest.raises(ValueError, match="nothing this player knows"):
        load.choose(_state(["resign"], []), 1, rng)


def test_think_times_are_read_and_checked() -> None:
    assert load.parse_think("0.5-3") == (0.5, 3.0)
    assert load.parse_think("0") == (0.0, 0.0)
    for bad in ("3-1", "x", "-1-2", "1-100"):
        with pytest.raises(argparse.ArgumentTypeError):
            load.parse_think(bad)


def test_a_short_run_holds_its_games_and_prints_the_figures() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "load.py"), "--games", "2", "--think", "0",
         "--duration", "2", "--warmup", "0.5", "--clients", "1", "--match-length", "1"],
        capture_output=True, text=True, timeout=240, cwd=ROOT,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "games held: 2 of 2" in run.stdout
    assert "errors: none" in run.stdout
    actions = re.search(r"^actions: (\d+) in [\d.]+ s = \d+/s$", run.stdout, re.MULTILINE)
    assert actions is not None and int(actions[1]) > 0, run.stdout
    for figure in ("opponent's events: p50", "p99", "server CPU", "RSS", "idle reference"):
        assert figure in run.stdout, run.stdout
