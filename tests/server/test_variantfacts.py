"""The variant rule facts a client draws from (no client decides by a variant's name): each
variant's own geometry and rules, and both places the server sends them (a room's state, the
lobby's ``/api/variants``)."""

from __future__ import annotations

from nardy.core.variants import variant
from nardy.server.variantfacts import every_variant, facts, facts_of
from tests.server.gameplay import Seat
from tests.server.serverutil import Client, ServerProcess


def test_backgammon_sides_mirror_and_long_nardy_sides_are_half_a_turn_apart() -> None:
    bg = facts(variant("backgammon"))
    assert bg["opponent-points"][1] == 24 and bg["opponent-points"][24] == 1
    assert bg["checkers"] == 15
    assert bg["head"] is None and bg["hits"] and bg["bar"] and bg["cube-by-default"]
    assert bg["resign-levels"] == ["single", "gammon", "backgammon"]
    long = facts(variant("long"))
    assert long["opponent-points"][24] == 12 and long["opponent-points"][1] == 13
    assert long["head"] == 24
    assert not long["hits"] and not long["bar"] and not long["cube-by-default"]
    assert long["resign-levels"] == []
    assert long["start"][24] == 15 and sum(long["start"]) == 15
    assert bg["start"][6] == 5 and bg["start"][13] == 5 and sum(bg["start"]) == 15
    assert facts(variant("acey-deucey"))["start"] == [0] * 26  # all enter from outside
    assert facts(variant("acey-deucey"))["enters-from-outside"]
    assert not bg["enters-from-outside"]
    for f in every_variant():
        # 0 (off) and 25 (the bar) stay; the 24 points are a permutation of themselves
        assert f["opponent-points"][0] == 0 and f["opponent-points"][25] == 25
        assert sorted(f["opponent-points"][1:25]) == list(range(1, 25))


def test_the_room_state_and_the_lobby_carry_the_facts(server: ServerProcess) -> None:
    guest = Client(server)
    assert guest.post("/api/guest").status_code == 201
    listed = guest.get("/api/variants").json()
    assert [f["key"] for f in listed] == [f["key"] for f in every_variant()]
    r = guest.post("/api/games", {"settings": {"variant": "long"}, "opponent": "bot"})
    assert r.status_code == 201, r.text
    seat = Seat(guest, r.json()["id"])
    assert seat.state["rules"] == facts(variant("long"))


def test_a_rooms_facts_are_the_variants_and_its_own_to_change() -> None:
    """facts_of works each variant's facts out once: every caller gets them whole, and a
    copy of its own (a change to one state's facts reaches no other)."""
    first = facts_of("long")
    assert first == facts(variant("long"))
    first["start"][24] = 0
    first["head"] = None
    again = facts_of("long")
    assert again == facts(variant("long")) and again["start"][24] == 15 and again["head"] == 24
