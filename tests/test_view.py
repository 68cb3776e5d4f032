"""The board view (``nardy.core.view``): what a board shows of a game at every moment.

* A Hypothesis property: random legal actions through a :class:`Match` of every variant,
  cube on and off, matches and money play. After every action the view agrees with a slow
  reference built from the game's snapshot: each seat's checkers after the single moves made
  so far (RULES.md 1.9), those not entered yet in acey-deucey at 25 (RULES.md 2), the pip
  counts, the dice and which are used (a double is four dice, RULES.md 1.2), the cube
  (1.5), the decision waiting (a double, beaver, resignation: 1.4, 1.5), the last play and
  the result; its awaiting is the match's; its JSON has every key and round-trips.
* The same for a chouette and a consultation, with the table's own awaiting (RULES.md 1.7,
  1.8).
* Cost: a view reads neither the log nor the turn records nor a snapshot, so it costs the
  same after a thousand actions as after one; and while moving it asks the variant for the
  single moves once, whoever asks first (the board or the awaiting).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from gameutil import random_action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardy import variant
from nardy.core import actions as act
from nardy.core.chouette import Chouette
from nardy.core.dice import FixedDice, SeededDice
from nardy.core.game import Game
from nardy.core.match import Match
from nardy.core.moves import Move
from nardy.core.position import Position
from nardy.core.settings import Settings
from nardy.core.team import Consultation
from nardy.core.variant import Variant
from nardy.core.view import (
    BoardView,
    board_view,
    chouette_view,
    consultation_view,
    match_view,
    position_view,
    seat_sides,
)

CHECKERS = 15
BAR = 25
VARIANTS = ("backgammon", "nackgammon", "acey-deucey", "long")
KEYS = {
    "variant", "game-number", "crawford", "turn", "phase", "sides", "pips", "off", "race",
    "dice", "dice-shown", "used", "moves-made", "cube", "pending", "last-play", "result",
    "awaiting",
}  # fmt: skip

# -- the slow reference, from the snapshot --------------------------------------------------


def opponent_point(v: Variant, point: int) -> int:
    """RULES.md, preamble and 3.1: my point as the opponent numbers it, written out again."""
    if v.key == "long":
        return point + 12 if point <= 12 else point - 12
    return 25 - point


def counts(side: bytes) -> list[int]:
    """A side as a board draws it: checkers not entered yet (RULES.md 2) at 25."""
    shown = list(side)
    shown[BAR] += CHECKERS - sum(shown)
    return shown


def moved(v: Variant, sides: list[list[int]], mover: int, moves: list[Any]) -> list[list[int]]:
    """``sides`` (per seat, as drawn) after ``mover``'s single moves ``[start, end, hit]``: a
    hit blot goes to the bar (RULES.md 1.2)."""
    sides = [list(sides[0]), list(sides[1])]
    for start, end, hit, *_ in moves:
        sides[mover][start] -= 1
        sides[mover][end] += 1
        if hit:
            sides[1 - mover][opponent_point(v, end)] -= 1
            sides[1 - mover][BAR] += 1
    return sides


def seats(hexed: str, mover: int) -> list[list[int]]:
    """Each seat's counts (as drawn) of a snapshot's position seen from ``mover``."""
    raw = bytes.fromhex(hexed)
    mine, theirs = counts(raw[:26]), counts(raw[26:])
    return [mine, theirs] if mover == 0 else [theirs, mine]


def expected(game: Game, match: Match) -> dict[str, Any]:
    """The board view's JSON, but for ``awaiting`` and ``race``, from :meth:`Game.snapshot`
    alone (the slow way: the whole state written out)."""
    snap = game.snapshot()
    v = game.variant
    turn, phase = snap["turn"], snap["phase"]
    current = snap["current"]
    sides = moved(v, seats(snap["position"], turn), turn, current["moves"])
    dice = current["dice"]
    shown = None if dice is None else [dice[0]] * 4 if dice[0] == dice[1] else dice
    value, owner = snap["cube"][:2]
    pending = None
    if phase == "doubled":
        pending = {"kind": "double", "by": turn, "value": 2 * value, "level": None}
    elif phase == "beavered":
        pending = {"kind": "beaver", "by": 1 - turn, "value": 2 * value, "level": None}
    elif phase == "resigned":
        by, level, _ = snap["resigned"]
        pending = {"kind": "resignation", "by": by, "value": None, "level": level}
    played = [r for r in snap["records"] if r["play"]]
    last = None
    if played:
        record = played[-1]
        last = {
            "player": record["player"],
            "dice": record["dice"],
            "moves": [{"from": s, "to": e, "hit": h} for s, e, h in record["play"]],
            "before": seats(record["before"], record["player"]),
        }
    result = snap["result"]
    return {
        "variant": snap["variant"],
        "game-number": len(match.games),
        "crawford": snap["crawford"],
        "turn": None if phase == "opening" else turn,
        "phase": phase,
        "sides": sides,
        "pips": [sum(p * n for p, n in enumerate(side)) for side in sides],
        "off": [side[0] for side in sides],
        "dice": dice,
        "dice-shown": shown,
        "moves-made": [{"from": s, "to": e, "hit": h, "die": d} for s, e, h, d in current["moves"]],
        "cube": {"value": value, "owner": owner} if snap["settings"]["cube"] else None,
        "pending": pending,
        "last-play": last,
        "result": None
        if result is None
        else {k: result[k] for k in ("winner", "kind", "points", "reason")},
    }


def check_view(view: BoardView, game: Game, match: Match) -> None:
    """The view agrees with :func:`expected`, the variant and the match, at this moment."""
    data = view.to_json()
    assert set(data) == KEYS
    assert json.loads(json.dumps(data)) == data
    want = expected(game, match)
    assert {k: data[k] for k in want} == want
    assert data["awaiting"] == match.awaiting().to_json()
    v = game.variant
    sides = data["sides"]
    assert all(sum(side) == CHECKERS and len(side) == 26 for side in sides)
    # The variant's own pip counts and race test, of the position with the moves made.
    position = game.board_position
    mine, theirs = position.mine, position.theirs
    first, second = (mine, theirs) if game.turn == 0 else (theirs, mine)
    assert data["pips"] == [v.pips(first), v.pips(second)]
    assert data["race"] == v.is_race(position)
    # The dice used are exactly the dice of the single moves made, each die once.
    if data["dice"] is None:
        assert data["used"] is None and data["moves-made"] == []
    else:
        shown, used = data["dice-shown"], data["used"]
        assert len(used) == len(shown) == (4 if shown[0] == shown[-1] else 2)
        spent = Counter(d for d, u in zip(shown, used, strict=True) if u)
        assert spent == Counter(m["die"] for m in data["moves-made"])
    # The last play, made from the checkers before it, reaches its record's position after.
    last = data["last-play"]
    if last is not None:
        record = next(r for r in reversed(game.records) if r.play and r.play.moves)
        after = moved(v, last["before"], last["player"], [list(m.values()) for m in last["moves"]])
        hexed = (record.after.mine + record.after.theirs).hex()
        assert after == seats(hexed, record.player)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(VARIANTS),
    length=st.sampled_from((0, 1, 3)),
    cube=st.booleans(),
    last_roll=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_view_agrees_with_the_game_at_every_moment(
    name: str, length: int, cube: bool, last_roll: bool, seed: int
) -> None:
    own = {"last_roll": last_roll} if name == "long" else {}  # RULES.md 3.4's last roll
    rules = Settings(
        variant=name, match_length=length, cube=cube, beaver=cube and not length, **own
    )
    match = Match(rules, SeededDice(seed))
    rng = random.Random(seed)
    before = match_view(match)  # before the first game: the start, the opening awaited
    start = match.upcoming
    assert before.phase == "opening" and before.turn is None and before.dice is None
    assert before.awaiting == match.awaiting()
    assert before.sides == seat_sides(start.position, start.turn)
    assert before.pips[0] == before.pips[1] > 0 and before.last_play is None
    for actions in range(1, 401):
        if match.over:
            break
        match.apply(random_action(rng, match.awaiting(), match.game))
        game = match.game
        assert game is not None
        view = match_view(match)
        assert view is not None
        check_view(view, game, match)
        assert board_view(game, match=match) == view
        if actions % 20 == 0:  # a restored match shows the same board (the last play too)
            again = Match.restore(match.snapshot())
            assert match_view(again) == view


@pytest.mark.parametrize("name", VARIANTS)
def test_a_finished_match_shows_its_last_game(name: str) -> None:
    """Once the match is over, its board is the last game's, with its result, and nobody
    is awaited."""
    match = Match(Settings(variant=name, match_length=1), SeededDice(7))
    rng = random.Random(7)
    while not match.over:
        match.apply(random_action(rng, match.awaiting(), match.game))
    view = match_view(match)
    assert view is not None and match.game is not None and match.game.result is not None
    check_view(view, match.game, match)
    assert view.phase == "over" and view.awaiting.actors == ()
    assert view.to_json()["result"]["winner"] == match.game.result.winner


def test_acey_deucey_checkers_not_entered_wait_at_25() -> None:
    """RULES.md 2: every checker starts off the board and enters as from the bar; the board
    counts them at 25 and the variant's pip count with them (25 pips each)."""
    match = Match(Settings(variant="acey-deucey"), FixedDice([6, 4]))
    match.apply(act.RollOpening(0))
    match.apply(act.Move(0, 25, 19))
    view = match_view(match)
    assert view is not None
    assert view.sides[0][BAR] == 14 and view.sides[0][19] == 1 and view.sides[1][BAR] == 15
    assert view.pips == (14 * 25 + 19, 15 * 25)
    assert view.used == (True, False) and view.moves_made == ((Move(25, 19), 6),)


def test_a_resignation_in_mid_turn_keeps_the_moves_on_the_board() -> None:
    """RULES.md 1.4: a resignation may be offered after rolling; the single moves made stay
    where they are while it waits (and after it is declined)."""
    match = Match(Settings(), FixedDice([6, 4]))
    match.apply(act.RollOpening(0))
    match.apply(act.Move(0, 24, 18))
    match.apply(act.Resign(0, 2))
    view = match_view(match)
    assert view is not None and match.game is not None
    check_view(view, match.game, match)
    assert view.pending is not None and view.pending.to_json() == {
        "kind": "resignation", "by": 0, "value": None, "level": 2,
    }  # fmt: skip
    assert view.sides[0][18] == 1 and view.sides[0][24] == 1 and view.used == (True, False)


def test_a_double_and_a_beaver_wait_with_the_cube_offered() -> None:
    """RULES.md 1.5: the doubler offers twice the cube; a beaver takes and redoubles, the
    beaverer keeping the cube, and the doubler answers."""
    match = Match(Settings(match_length=0, beaver=True), FixedDice([6, 4, 3, 1]))
    match.apply(act.RollOpening(0))
    match.apply(act.Play(0, "24/18 13/9"))
    match.apply(act.Double(1))
    view = match_view(match)
    assert view is not None and view.pending is not None
    assert (view.pending.kind, view.pending.by, view.pending.value) == ("double", 1, 2)
    match.apply(act.Beaver(0))
    view = match_view(match)
    assert view is not None and view.pending is not None
    assert (view.pending.kind, view.pending.by, view.pending.value) == ("beaver", 0, 4)
    assert view.cube == (2, 0)
    assert view.last_play is not None and view.last_play.player == 0


def test_no_cube_in_a_game_without_one() -> None:
    """RULES.md 3.4: long nardy plays without the cube unless the settings turn it on."""
    match = Match(Settings(variant="long"), SeededDice(1))
    match.apply(act.RollOpening(0))
    view = match_view(match)
    assert view is not None and view.cube is None and view.to_json()["cube"] is None


def test_position_view_of_a_turn_record() -> None:
    """A record's positions are seen from its mover; the view gives them per seat: the
    same seats from either side (RULES.md 1.1: 167 pips each at the start)."""
    v = variant("backgammon")
    start = v.start()
    pos = Position(
        v, start.mine, bytes([2, *start.theirs[1:6], start.theirs[6] - 2, *start.theirs[7:]])
    )
    seen = position_view(pos, 0)
    assert seen == position_view(pos.swap(), 1)
    assert seen.sides == seat_sides(pos, 0) == (tuple(pos.mine), tuple(pos.theirs))
    assert seen.to_json() == {
        "sides": [list(pos.mine), list(pos.theirs)], "pips": [167, 167 - 12], "off": [0, 2],
    }  # fmt: skip
    assert position_view(pos, 1).pips == (167 - 12, 167)


# -- tables: the chouette's and the consultation's boards ---------------------------------


def test_a_chouette_board_with_the_chouette_awaiting() -> None:
    """RULES.md 1.7: the board of the game under way, seats 0 the box and 1 the team, with
    the chouette's own awaiting (names); between games the last game's board."""
    chouette = Chouette(("Ann", "Bob", "Cy"), dice=SeededDice(3))
    rng = random.Random(3)
    assert chouette_view(chouette) is None
    games = 0
    for _ in range(3000):
        game = chouette.game
        chouette.apply(random_action(rng, chouette.awaiting(), game))
        view = chouette_view(chouette)
        assert view is not None
        last = chouette.games[-1].game
        data = view.to_json()
        assert data["awaiting"] == chouette.awaiting().to_json()
        assert data["game-number"] == len(chouette.games)
        mine = board_view(last, awaiting=view.awaiting, number=len(chouette.games))
        assert mine == view
        if chouette.current is None:
            assert view.phase == "over" and view.result is not None
            games += 1
            if games == 2:
                break
    assert games == 2


def test_a_consultation_board_with_the_consultation_awaiting() -> None:
    """RULES.md 1.8: the match's board, with the captains and the proposing members named."""
    consultation = Consultation((("Ann", "Al"), ("Bob",)), Settings(match_length=1), SeededDice(5))
    rng = random.Random(5)
    assert consultation_view(consultation) is None
    while not consultation.match.over:
        consultation.apply(random_action(rng, consultation.awaiting(), consultation.game))
        view = consultation_view(consultation)
        game = consultation.game
        assert view is not None and game is not None
        assert view.to_json()["awaiting"] == consultation.awaiting().to_json()
        check_view(board_view(game, match=consultation.match), game, consultation.match)
        assert board_view(game, match=consultation.match, awaiting=view.awaiting) == view


# -- cost -------------------------------------------------------------------------------------


class Untouchable(list[Any]):
    """A list that refuses to be read: a game's log or records while a view is built."""

    def __iter__(self) -> Any:
        raise AssertionError("the view walked a list it must not read")

    def __getitem__(self, index: Any) -> Any:
        raise AssertionError("the view read a list it must not read")

    def __len__(self) -> int:
        raise AssertionError("the view measured a list it must not read")


def test_a_view_reads_no_log_no_records_and_no_snapshot(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a thousand actions, building the view touches what it touched after one: the
    state now and the last play, not the log, the records or a snapshot."""
    match = Match(Settings(match_length=0), SeededDice(11))
    rng = random.Random(11)
    for actions in range(1, 1001):
        match.apply(random_action(rng, match.awaiting(), match.game))
        if actions in (1, 1000):
            game = match.game
            assert game is not None and (actions == 1 or len(game.log) + len(match.games) > 50)
            expect = match_view(match)
            with monkeypatch.context() as m:
                m.setattr(Game, "snapshot", _refuse)
                m.setattr(game, "log", Untouchable(game.log))
                m.setattr(game, "records", Untouchable(game.records))
                assert match_view(match) == expect


def _refuse(self: Game) -> Any:
    raise AssertionError("the view took a snapshot")


def test_the_board_and_the_awaiting_ask_for_the_single_moves_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While moving, the position after the single moves and the next single moves are the
    variant's one answer, asked once for the board and the awaiting together."""
    match = Match(Settings(), FixedDice([6, 4]))
    match.apply(act.RollOpening(0))
    match.apply(act.Move(0, 24, 18))
    game = match.game
    assert game is not None
    calls: list[int] = []
    original = Variant.next_moves

    def counted(self: Variant, *args: Any) -> Any:
        calls.append(1)
        return original(self, *args)

    monkeypatch.setattr(Variant, "next_moves", counted)
    game._reached = None  # as if nobody had asked yet
    view = match_view(match)
    assert view is not None and view.awaiting.moves
    assert len(calls) == 1
    assert match_view(match) == view and len(calls) == 1
