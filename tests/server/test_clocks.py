"""Clocks, the grace period of an absent player, claims and rematches over real sockets
against a real server process (issue 10 point 4): a delay per move and a reserve per player
kept by the server, running out loses the match (money: the game), a disconnected player's
game claimed after the grace period, and a rematch with the seats swapped. Tiny clock values
keep the tests fast."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.gameplay import Seat
from tests.server.serverutil import Client, ServerProcess

GRACE = 0.6
"""The server's grace period in these tests, in seconds."""

_names = iter(f"c{n:04d}" for n in range(10_000))


@pytest.fixture(scope="module")
def server(
    database_url: str | None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    process = ServerProcess(
        tmp_path_factory.mktemp("data"),
        database_url,
        NARDY_AUTH_RATE="1000/60",
        NARDY_GRACE_SECONDS=str(GRACE),
    ).start()
    yield process
    process.kill()


def _start(
    server: ServerProcess, settings: dict[str, Any], clock: Any = None
) -> tuple[Client, Client, str]:
    """Two signed-up players in a game with this clock, seated: the first created the seek."""
    a, b = Client(server), Client(server)
    a.sign_up(next(_names))
    b.sign_up(next(_names))
    body: dict[str, Any] = {"settings": settings}
    if clock is not None:
        body["clock"] = clock
    r = a.post("/api/games", body)
    assert r.status_code == 201, r.text
    game = r.json()["id"]
    assert b.post(f"/api/games/{game}/join").status_code == 200
    return a, b, game


def _seats(a: Client, b: Client, game: str) -> list[Seat]:
    seats = [Seat(a, game), Seat(b, game)]
    assert [s.seat for s in seats] == [0, 1]
    return seats


def _heard(seat: Seat, kind: str, timeout: float = 10) -> dict[str, Any]:
    """Read until a message of this type arrives; that message."""
    deadline = time.monotonic() + timeout
    while True:
        message = seat.next(max(0.1, deadline - time.monotonic()))
        if message["type"] == kind:
            return message


def _opening(seats: list[Seat]) -> Seat:
    """Roll the opening; the seat that moves first."""
    reply = seats[0].act({"type": "roll-opening"})
    assert reply["type"] == "events", reply
    for s in seats:
        s.until(reply["seq"])
    return next(s for s in seats if s.awaited())


def _forfeit(message: dict[str, Any]) -> dict[str, Any]:
    assert message["action"]["type"] == "forfeit", message
    forfeited = next(e for e in message["events"] if e["type"] == "forfeited")
    return forfeited


@pytest.mark.parametrize(
    "clock",
    [
        "fast",
        7,
        {"delay": 12},
        {"delay": -1, "reserve": 60},
        {"delay": True, "reserve": 60},
        {"delay": "12", "reserve": 60},
        {"delay": 12, "reserve": 0},
        {"delay": 12, "reserve": 60, "per-point": 1},
        {"delay": 12, "reserve": 60, "increment": 2},
    ],
)
def test_the_lobby_refuses_a_bad_clock_and_creates_nothing(
    server: ServerProcess, clock: Any
) -> None:
    client = Client(server)
    client.sign_up(next(_names))
    r = client.post("/api/games", {"settings": {"match-length": 1}, "clock": clock})
    assert r.status_code == 400 and r.json()["error"] == "invalid-clock", r.text
    assert client.get("/api/me/games").json() == []


def test_no_clock_by_default_and_the_presets(server: ServerProcess) -> None:
    client = Client(server)
    client.sign_up(next(_names))
    plain = client.post("/api/games", {"settings": {"match-length": 1}}).json()
    assert plain["clock"] is None
    bot = client.post("/api/games", {"settings": {"match-length": 1}, "opponent": "bot"}).json()
    assert bot["clock"] is None
    usbgf = client.post("/api/games", {"settings": {"match-length": 5}, "clock": "standard"})
    assert usbgf.json()["clock"] == {"delay": 12.0, "reserve": 120.0, "per-point": True}
    seat = Seat(client, usbgf.json()["id"])
    assert seat.state["clock"] is None  # not started: nobody has joined


def test_a_move_within_the_delay_costs_no_reserve(server: ServerProcess) -> None:
    a, b, game = _start(server, {"match-length": 3}, {"delay": 5, "reserve": 2})
    seats = _seats(a, b, game)
    assert seats[0].state["clock"]["reserve"] == [6.0, 6.0]  # 2 s a point, 3 points
    assert seats[0].state["clock"]["running"] is None  # the opening roll is both players'
    mover = _opening(seats)
    assert mover.state["clock"]["running"] == mover.seat
    while "move" in mover.awaited():
        m = mover.state["awaiting"]["moves"][0]
        assert mover.act({"type": "move", "from": m["from"], "to": m["to"]})["type"] == "events"
    reply = mover.act({"type": "confirm"})
    clock = reply["state"]["clock"]
    assert clock["running"] == 1 - mover.seat and clock["reserve"] == [6.0, 6.0]


def test_running_out_of_time_loses_the_match(server: ServerProcess) -> None:
    a, b, game = _start(server, {"match-length": 3}, {"delay": 0.2, "reserve": 0.3})
    seats = _seats(a, b, game)
    mover = _opening(seats)
    started = time.monotonic()
    for s in seats:  # nobody moves: the server's timer ends the match for everyone
        message = _heard(s, "events")
        assert _forfeit(message) == {"type": "forfeited", "player": mover.seat, "reason": "time"}
        assert s.state["status"] == "finished"
    assert time.monotonic() - started >= 0.2 + 0.9  # not before the delay and the reserve
    winner = 1 - mover.seat
    assert seats[0].state["score"][winner] == 3 and seats[0].state["clock"]["running"] is None
    assert mover.act({"type": "roll"})["code"] == "game-over"
    assert a.get(f"/api/games/{game}").json()["result"]["winner"] == winner


def test_a_money_game_lost_on_time_refills_the_reserves(server: ServerProcess) -> None:
    a, b, game = _start(server, {"match-length": 0}, {"delay": 0.1, "reserve": 0.4})
    seats = _seats(a, b, game)
    mover = _opening(seats)
    message = _heard(seats[0], "events")
    assert _forfeit(message)["player"] == mover.seat
    state = message["state"]
    assert state["status"] == "playing"  # the session goes on with the next game
    assert state["score"][1 - mover.seat] == 1
    assert state["clock"]["reserve"] == [0.4, 0.4] and state["clock"]["running"] is None


def test_a_player_may_not_forfeit_for_the_server(server: ServerProcess) -> None:
    a, b, game = _start(server, {"match-length": 1}, "standard")
    seats = _seats(a, b, game)
    mover = _opening(seats)
    reply = mover.act({"type": "forfeit", "reason": "time"})
    assert reply["type"] == "refused" and reply["code"] == "referee-only"


def test_the_clock_goes_on_after_a_restart(tmp_path: Path, database_url: str | None) -> None:
    server = ServerProcess(tmp_path, database_url, NARDY_AUTH_RATE="1000/60").start()
    try:
        a, b, game = _start(server, {"match-length": 1}, {"delay": 0.1, "reserve": 0.5})
        seats = _seats(a, b, game)
        mover = _opening(seats)
        server.kill(signal.SIGKILL)
        server.start()  # the room is restored, its clock still running, and runs out
        deadline = time.monotonic() + 20
        while a.get(f"/api/games/{game}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.2)
        result = a.get(f"/api/games/{game}").json()["result"]
        assert result["winner"] == 1 - mover.seat
    finally:
        server.kill()


def test_an_absent_players_game_is_claimed_after_the_grace_period(server: ServerProcess) -> None:
    a, b, game = _start(server, {"match-length": 5})
    seats = _seats(a, b, game)
    _opening(seats)
    seats[1].close()
    absent = _heard(seats[0], "absent")
    assert absent["seat"] == 1 and absent["claim-in"] == GRACE
    seats[0].send_raw({"type": "claim", "ref": 1})
    refused = _heard(seats[0], "refused")
    assert refused["code"] == "grace-period"
    time.sleep(GRACE)
    seats[0].send_raw({"type": "claim", "ref": 2})
    message = _heard(seats[0], "events")
    assert _forfeit(message) == {"type": "forfeited", "player": 1, "reason": "absent"}
    assert message["state"]["status"] == "finished" and message["state"]["score"] == [5, 0]
    assert message["state"]["absent"] == []


def test_a_player_back_in_time_cannot_be_claimed(server: ServerProcess) -> None:
    a, b, game = _start(server, {"match-length": 1})
    seats = _seats(a, b, game)
    seats[0].close()
    assert _heard(seats[1], "absent")["seat"] == 0
    back = Seat(a, game)
    assert back.state["absent"] == []
    assert _heard(seats[1], "present") == {"v": 1, "type": "present", "seat": 0}
    seats[1].send_raw({"type": "claim"})
    assert _heard(seats[1], "refused")["code"] == "not-absent"


def test_a_rematch_starts_with_the_same_settings_and_the_seats_swapped(
    server: ServerProcess,
) -> None:
    clock = {"delay": 0.1, "reserve": 0.2}
    a, b, game = _start(server, {"match-length": 1, "cube": False}, clock)
    seats = _seats(a, b, game)
    seats[0].send_raw({"type": "rematch"})
    assert _heard(seats[0], "refused")["code"] == "wrong-phase"  # the match is not over
    _opening(seats)
    for s in seats:
        _heard(s, "events")  # the first player's time runs out
    seats[0].send_raw({"type": "rematch"})
    for s in seats:
        assert _heard(s, "rematch-offered")["seat"] == 0
    seats[1].send_raw({"type": "rematch"})
    rematch = [_heard(s, "rematch")["game"] for s in seats]
    assert rematch[0] == rematch[1] != game
    view = a.get(f"/api/games/{rematch[0]}").json()
    first = a.get(f"/api/games/{game}").json()
    assert view["status"] == "playing" and view["settings"] == first["settings"]
    assert view["clock"] == first["clock"]
    assert [p["id"] for p in view["players"]] == [p["id"] for p in reversed(first["players"])]
    again = Seat(b, rematch[0])
    assert again.seat == 0 and again.state["clock"]["reserve"] == [0.2, 0.2]


def test_after_a_restart_a_player_who_does_not_come_back_is_absent(
    tmp_path: Path, database_url: str | None
) -> None:
    server = ServerProcess(
        tmp_path, database_url, NARDY_AUTH_RATE="1000/60", NARDY_GRACE_SECONDS=str(GRACE)
    ).start()
    try:
        a, b, game = _start(server, {"match-length": 3})
        seats = _seats(a, b, game)
        assert seats[1].state["absent"] == []  # both came from the lobby: nobody is absent
        _opening(seats)
        server.kill(signal.SIGKILL)
        server.start()
        back = Seat(a, game)
        assert [entry["seat"] for entry in back.state["absent"]] == [1]
        time.sleep(GRACE)
        back.send_raw({"type": "claim"})
        assert _forfeit(_heard(back, "events"))["reason"] == "absent"
        assert back.state["score"] == [3, 0]
    finally:
        server.kill()
