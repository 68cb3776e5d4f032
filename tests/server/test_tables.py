"""Chouette tables and consultation games over real sockets against a real server process
(issue 10 points 3, 4, 9): a chouette of four played through a whole game with the box's
double (one member passes, the others take) and the team's unanimous redouble, settled per
member and found in each one's history; joining and leaving between games only; a chouette
with bots; consultation games between two teams and against the bot, with proposals seen by
one side only; out-of-turn and other members' actions refused with the core's codes."""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from nardy.server.variantfacts import facts_of
from tests.server.gameplay import Seat
from tests.server.serverutil import Client, ServerProcess

_names = iter(f"t{n:04d}" for n in range(10_000))

Policy = Callable[[Seat, list[str]], dict[str, Any] | None]


def _people(server: ServerProcess, count: int) -> list[Client]:
    clients = [Client(server) for _ in range(count)]
    for client in clients:
        client.sign_up(next(_names))
    return clients


def _name(client: Client) -> str:
    assert client.user is not None
    return f"u{client.user['id']}"


def _table(creator: Client, body: dict[str, Any]) -> dict[str, Any]:
    r = creator.post("/api/tables", body)
    assert r.status_code == 201, r.text
    view: dict[str, Any] = r.json()
    return view


def _join(client: Client, game: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    r = client.post(f"/api/tables/{game}/join", body)
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()
    return view


def _sync(seats: list[Seat]) -> None:
    """Every seat reads until it has heard as far as the furthest one."""
    seq = max(s.seq for s in seats)
    for s in seats:
        s.until(seq, timeout=30)


def _hear(seats: list[Seat], heard: Callable[[dict[str, Any]], bool]) -> None:
    """Every seat reads until its state is as ``heard`` says."""
    for seat in seats:
        while not heard(seat.state):
            seat.next(timeout=30)


def plain(seat: Seat, kinds: list[str]) -> dict[str, Any] | None:
    """Roll, take, decline and move the first legal single move; never double or vote (a
    member only asked to vote does nothing)."""
    for kind in ("roll-opening", "take", "decline", "roll"):
        if kind in kinds:
            return {"type": kind}
    if "move" in kinds:
        first = seat.state["board"]["awaiting"]["moves"][0]
        return {"type": "move", "from": first["from"], "to": first["to"]}
    if "confirm" in kinds:
        return {"type": "confirm"}
    if "play" in kinds:
        return {"type": "play", "moves": ""}
    if "choose-double" in kinds:
        return {"type": "choose-double", "die": 6}
    return None


def step(seats: list[Seat], policy: Policy) -> dict[str, Any] | None:
    """One action by the first person the table waits for who acts by ``policy``, every
    seat following; None when nobody did (the table waits for a bot): one message heard."""
    for seat in seats:
        action = policy(seat, seat.awaited())
        if action is not None:
            before = seat.seq
            reply = seat.act(action)
            if reply["type"] == "refused" and reply["code"] in ("wrong-phase", "not-your-turn"):
                # A bot acted before this action reached the room: the seat chose from a
                # state the room had left. That shows as the bot's action, heard after.
                try:
                    while seat.seq == before:
                        seat.next(timeout=10)
                except TimeoutError:
                    raise AssertionError(
                        ("refused, and the room had not moved on", action, reply)
                    ) from None
                _sync(seats)
                return None
            assert reply["type"] == "events", (action, reply)
            _sync(seats)
            return reply
    seats[0].next(timeout=60)
    _sync(seats)
    return None


def play_game(seats: list[Seat], policy: Policy, limit: int = 3000) -> None:
    """Play until the chouette's game under way is over (it is between games again)."""
    table = seats[0].state["table"]
    target = table["games"] + (1 if table["in-game"] is None else 0)
    for _ in range(limit):
        table = seats[0].state["table"]
        if table["games"] >= target and table["in-game"] is None:
            return
        step(seats, policy)
    raise AssertionError("the game did not end")


def test_a_chouette_of_four_plays_a_game_with_the_cube_settled_per_member(
    server: ServerProcess,
) -> None:
    people = _people(server, 4)
    view = _table(people[0], {"kind": "chouette", "settings": {}, "seats": 4})
    game = view["id"]
    assert view["status"] == "open" and view["free"] == 3
    assert game in [t["id"] for t in people[1].get("/api/tables").json()]
    assert game not in [g["id"] for g in people[1].get("/api/seeks").json()]
    r = people[1].post(f"/api/games/{game}/join")  # not a two-player seek
    assert r.status_code == 404
    for client in people[1:3]:
        assert _join(client, game)["status"] == "open"
    seats = [Seat(c, game) for c in people[:3]]
    assert [s.seat for s in seats] == [_name(c) for c in people[:3]]
    # the board of a table still filling is drawn from its variant's facts
    assert seats[0].state["rules"]["key"] == "backgammon"
    refused = seats[0].act({"type": "roll-opening"})
    assert refused["code"] == "wrong-phase"  # not full yet
    assert _join(people[3], game)["status"] == "playing"
    r = people[3].post(f"/api/tables/{game}/join")
    assert r.status_code == 409 and r.json()["error"] == "own-game"
    seats.append(Seat(people[3], game))
    _hear(seats, lambda state: state["table"] is not None)  # the table starts
    table = seats[0].state["table"]
    names = {_name(c) for c in people}
    assert {table["box"], *table["line"]} == names and table["captain"] == table["line"][0]
    box = next(s for s in seats if s.seat == table["box"])
    captain = next(s for s in seats if s.seat == table["captain"])
    members = [s for s in seats if s is not box]
    passer = members[-1]  # the last in line passes the box's double

    # Out of turn, for another member, or as a spectator: refused with the core's codes.
    reply = box.act({"type": "roll-opening"})
    assert reply["type"] == "events"
    _sync(seats)
    mover = next(s for s in seats if "move" in s.awaited())
    bystander = next(s for s in members if s is not captain)
    refused = bystander.act({"type": "undo"})
    assert refused["type"] == "refused" and refused["code"] == "not-your-turn"
    refused = bystander.act({"type": "undo", "player": mover.seat})
    assert refused["code"] == "not-your-seat"
    watcher = Seat(Client(server), game)
    assert watcher.seat is None and watcher.state["table"] == seats[0].state["table"]
    # The board is drawn by the variant's rule facts, as in a two-player room.
    assert watcher.state["rules"] == facts_of("backgammon")
    refused = watcher.act({"type": "confirm"})
    assert refused["code"] == "spectator"
    refused = people[3].post(f"/api/tables/{game}/join")
    assert refused.status_code == 409

    doubled = {"box": False, "team": False}

    def cube(seat: Seat, kinds: list[str]) -> dict[str, Any] | None:
        """The box doubles at once; the last member passes, the others take; once the team
        has the cube, every member votes to redouble and the box takes."""
        if "double" in kinds and seat is box and not doubled["box"]:
            doubled["box"] = True
            return {"type": "double"}
        if "pass" in kinds and seat is not box:
            return {"type": "pass" if seat is passer else "take"}
        if "vote" in kinds and doubled["box"] and not doubled["team"]:
            return {"type": "vote", "agree": True}
        if "roll" in kinds and seat.state["table"]["votes"]:
            return None  # the captain has voted: the others vote before the roll
        return plain(seat, kinds)

    checked = False
    for _ in range(3000):
        state = seats[0].state
        cube_value = state["board"]["cube"]["value"]
        if cube_value == 4 or state["table"]["in-game"] is None:
            break
        if cube_value == 2 and not checked and state["table"]["answers"] == {}:
            checked = True
            # Each member answered the box on their own; the passer is out and paid.
            assert state["table"]["passed"] == {passer.seat: 1}
            assert passer.seat not in state["table"]["in-game"]
            refused = passer.act({"type": "vote", "agree": True})
            assert refused["type"] == "refused"
        reply = step(seats, cube)
        if reply is not None and reply["action"]["type"] == "vote":
            voted = reply["action"]["player"]
            again = next(s for s in seats if s.seat == voted).act({"type": "vote"})
            if seats[0].state["table"]["votes"]:  # still being decided: a second vote
                assert again["type"] == "refused" and again["code"] == "not-your-turn"
            if any(e["type"] == "cube-offered" for e in reply["events"]):
                doubled["team"] = True
    state = seats[0].state
    assert doubled == {"box": True, "team": True}, state["table"]
    assert state["board"]["cube"] == {"value": 4, "owner": 0}  # the box took the redouble
    play_game(seats, plain)
    table = seats[0].state["table"]
    settled = table["settled"]
    assert sum(settled.values()) == 0 and settled[passer.seat] == -1
    assert table["scores"] == settled
    for client in people:
        history = client.get("/api/me/games").json()
        mine = next(g for g in history if g["id"] == game)
        assert mine["kind"] == "chouette"
        member = next(m for m in mine["members"] if m["id"] == client.user["id"])  # type: ignore[index]
        assert member["score"] == settled[_name(client)]

    # Between games: a fifth person sits down at the end of the line, and one leaves.
    fifth = _people(server, 1)[0]
    _join(fifth, game)
    _hear(seats, lambda state: _name(fifth) in state["table"]["line"])
    table = seats[0].state["table"]
    assert table["line"][-1] == _name(fifth)
    leaver = next(s for s in seats if s.seat == table["line"][1])
    reply = leaver.act({"type": "leave"})
    assert reply["type"] == "events"
    _hear(seats, lambda state: leaver.seat not in state["table"]["line"])
    leaver.until(leaver.seq)
    table = seats[0].state["table"]
    assert leaver.seat not in [table["box"], *table["line"]] and len(table["line"]) == 3
    seats.append(Seat(fifth, game))
    # During a game nobody joins or leaves.
    reply = next(s for s in seats if s.seat == table["box"]).act({"type": "roll-opening"})
    assert reply["type"] == "events"
    _sync(seats)
    stayer = next(s for s in seats if s.seat == table["line"][-1])
    refused = stayer.act({"type": "leave"})
    assert refused["type"] == "refused" and refused["code"] == "not-your-turn"
    late = _people(server, 1)[0]
    r = late.post(f"/api/tables/{game}/join")
    assert r.status_code == 409 and r.json()["error"] == "not-your-turn"


def test_a_chouette_with_bots_plays_through_a_game(server: ServerProcess) -> None:
    (person,) = _people(server, 1)
    view = _table(
        person,
        {
            "kind": "chouette",
            "settings": {},
            "seats": 3,
            "bots": 2,
            "bot": "heuristic",
            "bot-delay-ms": 0,
        },
    )
    assert view["status"] == "playing"  # the creator and two bots: no free seat to wait for
    seat = Seat(person, view["id"])
    assert set(seat.state["people"]) == {_name(person), "bot1", "bot2"}
    assert seat.state["people"]["bot1"] == {"bot": "heuristic"}
    play_game([seat], plain)
    settled = seat.state["table"]["settled"]
    assert sum(settled.values()) == 0 and set(settled) == {_name(person), "bot1", "bot2"}
    # Bots pause between games (so that people may come and go); reconnecting restores
    # the same state.
    again = Seat(person, view["id"])
    assert again.state["table"] == seat.state["table"] and again.seat == seat.seat
    assert again.state["table"]["in-game"] is None


def test_a_consultation_game_between_two_teams(server: ServerProcess) -> None:
    people = _people(server, 4)
    view = _table(
        people[0], {"kind": "consultation", "settings": {"match-length": 1}, "sides": [2, 2]}
    )
    game = view["id"]
    _join(people[1], game, {"side": 0})
    r = people[2].post(f"/api/tables/{game}/join", {"side": 0})
    assert r.status_code == 409 and r.json()["error"] == "game-full"
    _join(people[2], game, {"side": 1})
    assert _join(people[3], game, {"side": 1})["status"] == "playing"
    seats = [Seat(c, game) for c in people]
    table = seats[0].state["table"]
    assert table["sides"] == [
        [_name(people[0]), _name(people[1])],
        [_name(people[2]), _name(people[3])],
    ]
    assert table["captains"] == [_name(people[0]), _name(people[2])]
    # Only a captain acts for the side.
    refused = seats[1].act({"type": "roll-opening"})
    assert refused["type"] == "refused" and refused["code"] == "not-your-turn"
    reply = seats[0].act({"type": "roll-opening"})
    assert reply["type"] == "events"
    _sync(seats)
    # A proposal reaches the proposer's side only.
    reply = seats[1].act({"type": "propose", "text": "8/2 6/2"})
    assert reply["type"] == "events" and reply["action"]["text"] == "8/2 6/2"
    _sync(seats)
    partner, opponent = seats[0].heard[-1], seats[2].heard[-1]
    assert partner["action"]["text"] == "8/2 6/2" and partner["events"][0]["type"] == "proposed"
    assert "text" not in opponent["action"] and opponent["events"] == []
    # Each side's state shows its own recent proposals; the others' and a spectator's none.
    assert partner["state"]["proposals"] == [{"player": _name(people[1]), "text": "8/2 6/2"}]
    assert partner["ref"] is None and reply["ref"] is not None  # the ref: the sender's only
    assert opponent["state"]["proposals"] == []
    watcher = Seat(Client(server), game)
    assert watcher.state["proposals"] == [] and watcher.state["you"]["actions"] == []
    assert seats[1].state["proposals"] == partner["state"]["proposals"]
    watcher.close()
    for _ in range(3000):
        if seats[0].state["status"] == "finished":
            break
        step(seats, plain)
    final = seats[0].state
    assert final["status"] == "finished"
    won = 0 if final["score"][0] > final["score"][1] else 1
    for index, client in enumerate(people):
        mine = next(g for g in client.get("/api/me/games").json() if g["id"] == game)
        member = next(m for m in mine["members"] if m["id"] == client.user["id"])  # type: ignore[index]
        difference = abs(final["score"][0] - final["score"][1])
        assert member["score"] == (difference if index // 2 == won else -difference)
        # The finished game is in every member's history (the creator's and the others').
        assert client.user is not None
        history = people[0].get(f"/api/users/{client.user['username']}/games").json()["games"]
        listed = next(g for g in history if g["id"] == game)
        assert listed["kind"] == "consultation" and "rating" not in listed
        assert {m["id"] for m in listed["members"]} == {c.user["id"] for c in people}  # type: ignore[index]
    # A table has no two-player match to replay.
    r = people[0].get(f"/api/games/{game}/replay")
    assert r.status_code == 404 and r.json()["error"] == "not-a-match"


def test_a_consultation_game_against_the_bot(server: ServerProcess) -> None:
    people = _people(server, 2)
    body = {
        "kind": "consultation",
        "settings": {"match-length": 1},
        "sides": [2, 0],
        "bot": "heuristic",
        "bot-delay-ms": 0,
    }
    view = _table(people[0], body)
    assert view["status"] == "open"
    assert _join(people[1], view["id"], {"side": 0})["status"] == "playing"
    seats = [Seat(c, view["id"]) for c in people]
    assert seats[0].state["table"]["sides"][1] == ["bot1"]
    for _ in range(3000):
        if seats[0].state["status"] == "finished":
            break
        step(seats, plain)
    assert seats[0].state["status"] == "finished"
    assert any(
        m.get("action", {}).get("player") == "bot1" for m in seats[0].heard if m["type"] == "events"
    )


def test_an_open_table_is_withdrawn_by_its_creator_while_nobody_else_sits_there(
    server: ServerProcess,
) -> None:
    ann, bob, cat = _people(server, 3)
    game = _table(ann, {"kind": "chouette", "seats": 3})["id"]
    r = bob.post(f"/api/games/{game}/cancel")
    assert r.status_code == 403 and r.json()["error"] == "not-creator"
    _join(bob, game)
    r = ann.post(f"/api/games/{game}/cancel")
    assert r.status_code == 409 and r.json()["error"] == "others-seated"
    assert ann.get(f"/api/games/{game}").json()["status"] == "open"
    lone = _table(ann, {"kind": "consultation", "sides": [2, 2]})["id"]
    r = ann.post(f"/api/games/{lone}/cancel")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    r = cat.post(f"/api/tables/{lone}/join", {"side": 0})
    assert r.status_code == 409 and r.json()["error"] == "cancelled"
    listed = [g["id"] for g in cat.get("/api/tables").json()]
    assert game in listed and lone not in listed
    # A table under way is not withdrawn (its creator and the computer: it starts at once).
    started = _table(ann, {"kind": "chouette", "seats": 3, "bots": 2, "bot": "heuristic"})
    r = ann.post(f"/api/games/{started['id']}/cancel")
    assert r.status_code == 409 and r.json()["error"] == "not-waiting"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"kind": "chouette", "seats": 2}, "malformed"),
        ({"kind": "chouette", "seats": 9}, "malformed"),
        ({"kind": "chouette", "seats": 3, "settings": {"match-length": 5}}, "invalid-settings"),
        ({"kind": "chouette", "seats": 3, "settings": {"beaver": True}}, "invalid-settings"),
        ({"kind": "chouette", "seats": 3, "bots": 3}, "malformed"),
        ({"kind": "chouette", "seats": 3, "bot": "advanced"}, "malformed"),
        ({"kind": "consultation", "sides": [1, 2]}, "malformed"),
        ({"kind": "consultation", "sides": [2, 0]}, "malformed"),
        ({"kind": "consultation", "sides": [2, 2], "seats": 4}, "malformed"),
        ({"kind": "team-match"}, "malformed"),
    ],
)
def test_tables_the_rules_refuse_are_not_created(
    server: ServerProcess, body: dict[str, Any], code: str
) -> None:
    (person,) = _people(server, 1)
    before = len(person.get("/api/tables").json())
    r = person.post("/api/tables", body)
    assert r.status_code == 400 and r.json()["error"] == code, r.text
    assert len(person.get("/api/tables").json()) == before


def test_a_chouette_killed_mid_game_goes_on_from_its_last_committed_action(
    tmp_path: Path, database_url: str | None
) -> None:
    server = ServerProcess(tmp_path, database_url, NARDY_AUTH_RATE="1000/60").start()
    try:
        people = _people(server, 3)
        game = _table(people[0], {"kind": "chouette", "settings": {}, "seats": 3})["id"]
        for client in people[1:]:
            _join(client, game)
        seats = [Seat(c, game) for c in people]
        _hear(seats, lambda state: state["table"] is not None)
        for _ in range(12):  # the opening roll and a few single moves and turns
            step(seats, plain)
        committed = seats[0].state
        dice = committed["dice"]
        server.kill(signal.SIGKILL)
        server.start()  # the same port, data directory and database
        seats = [Seat(c, game) for c in people]
        restored = seats[0].state
        for key in ("seq", "table", "board", "people"):
            assert restored[key] == committed[key], key  # mid-turn, nothing re-rolled
        assert restored["dice"] == dice
        play_game(seats, plain)
        assert sum(seats[0].state["table"]["settled"].values()) == 0
    finally:
        server.kill()
