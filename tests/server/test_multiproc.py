"""Several server processes serving one site (issue 10 points 8 and 9): two real ``nardy
serve`` processes on one Redis and one PostgreSQL database (fresh for each test), the two
players of a game on different processes. They see each other's moves; one process is killed
with SIGKILL and its player reconnects to the other, where the game goes on to the end. The
chat crosses processes and is kept in the database; the lobby's news (a seek joined) reaches
the process where the waiting player's socket is; a bot that two processes hold acts once;
``nardy serve --workers 2`` runs two processes on one address.

Without Redis or PostgreSQL the suite is skipped with the reason; with ``CI=true`` it fails.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nardy.server.accounts.connections import SESSION_ENDED
from tests.server.conftest import _postgres_database
from tests.server.gameplay import (
    Seat,
    join,
    new_name,
    play_out,
    players,
    public,
    seek,
    start_game,
    wait_for,
)
from tests.server.serverutil import Client, ServerProcess, closed_with
from tests.server.test_bus import REDIS_URL, redis_available


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database for one test (after checking that Redis answers)."""
    redis_available()
    yield from _postgres_database()


def _process(tmp_path: Path, name: str, database_url: str, *args: str, **env: str) -> ServerProcess:
    data_dir = tmp_path / name
    data_dir.mkdir()
    return ServerProcess(
        data_dir,
        database_url,
        *args,
        NARDY_REDIS_URL=REDIS_URL,
        NARDY_AUTH_RATE="1000/60",
        NARDY_SOCKETS_PER_ADDRESS="10000",  # every test client is 127.0.0.1
        **env,
    )


@pytest.fixture
def two(tmp_path: Path, postgres_url: str) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two server processes of one site: one database, one Redis, two ports."""
    first = _process(tmp_path, "first", postgres_url).start()
    try:
        second = _process(tmp_path, "second", postgres_url).start()
    except BaseException:
        first.kill()
        raise
    yield first, second
    first.kill()
    second.kill()


def _step(mover: Seat, seats: list[Seat]) -> dict[str, Any]:
    """The mover's next plain action (the first legal single move, else confirm or roll);
    every seat hears it."""
    kinds = mover.awaited()
    if "move" in kinds:
        m = mover.state["board"]["awaiting"]["moves"][0]
        action = {"type": "move", "from": m["from"], "to": m["to"]}
    elif "roll-opening" in kinds:
        action = {"type": "roll-opening"}
    else:
        action = {"type": "confirm" if "confirm" in kinds else "roll"}
    reply = mover.act(action)
    assert reply["type"] == "events", reply
    for s in seats:
        s.until(reply["seq"])
    return reply


def test_players_on_two_processes_play_and_one_process_is_killed(
    two: tuple[ServerProcess, ServerProcess],
) -> None:
    first, second = two
    a, b, game = start_game(first, other=second)
    seats = [Seat(a, game), Seat(b, game)]
    assert [s.seat for s in seats] == [0, 1]
    watcher = Seat(Client(second), game)
    everyone = [*seats, watcher]
    for _ in range(12):  # the opening, moves, confirmations and rolls of a few turns
        mover = next(s for s in seats if s.awaited())
        reply = _step(mover, everyone)
        for s in everyone:  # each heard this very action, from either process
            assert s.heard[-1]["type"] == "events" and s.heard[-1]["seq"] == reply["seq"]
            assert public(s.state) == public(mover.state)
    while "move" not in seats[0].awaited():  # stop with the first player mid-turn
        _step(next(s for s in seats if s.awaited()), everyone)
    _step(seats[0], everyone)
    committed = seats[0].state
    first.kill(signal.SIGKILL)  # the first player's process, as in a crash
    with pytest.raises(Exception):  # noqa: B017 - the socket is gone with its process
        seats[0].next(timeout=5)
    # The first player's browser comes back through the other process: the exact state,
    # mid-turn, nothing re-rolled; the second player and the watcher saw no change.
    seats[0] = Seat(a.on(second), game)
    assert seats[0].seat == 0
    assert public(seats[0].state) == public(committed) == public(seats[1].state)
    # (The watcher reads along: a socket left unread stops answering the server's pings.)
    assert play_out([*seats, watcher]) > 0
    assert seats[0].state["status"] == watcher.state["status"] == "finished"
    for client in (a.on(second), b):
        (played,) = client.get("/api/me/games").json()
        assert played["id"] == game and played["status"] == "finished"
        assert played["rating"]["after"] != played["rating"]["before"]


def test_a_seek_joined_on_another_process_starts_the_waiting_players_room(
    two: tuple[ServerProcess, ServerProcess],
) -> None:
    first, second = two
    a, b = players(first, second)
    game = seek(a)
    waiting = Seat(a, game)
    assert waiting.state["status"] == "open" and waiting.seat == 0
    join(b, game)
    while waiting.state["status"] != "playing":
        waiting.next()
    joined = Seat(b, game)
    assert joined.seat == 1
    assert public(joined.state) == public(waiting.state)
    # Both processes deal from the one commitment the database kept.
    assert joined.state["dice"] == waiting.state["dice"]
    _step(waiting, [waiting, joined])


def test_signing_out_on_one_process_closes_the_sessions_socket_on_another(
    two: tuple[ServerProcess, ServerProcess],
) -> None:
    first, second = two
    a, b, game = start_game(first, other=second)
    there = Seat(a.on(second), game)  # a's session, its socket on the other process
    opponent = Seat(b, game)
    assert there.seat == 0 and opponent.seat == 1
    assert a.post("/api/signout").status_code == 200  # answered by the first process
    assert closed_with(there.ws) == (SESSION_ENDED, "session-ended")
    assert Seat(a.on(second), game).seat is None  # the cookie is gone: a spectator
    assert _step(opponent, [opponent])["seq"] == 1  # nothing was done as a meanwhile


def _chat(seat: Seat, text: str) -> None:
    seat.send_raw({"type": "chat", "text": text})


def _lines(seat: Seat, timeout: float = 1.0) -> list[str]:
    """The chat lines this seat hears until it has been quiet for ``timeout``."""
    heard = []
    while True:
        try:
            message = seat.next(timeout)
        except TimeoutError:
            return heard
        if message["type"] == "chat":
            heard.append(message["text"])


def test_chat_crosses_processes_and_is_kept_in_the_database(
    two: tuple[ServerProcess, ServerProcess],
) -> None:
    first, second = two
    a, b, game = start_game(first, other=second)
    one, two_ = Seat(a, game), Seat(b, game)
    fan = Client(first)
    fan.sign_up(new_name())
    watcher = Seat(fan.on(second), game)
    _chat(one, "good luck")
    _chat(two_, "you too")
    for seat in (one, two_, watcher):
        assert sorted(_lines(seat)) == ["good luck", "you too"]
    _chat(watcher, "play 13/7!")  # a spectator on the second process
    assert _lines(watcher) == ["play 13/7!"]
    assert _lines(one) == [] and _lines(two_) == []  # not to the players while it runs
    two_.send_raw({"type": "mute", "muted": True, "ref": 1})
    assert two_.next()["type"] == "pong"
    _chat(one, "hello?")
    assert _lines(one) == ["hello?"] and _lines(two_) == []
    # The same history (in the order the database gave the lines) from either process,
    # and the mute holds on the other process too.
    on_first = Seat(Client(first), game).heard[0]["chat"]
    on_second = Seat(Client(second), game).heard[0]["chat"]
    assert on_first == on_second
    assert [line["text"] for line in on_first][2:] == ["play 13/7!", "hello?"]
    assert Seat(b.on(first), game).heard[0]["chat"] == []
    assert [line["text"] for line in Seat(a.on(second), game).heard[0]["chat"]][2:] == ["hello?"]


def test_a_bot_that_two_processes_hold_acts_once(
    two: tuple[ServerProcess, ServerProcess],
) -> None:
    first, second = two
    person = Client(first)
    person.sign_up(new_name())
    r = person.post(
        "/api/games",
        {"settings": {"match-length": 1}, "opponent": "bot", "bot": "heuristic", "bot-delay-ms": 0},
    )
    assert r.status_code == 201, r.text
    game = r.json()["id"]
    watcher = Seat(Client(second), game)  # the second process holds the room (and its bot)
    seat = Seat(person, game)
    deadline = time.monotonic() + 240
    while seat.state["status"] != "finished":
        assert time.monotonic() < deadline, "the game against the bot did not end in 4 minutes"
        kinds = seat.awaited()
        if not kinds:
            seat.next(timeout=30)
            watcher.until(seat.seq, timeout=30)
            continue
        if "roll-opening" in kinds:
            action: dict[str, Any] = {"type": "roll-opening"}
        elif "move" in kinds:
            m = seat.state["board"]["awaiting"]["moves"][0]
            action = {"type": "move", "from": m["from"], "to": m["to"]}
        else:
            action = {"type": next(k for k in ("take", "decline", "roll", "confirm") if k in kinds)}
        reply = seat.act(action, timeout=30)
        if reply["type"] == "refused":  # the bot rolled the opening first, or acted meanwhile
            assert reply["code"] in ("wrong-phase", "not-your-turn", "busy"), reply
        watcher.until(seat.seq, timeout=30)  # read along (an unread socket stops answering)
    watcher.until(seat.seq, timeout=30)
    for who in (seat, watcher):
        heard = [m["seq"] for m in who.heard if m["type"] == "events"]
        assert heard == sorted(set(heard))  # each action once, in order
    assert public(watcher.state) == public(seat.state)
    bot_actions = [
        m for m in seat.heard if m["type"] == "events" and m["action"].get("player") == 1
    ]
    assert bot_actions, "the bot never acted"


def test_workers_serve_one_address(tmp_path: Path, postgres_url: str) -> None:
    """``--workers 2``: two processes on one port; players whose sockets land on either play
    a game together."""
    server = _process(tmp_path, "workers", postgres_url, "--workers", "2").start()
    try:
        a, b, game = start_game(server)
        # Several sockets each, so that (with the kernel spreading connections over the
        # workers) the game's news must cross between the two processes.
        seats = [Seat(a, game), Seat(b, game)]
        extra = [Seat(a, game) for _ in range(3)] + [Seat(b, game) for _ in range(3)]
        for _ in range(6):
            _step(next(s for s in seats if s.awaited()), seats + extra)
        assert all(public(s.state) == public(seats[0].state) for s in extra)
        pids = {pid for pid in _children(server)}
        assert len(pids) >= 2, "uvicorn did not start two worker processes"
    finally:
        server.kill()


def _children(server: ServerProcess) -> list[int]:
    """The processes ``nardy serve`` started (uvicorn's workers)."""
    assert server.process is not None
    path = Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children")
    return [int(pid) for pid in path.read_text().split()]


def test_presence_and_the_rematch_cross_processes(tmp_path: Path, postgres_url: str) -> None:
    # A player whose socket moved to another process is not absent (the processes tell each
    # other who has a socket of whom); once gone from every process they are, the game is
    # claimed, and a rematch offered on one process and accepted on the other starts.
    first = _process(tmp_path, "first", postgres_url, NARDY_GRACE_SECONDS="0.5").start()
    second = _process(tmp_path, "second", postgres_url, NARDY_GRACE_SECONDS="0.5").start()
    try:
        a, b, game = start_game(first)
        seats = [Seat(a, game), Seat(b, game)]
        reply = seats[0].act({"type": "roll-opening"})
        for s in seats:
            s.until(reply["seq"])
        moved = Seat(b.on(second), game)  # the second player's browser, now on the other
        seats[1].close()
        time.sleep(1.5)  # past the grace period: the first process has heard of the move
        seats[0].send_raw({"type": "claim", "ref": 1})
        assert wait_for(seats[0], "refused")["code"] == "not-absent"
        assert seats[0].state["absent"] == []
        moved.close()  # gone from every process
        assert wait_for(seats[0], "absent")["seat"] == 1
        time.sleep(0.7)
        seats[0].send_raw({"type": "claim", "ref": 2})
        assert wait_for(seats[0], "events")["state"]["status"] == "finished"
        back = Seat(b.on(second), game)
        seats[0].send_raw({"type": "rematch"})
        assert wait_for(back, "rematch-offered")["seat"] == 0
        back.send_raw({"type": "rematch"})
        assert wait_for(seats[0], "rematch")["game"] == wait_for(back, "rematch")["game"] != game
    finally:
        first.kill()
        second.kill()
