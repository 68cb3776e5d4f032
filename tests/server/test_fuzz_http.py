"""The site as a hostile client finds it (issue 17): hypothesis sends every HTTP route of the
app, read from its routing table so that a new endpoint is fuzzed too, bodies, query strings,
path parameters (other users' games, nonsense), methods and headers, signed out, as a guest
and as a user; and every WebSocket message type, well and badly formed, from a player, the
opponent, a spectator and a signed-out socket, to a two-player room and a consultation table.

What must hold: never a 5xx; every error from ``/api`` is the documented
``{"error": CODE, "message": TEXT}``; nothing leaks that the requester may not see (another
player's private game, another account's preferences, invitation tokens, password hashes, a
consultation side's proposals); a refused request or message changes nothing; a socket
answers each message and stays open while it is not abusive (docs/protocol.md)."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.routing import Route
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from nardy.server import protocol
from nardy.server.app import create_app
from nardy.server.config import ServerConfig
from tests.server.serverutil import ServerProcess

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_N", "100")),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
SECRET_PREFERENCES = {"language": "ru", "home": "top-left", "sound": False}
"""Alice's preferences, which nobody else may read."""


@dataclass
class Site:
    """A server with its people and games, made once for the module."""

    server: ServerProcess
    routes: list[tuple[str, list[str]]]  # every HTTP route's path and methods
    db: sa.Engine
    alice: httpx.Client  # a user: plays ``playing``, owns ``private``, ``seek``, ``table``
    bob: httpx.Client  # a user: alice's opponent in ``playing``
    guest: httpx.Client  # a guest: on side 1 of ``table``, in no two-player game
    nobody: httpx.Client  # signed out
    carol: httpx.Client  # a user: alice's partner on side 0 of ``table``
    ids: dict[str, int]  # username -> user id
    games: dict[str, str]  # role -> game id
    invitation: str


def _client(server: ServerProcess) -> httpx.Client:
    # As a browser on the site's page: its Origin, and the CSRF cookie repeated.
    client = httpx.Client(base_url=server.url, timeout=30, headers={"origin": server.url})
    client.get("/api/session")
    client.headers["x-csrf-token"] = client.cookies["nardy_csrf"]
    return client


def _ok(response: Any, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return body


@pytest.fixture(scope="module")
def site(database_url: str | None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A server on each database of the suite (PostgreSQL refuses text SQLite keeps), the
    routes of its app, and the people and games the requests are about."""
    data = tmp_path_factory.mktemp("fuzz")
    app = create_app(ServerConfig(data_dir=tmp_path_factory.mktemp("routes")))
    routes = [(r.path, sorted(r.methods or ())) for r in app.routes if isinstance(r, Route)]
    app.state.site.store.close()
    # Its seek waits the whole module, its creator silent: no seek lapses meanwhile.
    server = ServerProcess(
        data, database_url, NARDY_AUTH_RATE="1000000/60", NARDY_SEEK_GRACE_SECONDS="86400"
    ).start()
    db = sa.create_engine(database_url or f"sqlite:///{data / 'nardy.sqlite3'}")
    try:
        alice, bob, guest, nobody, carol = (_client(server) for _ in range(5))
        ids: dict[str, int] = {}
        for client, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
            r = client.post("/api/signup", json={"username": name, "password": "correct horse"})
            ids[name] = _ok(r, 201)["user"]["id"]
        ids["guest"] = _ok(guest.post("/api/guest"), 201)["user"]["id"]
        _ok(alice.put("/api/me/preferences", json=SECRET_PREFERENCES))
        one = {"settings": {"match-length": 3}}
        playing = _ok(alice.post("/api/games", json=one), 201)["id"]
        _ok(bob.post(f"/api/games/{playing}/join"))
        invited = _ok(alice.post("/api/games", json={**one, "opponent": "invite"}), 201)
        seek = _ok(alice.post("/api/games", json=one), 201)["id"]
        consultation = {"kind": "consultation", "sides": [2, 2]}
        table = _ok(alice.post("/api/tables", json=consultation), 201)["id"]
        _ok(carol.post(f"/api/tables/{table}/join", json={"side": 0}))
        _ok(bob.post(f"/api/tables/{table}/join", json={"side": 1}))
        _ok(guest.post(f"/api/tables/{table}/join", json={"side": 1}))
        games = {"playing": playing, "private": invited["id"], "seek": seek, "table": table}
        yield Site(
            server, routes, db, alice, bob, guest, nobody, carol, ids, games,
            invited["invitation"],
        )  # fmt: skip
    finally:
        server.kill()
        db.dispose()


# -- HTTP --------------------------------------------------------------------------------------


PARAM = re.compile(r"\{(\w+)(?::\w+)?\}")

odd_text = st.sampled_from(["\x00", "\ud800", "a\udfffb", "\u202e", "\ufeff", "🂡"])
"""Text a database cannot keep (a NUL, lone surrogates) and other oddities."""
texts = st.text(max_size=20) | odd_text
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats() | texts,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = [
    "settings", "opponent", "bot", "bot-delay-ms", "clock", "username", "password", "kind",
    "sides", "seats", "bots", "side", "language", "home", "sound", "auto-roll", "variant",
    "match-length",
]  # fmt: skip
SETTING_NAMES = ["variant", "match-length", "beaver", "limit-points", "jacoby", "crawford", "x"]
# Numbers stay small: a huge match length or clock value is issue 17 item 1 (helper bounds).
small = st.none() | st.booleans() | st.integers(-5, 50) | st.text(max_size=10) | odd_text
word = st.sampled_from(
    ["open", "invite", "bot", "random", "long", "backgammon", "chouette", "consultation",
     "none", "blitz", "alice", "guest-x", "correct horse", ""]
)  # fmt: skip


@st.composite
def bodies(draw: st.DrawFn) -> bytes | None:
    """A request body: none, raw bytes, any JSON, or an object shaped like the API's."""
    choice = draw(st.integers(0, 4))
    if choice == 0:
        return None
    if choice == 1:
        return draw(st.binary(max_size=40))
    if choice == 2:
        return json.dumps(draw(json_values)).encode()
    obj: dict[str, Any] = {}
    for name in draw(st.sets(st.sampled_from(FIELDS), max_size=5)):
        if name == "settings":
            obj[name] = draw(st.dictionaries(st.sampled_from(SETTING_NAMES), small | word))
        elif name == "clock":
            obj[name] = draw(
                word | st.fixed_dictionaries({}, optional={"delay": small, "reserve": small})
            )
        elif name == "sides":
            obj[name] = draw(st.lists(small, max_size=3))
        else:
            obj[name] = draw(small | word)
    return json.dumps(obj).encode()


def path_values(known_values: dict[str, str]) -> st.SearchStrategy[str]:
    """A path parameter: a real game id, name or token (another user's too), or nonsense."""
    known = sorted(known_values.values())
    return st.sampled_from(known) | st.text(max_size=15) | st.sampled_from(
        ["0", "-1", "9" * 40, "alice", "bob", "carol", "guest-00000000", "..", "%00", "\x00",
         "ü", "²", "a" * 300]
    )  # fmt: skip


@st.composite
def requests(draw: st.DrawFn, site: Site) -> tuple[str, str, str, bytes | None, dict[str, str]]:
    """Who asks (a client's name), the method, the URL, the body and extra headers."""
    path, methods = draw(st.sampled_from(site.routes))
    values = {**site.games, "alice": "alice", "bob": "bob", "token": site.invitation}
    url = PARAM.sub(lambda m: urllib.parse.quote(draw(path_values(values)), safe=""), path)
    method = draw(st.sampled_from(methods) | st.sampled_from(["PUT", "DELETE", "PATCH"]))
    query = draw(
        st.dictionaries(
            st.sampled_from(["variant", "length", "page", "per-page", "x"]),
            st.text(max_size=8)
            | st.integers(-3, 10**30).map(str)
            | st.sampled_from(["²", "٣", "\x00"]),
            max_size=3,
        )
    )
    if query:
        url += "?" + urllib.parse.urlencode(query)
    headers: dict[str, str] = {}
    if draw(st.booleans()):
        headers["origin"] = draw(
            st.sampled_from([site.server.url, site.server.url.replace("http", "https"),
                             "http://evil.example", "null", ""])
        )  # fmt: skip
    if draw(st.integers(0, 5)) == 0:
        headers["x-csrf-token"] = draw(st.text(alphabet="abc", max_size=5))
    if draw(st.booleans()):
        headers["content-type"] = draw(
            st.sampled_from(["application/json", "text/plain", "multipart/form-data"])
        )
    who = draw(st.sampled_from(["alice", "bob", "guest", "nobody"]))
    return who, method, url, draw(bodies()), headers


@functools.cache
def _tables(db: sa.Engine) -> list[sa.Table]:
    meta = sa.MetaData()
    meta.reflect(db)
    return list(meta.tables.values())


def _dump(db: sa.Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table: what a refused request must leave as it was."""
    with db.connect() as c:
        return {
            table.name: sorted(map(tuple, c.execute(sa.select(table))), key=repr)
            for table in _tables(db)
        }


def _walk(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from _walk(v)


def _check_no_leak(site: Site, who: str, method: str, url: str, text: str) -> None:
    assert "$argon2" not in text, "a password hash"
    assert site.invitation not in text, "the invitation token"
    if site.games["private"] in text:  # an invitation: its players' alone
        players = _ok(site.alice.get(f"/api/games/{site.games['private']}"))["players"]
        assert site.ids.get(who) in [p and p.get("id") for p in players], f"{who} saw it"
    try:
        body = json.loads(text)
    except ValueError:
        return
    own = {site.ids.get(who)}
    if isinstance(body, dict) and isinstance(body.get("user"), dict):
        own.add(body["user"].get("id"))  # who the requester is now (signed in, a new guest)
    for obj in _walk(body):
        if "preferences" in obj:
            assert obj.get("id") in own, f"{who} reads the preferences of {obj.get('id')}"
        if set(SECRET_PREFERENCES) <= set(obj) and who != "alice":
            assert obj != {**obj, **SECRET_PREFERENCES}, f"{who} reads alice's preferences"


@FUZZ
@given(data=st.data())
def test_no_request_breaks_the_site_leaks_or_changes_anything_when_refused(
    site: Site, data: st.DataObject
) -> None:
    who, method, url, body, headers = data.draw(requests(site))
    client: httpx.Client = getattr(site, who)
    before, logged = _dump(site.db), len(site.server.read_log())
    response = client.request(method, url, content=body, headers=headers)
    assert response.status_code < 500, (method, url, body, response.text)
    if url.startswith("/api") and response.status_code >= 400 and method != "HEAD":
        error = response.json()
        assert set(error) == {"error", "message"}, error
        assert isinstance(error["error"], str) and isinstance(error["message"], str)
        assert _dump(site.db) == before, (method, url, body, "a refusal changed the database")
    _check_no_leak(site, who, method, url, response.text)
    _restore_sessions(site)
    _check_log(site, logged)


def _check_log(site: Site, start: int) -> None:
    """The server took nothing a client sent for a failure of its own."""
    failures = [
        line for line in site.server.read_log()[start:].splitlines()
        if "Traceback" in line or " ERROR " in line or line.startswith("ERROR")
    ]  # fmt: skip
    assert not failures, failures


def _restore_sessions(site: Site) -> None:
    """Put each client back as it was when an accepted request signed it out or in."""
    for who in ("alice", "bob", "guest", "nobody"):
        client: httpx.Client = getattr(site, who)
        user = client.get("/api/session").json()["user"]
        if who == "nobody":
            if user is not None:
                client.post("/api/signout")
        elif who == "guest":
            if user is None or not user["guest"]:
                site.ids["guest"] = _ok(client.post("/api/guest"), 201)["user"]["id"]
        elif user is None or user["id"] != site.ids[who]:
            body = {"username": who, "password": "correct horse"}
            _ok(client.post("/api/signin", json=body))


def test_the_routers_refusals_under_api_are_json_errors(site: Site) -> None:
    """What the router refuses before any endpoint runs is the API's error too; a page's
    address keeps the plain text."""
    wrong_method = site.alice.put("/api/session")
    assert wrong_method.status_code == 405 and "GET" in wrong_method.headers["allow"]
    assert wrong_method.json()["error"] == "method-not-allowed"
    for path in ("/api/nothing", "/api", "/api/games/x/y/z"):
        missing = site.nobody.get(path)
        assert (missing.status_code, missing.json()["error"]) == (404, "not-found"), path
    assert site.nobody.get("/nothing").status_code == 404
    assert site.nobody.get("/nothing").text == "Not Found"


# -- WebSocket ---------------------------------------------------------------------------------

ERROR_CODES = {"malformed", "unknown-type", "too-large", "rate-limited"}
"""The codes of an ``error`` message (docs/protocol.md, "Server → client")."""
ROOMS = {
    "playing": {"alice": 0, "bob": 1, "guest": None, "nobody": None},
    "table": {"alice": 0, "carol": 0, "bob": 1, "guest": 1, "nobody": None},
}
"""Who opens a socket to each room, and their seat or side (None: a spectator)."""
ACTIONS = [
    "roll-opening", "roll", "move", "undo", "confirm", "play", "double", "take", "pass",
    "beaver", "resign", "accept", "decline", "surrender", "choose-double", "forfeit", "vote",
    "propose", "leave", "join", "x",
]  # fmt: skip
wrong = (
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats()
    | st.text(max_size=70) | odd_text | st.lists(st.integers(), max_size=3)
    | st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)
)  # fmt: skip
MESSAGE_FIELDS = {
    kind: sorted(fields - {"type", "ref"}) for kind, fields in protocol._FIELDS.items()
}


def sometimes(usual: st.SearchStrategy[Any], odd: st.SearchStrategy[Any]) -> Any:
    """Mostly ``usual``, one time in four ``odd`` (``|`` would weigh each of odd's branches
    as much as usual)."""
    return st.integers(0, 3).flatmap(lambda n: odd if n == 0 else usual)


@st.composite
def socket_messages(draw: st.DrawFn, people: list[str]) -> tuple[str, str | bytes | None]:
    """Who sends, and the text (None: an action the room waits for, by whoever may act)."""
    sender = draw(st.sampled_from(people))
    choice = draw(st.integers(0, 9))
    if choice <= 1:  # keep the game going
        return sender, None
    if choice == 2:  # not a message: text, bytes (binary frames), too large
        junk = (
            st.text(max_size=30)
            | st.binary(max_size=30)
            | st.just("x" * (protocol.MAX_MESSAGE + 1))
        )
        return sender, draw(junk)
    if choice in (3, 4):  # well formed: a proposal (a consultation side's secret), a chat line
        secret = f"SECRET-{sender}-{draw(st.text('abc', max_size=5))}"
        said = "hello" + draw(st.just("") | odd_text)
        return sender, draw(
            st.sampled_from(
                [
                    json.dumps({"type": "action", "action": {"type": "propose", "text": secret}}),
                    json.dumps({"type": "chat", "text": said}),
                ]
            )
        )
    kind = draw(sometimes(st.sampled_from(sorted(MESSAGE_FIELDS)), wrong))
    message: dict[str, Any] = {"type": kind}
    if draw(st.booleans()):
        message["ref"] = draw(
            sometimes(st.integers(-(2**53) + 1, 2**53 - 1) | st.text(max_size=64), wrong)
        )
    for name in MESSAGE_FIELDS.get(kind, []) if isinstance(kind, str) else []:
        if name == "action":
            action: dict[str, Any] = {"type": draw(sometimes(st.sampled_from(ACTIONS), wrong))}
            for field in draw(st.sets(st.sampled_from(
                ["from", "to", "level", "die", "moves", "player", "agree", "text"]
            ))):  # fmt: skip
                action[field] = draw(
                    sometimes(st.sampled_from(["u1", "u2", 0, 1, 2, "bot1"]), wrong)
                )
            if action["type"] == "propose":  # a proposal is its side's secret
                action["text"] = f"SECRET-{sender}-{draw(st.text('abc', max_size=5))}"
            message["action"] = draw(sometimes(st.just(action), wrong))
        elif draw(st.integers(0, 3)) > 0:
            good: object = {
                "text": "hello",
                "muted": True,
                "seed": "k3J9",
                "seq": 0,
                "review": True,
            }[name]
            if name == "text" and draw(st.booleans()):
                good = "hello" + draw(odd_text)
            message[name] = draw(sometimes(st.just(good), wrong))
    if draw(st.integers(0, 5)) == 0:
        message[draw(st.text(max_size=5))] = draw(wrong)
    return sender, json.dumps(message)


def _socket(site: Site, who: str, game: str) -> ClientConnection:
    """A room's socket with this person's cookies."""
    client: httpx.Client = getattr(site, who)
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    url = f"ws://127.0.0.1:{site.server.port}/ws/games/{game}"
    origin = Origin(site.server.url)
    return connect(
        url, additional_headers={"Cookie": cookie}, origin=origin, open_timeout=10, legacy=True
    )


class Socket:
    """One person's socket in a room, with the last state it heard and all it heard."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        welcome = self.receive()
        assert welcome["type"] == "welcome", welcome
        self.seat = welcome["seat"]
        self.state: dict[str, Any] = welcome["state"]
        self.heard: list[dict[str, Any]] = [welcome]
        self.errors = 0

    def round_trip(self, text: str | bytes) -> list[dict[str, Any]]:
        """Send ``text`` and then a ping; everything heard until its pong."""
        self.ws.send(text)
        return self.until("pong")

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=10))
        return message

    def sync(self) -> dict[str, Any]:
        """The room's state now (the room's broadcasts may come after its direct replies)."""
        self.ws.send(json.dumps({"type": "sync", "ref": "probe"}))
        self.until("state")
        return self.state

    def until(self, kind: str) -> list[dict[str, Any]]:
        """Ask for a reply of this kind (a ``pong`` to a ping, or a ``state`` to a sync
        already sent); everything heard before it."""
        if kind == "pong":
            self.ws.send(json.dumps({"type": "ping", "ref": "probe"}))
        heard: list[dict[str, Any]] = []
        while True:
            message = self.receive()
            if message.get("ref") == "probe" and message["type"] == kind:
                if kind == "state":
                    self.state = message["state"]
                return heard
            heard.append(message)
            self.heard.append(message)
            if "state" in message and message["state"]["seq"] >= self.state["seq"]:
                self.state = message["state"]


def _public(state: dict[str, Any]) -> dict[str, Any]:
    """The state without what changes by itself (the running clock's time, who is
    connected, how many watch)."""
    clock = state.get("clock")
    if isinstance(clock, dict):
        clock = {k: v for k, v in clock.items() if k != "elapsed"}
    unsteady = ("absent", "spectators")
    return {**{k: v for k, v in state.items() if k not in unsteady}, "clock": clock}


def _open_action(sockets: dict[str, Socket]) -> tuple[str, str] | None:
    """A person who may act now and an action open to them, if any."""
    for who, sock in sockets.items():
        kinds = sock.state["you"]["actions"]
        board = sock.state["board"]
        for kind in ("roll-opening", "roll", "take", "confirm", "accept"):
            if kind in kinds:
                return who, json.dumps({"type": "action", "action": {"type": kind}})
        if "move" in kinds and board is not None and board["awaiting"]["moves"]:
            first = board["awaiting"]["moves"][0]
            move = {"type": "move", "from": first["from"], "to": first["to"]}
            return who, json.dumps({"type": "action", "action": move})
    return None


@FUZZ
@given(data=st.data(), room=st.sampled_from(sorted(ROOMS)))
def test_no_socket_message_breaks_a_room_leaks_or_changes_it_when_refused(
    site: Site, data: st.DataObject, room: str
) -> None:
    logged = len(site.server.read_log())
    people = ROOMS[room]
    game = site.games[room]
    sent = data.draw(st.lists(socket_messages(sorted(people)), min_size=1, max_size=8))
    with contextlib.ExitStack() as stack:
        sockets = {who: Socket(stack.enter_context(_socket(site, who, game))) for who in people}
        for who, text in sent:
            if text is None:
                chosen = _open_action(sockets)
                if chosen is None:
                    continue
                who, text = chosen
            sock = sockets[who]
            before, stored = _public(sock.sync()), _dump(site.db)
            replies = sock.round_trip(text)
            mine = [m for m in replies if m["type"] in ("error", "refused")]
            for m in mine:
                assert set(m) == {"v", "type", "code", "message", "ref"}, m
                assert m["code"] != "internal-error", (who, text, m)
                if m["type"] == "error":
                    assert m["code"] in ERROR_CODES, (who, text, m)
            if mine:
                assert not any(m["type"] == "events" for m in replies), (who, text, replies)
                assert _public(sock.sync()) == before, (who, text, mine)
                assert _dump(site.db) == stored, (who, text, mine)
            sock.errors += sum(m["type"] == "error" for m in mine)
            assert sock.errors < 10, "a socket is closed after ten protocol errors"
        for who, sock in sockets.items():  # every socket still answers
            sock.until("pong")
            side = people[who]
            for message in sock.heard:
                for sender in re.findall(r"SECRET-(\w+)-", json.dumps(message)):
                    assert sender == who or (side is not None and people[sender] == side), (
                        f"{who} heard {sender}'s proposal"
                    )
    _check_log(site, logged)


def test_a_nul_in_an_address_names_nothing(site: Site) -> None:
    """``%00`` in a path is 404 like any id that is not there (PostgreSQL refuses a NUL in
    any text, so looking it up failed with a 500 there), and changes nothing."""
    before = _dump(site.db)
    for who, method, url in [
        ("nobody", "GET", "/api/games/%00"),
        ("nobody", "GET", "/api/games/%00/replay"),
        ("nobody", "GET", "/api/users/%00"),
        ("nobody", "GET", "/api/users/%00/games"),
        ("alice", "POST", "/api/games/%00/join"),
        ("alice", "POST", "/api/games/%00/cancel"),
        ("alice", "POST", "/api/tables/%00/join"),
    ]:
        r = getattr(site, who).request(method, url)
        assert r.status_code == 404, (url, r.text)
        assert r.json()["error"] in ("no-such-game", "no-such-user"), (url, r.text)
    assert _dump(site.db) == before


@pytest.mark.parametrize("who", ["bob", "guest", "nobody"])
def test_no_socket_opens_a_room_the_requester_may_not_see(site: Site, who: str) -> None:
    """Another player's private game (and an id no game can have) is no room to anyone
    else: the handshake is refused, as the HTTP API answers 404. The invitation is made
    here: the module's fuzzing may accept or withdraw the shared one (its token is among the
    values it tries), and then it is that requester's game or nobody's."""
    invited = {"settings": {"match-length": 3}, "opponent": "invite"}
    private = _ok(site.alice.post("/api/games", json=invited), 201)["id"]
    for game in (private, "%00", "x" * 300):
        with pytest.raises(InvalidStatus):
            _socket(site, who, game).close()
