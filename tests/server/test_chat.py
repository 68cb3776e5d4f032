"""The chat of a room (issue 10 point 4): players and spectators, the spectators' chat kept
from the players while the game runs, mute, length and rate limits."""

from __future__ import annotations

from typing import Any

from tests.server.gameplay import Seat, start_game
from tests.server.serverutil import Client, ServerProcess

_names = iter(f"c{n:04d}" for n in range(10_000))


def _chat(seat: Seat, text: str) -> None:
    seat.send_raw({"type": "chat", "text": text})


def _lines(seat: Seat, timeout: float = 0.5) -> list[dict[str, Any]]:
    """The chat lines this seat hears until it has been quiet for ``timeout``."""
    heard = []
    while True:
        try:
            message = seat.next(timeout)
        except TimeoutError:
            return heard
        if message["type"] == "chat":
            heard.append(message)


def test_players_hear_each_other_and_spectators_hear_everyone(server: ServerProcess) -> None:
    a, b, game = start_game(server)
    one, two = Seat(a, game), Seat(b, game)
    fan = Client(server)
    fan.sign_up(next(_names))
    watcher = Seat(fan, game)
    _chat(one, "good luck")
    for seat in (one, two, watcher):
        (line,) = _lines(seat)
        assert (line["seat"], line["text"]) == (0, "good luck")
        assert line["username"] == a.user["username"]  # type: ignore[index]
    _chat(watcher, "play 13/7!")
    assert [line["text"] for line in _lines(watcher)] == ["play 13/7!"]
    assert _lines(one) == [] and _lines(two) == []  # not while the game runs
    late = Seat(b, game)
    assert [line["text"] for line in late.heard[0]["chat"]] == ["good luck"]
    assert [line["text"] for line in Seat(fan, game).heard[0]["chat"]] == [
        "good luck",
        "play 13/7!",
    ]


def test_mute_and_the_limits(server: ServerProcess) -> None:
    a, b, game = start_game(server)
    one, two = Seat(a, game), Seat(b, game)
    two.send_raw({"type": "mute", "muted": True, "ref": 1})
    assert two.next()["type"] == "pong"
    _chat(one, "hello")
    assert [line["text"] for line in _lines(one)] == ["hello"]
    assert _lines(two) == []
    # the mute is kept for the room: a page opened again is told so, to show it
    assert Seat(b, game).heard[0]["muted"] is True
    assert Seat(a, game).heard[0]["muted"] is False
    _chat(one, "x" * 301)
    assert one.next()["code"] == "malformed"
    for n in range(5):
        _chat(one, f"line {n}")
    replies = [one.next() for _ in range(5)]
    # A refusal answers at once; the lines said come back through the room's bus, so
    # the refusal may overtake them.
    assert sorted(r["type"] for r in replies) == ["chat"] * 4 + ["refused"]  # "hello" too
    (refused,) = (r for r in replies if r["type"] == "refused")
    assert refused["code"] == "chat-rate-limited"
    lines = [r["text"] for r in replies if r["type"] == "chat"]
    assert lines == [f"line {n}" for n in range(4)]
    anonymous = Seat(Client(server), game)
    _chat(anonymous, "hi")
    assert anonymous.next()["code"] == "not-signed-in"
