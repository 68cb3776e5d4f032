"""The public page of the dice dealt (issue 10 point 5, docs/dice.md "The dice dealt"):
known rolls give known counts, each game is tallied once per change and counted again when
it moves on, the figures are cached, and the server's endpoint shows exactly the rolls of
the games played on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nardy.core.fair_dice import ROLLS, DiceSeeds, FairDice, dice_statistics, rolls_of
from nardy.notation.record import record_dice
from nardy.server import dicestats, gamedice
from nardy.server.dicestats import DiceStats, catch_up, figures, tally
from nardy.server.store.checkpoints import Checkpoint
from nardy.server.store.store import Store
from tests.server.gameplay import Seat, play_out, start_game
from tests.server.serverutil import Client, ServerProcess


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    # a database of its own (the server tests below cover PostgreSQL's side of the queries)
    opened = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    yield opened
    opened.close()


def _dealt(game_id: str, n: int, fill: int) -> tuple[FairDice, list[tuple[int, int]]]:
    """Dice with a fixed server seed, after ``n`` rolls dealt: the dice and those rolls."""
    dice = FairDice(DiceSeeds(game_id, bytes([fill]) * 32))
    rolls = [(dice.die(), dice.die()) for _ in range(n)]
    return dice, rolls


def _game(store: Store, game_id: str, dice: list[FairDice]) -> None:
    user = store.create_user(f"u{game_id}", "hash", {})
    store.create_game(
        game_id, {}, user.id, (user.id, None), status="playing", private=False, dice=_state(dice)
    )


def _state(games: list[FairDice]) -> dict[str, Any]:
    return {"games": [d.state() for d in games], "next": FairDice.new("next").state()}


def _act(store: Store, game_id: str, games: list[FairDice]) -> None:
    """One more accepted action, with the dice as they stand now."""
    row = store.game(game_id)
    assert row is not None
    store.append_action(game_id, row.seq, {"type": "x"}, [], Checkpoint({}, _state(games)))


def test_tally_and_figures_of_known_rolls() -> None:
    counts = tally([(1, 2), (2, 1), (6, 6), (3, 5)])
    assert counts[ROLLS.index((2, 1))] == 2
    assert counts[ROLLS.index((6, 6))] == 1 and counts[ROLLS.index((5, 3))] == 1
    assert sum(counts) == 4
    shown = figures(counts)
    assert shown["rolls"] == 4 and shown["doubles"] == 1 and shown["doubles-share"] == 0.25
    assert shown["faces"] == {"1": 2, "2": 2, "3": 1, "4": 0, "5": 1, "6": 2}
    assert shown["per-roll"]["2-1"] == 2 and shown["per-roll"]["4-4"] == 0
    assert shown["faces-test"]["df"] == 5 and shown["rolls-test"]["df"] == 20
    assert 0 < shown["faces-test"]["p"] < 1
    empty = figures([0] * 21)
    assert empty["rolls"] == 0 and empty["doubles-share"] is None
    assert empty["faces-test"] is None


def test_rolls_dealt_after_a_tally_derive_only_the_new_ones(monkeypatch: Any) -> None:
    one, rolls_one = _dealt("m.1", 5, 9)
    two, rolls_two = _dealt("m.2", 4, 10)
    state = _state([one, two])
    assert gamedice.rolls_dealt(state) == rolls_one + rolls_two
    for skip in range(12):
        assert gamedice.rolls_dealt(state, skip=skip) == (rolls_one + rolls_two)[skip:]
    derived = []
    real = DiceSeeds.roll
    monkeypatch.setattr(DiceSeeds, "roll", lambda self, n: derived.append(n) or real(self, n))
    gamedice.rolls_dealt(state, skip=7)
    assert derived == [2, 3]  # the second game's last two rolls, nothing before


def test_every_game_and_every_game_of_a_match_is_counted(store: Store) -> None:
    one, rolls_one = _dealt("a.1", 40, 1)
    two, rolls_two = _dealt("a.2", 25, 2)
    other, rolls_other = _dealt("b.1", 7, 3)
    _game(store, "a", [one])
    _game(store, "b", [other])
    _act(store, "a", [one, two])  # a match's second game
    _act(store, "b", [other])
    assert catch_up(store) == 2
    expected = dice_statistics(rolls_one + rolls_two + rolls_other).to_json()
    shown = figures(store.dice_totals())
    assert shown["rolls"] == 72
    assert shown["per-roll"] == expected["per-roll"] and shown["faces"] == expected["faces"]
    assert shown["rolls-test"] == expected["rolls-test"]


def test_only_games_that_moved_are_counted_again(store: Store) -> None:
    dice, rolls = _dealt("c.1", 10, 4)
    _game(store, "c", [dice])
    assert catch_up(store) == 0  # no action yet: nothing dealt, nothing to count
    _act(store, "c", [dice])
    assert catch_up(store) == 1
    assert catch_up(store) == 0  # unchanged since: not derived again
    more = [(dice.die(), dice.die()) for _ in range(5)]
    _act(store, "c", [dice])
    assert catch_up(store) == 1
    assert (
        figures(store.dice_totals())["per-roll"]
        == dice_statistics(rolls + more).to_json()["per-roll"]
    )


def test_an_older_tally_never_replaces_a_newer_one(store: Store) -> None:
    dice, _ = _dealt("d.1", 3, 5)
    _game(store, "d", [dice])
    _act(store, "d", [dice])
    _act(store, "d", [dice])
    store.tally_dice([("d", 2, [1] * 21)])
    store.tally_dice([("d", 1, [9] * 21)])  # a slower process, counting an earlier state
    assert store.dice_totals() == [1] * 21
    with pytest.raises(ValueError, match="21 counts"):
        store.tally_dice([("d", 3, [1] * 20)])
    assert store.dice_totals() == [1] * 21


def test_a_walk_visits_each_game_once_in_batches(store: Store, monkeypatch: Any) -> None:
    monkeypatch.setattr(dicestats, "BATCH", 2)
    for name in "pqrst":
        dice, _ = _dealt(f"{name}.1", 2, ord(name))
        _game(store, name, [dice])
        _act(store, name, [dice])
    assert catch_up(store) == 5
    assert figures(store.dice_totals())["rolls"] == 10


def test_stored_dice_that_are_no_state_count_nothing(store: Store) -> None:
    dice, _ = _dealt("f.1", 4, 7)
    _game(store, "f", [dice])
    broken = _state([dice])
    broken["games"][0]["server-seed"] = "00" * 32  # not the seed committed to
    row = store.game("f")
    assert row is not None
    store.append_action("f", row.seq, {"type": "x"}, [], Checkpoint({}, broken))
    good, _ = _dealt("g.1", 3, 8)
    _game(store, "g", [good])
    _act(store, "g", [good])
    assert catch_up(store) == 2
    assert figures(store.dice_totals())["rolls"] == 3  # and the page still works
    assert catch_up(store) == 0  # counted (as nothing) until the game moves again


def test_the_figures_are_cached_for_a_while(store: Store, monkeypatch: Any) -> None:
    now = [100.0]
    refreshes = []
    real = dicestats.catch_up
    monkeypatch.setattr(dicestats, "catch_up", lambda s: refreshes.append(1) or real(s))
    stats = DiceStats(store, fresh_for=10, clock=lambda: now[0])
    dice, _ = _dealt("e.1", 6, 6)
    _game(store, "e", [dice])
    _act(store, "e", [dice])
    assert stats.current()["rolls"] == 6
    dice.die(), dice.die()
    _act(store, "e", [dice])
    now[0] += 9
    assert stats.current()["rolls"] == 6 and len(refreshes) == 1  # still fresh
    now[0] += 1
    assert stats.current()["rolls"] == 7 and len(refreshes) == 2


@pytest.fixture(scope="module")
def counting_server(
    database_url: str | None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """A server that counts its dice again at every request (no cache), so that a test sees
    at once what one match added."""
    process = ServerProcess(
        tmp_path_factory.mktemp("data"),
        database_url,
        NARDY_AUTH_RATE="1000/60",
        NARDY_DICE_STATS_SECONDS="0",
    ).start()
    yield process
    process.kill()


def test_the_server_shows_the_rolls_of_the_games_played(counting_server: ServerProcess) -> None:
    anyone = Client(counting_server)  # not signed in: the page is public
    before = anyone.get("/api/dice/stats").json()
    a, b, game = start_game(counting_server, {"match-length": 1})
    play_out([Seat(a, game), Seat(b, game)])
    records = a.get(f"/api/games/{game}/record.json").json()
    rolls = [roll for record in records for roll in rolls_of(record_dice(record))]
    reply = anyone.get("/api/dice/stats")
    assert reply.status_code == 200
    assert reply.headers["cache-control"] == "public, max-age=0"
    after = reply.json()
    # the database may hold other modules' games (one PostgreSQL database per run): compare
    # what this match added
    assert after["rolls"] - before["rolls"] == len(rolls) > 0
    added = {k: n - before["per-roll"][k] for k, n in after["per-roll"].items()}
    assert added == dice_statistics(rolls).to_json()["per-roll"]
    assert after["doubles"] - before["doubles"] == sum(1 for d1, d2 in rolls if d1 == d2)
