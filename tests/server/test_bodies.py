"""What a client sends that is not a request the server reads (issue 17 items 2 and 5):
deeply nested or odd JSON over HTTP and on a room's socket, and bodies past the limit,
refused before they are read. Against a real server process."""

from __future__ import annotations

import socket
import time

import pytest
from websockets.exceptions import ConnectionClosed

from nardy.server.http import MAX_BODY
from nardy.server.protocol import MAX_MESSAGE
from tests.server.gameplay import Seat, new_name, start_game
from tests.server.serverutil import Client, ServerProcess, receive

NESTED = "[" * 30000 + "]" * 30000


@pytest.mark.parametrize(
    "body",
    [NESTED, '{"sound": NaN}', '{"sound": true, "sound": false}', '{"language": "\\ud800"}'],
    ids=["nested", "nan", "a-name-twice", "lone-surrogate"],
)
def test_odd_json_bodies_get_the_documented_400(server: ServerProcess, body: str) -> None:
    client = Client(server)
    client.sign_up(new_name())
    r = client.send("PUT", "/api/me/preferences", content=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "malformed" and r.json()["message"].startswith("the body is")
    assert client.get("/api/me/preferences").json()["sound"] is True


def _raw(server: ServerProcess, head: str, body: bytes = b"") -> bytes:
    """Send a request's head (and a part of its body), then read the answer."""
    client = Client(server)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        cookie = f"nardy_csrf={client.csrf}"
        s.sendall(
            f"{head}\r\nHost: 127.0.0.1:{server.port}\r\nCookie: {cookie}\r\n"
            f"X-CSRF-Token: {client.csrf}\r\nContent-Type: application/json\r\n\r\n".encode()
            + body
        )
        return _answer(s)  # a timeout here: the server waits for the rest of the body


def _answer(s: socket.socket) -> bytes:
    """One whole HTTP answer: its head, then as many bytes as its Content-Length says (the
    head and the body may come in separate packets)."""
    data = b""
    while b"\r\n\r\n" not in data or len(data) < _answer_length(data):
        more = s.recv(65536)
        if not more:
            break
        data += more
    return data


def _answer_length(data: bytes) -> int:
    head, _, _ = data.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(head) + 4 + int(value)
    return len(head) + 4


def test_a_body_declared_too_large_is_refused_before_it_is_sent(server: ServerProcess) -> None:
    answer = _raw(server, f"POST /api/signin HTTP/1.1\r\nContent-Length: {40 * 2**20}")
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b'"too-large"' in answer


def test_a_streamed_body_is_refused_as_soon_as_it_passes_the_limit(server: ServerProcess) -> None:
    chunk = b"x" * 4096
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(MAX_BODY // 4096 + 2))
    answer = _raw(server, "POST /api/signin HTTP/1.1\r\nTransfer-Encoding: chunked", body)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]  # the body has no end yet


def test_a_nested_message_is_malformed_and_the_socket_goes_on(server: ServerProcess) -> None:
    a, _b, game = start_game(server)
    seat = Seat(a, game)
    seat.send_raw("[" * 3000 + "]" * 3000)  # 6 KB: within the size limit
    error = seat.next()
    assert (error["type"], error["code"]) == ("error", "malformed")
    seat.send_raw({"type": "ping", "ref": 1})
    assert seat.next() == {"v": 2, "type": "pong", "ref": 1}


def test_a_chat_line_with_nul_is_malformed_on_every_database(server: ServerProcess) -> None:
    """PostgreSQL keeps no NUL in text: the line was refused as `busy`, with a traceback."""
    a, _b, game = start_game(server)
    seat = Seat(a, game)
    seat.send_raw('{"type": "chat", "text": "a\\u0000b", "ref": 1}')
    assert seat.next()["code"] == "malformed"


def test_an_oversize_message_is_answered_and_a_huge_one_closes_the_socket(
    server: ServerProcess,
) -> None:
    a, _b, game = start_game(server)
    seat = Seat(a, game)
    seat.send_raw('{"type": "chat", "text": "' + "x" * (MAX_MESSAGE + 100) + '"}')
    assert seat.next()["code"] == "too-large"
    seat.send_raw("x" * (2 * MAX_MESSAGE + 1))  # past what the server holds of one message
    with pytest.raises(ConnectionClosed) as closed:
        receive(seat.ws)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big


def test_a_client_that_leaves_before_its_body_ends_leaves_no_error_in_the_log(
    server: ServerProcess,
) -> None:
    client = Client(server)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(
            f"POST /api/signin HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Cookie: nardy_csrf={client.csrf}\r\nX-CSRF-Token: {client.csrf}\r\n"
            "Content-Type: application/json\r\nContent-Length: 10\r\n\r\n{}".encode()
        )
        time.sleep(0.5)  # the server is reading the 8 bytes that never come
    time.sleep(0.5)
    assert client.get("/api/session").status_code == 200  # the server goes on
    log = server.read_log()
    assert "Traceback" not in log and "ClientDisconnect" not in log, log[-2000:]
