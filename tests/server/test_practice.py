"""Practice against the bot (issue 19, feature 3): a game against the bot marked practice
when it is created or switched on during it for good, whose human player asks for the bot's
advice (``hint``): the plays of the roll as ``nardy hint`` ranks them, the cube decision
before the roll, the review of the last play; refused in a game between two people, to a
spectator, out of turn, without practice and while the last request is in flight; and a
practice game is never rated."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from nardy.cli.main import main as nardy
from nardy.core.actions import action_from_json
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.engine.analysis import DEFAULT_PLY, deepened, rank_plays
from nardy.engine.analysis_json import hint_json
from nardy.engine.stakes import Stakes
from nardy.server import gamedice
from nardy.server.hintplay import HintKind, NoHint, advise, hint_kind
from nardy.server.ratings import is_rated
from nardy.server.room.ratings import MatchRatings
from nardy.server.store.checkpoints import Checkpoint, Committed
from nardy.server.store.store import Store
from tests.server.gameplay import Seat, new_name, sit, start_game
from tests.server.serverutil import Client, ServerProcess

MONEY = {"match-length": 0, "cube": True, "jacoby": True}
"""Money play with the cube and the Jacoby rule: the stakes ``nardy hint`` assumes of a
position given without a match or cube (centred, money, Jacoby), so that its answer for the
same position can be compared as it is."""


def bot_game(client: Client, *, practice: bool, delay_ms: int, settings: Any = None) -> str:
    """A game of ``client`` against the heuristic bot; its id."""
    r = client.post(
        "/api/games",
        {
            "settings": settings or MONEY,
            "opponent": "bot",
            "bot": "heuristic",
            "bot-delay-ms": delay_ms,
            "practice": practice,
        },
    )
    assert r.status_code == 201, r.text
    assert r.json()["practice"] is practice
    return str(r.json()["id"])


def ask(seat: Seat, ref: str, review: bool = False) -> dict[str, Any]:
    """Ask for a hint; the reply that carries ``ref`` (a ``hint`` or a ``refused``)."""
    seat.send_raw({"type": "hint", "ref": ref, **({"review": True} if review else {})})
    return reply_to(seat, ref)


def reply_to(seat: Seat, ref: str) -> dict[str, Any]:
    """The reply to the hint request ``ref``."""
    while True:
        message = seat.next(timeout=30)
        if message["type"] in ("hint", "refused", "error") and message.get("ref") == ref:
            return message


def refused(seat: Seat, ref: str, code: str, review: bool = False) -> None:
    reply = ask(seat, ref, review)
    assert reply["type"] == "refused" and reply["code"] == code, reply


def until_mine(seat: Seat, wanted: str, limit: float = 120) -> None:
    """Play on (rolling when the roll is the player's, taking doubles) until ``wanted`` is
    among the player's actions."""
    deadline = time.monotonic() + limit
    while wanted not in seat.awaited():
        assert time.monotonic() < deadline, f"{wanted} never came"
        kinds = seat.awaited()
        if not kinds:
            seat.next(timeout=30)
        elif "move" in kinds:  # the best play of the hint, as a player takes it
            reply = ask(seat, f"p{seat.seq}")
            assert reply["type"] == "hint", reply
            seat.act({"type": "play", "moves": reply["hint"]["plays"][0]["play"]}, timeout=30)
        else:
            kind = next(k for k in ("roll-opening", "roll", "take", "decline") if k in kinds)
            seat.act({"type": kind}, timeout=30)


def test_a_practice_game_hints_as_nardy_hint_does(
    server: ServerProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    """The plays of the roll are ``nardy hint``'s for the position, ranked the same with the
    same equities; a second request while the first is worked out is refused; after the
    best play the review says it was the best; before a roll the cube decision."""
    client = Client(server)
    client.sign_up(new_name())
    game = bot_game(client, practice=True, delay_ms=0)
    seat = Seat(client, game)
    assert seat.state["practice"] is True
    until_mine(seat, "move")
    seat.send_raw({"type": "hint", "ref": "first"})
    refused(seat, "second", "hint-pending")
    reply = reply_to(seat, "first")
    assert reply["type"] == "hint" and reply["seq"] == seat.seq, reply
    hint = reply["hint"]
    assert hint["kind"] == "plays"
    assert capsys.readouterr() is not None  # nothing of the CLI's before its own run
    dice = [str(d) for d in hint["dice"]]
    assert nardy(["hint", hint["position"], *dice, "--format", "json"]) == 0
    engine = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in hint.items() if k not in ("kind", "plays")} == {
        k: v for k, v in engine.items() if k != "plays"
    }
    assert hint["plays"] == engine["plays"][: len(hint["plays"])]
    assert 1 <= len(hint["plays"]) <= 5
    best = hint["plays"][0]["play"]
    played = seat.act({"type": "play", "moves": best}, timeout=30)
    assert played["type"] == "events", played
    review = ask(seat, "review", review=True)
    assert review["type"] == "hint", review
    assert review["hint"]["kind"] == "review"
    assert review["hint"]["played"]["rank"] == 1
    assert review["hint"]["played"]["difference"] == 0
    assert review["hint"]["plays"] == hint["plays"]
    until_mine(seat, "double")
    cube = ask(seat, "cube")
    assert cube["type"] == "hint" and cube["hint"]["kind"] == "cube", cube
    assert cube["hint"]["decision"] == "double"
    assert set(cube["hint"]["cubeful"]) == {
        "no-double",
        "double-take",
        "double-pass",
        "double-beaver",
    }
    seat.close()


def test_hints_are_refused_where_they_do_not_belong(server: ServerProcess) -> None:
    """Without practice; to a spectator; out of turn; in a game between two people: refused
    with a code the client words. Switching practice on is the player's alone, says so in
    the state and the lobby, and is for good."""
    client = Client(server)
    client.sign_up(new_name())
    game = bot_game(client, practice=False, delay_ms=10_000)  # the bot waits its 10 s
    seat = Seat(client, game)
    assert seat.state["practice"] is False
    refused(seat, "off", "not-practice")
    watcher = Client(server)
    watcher.sign_up(new_name())
    spectator = Seat(watcher, game)
    assert spectator.seat is None
    refused(spectator, "watching", "spectator")
    spectator.send_raw({"type": "practice", "ref": "sneak"})
    assert spectator.next()["code"] == "spectator"
    seat.send_raw({"type": "practice", "ref": "on"})
    while seat.state["practice"] is not True:
        seat.next()
    assert client.get(f"/api/games/{game}").json()["practice"] is True
    spectator.next()  # the state again, as everyone hears it
    assert spectator.state["practice"] is True
    refused(spectator, "still-watching", "spectator")
    refused(seat, "opening", "no-hint")  # the opening roll: nothing to decide
    refused(seat, "nothing-yet", "no-hint", review=True)
    reply = seat.act({"type": "roll-opening"})
    assert reply["type"] == "events", reply
    if "move" in seat.awaited():  # the player moves first: play, then the bot is on turn
        hint = ask(seat, "mine")
        assert hint["type"] == "hint", hint
        assert seat.act({"type": "play", "moves": hint["hint"]["plays"][0]["play"]})["type"] == (
            "events"
        )
    assert not seat.awaited()
    refused(seat, "bots-turn", "not-your-turn")
    seat.close()
    spectator.close()

    a, b, human = start_game(server, {"match-length": 1})
    seats = sit(a, b, human)
    refused(seats[0], "people", "not-a-bot-game")
    seats[1].send_raw({"type": "practice", "ref": "people"})
    assert seats[1].next()["code"] == "not-a-bot-game"
    for s in seats:
        s.close()


def test_practice_is_asked_for_only_against_the_bot(server: ServerProcess) -> None:
    client = Client(server)
    client.sign_up(new_name())
    for body in (
        {"settings": {}, "practice": True},
        {"settings": {}, "opponent": "invite", "practice": True},
        {"settings": {}, "opponent": "bot", "practice": "yes"},
    ):
        r = client.post("/api/games", body)
        assert r.status_code == 400 and r.json()["error"] == "malformed", (body, r.text)


def committed(match: Match) -> Committed:
    """The match as a room has it committed: its checkpoint now, no actions after it."""
    return Committed(Checkpoint(match.snapshot(), gamedice.dice_state(match)), 0, (), None)


def rolled(variant: str) -> tuple[Match, int]:
    """A 3-point match of ``variant`` whose first mover has the dice, a roll after which the
    turn passes to the other side; the mover.

    The server's dice are secret and fresh each time, so acey-deucey's 1-2 (after which the
    mover names a double and plays on, RULES.md 2) would come one time in eighteen and leave
    the opponent no decision to hint: such a roll is dealt again."""
    while True:
        match = Match(Settings.from_dict({"variant": variant, "match-length": 3}))
        match.dice = gamedice.first_dice(f"practice-{variant}")
        match.apply(action_from_json({"type": "roll-opening", "player": 0}))
        mover = match.awaiting().players[0]
        if "roll" in match.awaiting().kinds(mover):  # long nardy's lot only chose the first
            match.apply(action_from_json({"type": "roll", "player": mover}))
        game = match.game
        assert game is not None and game.dice is not None
        if variant != "acey-deucey" or sorted(game.dice) != [1, 2]:
            return match, mover


@pytest.mark.parametrize("variant", ["backgammon", "nackgammon", "acey-deucey", "long"])
def test_every_variant_with_a_net_has_the_engines_hints(variant: str) -> None:
    """In a match, at its score: the plays are the engine's ranking at the game's stakes,
    and a cube decision before the roll and the answer to a double are ``nardy hint``'s."""
    match, mover = rolled(variant)
    assert hint_kind(match, mover, False) is HintKind.PLAYS
    with pytest.raises(NoHint) as refused:
        hint_kind(match, 1 - mover, False)
    assert refused.value.code == "not-your-turn"
    game = match.game
    assert game is not None and game.dice is not None
    stakes = Stakes.of(game, mover)
    ranked = rank_plays(game.turn_start, *game.dice, DEFAULT_PLY, stakes=stakes)
    ranked = deepened(game.turn_start, *game.dice, ranked, stakes=stakes)
    expected = hint_json(game.turn_start, stakes, game.dice, DEFAULT_PLY, ranked, ranked[:5])
    assert advise(committed(match), mover, HintKind.PLAYS) == {"kind": "plays", **expected}
    best = expected["plays"][0]["play"]
    match.apply(action_from_json({"type": "play", "player": mover, "moves": best}))
    review = advise(committed(match), mover, hint_kind(match, mover, True))
    assert review["played"] == {
        "play": best,
        "rank": 1,
        "equity": expected["plays"][0]["equity"],
        "difference": 0.0,
    }
    if variant == "long":
        return  # no cube in long nardy by default
    other = 1 - mover
    assert hint_kind(match, other, False) is HintKind.CUBE
    cube = advise(committed(match), other, HintKind.CUBE)
    assert cube["decision"] == "double" and cube["answers"] is not None
    match.apply(action_from_json({"type": "double", "player": other}))
    assert hint_kind(match, mover, False) is HintKind.ANSWER
    answer = advise(committed(match), mover, HintKind.ANSWER)
    assert answer["decision"] == "take" and answer["action"] in ("take", "pass", "beaver")
    assert answer["answers"] == cube["answers"]  # the same position, seen by the doubled


def finished_match() -> Match:
    """A one-point match the first player on roll resigned."""
    match = Match(Settings.from_dict({"match-length": 1}))
    match.apply(action_from_json({"type": "roll-opening", "player": 0}))
    mover = match.awaiting().players[0]
    match.apply(action_from_json({"type": "resign", "player": mover, "level": 1}))
    match.apply(action_from_json({"type": "accept", "player": 1 - mover}))
    assert match.over
    return match


@pytest.mark.parametrize("practice", [False, True])
def test_a_practice_game_is_never_rated(tmp_path: Path, practice: bool) -> None:
    """The same match between the same two people: rated, unless it is practice."""
    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite'}")
    try:
        a = store.create_user("a", None, {}, guest=True)
        b = store.create_user("b", None, {}, guest=True)
        row = store.create_game(
            "g",
            {"match-length": 1},
            a.id,
            (a.id, b.id),
            status="playing",
            private=False,
            practice=practice,
        )
        assert row.practice is practice
        asyncio.run(MatchRatings(store, row.id).rate(finished_match(), row))
        assert bool(store.ratings_of(a.id)) is not practice
        assert bool(store.ratings_of(b.id)) is not practice
    finally:
        store.close()
    assert is_rated((1, 2), False) and not is_rated((1, 2), True)
    assert not is_rated((1, None), False)
