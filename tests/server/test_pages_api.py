"""The endpoints behind the profile, history, replay and lobby pages (issue 10 items 3, 5, 6;
issue 11 item 2): a seek or invitation withdrawn by its creator and by nobody else, a
started game that cannot be withdrawn, a user's public match history page by page with the
rating changes and nothing private, and a finished match's replay turn by turn."""

from __future__ import annotations

import itertools
from typing import Any

from tests.server.gameplay import Seat, play_out
from tests.server.serverutil import Client, ServerProcess

_names = iter(f"pg{n:04d}" for n in range(10_000))


def _player(server: ServerProcess) -> Client:
    client = Client(server)
    client.sign_up(next(_names))
    return client


def _name(client: Client) -> str:
    assert client.user is not None
    return str(client.user["username"])


def _seek(client: Client, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", {"settings": {"match-length": 1}, **body})
    assert r.status_code == 201, r.text
    game: dict[str, Any] = r.json()
    return game


def _finished_match(a: Client, b: Client) -> str:
    """A 1-point match between a (seat 0) and b, played to the end over the sockets."""
    game = _seek(a)["id"]
    assert b.post(f"/api/games/{game}/join").status_code == 200
    seats = [Seat(a, game), Seat(b, game)]
    play_out(seats)
    for seat in seats:
        seat.close()
    return str(game)


def test_the_creator_withdraws_a_waiting_seek_and_nobody_else_can(server: ServerProcess) -> None:
    a, b = _player(server), _player(server)
    game = _seek(a)["id"]
    waiting = Seat(a, game)  # the creator waits in the room for an opponent
    assert waiting.state["status"] == "open"

    r = b.post(f"/api/games/{game}/cancel")
    assert (r.status_code, r.json()["error"]) == (403, "not-creator")
    assert Client(server).post(f"/api/games/{game}/cancel").status_code == 401
    assert b.get(f"/api/games/{game}").json()["status"] == "open"  # nothing changed
    assert game in [g["id"] for g in b.get("/api/seeks").json()]

    r = a.post(f"/api/games/{game}/cancel")
    assert r.status_code == 200 and r.json()["status"] == "cancelled", r.text
    assert waiting.next()["state"]["status"] == "cancelled"  # the room hears it at once
    assert game not in [g["id"] for g in b.get("/api/seeks").json()]
    r = b.post(f"/api/games/{game}/join")
    assert (r.status_code, r.json()["error"]) == (409, "cancelled")
    r = a.post(f"/api/games/{game}/cancel")
    assert (r.status_code, r.json()["error"]) == (409, "not-waiting")
    r = a.post("/api/games/no-such-id/cancel")
    assert (r.status_code, r.json()["error"]) == (404, "no-such-game")
    waiting.close()


def test_an_invitation_is_withdrawn_by_its_creator_and_unseen_by_others(
    server: ServerProcess,
) -> None:
    a, b, nosy = _player(server), _player(server), _player(server)
    invite = _seek(a, opponent="invite")
    # to anyone but its creator a private invitation does not exist
    assert nosy.post(f"/api/games/{invite['id']}/cancel").status_code == 404
    assert a.get(f"/api/games/{invite['id']}").json()["status"] == "invited"
    assert a.post(f"/api/games/{invite['id']}/cancel").json()["status"] == "cancelled"
    r = b.post(f"/api/invitations/{invite['invitation']}")
    assert (r.status_code, r.json()["error"]) == (409, "cancelled")


def test_a_started_game_cannot_be_withdrawn(server: ServerProcess) -> None:
    a, b = _player(server), _player(server)
    game = _seek(a)["id"]
    assert b.post(f"/api/games/{game}/join").status_code == 200
    for who in (a, b):
        r = who.post(f"/api/games/{game}/cancel")
        assert r.status_code in (403, 409), r.text
    r = a.post(f"/api/games/{game}/cancel")
    assert (r.status_code, r.json()["error"]) == (409, "not-waiting")
    assert a.get(f"/api/games/{game}").json()["status"] == "playing"
    bot = _seek(a, opponent="bot", bot="random")  # against the bot it starts at once
    r = a.post(f"/api/games/{bot['id']}/cancel")
    assert (r.status_code, r.json()["error"]) == (409, "not-waiting")


def test_a_users_history_is_public_paged_and_carries_the_rating_changes(
    server: ServerProcess,
) -> None:
    a, b = _player(server), _player(server)
    played = [_finished_match(a, b) for _ in range(3)]
    unfinished = _seek(a, opponent="invite")["id"]
    _seek(a)  # an open seek: not history
    anyone = Client(server)  # not even signed in
    first = anyone.get(f"/api/users/{_name(a)}/games", params={"per-page": 2}).json()
    second = anyone.get(f"/api/users/{_name(a)}/games", params={"per-page": 2, "page": 2}).json()
    assert (first["page"], first["more"], second["page"], second["more"]) == (1, True, 2, False)
    ids = [g["id"] for g in first["games"] + second["games"]]
    assert ids == played[::-1]  # the last finished first, each once, nothing else
    assert unfinished not in ids
    whole = anyone.get(f"/api/users/{_name(a)}/games").json()
    assert [g["id"] for g in whole["games"]] == ids and not whole["more"]
    mine = {g["id"]: g for g in a.get("/api/me/games").json()}
    for view in whole["games"]:
        assert view["status"] == "finished" and view["finished-at"]
        assert view["rating"] == mine[view["id"]]["rating"]  # a's change, as a sees it
        assert "preferences" not in str(view)
    # A rating reads the same on the profile and in the history: to hundredths (after the
    # first match the FIBS changes are no round numbers).
    profile = anyone.get(f"/api/users/{_name(a)}").json()["ratings"]["backgammon"]["rating"]
    assert whole["games"][0]["rating"]["after"] == profile
    for view in whole["games"]:
        assert all(value == round(value, 2) for value in view["rating"].values()), view
    theirs = anyone.get(f"/api/users/{_name(b)}/games").json()["games"]
    # a zero-sum change between two players of the same experience
    for view_a, view_b in zip(whole["games"], theirs, strict=True):
        ra, rb = view_a["rating"], view_b["rating"]
        assert round(ra["after"] - ra["before"] + rb["after"] - rb["before"], 6) == 0
    for bad in ({"page": "0"}, {"page": "x"}, {"per-page": "101"}):
        r = anyone.get(f"/api/users/{_name(a)}/games", params=bad)
        assert (r.status_code, r.json()["error"]) == (400, "malformed"), bad
    r = anyone.get("/api/users/nobody-here/games")
    assert (r.status_code, r.json()["error"]) == (404, "no-such-user")


def _seats(position: str, mover: int) -> list[list[int]]:
    """Each seat's 26 counts of a position written in hex from ``mover``'s side."""
    raw = list(bytes.fromhex(position))
    return [raw[:26], raw[26:]] if mover == 0 else [raw[26:], raw[:26]]


def test_a_finished_match_replays_turn_by_turn(server: ServerProcess) -> None:
    a, b = _player(server), _player(server)
    game = _finished_match(a, b)
    anyone = Client(server)
    replay = anyone.get(f"/api/games/{game}/replay").json()
    assert replay["game"]["id"] == game and replay["game"]["status"] == "finished"
    assert replay["rules"]["key"] == "backgammon" and replay["rules"]["opponent-points"][1] == 24
    (only,) = replay["games"]
    turns = only["turns"]
    assert only["over"] and only["end"]["winner"] in (0, 1) and len(turns) > 10
    assert only["start"]["player"] == turns[0]["player"]
    start = _seats(only["start"]["position"], only["start"]["player"])
    assert turns[0]["before"] == {"sides": start, "pips": [167, 167], "off": [0, 0]}
    # each turn starts where the last one left the board, each seat in its own numbering
    for last, turn in itertools.pairwise(turns):
        assert turn["player"] == 1 - last["player"]
        assert turn["before"] == last["after"]
    assert 15 in turns[-1]["after"]["off"]  # the winner bore everything off
    # the plays and dice are the record's, and the seed is revealed once the game is over
    (record,) = anyone.get(f"/api/games/{game}/record.json").json()
    assert [t.get("play") for t in record["turns"]] == [t["play"] for t in turns]
    assert [t.get("dice") for t in record["turns"]] == [t["dice"] for t in turns]
    assert only["dice"] == record["dice"] and "server-seed" in only["dice"]

    waiting = _seek(a)["id"]
    r = anyone.get(f"/api/games/{waiting}/replay")
    assert (r.status_code, r.json()["error"]) == (404, "not-started")
    private = _seek(a, opponent="invite")["id"]
    r = anyone.get(f"/api/games/{private}/replay")
    assert (r.status_code, r.json()["error"]) == (404, "no-such-game")
