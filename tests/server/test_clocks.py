"""Clocks, the grace period of an absent player, claims and rematches over real sockets
against a real server process (issue 10 point 4): a delay per move and a reserve per player
kept by the server, running out loses the match (money: the game), a disconnected player's
game claimed after the grace period, and a rematch with the seats swapped. Tiny clock values
keep the tests fast."""

from __future__ import annotations

import asyncio
import dataclasses
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nardy.core.actions import Roll, RollOpening
from nardy.core.events import (
    CheckerMoved,
    GameOver,
    GameStarted,
    PlayConfirmed,
    RollAgain,
)
from nardy.server import clocks, protocol
from nardy.server.clocks import ClockError, ClockSettings, ClockState, clock_from
from nardy.server.room.member import Member
from tests.server.gameplay import (
    Seat,
    new_name,
    playing_room,
    roll_opening,
    sit,
    start_game,
    wait_for,
)
from tests.server.serverutil import Client, ServerProcess

GRACE = 0.6
"""The server's grace period in these tests, in seconds."""


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
        {"delay": 10**400, "reserve": 60},  # was a 500: too big for a float
        {"delay": 12, "reserve": -(10**400)},
        {"delay": 12, "reserve": 1e308},
    ],
)
def test_the_lobby_refuses_a_bad_clock_and_creates_nothing(
    server: ServerProcess, clock: Any
) -> None:
    client = Client(server)
    client.sign_up(new_name())
    r = client.post("/api/games", {"settings": {"match-length": 1}, "clock": clock})
    assert r.status_code == 400 and r.json()["error"] == "invalid-clock", r.text
    assert client.get("/api/me/games").json() == []


def test_no_clock_by_default_and_the_presets(server: ServerProcess) -> None:
    client = Client(server)
    client.sign_up(new_name())
    plain = client.post("/api/games", {"settings": {"match-length": 1}}).json()
    assert plain["clock"] is None
    bot = client.post("/api/games", {"settings": {"match-length": 1}, "opponent": "bot"}).json()
    assert bot["clock"] is None
    usbgf = client.post("/api/games", {"settings": {"match-length": 5}, "clock": "standard"})
    assert usbgf.json()["clock"] == {"delay": 12.0, "reserve": 120.0, "per-point": True}
    seat = Seat(client, usbgf.json()["id"])
    assert seat.state["clock"] is None  # not started: nobody has joined


def test_a_move_within_the_delay_costs_no_reserve(server: ServerProcess) -> None:
    a, b, game = start_game(server, {"match-length": 3}, {"delay": 5, "reserve": 2})
    seats = sit(a, b, game)
    assert seats[0].state["clock"]["reserve"] == [6.0, 6.0]  # 2 s a point, 3 points
    assert seats[0].state["clock"]["running"] is None  # the opening roll is both players'
    mover = roll_opening(seats)
    assert mover.state["clock"]["running"] == mover.seat
    while "move" in mover.awaited():
        m = mover.state["board"]["awaiting"]["moves"][0]
        assert mover.act({"type": "move", "from": m["from"], "to": m["to"]})["type"] == "events"
    reply = mover.act({"type": "confirm"})
    clock = reply["state"]["clock"]
    assert clock["running"] == 1 - mover.seat and clock["reserve"] == [6.0, 6.0]


def test_running_out_of_time_loses_the_match(server: ServerProcess) -> None:
    a, b, game = start_game(server, {"match-length": 3}, {"delay": 0.2, "reserve": 0.3})
    seats = sit(a, b, game)
    started = time.monotonic()  # before the roll: its clock starts after this
    mover = roll_opening(seats)
    for s in seats:  # nobody moves: the server's timer ends the match for everyone
        message = wait_for(s, "events")
        assert _forfeit(message) == {"type": "forfeited", "player": mover.seat, "reason": "time"}
        assert s.state["status"] == "finished"
    assert time.monotonic() - started >= 0.2 + 0.9  # not before the delay and the reserve
    winner = 1 - mover.seat
    assert seats[0].state["score"][winner] == 3 and seats[0].state["clock"]["running"] is None
    assert mover.act({"type": "roll"})["code"] == "game-over"
    assert a.get(f"/api/games/{game}").json()["result"]["winner"] == winner


def test_a_money_game_lost_on_time_refills_the_reserves(server: ServerProcess) -> None:
    a, b, game = start_game(server, {"match-length": 0}, {"delay": 0.1, "reserve": 0.4})
    seats = sit(a, b, game)
    mover = roll_opening(seats)
    message = wait_for(seats[0], "events")
    assert _forfeit(message)["player"] == mover.seat
    state = message["state"]
    assert state["status"] == "playing"  # the session goes on with the next game
    assert state["score"][1 - mover.seat] == 1
    assert state["clock"]["reserve"] == [0.4, 0.4] and state["clock"]["running"] is None


def test_a_player_may_not_forfeit_for_the_server(server: ServerProcess) -> None:
    a, b, game = start_game(server, {"match-length": 1}, "standard")
    seats = sit(a, b, game)
    mover = roll_opening(seats)
    reply = mover.act({"type": "forfeit", "reason": "time"})
    assert reply["type"] == "refused" and reply["code"] == "referee-only"


def test_the_clock_goes_on_after_a_restart(tmp_path: Path, database_url: str | None) -> None:
    server = ServerProcess(tmp_path, database_url, NARDY_AUTH_RATE="1000/60").start()
    try:
        a, b, game = start_game(server, {"match-length": 1}, {"delay": 0.1, "reserve": 0.5})
        seats = sit(a, b, game)
        mover = roll_opening(seats)
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
    a, b, game = start_game(server, {"match-length": 5})
    seats = sit(a, b, game)
    roll_opening(seats)
    seats[1].close()
    absent = wait_for(seats[0], "absent")
    assert absent["seat"] == 1 and absent["claim-in"] == GRACE
    seats[0].send_raw({"type": "claim", "ref": 1})
    refused = wait_for(seats[0], "refused")
    assert refused["code"] == "grace-period"
    time.sleep(GRACE)
    seats[0].send_raw({"type": "claim", "ref": 2})
    message = wait_for(seats[0], "events")
    assert _forfeit(message) == {"type": "forfeited", "player": 1, "reason": "absent"}
    assert message["state"]["status"] == "finished" and message["state"]["score"] == [5, 0]
    assert message["state"]["absent"] == []


def test_a_player_back_in_time_cannot_be_claimed(server: ServerProcess) -> None:
    a, b, game = start_game(server, {"match-length": 1})
    seats = sit(a, b, game)
    seats[0].close()
    assert wait_for(seats[1], "absent")["seat"] == 0
    back = Seat(a, game)
    assert back.state["absent"] == []
    assert wait_for(seats[1], "present") == {"v": 2, "type": "present", "seat": 0}
    seats[1].send_raw({"type": "claim"})
    assert wait_for(seats[1], "refused")["code"] == "not-absent"


def test_a_rematch_starts_with_the_same_settings_and_the_seats_swapped(
    server: ServerProcess,
) -> None:
    clock = {"delay": 0.1, "reserve": 0.2}
    a, b, game = start_game(server, {"match-length": 1, "cube": False}, clock)
    seats = sit(a, b, game)
    seats[0].send_raw({"type": "rematch"})
    assert wait_for(seats[0], "refused")["code"] == "wrong-phase"  # the match is not over
    roll_opening(seats)
    for s in seats:
        wait_for(s, "events")  # the first player's time runs out
    seats[0].send_raw({"type": "rematch"})
    for s in seats:
        assert wait_for(s, "rematch-offered")["seat"] == 0
    seats[1].send_raw({"type": "rematch"})
    rematch = [wait_for(s, "rematch")["game"] for s in seats]
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
        a, b, game = start_game(server, {"match-length": 3})
        seats = sit(a, b, game)
        assert seats[1].state["absent"] == []  # both came from the lobby: nobody is absent
        roll_opening(seats)
        server.kill(signal.SIGKILL)
        server.start()
        back = Seat(a, game)
        assert [entry["seat"] for entry in back.state["absent"]] == [1]
        time.sleep(GRACE)
        back.send_raw({"type": "claim"})
        assert _forfeit(wait_for(back, "events"))["reason"] == "absent"
        assert back.state["score"] == [3, 0]
    finally:
        server.kill()


# -- the clock's rules, without a server ------------------------------------------------------

STANDARD = ClockSettings(12.0, 120.0)
MOVED = CheckerMoved(0, 13, 8, 5, False)
CONFIRMED = PlayConfirmed(0, (5, 3), "13/8 6/3")


def test_the_reserve_is_per_point_in_a_match_and_per_game_in_money_play() -> None:
    assert clocks.start(STANDARD, 5).reserve == (600.0, 600.0)  # USBGF: 2 minutes a point
    assert clocks.start(STANDARD, 0).reserve == (120.0, 120.0)
    assert clocks.start(ClockSettings(12.0, 120.0, per_point=False), 5).reserve == (120.0, 120.0)


def test_only_the_time_past_the_delay_is_charged_when_the_move_ends() -> None:
    state = ClockState((100.0, 100.0), running=0, since=1000.0)
    # player 0 goes on moving (single moves of one turn): nothing is charged yet
    same = clocks.after(STANDARD, state, 5, 1030.0, 0, [MOVED])
    assert same == state
    # they confirm 30 s into the move: 18 s past the delay come off their reserve
    done = clocks.after(STANDARD, state, 5, 1030.0, 1, [CONFIRMED])
    assert done == ClockState((82.0, 100.0), running=1, since=1030.0)
    # a move within the delay costs nothing
    quick = clocks.after(STANDARD, done, 5, 1040.0, 0, [CONFIRMED])
    assert quick.reserve == (82.0, 100.0) and quick.running == 0
    assert clocks.deadline(STANDARD, quick) == 1040.0 + 12.0 + 82.0
    assert clocks.flagged(STANDARD, quick, 1133.9) is None
    assert clocks.flagged(STANDARD, quick, 1134.0) == 0


def test_a_new_turn_of_the_same_player_gets_a_fresh_delay() -> None:
    state = ClockState((100.0, 100.0), running=0, since=0.0)
    again = clocks.after(STANDARD, state, 5, 20.0, 0, [RollAgain(0)])
    assert again == ClockState((92.0, 100.0), running=0, since=20.0)


def test_money_play_refills_the_reserves_for_each_game() -> None:
    state = ClockState((3.0, 50.0), running=0, since=0.0)
    events = [GameOver(0, "single", 1, 1), GameStarted(2, (1, 0), False, None)]
    after = clocks.after(STANDARD, state, 0, 13.0, None, events)
    assert after == ClockState((120.0, 120.0), running=None, since=13.0)
    in_a_match = clocks.after(STANDARD, state, 5, 13.0, None, events)
    assert in_a_match.reserve == (2.0, 50.0)  # a match's reserve carries over


@pytest.mark.parametrize(
    "bad",
    [float("nan"), float("inf"), -float("inf"), 1e308, pytest.param(10**400, id="1e400"),
     -0.5, 601, None, [12]],
)  # fmt: skip
def test_a_clock_delay_must_be_a_finite_number_in_range(bad: Any) -> None:
    with pytest.raises(ClockError):
        clock_from({"delay": bad, "reserve": 60})


def test_the_clock_state_round_trips_through_its_json() -> None:
    state = ClockState((81.5, 120.0), running=1, since=1234.5)
    assert ClockState.from_json(state.to_json()) == state
    assert clock_from("standard") == STANDARD and clock_from("none") is None


def test_an_action_after_the_time_ran_out_loses_on_time_before_the_timer_fires(
    tmp_path: Path,
) -> None:
    """The room's timer may not have fired yet when a late action comes in (or the process
    was busy): the late action is answered by the forfeit, committed as the next action."""
    asyncio.run(_late_action(tmp_path))


async def _late_action(tmp_path: Path) -> None:
    clock = ClockSettings(5.0, 60.0).to_json()
    async with playing_room(tmp_path / "late.sqlite3", {"match-length": 3}, clock) as played:
        store, row, room = played
        watcher = Member(None, None)
        await room.join(watcher)
        assert await room.act(0, RollOpening(0)) is None
        state = room.clock.state
        assert state is not None and state.running is not None
        mover = state.running
        # as if the move had begun long ago, and the timer had not woken up
        room.clock.stop()
        room.clock.state = dataclasses.replace(state, since=state.since - 1000)
        refused = await room.act(mover, Roll(mover))
        assert refused is not None and refused.code == "game-over"
        assert room.over and room.match.winner == 1 - mover
        stored = store.game(row.id)
        assert stored is not None and stored.status == "finished" and stored.seq == 2
        assert stored.clock_state is not None and stored.clock_state["running"] is None


def test_the_bot_agrees_to_a_rematch_at_once(server: ServerProcess) -> None:
    me = Client(server)
    me.sign_up(new_name())
    body = {
        "settings": {"match-length": 1},
        "opponent": "bot",
        "bot": "random",
        "bot-delay-ms": 0,
        "clock": {"delay": 0.1, "reserve": 0.3},
    }
    r = me.post("/api/games", body)
    assert r.status_code == 201, r.text
    game = r.json()["id"]
    seat = Seat(me, game)
    while seat.state["status"] != "finished":  # only the bot acts: a clock runs out
        message = seat.next(30)
    assert message["action"]["type"] == "forfeit"
    seat.send_raw({"type": "rematch"})
    rematch = wait_for(seat, "rematch")["game"]
    view = me.get(f"/api/games/{rematch}").json()
    assert view["status"] == "playing" and view["clock"] == r.json()["clock"]
    assert view["players"][0] == {"seat": 0, "bot": "random"}
    assert view["players"][1]["id"] == me.user["id"]  # type: ignore[index]


def test_the_claim_and_rematch_messages_are_parsed_and_written_in_one_place() -> None:
    assert protocol.parse('{"type": "claim", "ref": 7}') == protocol.ClaimMessage(7)
    assert protocol.parse('{"type": "rematch"}') == protocol.RematchMessage()
    with pytest.raises(protocol.ProtocolError) as refused:
        protocol.parse('{"type": "claim", "seat": 1}')
    assert refused.value.code == "malformed"
    assert protocol.encode(protocol.Absent(1, 60.0)) == (
        '{"v":2,"type":"absent","seat":1,"claim-in":60.0}'
    )
    assert protocol.encode(protocol.Rematch("g1")) == '{"v":2,"type":"rematch","game":"g1"}'
