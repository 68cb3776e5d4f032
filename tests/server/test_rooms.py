"""Rooms over real sockets against a real server process (issue 10 points 4, 6, 7, 9): a
whole match played to the end and found in both players' history, spectators, reconnection
mid-turn, refusals with the core's codes, cube and resignation paths, the bot, and a server
killed with SIGKILL that resumes every game from its last committed action."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from nardy.core.errors import RefusalReason
from tests.server.gameplay import (
    Seat,
    new_name,
    play_out,
    players,
    public,
    roll_opening,
    sit,
    start_game,
)
from tests.server.serverutil import Client, ServerProcess


def _play_until(seats: list[Seat], ready: Callable[[Seat], bool]) -> Seat:
    """Move, confirm and roll until a seat is ``ready``; that seat."""
    while not any(ready(s) for s in seats):
        actor = next(s for s in seats if s.awaited())
        kinds = actor.awaited()
        if "move" in kinds:
            m = actor.state["board"]["awaiting"]["moves"][0]
            action = {"type": "move", "from": m["from"], "to": m["to"]}
        else:
            action = {"type": "confirm" if "confirm" in kinds else "roll"}
        reply = actor.act(action)
        assert reply["type"] == "events", reply
        for s in seats:
            s.until(reply["seq"])
    return next(s for s in seats if ready(s))


def _until_double(seats: list[Seat]) -> Seat:
    """Play on until a seat may double; that seat."""
    return _play_until(seats, lambda s: "double" in s.awaited())


def test_two_players_play_a_match_to_the_end_and_find_it_in_their_history(
    server: ServerProcess,
) -> None:
    a, b, game = start_game(server, {"match-length": 1})
    seats = sit(a, b, game)
    actions = play_out(seats)
    assert actions > 20
    assert public(seats[1].state) == public(seats[0].state)  # both heard everything
    final = seats[0].state
    assert final["status"] == "finished" and max(final["score"]) >= 1  # 2: a gammon
    winner_seat = 0 if final["score"][0] > final["score"][1] else 1
    for seat, client in enumerate((a, b)):
        history = client.get("/api/me/games").json()
        assert history[0]["id"] == game and history[0]["status"] == "finished"
        assert history[0]["result"]["score"] == final["score"]
        # FIBS: two new players at 1500, a 1-point match: 4 * K(5) * sqrt(1) * 0.5 = 10.
        change = 10.0 if seat == winner_seat else -10.0
        assert history[0]["rating"] == {"before": 1500.0, "after": 1500.0 + change}
        profile = client.get(f"/api/users/{client.user['username']}").json()  # type: ignore[index]
        assert profile["ratings"] == {"backgammon": {"rating": 1500.0 + change, "experience": 1}}
    records = a.get(f"/api/games/{game}/record.json").json()
    (record,) = records  # a 1-point match is one game
    assert record["end"]["winner"] == winner_seat
    assert record["end"]["points"] == max(final["score"])
    assert "point match" in a.get(f"/api/games/{game}/record.mat").text


def test_every_single_move_reaches_the_opponent_and_spectators_as_it_is_made(
    server: ServerProcess,
) -> None:
    a, b, game = start_game(server)
    seats = sit(a, b, game)
    watcher = Client(server)
    assert game in [g["id"] for g in watcher.get("/api/games/live").json()]
    spectator = Seat(watcher, game)
    assert spectator.seat is None
    mover = roll_opening(seats)
    spectator.until(mover.seq)
    move = mover.state["board"]["awaiting"]["moves"][0]
    reply = mover.act({"type": "move", "from": move["from"], "to": move["to"]})
    assert reply["type"] == "events"
    other = seats[1 - (mover.seat or 0)]
    for s in (other, spectator):
        s.until(reply["seq"])
        assert s.heard[-1]["type"] == "events"
        assert s.heard[-1]["action"]["type"] == "move"
        assert public(s.state) == public(mover.state)
    # A spectator can do nothing.
    refused = spectator.act({"type": "undo"})
    assert refused["type"] == "refused" and refused["code"] == "spectator"
    # Nor can the opponent play for the mover, or act out of turn.
    refused = other.act({"type": "undo", "player": mover.seat})
    assert refused["code"] == "not-your-seat"
    refused = other.act({"type": "undo"})
    assert refused["code"] == "not-your-turn"
    for action in ({"type": "roll"}, {"type": "double"}):  # not theirs: not-your-turn
        refused = other.act(action)
        assert refused["code"] == "not-your-turn", refused
    assert public(other.state) == public(mover.state)  # nothing changed


def test_refusals_carry_the_cores_codes_and_change_nothing(server: ServerProcess) -> None:
    a, b, game = start_game(server)
    seats = sit(a, b, game)
    mover = roll_opening(seats)
    before = mover.state
    legal = {(m["from"], m["to"]) for m in before["board"]["awaiting"]["moves"]}
    illegal = next(
        (start, start - die)
        for start in range(24, 0, -1)
        for die in range(1, 7)
        if (start, start - die) not in legal
    )
    cases = [
        ({"type": "move", "from": illegal[0], "to": illegal[1]}, "illegal-move"),
        ({"type": "move", "from": 1, "to": 24}, "invalid-input"),
        ({"type": "roll"}, "wrong-phase"),
        ({"type": "move", "from": "x", "to": 3}, "invalid-input"),
        ({"type": "fly"}, "invalid-input"),
    ]
    for action, code in cases:
        reply = mover.act(action)
        assert reply["type"] == "refused" and reply["code"] == code, reply
        # a move a rule refuses says which, for the client to say in its reader's words
        if code == "illegal-move":
            assert reply["reason"] in set(RefusalReason) and isinstance(reply["details"], dict)
        else:
            assert "reason" not in reply, reply
    mover.send_raw({"type": "sync", "ref": "s"})
    assert mover.next()["type"] == "state"
    assert public(mover.state) == public(before)


def test_reconnecting_mid_turn_restores_the_exact_state(server: ServerProcess) -> None:
    a, b, game = start_game(server)
    seats = sit(a, b, game)
    mover = roll_opening(seats)
    move = mover.state["board"]["awaiting"]["moves"][0]
    reply = mover.act({"type": "move", "from": move["from"], "to": move["to"]})
    mid_turn = reply["state"]
    mover.close()
    client = a if mover.seat == 0 else b
    again = Seat(client, game)
    assert again.seat == mover.seat
    assert public(again.state) == public(mid_turn)  # the dice on the table, the move made
    assert "undo" in again.awaited()


def test_a_double_is_taken_or_passed(server: ServerProcess) -> None:
    a, b, game = start_game(server, {"match-length": 3})
    seats = sit(a, b, game)
    roll_opening(seats)
    doubler = _until_double(seats)
    taker = seats[1 - (doubler.seat or 0)]
    reply = doubler.act({"type": "double"})
    assert reply["type"] == "events"
    taker.until(reply["seq"])
    assert taker.awaited()[:2] == ["take", "pass"]
    # A pending double survives a reconnection.
    taker.close()
    taker = Seat(a if taker.seat == 0 else b, game)
    assert "take" in taker.awaited()
    reply = taker.act({"type": "pass"})
    assert reply["type"] == "events"
    assert reply["state"]["score"][doubler.seat or 0] == 1


def test_a_dead_cube_is_not_offered_and_a_double_is_refused(server: ServerProcess) -> None:
    """RULES.md 1.5: in a 1-point match a win at 1 already wins the match, so the room never
    lists a double, and one sent all the same is refused with the reason."""
    a, b, game = start_game(server, {"match-length": 1})
    seats = sit(a, b, game)
    roll_opening(seats)
    roller = _play_until(seats, lambda s: "roll" in s.awaited())
    assert "double" not in roller.awaited()
    refused = roller.act({"type": "double"})
    assert (refused["type"], refused["code"]) == ("refused", "not-allowed-by-settings")
    assert "the cube is dead: a win at 1 already wins the match" in refused["message"]


def test_money_play_rates_each_game_in_its_own_pool(server: ServerProcess) -> None:
    a, b, game = start_game(server, {"match-length": 0})
    seats = sit(a, b, game)
    for number in (1, 2):
        if any("roll-opening" in s.awaited() for s in seats):
            roll_opening(seats)
        doubler = _until_double(seats)
        reply = doubler.act({"type": "double"})
        other = seats[1 - (doubler.seat or 0)]
        other.until(reply["seq"])
        reply = other.act({"type": "pass"})
        assert reply["type"] == "events"
        for s in seats:
            s.until(reply["seq"])
        pools = [
            c.get(f"/api/users/{c.user['username']}").json()["ratings"]  # type: ignore[index]
            for c in (a, b)
        ]
        assert [p["backgammon-money"]["experience"] for p in pools] == [number, number]
    assert seats[0].state["status"] == "playing"  # a session goes on until someone leaves


def test_a_resignation_is_declined_then_accepted(server: ServerProcess) -> None:
    a, b, game = start_game(server, {"match-length": 1})
    seats = sit(a, b, game)
    roll_opening(seats)
    resigner = _play_until(seats, lambda s: {"resign", "roll"} <= set(s.awaited()))
    other = seats[1 - (resigner.seat or 0)]
    reply = resigner.act({"type": "resign", "level": 1})
    other.until(reply["seq"])
    assert "accept" in other.awaited()
    reply = other.act({"type": "decline"})
    assert reply["type"] == "events"
    resigner.until(reply["seq"])
    reply = resigner.act({"type": "resign", "level": 2})
    assert reply["type"] == "events", reply
    other.until(reply["seq"])
    reply = other.act({"type": "accept"})
    assert reply["state"]["status"] == "finished"
    assert reply["state"]["score"][other.seat or 0] == 2  # a gammon resigned (RULES.md 1.8)


def test_playing_the_bot(server: ServerProcess) -> None:
    client = Client(server)
    client.sign_up(new_name())
    r = client.post(
        "/api/games",
        {"settings": {"match-length": 1}, "opponent": "bot", "bot": "heuristic", "bot-delay-ms": 0},
    )
    assert r.status_code == 201 and r.json()["status"] == "playing", r.text
    seat = Seat(client, r.json()["id"])
    assert seat.seat == 0
    bot_actions = 0
    deadline = time.monotonic() + 180
    while seat.state["status"] != "finished":
        assert time.monotonic() < deadline, "the game against the bot did not end in 3 minutes"
        kinds = seat.awaited()
        if not kinds:
            message = seat.next(timeout=30)
            if message["type"] == "events" and message["action"]["player"] == 1:
                bot_actions += 1
            continue
        if "roll-opening" in kinds:
            action: dict[str, Any] = {"type": "roll-opening"}
        elif "move" in kinds:
            m = seat.state["board"]["awaiting"]["moves"][0]
            action = {"type": "move", "from": m["from"], "to": m["to"]}
        else:
            action = {"type": next(k for k in ("take", "decline", "roll", "confirm") if k in kinds)}
        reply = seat.act(action, timeout=30)
        if reply["type"] == "refused":  # the bot rolled the opening first
            assert reply["code"] in ("wrong-phase", "not-your-turn"), reply
    assert seat.state["status"] == "finished"
    assert bot_actions > 5


def test_a_guest_plays_at_once_and_keeps_the_games_when_claiming_an_account(
    server: ServerProcess,
) -> None:
    guest = Client(server)
    assert guest.post("/api/guest").status_code == 201
    r = guest.post("/api/games", {"settings": {"variant": "long"}, "opponent": "bot"})
    assert r.status_code == 201, r.text
    game = r.json()["id"]
    seat = Seat(guest, game)
    assert seat.seat == 0
    guest.sign_up(new_name())
    assert [g["id"] for g in guest.get("/api/me/games").json()] == [game]
    assert Seat(guest, game).seat == 0


def test_bad_settings_and_bots_are_refused(server: ServerProcess) -> None:
    client = Client(server)
    client.sign_up(new_name())
    for body in (
        {"settings": {"match-length": 3, "jacoby": True}},
        {"settings": {"variant": "chess"}},
        {"settings": {"match-length": -1}},
        {"settings": {"colour": "red"}},
        {"settings": {}, "opponent": "bot", "bot": "deep-blue"},
        {"settings": {}, "opponent": "bot", "bot-delay-ms": 10**6},
        {"settings": {}, "opponent": "friend"},
    ):
        r = client.post("/api/games", body)
        assert r.status_code == 400, (body, r.text)
    assert client.get("/api/me/games").json() == []


def test_seeks_filter_and_invitations_stay_private(server: ServerProcess) -> None:
    a, b = players(server)
    long_game = a.post("/api/games", {"settings": {"variant": "long", "match-length": 5}}).json()
    a.post("/api/games", {"settings": {"match-length": 7}})
    found = b.get("/api/seeks", params={"variant": "long", "length": 5}).json()
    assert long_game["id"] in [g["id"] for g in found]
    assert all(g["settings"]["variant"] == "long" for g in found)
    assert b.post(f"/api/games/{long_game['id']}/join").status_code == 200
    assert a.post(f"/api/games/{long_game['id']}/join").status_code == 409

    invite = a.post("/api/games", {"settings": {}, "opponent": "invite"}).json()
    token = invite["invitation"]
    nosy = Client(server)
    nosy.sign_up(new_name())
    assert invite["id"] not in [g["id"] for g in nosy.get("/api/seeks").json()]
    assert nosy.get(f"/api/games/{invite['id']}").status_code == 404
    assert nosy.post(f"/api/games/{invite['id']}/join").status_code == 404
    assert nosy.post("/api/invitations/guessed-token").status_code == 404
    assert b.post(f"/api/invitations/{token}").status_code == 200
    assert nosy.post(f"/api/invitations/{token}").status_code == 409
    assert invite["id"] not in [g["id"] for g in nosy.get("/api/games/live").json()]
    with pytest.raises(Exception):  # noqa: B017 - the handshake is refused
        Seat(nosy, invite["id"])
    assert Seat(b, invite["id"]).seat == 1


def test_a_websocket_from_another_origin_is_refused(server: ServerProcess) -> None:
    a, _b, game = start_game(server)
    with pytest.raises(Exception, match="403"):
        Seat(a, game, origin="https://evil.example")
    assert Seat(a, game, origin=server.url).seat == 0


def test_bad_messages_get_errors_and_repeated_abuse_closes_the_socket(
    server: ServerProcess,
) -> None:
    a, _b, game = start_game(server)
    seat = Seat(a, game)
    for raw, code in [
        ("nonsense", "malformed"),
        ('{"type": "teleport"}', "unknown-type"),
        ('{"type": "ping", "x": ' + "1" * 9000 + "}", "too-large"),
    ]:
        seat.send_raw(raw)
        reply = seat.next()
        assert reply["type"] == "error" and reply["code"] == code
    seat.send_raw({"type": "ping", "ref": 5})
    assert seat.next() == {"v": 2, "type": "pong", "ref": 5}
    for _ in range(7):
        seat.send_raw("[]")
    with pytest.raises(ConnectionClosed) as closed:  # the server closes the socket
        for _ in range(20):
            seat.next(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


def test_sigkill_mid_game_and_the_game_goes_on(tmp_path: Path, database_url: str | None) -> None:
    server = ServerProcess(tmp_path, database_url, NARDY_AUTH_RATE="1000/60").start()
    try:
        a, b, game = start_game(server, {"match-length": 1})
        seats = sit(a, b, game)
        mover = roll_opening(seats)
        move = mover.state["board"]["awaiting"]["moves"][0]
        reply = mover.act({"type": "move", "from": move["from"], "to": move["to"]})
        committed = reply["state"]
        server.kill(signal.SIGKILL)
        server.start()  # the same port, data directory and database
        seats = sit(a, b, game)
        assert public(seats[0].state) == public(committed)  # mid-turn, nothing re-rolled
        assert play_out(seats) > 0
        assert seats[0].state["status"] == "finished"
    finally:
        server.kill()


def test_the_bot_plays_after_the_person_wins_the_opening_roll_during_its_delay(
    server: ServerProcess,
) -> None:
    """The bot waits its delay before deciding. A person who rolls the opening roll within that
    delay and wins it moves first; the bot must then answer with its own turn, not with a
    decision about the moment before the person's roll."""
    client = Client(server)
    client.sign_up(new_name())
    won = 0
    for _ in range(16):  # until the person has won the opening roll three times
        r = client.post(
            "/api/games",
            {
                "settings": {"match-length": 1},
                "opponent": "bot",
                "bot": "heuristic",
                "bot-delay-ms": 500,
            },
        )
        assert r.status_code == 201, r.text
        seat = Seat(client, r.json()["id"])
        reply = seat.act({"type": "roll-opening"})
        if reply["type"] == "refused" or "move" not in seat.awaited():
            seat.close()  # the bot rolled first, or won the opening roll: not this case
            continue
        won += 1
        while "move" in seat.awaited():
            m = seat.state["board"]["awaiting"]["moves"][0]
            seat.act({"type": "move", "from": m["from"], "to": m["to"]})
        assert seat.act({"type": "confirm"})["type"] == "events"
        while True:  # the bot's next action: its roll (or a double) within a few seconds
            message = seat.next(timeout=15)
            if message["type"] == "events" and message["action"]["player"] == 1:
                break
        seat.close()
        if won == 3:
            break
    assert won == 3
