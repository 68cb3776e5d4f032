"""The room sockets against the sessions and caps of docs/protocol.md (issue 17, items 3 and
5): a socket opened before its session ended (sign-out, a guest's claim) is closed with
4001 ``session-ended`` and does nothing more as the user; one user and one client address
hold at most their cap of sockets, the next one closed with 4029 ``too-many-sockets``.
A session ended while Redis was away is caught at the bus's Gap. (Across two server
processes: tests/server/test_multiproc.py.)"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from nardy.server import protocol
from nardy.server.accounts.connections import SESSION_ENDED, SESSIONS, TOO_MANY_SOCKETS, Connections
from nardy.server.accounts.users import Accounts, hash_token
from nardy.server.bus.bus import LocalBus, RedisBus
from nardy.server.http import off_loop
from nardy.server.room.member import Member
from nardy.server.store.schema import sessions as sessions_table
from nardy.server.store.store import Store
from tests.server.gameplay import Seat, new_name, sit, start_game
from tests.server.serverutil import Client, ServerProcess, closed_with, receive
from tests.server.test_bus import REDIS_URL, Outage, address, redis_available


def opened(client: Client, game: str) -> Seat:
    """A socket of the client, once the server has counted the sockets just closed out."""
    deadline = time.monotonic() + 10
    while True:
        try:
            return Seat(client, game)
        except ConnectionClosed as exc:
            if exc.rcvd is None or exc.rcvd.code != TOO_MANY_SOCKETS:
                raise
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def actions(client: Client, game: str) -> int:
    return int(client.get(f"/api/games/{game}").json()["actions"])


def test_signing_out_closes_the_sessions_sockets(server: ServerProcess) -> None:
    a, b, game = start_game(server)
    seats = sit(a, b, game)
    second_tab = Seat(a, game)  # the same browser: the same session
    assert a.user is not None
    elsewhere = Client(server)  # the same user signed in in another browser
    r = elsewhere.post("/api/signin", {"username": a.user["username"], "password": "correct horse"})
    assert r.status_code == 200
    other_session = Seat(elsewhere, game)
    before = actions(b, game)
    assert a.post("/api/signout").status_code == 200
    with contextlib.suppress(ConnectionClosed):  # sent, or closed already
        second_tab.send_raw({"type": "action", "action": {"type": "roll-opening"}})
    assert closed_with(second_tab.ws) == (SESSION_ENDED, "session-ended")
    assert closed_with(seats[0].ws) == (SESSION_ENDED, "session-ended")
    assert actions(b, game) == before
    # The other players' sockets and the user's other session go on.
    for seat in (seats[1], other_session):
        seat.send_raw({"type": "ping", "ref": "here"})
        assert seat.next()["type"] == "pong"
    assert other_session.act({"type": "roll-opening"})["type"] == "events"
    # Opened again without a session, the room is watched as a spectator.
    assert Seat(a, game).seat is None


def test_a_guest_who_claims_an_account_ends_the_guest_session(server: ServerProcess) -> None:
    guest = Client(server)
    assert guest.post("/api/guest").status_code == 201
    guest_cookie = dict(guest.http.cookies)
    r = guest.post("/api/games", {"settings": {"match-length": 1}, "opponent": "bot"})
    assert r.status_code == 201, r.text
    game = r.json()["id"]
    seat = Seat(guest, game)
    assert seat.seat == 0
    claimed = guest.sign_up(new_name())
    assert closed_with(seat.ws) == (SESSION_ENDED, "session-ended")
    old = Client(server)
    old.http.cookies.update(guest_cookie)
    assert old.get("/api/session").json()["user"] is None  # the guest's cookie is spent
    again = Seat(guest, game)  # the new session: the same seat, under the new name
    assert again.seat == 0 and guest.get("/api/session").json()["user"]["id"] == claimed["id"]


def test_signing_in_as_someone_else_ends_the_browsers_session_before(
    server: ServerProcess,
) -> None:
    a, b, game = start_game(server)
    assert b.user is not None
    seat = Seat(a, game)
    assert seat.seat == 0
    r = a.post("/api/signin", {"username": b.user["username"], "password": "correct horse"})
    assert r.status_code == 200
    assert closed_with(seat.ws) == (SESSION_ENDED, "session-ended")
    assert Seat(a, game).seat == 1  # the browser is b now


def test_a_programs_socket_ends_with_the_bearer_session_it_came_with(
    server: ServerProcess,
) -> None:
    a, _, game = start_game(server)
    token = a.http.cookies["nardy_session"]
    bearer = {"Authorization": f"Bearer {token}"}
    url = f"ws://127.0.0.1:{server.port}/ws/games/{game}"
    with connect(url, additional_headers=bearer, open_timeout=10) as ws:  # no Origin
        assert receive(ws)["seat"] == 0
        program = Client(server)  # no cookie: the token alone
        assert program.post("/api/signout", headers=bearer).status_code == 200
        assert closed_with(ws) == (SESSION_ENDED, "session-ended")


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(
        tmp_path_factory.mktemp("capped"),
        None,
        NARDY_AUTH_RATE="1000/60",
        NARDY_SOCKETS_PER_USER="2",
        NARDY_SOCKETS_PER_ADDRESS="3",
    ).start()
    yield process
    process.kill()


def test_sockets_are_capped_per_user_and_per_address(capped: ServerProcess) -> None:
    a, b, game = start_game(capped)
    first, second = Seat(a, game), Seat(a, game)
    third = a.ws(game)
    assert closed_with(third) == (TOO_MANY_SOCKETS, "too-many-sockets")
    watcher = Seat(Client(capped), game)  # the address's third socket
    assert closed_with(b.ws(game)) == (TOO_MANY_SOCKETS, "too-many-sockets")
    assert closed_with(Client(capped).ws(game)) == (TOO_MANY_SOCKETS, "too-many-sockets")
    # A socket closed is a socket free again; the refused ones took nothing.
    second.close()
    watcher.close()
    assert opened(b, game).seat == 1
    assert opened(a, game).seat == 0
    assert first.act({"type": "roll-opening"})["type"] == "events"


def test_a_session_ended_while_redis_was_away_closes_its_sockets_once_it_is_back(
    tmp_path: Path,
) -> None:
    redis_available()
    store = Store.open(f"sqlite:///{tmp_path / 'nardy.sqlite3'}")
    accounts = Accounts(store)
    ending, staying = (accounts.open_session(accounts.guest()) for _ in range(2))

    async def scenario() -> None:
        outage = Outage(address(REDIS_URL))
        await outage.up()
        async with (
            RedisBus(f"redis://127.0.0.1:{outage.port}/0", retry_delays=(0.05, 0.1)) as bus,
            RedisBus(REDIS_URL) as elsewhere,
        ):
            connections = Connections(store, bus, per_user=10, per_address=20)
            await connections.start()
            gone = connections.open("192.0.2.1", hash_token(ending))
            kept = connections.open("192.0.2.1", hash_token(staying))
            gone.attach(Member(1, 0))
            kept.attach(Member(2, 0))
            await outage.down()
            # Another process signs the session out; its news is lost with the connection.
            await off_loop(accounts.close_session, ending)
            await elsewhere.publish(SESSIONS, {"session": hash_token(ending)})
            await outage.up()  # the bus reports a Gap: the sessions are looked up again
            async with asyncio.timeout(10):
                while not gone.ended:
                    await asyncio.sleep(0.05)
            assert gone.member is not None and kept.member is not None
            assert gone.member.queue.get_nowait() == SESSION_ENDED
            assert not kept.ended and kept.member.queue.empty()
            await connections.stop()

    try:
        asyncio.run(scenario())
    finally:
        store.close()


def test_a_socket_whose_session_ends_before_it_joins_its_room_closes_as_it_joins(
    tmp_path: Path,
) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'nardy.sqlite3'}")

    async def scenario() -> list[str | int]:
        connections = Connections(store, LocalBus(), per_user=10, per_address=20)
        connection = connections.open("192.0.2.1", "a-session")
        await connections.end_session("a-session")  # while its user was being looked up
        member = Member(1, 0)
        connection.attach(member)
        member.send(protocol.Pong(1))  # the room's welcome, say: never sent
        return [member.queue.get_nowait() for _ in range(member.queue.qsize())]

    try:
        assert asyncio.run(scenario())[0] == SESSION_ENDED
    finally:
        store.close()


def test_a_socket_whose_session_expires_closes_though_nobody_said_so(tmp_path: Path) -> None:
    """A session ends when it expires too (issue 17 item 3): nobody signs out, nothing goes
    out on the bus, and the socket closes at the next look-up of the open sessions."""
    store = Store.open(f"sqlite:///{tmp_path / 'nardy.sqlite3'}")
    accounts = Accounts(store)
    expiring, staying = (accounts.open_session(accounts.guest()) for _ in range(2))

    async def scenario() -> None:
        connections = Connections(store, LocalBus(), 10, 20, recheck_seconds=0.05)
        await connections.start()
        gone = connections.open("192.0.2.1", hash_token(expiring))
        kept = connections.open("192.0.2.1", hash_token(staying))
        gone.attach(Member(1, 0))
        kept.attach(Member(2, 0))
        await asyncio.sleep(0.2)
        assert not gone.ended and not kept.ended  # both sessions still hold
        with store.engine.begin() as c:  # the first one's 30 days are over
            c.execute(
                sessions_table.update()
                .where(sessions_table.c.token_hash == hash_token(expiring))
                .values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
            )
        async with asyncio.timeout(10):
            while not gone.ended:
                await asyncio.sleep(0.05)
        assert gone.member is not None and gone.member.queue.get_nowait() == SESSION_ENDED
        assert not kept.ended
        await connections.stop()

    try:
        asyncio.run(scenario())
    finally:
        store.close()
