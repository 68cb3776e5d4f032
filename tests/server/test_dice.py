"""Dice a player can verify, on the server (issue 10 point 5, docs/dice.md): the commitment
is shown before the first roll, the players' seeds are taken until then and refused after,
the server seed stays hidden until the game is over, and the downloaded record passes
`nardy verify-dice` and docs/dice.md's few lines (and a tampered one fails both)."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

from tests.server.gameplay import Seat, play_out, start_game
from tests.server.serverutil import ROOT, ServerProcess


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nardy.cli.main", "verify-dice", str(path)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
        cwd=ROOT,
    )


def test_committed_seeded_hidden_revealed_and_verified(
    server: ServerProcess, tmp_path: Path
) -> None:
    a, b, game = start_game(server, {"match-length": 1})
    seats = [Seat(a, game), Seat(b, game)]
    dice = seats[0].state["dice"]
    assert dice["game"] is None  # no game has started: the first game's dice are "next"
    commitment = dice["next"]["commitment"]
    assert len(commitment) == 64 and "server-seed" not in dice["next"]
    for seat, seed in zip(seats, ["alice-seed-1", "bob-seed-2"], strict=True):
        seat.send_raw({"type": "seed", "seed": seed, "ref": seed})
        # The state the seed causes carries its ref on the sender's socket alone.
        while (message := seat.next())["ref"] != seed:
            assert (message["type"], message["ref"]) == ("state", None)
        assert (
            message["type"] == "state" and seed in message["state"]["dice"]["next"]["client-seeds"]
        )
    for seat in seats:
        while seat.state["dice"]["next"]["client-seeds"] != ["alice-seed-1", "bob-seed-2"]:
            seat.next()
    reply = seats[0].act({"type": "roll-opening"})
    first = reply["state"]["dice"]["game"]
    assert first["commitment"] == commitment and "server-seed" not in first
    seats[1].send_raw({"type": "seed", "seed": "too-late"})
    while (late := seats[1].next())["type"] != "refused":
        pass
    assert late["code"] == "invalid-input"
    for seat in seats:
        seat.until(reply["seq"])
    play_out(seats)
    revealed = seats[0].state["dice"]["game"]
    assert hashlib.sha256(bytes.fromhex(revealed["server-seed"])).hexdigest() == commitment
    records = a.get(f"/api/games/{game}/record.json").json()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(records))
    checked = _verify(path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    snippet = _snippet(path)
    assert snippet.returncode == 0, snippet.stderr
    rolls = sum(e["type"] in ("opening-rolled", "dice-rolled") for e in records[0]["log"])
    assert snippet.stdout == f"{records[0]['dice']['game-id']} {rolls} rolls verified\n"
    # Change one roll of the log: verify-dice names it.
    log = records[0]["log"]
    rolled = next(e for e in log if e["type"] == "dice-rolled")
    rolled["dice"] = [7 - rolled["dice"][0], rolled["dice"][1]]
    path.write_text(json.dumps(records))
    tampered = _verify(path)
    assert tampered.returncode == 1, tampered.stdout + tampered.stderr
    assert "FAILED" in tampered.stdout and "the seeds give" in tampered.stdout
    assert _snippet(path).returncode == 1  # the snippet's assert


def _snippet(record: Path) -> subprocess.CompletedProcess[str]:
    """docs/dice.md's "Verifying in a few lines", run as written next to the download."""
    text = (ROOT / "docs" / "dice.md").read_text()
    (code,) = re.findall(r"```python\n(import hashlib.*?)```", text, re.DOTALL)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=record.parent
    )
