"""Quick pairing and seeks that live with their creator (issue 19, feature 4): "Play now"
pairs the nearest-rated player waiting for the same game within a range that widens while
either waits (±100, by 100 every 5 s); two waiting players asking at once get one game; a
seek whose creator's browser is gone is withdrawn after the seek grace period; a request
repeated with its Idempotency-Key (a double click) makes one seek or game."""

from __future__ import annotations

import datetime
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from nardy.server.lobby import quick
from nardy.server.lobby.matches import Lobby
from nardy.server.lobby.quick import QuickPairing, rating_range
from nardy.server.store.schema import ratings
from nardy.server.store.store import Store, User
from tests.server.gameplay import new_name, players, roll_opening, sit, start_game, wait_for
from tests.server.serverutil import Client, ServerProcess
from tests.server.test_multiproc import _process
from tests.server.test_multiproc import postgres_url as postgres_url  # the fixture

GAME = {"settings": {"match-length": 3}}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(f"sqlite:///{tmp_path / 'quick.sqlite'}")
    yield opened
    opened.close()


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """The seconds quick pairing's clock runs ahead of the real one (set by a test)."""
    ahead = [0.0]
    real = quick.now
    monkeypatch.setattr(quick, "now", lambda: real() + datetime.timedelta(seconds=ahead[0]))
    yield ahead


def _player(store: Store, rating: float) -> User:
    user = store.create_user(new_name(), None, {}, guest=True)
    with store.engine.begin() as c:
        c.execute(
            ratings.insert().values(
                user_id=user.id, pool="backgammon", rating=rating, experience=10
            )
        )
    return user


def test_the_range_widens_by_a_hundred_every_five_seconds() -> None:
    assert [rating_range(s) for s in (0, 4.9, 5, 12, 30)] == [100, 100, 200, 300, 700]


def test_the_nearest_rating_within_the_range_is_paired(store: Store, later: list[float]) -> None:
    pairing = QuickPairing(store)
    far, near, nearer = _player(store, 1700), _player(store, 1590), _player(store, 1540)
    waiting = {u.id: pairing.play_now(u, GAME).game for u in (far, near, nearer)}
    # far (200 away from 1500) was not paired with the others (90 and 40 from 1500 and
    # 50 from each other, but 1540 and 1590 are 50 apart: the second one paired the first).
    assert waiting[far.id].status == "open"
    assert waiting[near.id].status == "open"
    assert waiting[nearer.id].status == "playing"
    assert waiting[nearer.id].id == waiting[near.id].id
    me = _player(store, 1500)
    answer = pairing.play_now(me, {**GAME, "settings": {"match-length": 5}})
    assert answer.game.status == "open" and answer.range == 100  # nobody waits for 5 points
    other = _player(store, 1480)
    paired = pairing.play_now(other, {"settings": {"match-length": 5}})
    assert paired.game.id == answer.game.id and paired.game.seats == (me.id, other.id)


def test_the_range_widens_while_one_waits(store: Store, later: list[float]) -> None:
    pairing = QuickPairing(store)
    low, high = _player(store, 1500), _player(store, 1750)
    first = pairing.play_now(low, GAME).game
    second = pairing.play_now(high, GAME)
    assert second.game.status == "open" and second.range == 100  # 250 apart: not yet
    later[0] = 6
    again = pairing.play_now(high, {**GAME, "seek": second.game.id})
    assert again.game.status == "open" and again.range == 200  # still too far
    later[0] = 11
    paired = pairing.play_now(low, {**GAME, "seek": first.id})  # 300 now: paired
    assert paired.game.status == "playing" and paired.game.seats == (high.id, low.id)
    assert [g.id for g in paired.withdrawn] == [first.id]  # its own seek given up first
    # The other one asks again and finds the game: one game, not two.
    found = pairing.play_now(high, {**GAME, "seek": second.game.id})
    assert found.game.id == paired.game.id and found.game.status == "playing"
    assert store.quick_seeks() == []


def test_a_quick_seek_is_not_listed_with_the_manual_seeks(store: Store) -> None:
    answer = QuickPairing(store).play_now(_player(store, 1500), GAME)
    assert answer.game.quick and store.seeks() == []
    assert [g.id for g in store.quick_seeks()] == [answer.game.id]


def test_a_repeated_request_makes_one_seek_and_one_game(store: Store) -> None:
    user = _player(store, 1500)
    pairing = QuickPairing(store)
    first = pairing.play_now(user, GAME, "click-1").game
    assert pairing.play_now(user, GAME, "click-1").game.id == first.id
    assert len(store.quick_seeks()) == 1
    lobby = Lobby(store)
    made = lobby.create(user, GAME, "click-2")
    again = lobby.create(user, GAME, "click-2")
    assert again.repeated and not made.repeated and again.game.id == made.game.id
    assert [g.id for g in store.seeks()] == [made.game.id]
    assert lobby.create(user, GAME, "click-3").game.id != made.game.id  # a new click


def test_idempotency_key_over_http(server: ServerProcess) -> None:
    a, b = players(server)
    headers = {"Idempotency-Key": "start-1"}
    first = a.post("/api/games", GAME, headers=headers)
    again = a.post("/api/games", GAME, headers=headers)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["id"] == first.json()["id"]
    # Someone else's key is their own.
    other = b.post("/api/games", GAME, headers=headers)
    assert other.status_code == 201 and other.json()["id"] != first.json()["id"]
    bad = a.post("/api/games", GAME, headers={"Idempotency-Key": "x" * 65})
    assert bad.status_code == 400 and bad.json()["error"] == "malformed"
    table = {"kind": "chouette", "settings": {"match-length": 0}, "seats": 3}
    made = a.post("/api/tables", table, headers={"Idempotency-Key": "table-1"})
    made_again = a.post("/api/tables", table, headers={"Idempotency-Key": "table-1"})
    assert (made.status_code, made_again.status_code) == (201, 200)
    assert made_again.json()["id"] == made.json()["id"]
    mine = [g for g in a.get("/api/seeks").json() if g["players"][0]["id"] == a.user["id"]]  # type: ignore[index]
    assert [g["id"] for g in mine] == [first.json()["id"]]


def test_two_players_press_play_now_over_http(server: ServerProcess) -> None:
    a, b = players(server)
    waiting = a.post("/api/quick", GAME, headers={"Idempotency-Key": "q1"})
    assert waiting.status_code == 200, waiting.text
    assert waiting.json()["status"] == "open" and waiting.json()["range"] == 100
    assert (
        a.post("/api/quick", GAME, headers={"Idempotency-Key": "q1"}).json()["id"]
        == waiting.json()["id"]
    )
    paired = b.post("/api/quick", GAME).json()
    assert paired["status"] == "playing" and paired["id"] == waiting.json()["id"]
    found = a.post("/api/quick", {**GAME, "seek": waiting.json()["id"]}).json()
    assert found["status"] == "playing" and found["id"] == paired["id"]
    assert Client(server).post("/api/quick", GAME).status_code == 401


def test_a_seek_lives_while_its_creator_is_here(database_url: str | None, tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    server = ServerProcess(
        tmp_path / "data", database_url, NARDY_AUTH_RATE="1000/60", NARDY_SEEK_GRACE_SECONDS="2"
    ).start()
    try:
        a, b = players(server)
        seek = a.post("/api/games", GAME).json()["id"]
        kept = a.post("/api/quick", GAME).json()["id"]  # a quick seek, asked again below
        for _ in range(4):  # 4 s: twice the grace period, the browser still open
            time.sleep(1)
            assert a.post("/api/me/here").json()["seeks"] == 2
        assert seek in [g["id"] for g in b.get("/api/seeks").json()]
        time.sleep(2.5)  # the browser closed: nothing more from it
        assert seek not in [g["id"] for g in b.get("/api/seeks").json()]
        refused = b.post(f"/api/games/{seek}/join")
        assert refused.status_code == 409 and refused.json()["error"] == "cancelled"
        assert a.get(f"/api/games/{seek}").json()["status"] == "cancelled"
        assert b.post("/api/quick", GAME).json()["id"] != kept  # gone too: not paired
    finally:
        server.kill()


def test_an_action_sent_twice_for_one_state_is_applied_once(server: ServerProcess) -> None:
    a, b, game = start_game(server, {"match-length": 1})
    seats = sit(a, b, game)
    mover = roll_opening(seats)
    m = mover.state["board"]["awaiting"]["moves"][0]
    move = {"type": "move", "from": m["from"], "to": m["to"]}
    seq = mover.seq
    for ref in ("first", "again"):  # a double click: the same move, for the same state
        mover.send_raw({"type": "action", "action": move, "ref": ref, "seq": seq})
    replies = {}
    while len(replies) < 2:
        message = mover.next()
        if message.get("ref") in ("first", "again"):
            replies[message["ref"]] = message
    assert replies["first"]["type"] == "events" and replies["first"]["seq"] == seq + 1
    assert replies["again"]["type"] == "refused" and replies["again"]["code"] == "stale"
    assert mover.seq == seq + 1  # one move made
    mover.send_raw({"type": "action", "action": move, "seq": -1})
    assert wait_for(mover, "error")["code"] == "malformed"


def test_players_on_two_processes_are_paired(tmp_path: Path, postgres_url: str) -> None:
    first = _process(tmp_path, "first", postgres_url).start()
    second = _process(tmp_path, "second", postgres_url).start()
    try:
        a, b = players(first, second)
        waiting = a.post("/api/quick", GAME).json()
        assert waiting["status"] == "open"
        paired = b.post("/api/quick", GAME).json()  # the other process: one database
        assert paired["status"] == "playing" and paired["id"] == waiting["id"]
        assert a.post("/api/quick", {**GAME, "seek": waiting["id"]}).json()["status"] == "playing"
    finally:
        first.kill()
        second.kill()
