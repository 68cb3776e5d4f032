"""Who may open a room's socket or change anything (issue 17 item 6; docs/protocol.md,
"Origin and non-browser clients"): a named Origin must be exactly the site's, scheme
included; a program that names none must not ride on the session cookie alone."""

from __future__ import annotations

import socket

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from nardy.server.accounts.security import bearer_token, origin_ok
from nardy.server.config import ServerConfig
from tests.server.gameplay import Seat, start_game
from tests.server.serverutil import Client, ServerProcess, receive


@pytest.mark.parametrize(
    ("origin", "scheme", "host", "ok"),
    [
        ("http://127.0.0.1:8000", "http", "127.0.0.1:8000", True),
        ("http://127.0.0.1:8000", "ws", "127.0.0.1:8000", True),
        ("https://play.example", "wss", "play.example", True),
        ("https://play.example", "https", "Play.Example:443", True),
        ("http://[::1]:8000", "http", "[::1]:8000", True),
        ("https://127.0.0.1:8000", "http", "127.0.0.1:8000", False),  # another scheme
        ("http://play.example", "wss", "play.example", False),
        ("http://127.0.0.1:8001", "http", "127.0.0.1:8000", False),
        ("http://127.0.0.1", "http", "127.0.0.1:8000", False),
        ("http://evil.example", "http", "127.0.0.1:8000", False),
        ("null", "http", "127.0.0.1:8000", False),  # a sandboxed frame or a file
        ("http://127.0.0.1:8000/path", "http", "127.0.0.1:8000", False),
        ("http://u@127.0.0.1:8000", "http", "127.0.0.1:8000", False),
        ("http://127.0.0.1:port", "http", "127.0.0.1:8000", False),
        ("http://127.0.0.1:8000", "http", None, False),
        ("https://app.example", "http", "127.0.0.1:8000", None),  # allowed by the operator
    ],
)
def test_an_origin_is_exactly_the_sites(
    origin: str, scheme: str, host: str | None, ok: bool | None
) -> None:
    assert origin_ok(origin, scheme, host, ()) is bool(ok)
    assert origin_ok(origin, scheme, host, ["https://app.example"]) is (ok is not False)


def test_a_bearer_header_names_a_session() -> None:
    assert bearer_token("Bearer abc") == bearer_token("bearer  abc ") == "abc"
    assert bearer_token("Basic abc") is bearer_token("Bearer ") is bearer_token(None) is None


def _program_socket(
    server: ServerProcess, game: str, headers: dict[str, str] | None = None
) -> ClientConnection:
    """The room's socket as a program opens it: no Origin, only these headers."""
    url = f"ws://127.0.0.1:{server.port}/ws/games/{game}"
    return connect(url, additional_headers=headers or {}, open_timeout=10, legacy=True)


def test_without_an_origin_the_session_cookie_alone_opens_no_socket(
    server: ServerProcess,
) -> None:
    a, _b, game = start_game(server)
    cookie = f"nardy_session={a.http.cookies['nardy_session']}"
    with pytest.raises(Exception, match="403"):
        _program_socket(server, game, {"Cookie": cookie})


def test_a_program_presents_its_session_as_a_bearer_token(server: ServerProcess) -> None:
    a, _b, game = start_game(server)
    token = a.http.cookies["nardy_session"]  # set by the sign-up's answer
    with _program_socket(server, game, {"Authorization": f"Bearer {token}"}) as ws:
        welcome = receive(ws)
        assert (welcome["type"], welcome["seat"]) == ("welcome", 0)
    with _program_socket(server, game) as ws:  # nobody's: a spectator, as in a browser
        assert receive(ws)["seat"] is None
    program = Client(server)  # the same session over HTTP, without its cookie
    program.http.cookies.delete("nardy_session")
    bearer = {"Authorization": f"Bearer {token}"}
    assert program.get("/api/me", headers=bearer).json()["id"] == a.user["id"]  # type: ignore[index]
    assert program.post("/api/signout", headers=bearer).status_code == 200
    assert program.get("/api/me", headers=bearer).status_code == 401  # the session ended


def test_another_scheme_is_another_origin(server: ServerProcess) -> None:
    a, _b, game = start_game(server)
    other = server.url.replace("http://", "https://")
    with pytest.raises(Exception, match="403"):
        Seat(a, game, origin=other)
    r = a.send("PUT", "/api/me/preferences", {"sound": False}, headers={"origin": other})
    assert r.status_code == 403 and r.json()["error"] == "bad-origin"
    assert a.get("/api/me").json()["preferences"]["sound"] is True
    assert Seat(a, game, origin=server.url).seat == 0
    r = a.send("PUT", "/api/me/preferences", {"sound": False}, headers={"origin": server.url})
    assert r.status_code == 200


def test_without_an_origin_a_change_needs_the_csrf_header(server: ServerProcess) -> None:
    """A program's POST repeats the CSRF cookie, which no other site's page can read."""
    a, _b, _game = start_game(server)
    r = a.http.put("/api/me/preferences", json={"sound": False})
    assert r.status_code == 403 and r.json()["error"] == "csrf"
    assert a.send("PUT", "/api/me/preferences", {"sound": False}).status_code == 200


def test_a_host_the_site_does_not_answer_to_is_refused(server: ServerProcess) -> None:
    """DNS rebinding: another site's name made to point at this machine brings its pages to
    the server with their own name in ``Host`` (and as their ``Origin``, which then matches
    it). On a loopback address the site answers only to 127.0.0.1 and localhost."""
    a, _, game = start_game(server)
    evil = f"evil.example:{server.port}"
    r = a.http.get("/api/session", headers={"host": evil})
    assert r.status_code == 400, r.text
    r = a.send("POST", "/api/signout", headers={"host": evil, "origin": f"http://{evil}"})
    assert r.status_code == 400 and a.get("/api/me").status_code == 200  # still signed in
    cookie = {"Cookie": "; ".join(f"{k}={v}" for k, v in a.http.cookies.items())}

    def room(host: str) -> ClientConnection:  # the socket's URL gives its Host header
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        url, origin = f"ws://{host}/ws/games/{game}", f"http://{host}"
        return connect(url, sock=sock, additional_headers=cookie, origin=origin, legacy=True)  # type: ignore[arg-type]

    with pytest.raises(InvalidStatus, match=r"HTTP 40[03]"):  # uvicorn turns the 400 to 403
        room(evil)
    with room(f"localhost:{server.port}") as ws:
        assert receive(ws)["type"] == "welcome"


def test_the_hosts_a_site_answers_to() -> None:
    assert ServerConfig().trusted_hosts == ("127.0.0.1", "localhost")
    assert ServerConfig(host="127.0.0.2").trusted_hosts == ("127.0.0.1", "localhost", "127.0.0.2")
    assert ServerConfig(host="0.0.0.0").trusted_hosts == ("*",)
    env = {"NARDY_ALLOWED_HOSTS": "Play.Example, *.play.example"}
    assert ServerConfig.from_env(env).trusted_hosts == ("play.example", "*.play.example")
