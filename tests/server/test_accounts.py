"""Accounts and the security rules of issue 10 point 2, one test per rule, against a real
server process (and the account layer directly where the database must be looked at)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from nardy.server.accounts.users import AccountError, Accounts, Preferences
from nardy.server.store.schema import sessions, users
from nardy.server.store.store import Store
from tests.server.gameplay import Seat, join, new_name, seek
from tests.server.serverutil import Client, ServerProcess


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")


def test_passwords_are_kept_as_argon2id_hashes(store: Store) -> None:
    Accounts(store).sign_up("alice", "correct horse")
    with store.engine.connect() as c:
        stored = c.execute(sa.select(users.c.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$")
    assert "correct horse" not in stored


def test_sessions_are_kept_as_hashes_of_the_token(store: Store) -> None:
    accounts = Accounts(store)
    user = accounts.sign_up("alice", "correct horse")
    token = accounts.open_session(user)
    with store.engine.connect() as c:
        kept = c.execute(sa.select(sessions.c.token_hash)).scalar_one()
    assert kept != token and len(kept) == 64
    assert accounts.session_user(token) == user
    assert accounts.session_user(kept) is None  # the stored value does not sign in


def test_sign_in_does_not_tell_which_names_exist(store: Store) -> None:
    accounts = Accounts(store)
    accounts.sign_up("alice", "correct horse")
    with pytest.raises(AccountError) as wrong_password:
        accounts.sign_in("alice", "wrong horse")
    with pytest.raises(AccountError) as no_user:
        accounts.sign_in("nobody", "wrong horse")
    assert wrong_password.value.code == no_user.value.code == "wrong-credentials"
    assert str(wrong_password.value) == str(no_user.value)


def test_preferences_are_validated_and_merged() -> None:
    prefs = Preferences.from_dict({"home": "top-left", "sound": False})
    assert prefs.home == "top-left" and not prefs.sound and prefs.animation
    for bad in ({"home": "centre"}, {"sound": "yes"}, {"volume": 3}, {"language": "English"}):
        with pytest.raises(AccountError):
            Preferences.from_dict(bad)


def test_playing_a_forced_move_is_an_option_off_by_default_and_old_preferences_still_load() -> None:
    stored = Preferences().to_dict()
    del stored["auto-play-forced"]  # preferences saved before the option existed
    prefs = Preferences.from_dict(stored)
    assert prefs.auto_play_forced is False
    assert Preferences.from_dict({"auto-play-forced": True}, prefs).to_dict()["auto-play-forced"]
    with pytest.raises(AccountError):
        Preferences.from_dict({"auto-play-forced": "yes"})


def test_sign_up_sign_in_sign_out(server: ServerProcess) -> None:
    alice = Client(server)
    user = alice.sign_up("alice1")
    assert alice.get("/api/me").json()["username"] == "alice1"
    assert alice.post("/api/signout").status_code == 200
    assert alice.get("/api/me").status_code == 401
    r = alice.post("/api/signin", {"username": "ALICE1", "password": "correct horse"})
    assert r.status_code == 200 and r.json()["user"]["id"] == user["id"]
    r = alice.post("/api/signin", {"username": "alice1", "password": "wrong"})
    assert r.status_code == 401 and r.json()["error"] == "wrong-credentials"


def test_names_are_unique_without_regard_to_case(server: ServerProcess) -> None:
    Client(server).sign_up("Bobby")
    r = Client(server).post("/api/signup", {"username": "bobby", "password": "correct horse"})
    assert r.status_code == 409 and r.json()["error"] == "username-taken"


def test_bad_names_and_passwords_are_refused(server: ServerProcess) -> None:
    client = Client(server)
    for body, code in [
        ({"username": "a", "password": "correct horse"}, "bad-username"),
        ({"username": "guest-1234", "password": "correct horse"}, "bad-username"),
        ({"username": "carol", "password": "short"}, "bad-password"),
        ({"username": ["carol"], "password": "correct horse"}, "bad-username"),
    ]:
        r = client.post("/api/signup", body)
        assert r.status_code == 400 and r.json()["error"] == code
    assert client.post("/api/signup", "[1, 2]").json()["error"] == "malformed"
    assert client.get("/api/session").json()["user"] is None


def test_the_session_cookie_is_http_only_and_same_site(server: ServerProcess) -> None:
    client = Client(server)
    r = client.post("/api/signup", {"username": "dora1", "password": "correct horse"})
    cookie = r.headers["set-cookie"].lower()
    assert "nardy_session=" in cookie and "httponly" in cookie and "samesite=lax" in cookie


def test_a_signed_out_token_no_longer_signs_in(server: ServerProcess) -> None:
    client = Client(server)
    client.sign_up("erin1")
    token = client.http.cookies["nardy_session"]
    client.post("/api/signout")
    thief = httpx.Client(base_url=server.url, cookies={"nardy_session": token})
    assert thief.get("/api/me").status_code == 401


def test_state_changing_requests_need_the_csrf_token(server: ServerProcess) -> None:
    client = Client(server)
    client.sign_up("frank1")
    plain = {"home": "top-left"}
    r = client.http.put("/api/me/preferences", json=plain)
    assert r.status_code == 403 and r.json()["error"] == "csrf"
    r = client.http.put("/api/me/preferences", json=plain, headers={"x-csrf-token": "forged"})
    assert r.status_code == 403 and r.json()["error"] == "csrf"
    assert client.get("/api/me").json()["preferences"]["home"] == "bottom-right"
    r = client.send("PUT", "/api/me/preferences", plain)
    assert r.status_code == 200 and r.json()["home"] == "top-left"


def test_state_changing_requests_from_another_origin_are_refused(server: ServerProcess) -> None:
    client = Client(server)
    client.sign_up("gina1")
    r = client.send(
        "PUT", "/api/me/preferences", {"sound": False}, headers={"origin": "https://evil.example"}
    )
    assert r.status_code == 403 and r.json()["error"] == "bad-origin"
    assert client.get("/api/me").json()["preferences"]["sound"] is True
    same = client.send(
        "PUT", "/api/me/preferences", {"sound": False}, headers={"origin": server.url}
    )
    assert same.status_code == 200


def test_nobody_sees_another_users_preferences(server: ServerProcess) -> None:
    hana, ivan = Client(server), Client(server)
    hana.sign_up("hana1")
    ivan.sign_up("ivan1")
    hana.send("PUT", "/api/me/preferences", {"language": "ru"})
    seen = ivan.get("/api/users/hana1").json()
    assert seen == {"id": hana.user["id"], "username": "hana1", "guest": False, "ratings": {}}  # type: ignore[index]
    assert ivan.get("/api/me/preferences").json()["language"] == "en"
    assert httpx.get(server.url + "/api/me/preferences").status_code == 401


def test_a_guest_claims_an_account_and_keeps_the_id(server: ServerProcess) -> None:
    client = Client(server)
    r = client.post("/api/guest")
    assert r.status_code == 201
    guest = r.json()["user"]
    assert guest["guest"] and guest["username"].startswith("guest-")
    claimed = client.sign_up("jack1")
    assert claimed["id"] == guest["id"] and not claimed["guest"]
    r = Client(server).post("/api/signin", {"username": "jack1", "password": "correct horse"})
    assert r.json()["user"]["id"] == guest["id"]


def test_a_claimed_name_reaches_the_rooms_of_the_guests_games(server: ServerProcess) -> None:
    """Issue 19: a guest who claims an account mid-game is shown under the new name, in the
    room as it is (its sockets hear the state again) and to whoever opens it next."""
    guest = Client(server)
    guest.post("/api/guest")
    opponent = Client(server)
    opponent.sign_up(new_name())
    game = seek(guest)
    join(opponent, game)
    watching = Seat(opponent, game)
    assert watching.state["players"][0]["username"].startswith("guest-")
    guest.sign_up("claimed1")
    while watching.state["players"][0]["username"] != "claimed1":
        watching.next()
    assert Seat(opponent, game).state["players"][0]["username"] == "claimed1"


def test_sign_in_and_sign_up_are_rate_limited(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, None, NARDY_AUTH_RATE="3/60").start()
    try:
        client = Client(server)
        codes = [
            client.post("/api/signin", {"username": "x", "password": "y"}).status_code
            for _ in range(4)
        ]
        assert codes == [401, 401, 401, 429]
        r = client.post("/api/signup", {"username": "kate1", "password": "correct horse"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    finally:
        server.kill()
