"""Whole matches and random action sequences: the game flow as a whole, from RULES.md 1.4-1.6,
1.9, 2, 3.1, 3.4 and 4.

* Full matches per variant from seeded dice (:class:`SeededDice`), played to their end by
  random legal actions (cube actions, resignations, single moves with undo, whole plays):
  the score agrees with the results, the Crawford game comes exactly where RULES.md 1.6 puts
  it, and every game's record replays exactly.
* A Hypothesis property: random actions, legal or not, by either player or none, with
  garbage arguments, never corrupt a game: a refused action raises a :class:`NardyError`
  and changes nothing; an accepted one leaves a consistent state; the game replays from its
  record.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from gameutil import assert_replays, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardy import NardyError, Position, variant
from nardy.core.dice import Dice, SeededDice
from nardy.core.game import Cube, Game, Phase
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.notation.record import game_record, match_records, replay

CHECKERS = 15
OFF = 0
BAR = 25


# -- checks shared by both kinds of test --------------------------------------------------------


def check_position(pos: Position, over: bool) -> None:
    """15 checkers a side (acey-deucey's waiting ones counted apart), no point shared, a bar
    only where the variant has one (RULES.md 1.1, 2, 3.1). Both sides may have borne off
    everything only in a finished game (a long-nardy draw, 3.4)."""
    v = pos.variant
    for side in (pos.mine, pos.theirs):
        assert len(side) == 26
        if v.enters_from_outside:
            assert sum(side) <= CHECKERS
        else:
            assert sum(side) == CHECKERS
        assert v.has_bar or not side[BAR]
    theirs = v.to_mine(pos.theirs)
    assert not any(pos.mine[p] and theirs[p] for p in range(1, 25))
    assert over or not (pos.mine[OFF] == CHECKERS and pos.theirs[OFF] == CHECKERS)


def check_consistent(game: Game) -> None:
    """The state invariants: consistent positions (:func:`check_position`), a phase that fits
    the dice, the cube, the resignation and the result (RULES.md 1.4, 1.5, 1.9)."""
    # Single moves not yet confirmed may bear off the last checker of a long-nardy last roll:
    # both sides then show 15 off until the draw is confirmed.
    check_position(game.position, game.over or game.phase is Phase.MOVING)
    for pos in (p for r in game.records[-1:] for p in (r.before, r.after)):
        check_position(pos, game.over)
    assert game.turn in (0, 1)
    assert (game.result is not None) == (game.phase is Phase.OVER)
    assert (game.dice is not None) == (game.phase is Phase.MOVING) or game.phase is Phase.RESIGNED
    value = game.cube.value
    assert value >= 1 and value & (value - 1) == 0
    assert game.cube.owner in (None, 0, 1)
    assert (game.resignation() is not None) == (game.phase is Phase.RESIGNED)
    if game.result is not None:
        assert game.result.winner in (None, 0, 1)
        assert game.result.points >= 0


# -- a random legal player ----------------------------------------------------------------------


@dataclass
class RandomPlayer:
    """Random legal actions for both players, with rates for the rarer ones."""

    rng: random.Random
    double: float = 0.04
    take: float = 0.75
    beaver: float = 0.3
    resign: float = 0.004
    accept: float = 0.3
    singles: float = 0.3

    def act(self, game: Game) -> None:
        """One legal action of whoever must act."""
        rng, p = self.rng, game.turn
        if game.phase is Phase.OPENING:
            game.roll_opening()
        elif game.phase is Phase.ROLL:
            if game.can_double(p) and rng.random() < self.double:
                game.double(p)
            elif rng.random() < self.resign:
                if game.variant.resignation_levels:
                    game.resign(p, rng.randint(1, 3))
                else:
                    game.surrender(p)
            else:
                game.roll(p)
        elif game.phase is Phase.DOUBLED:
            if game.settings.beaver and rng.random() < self.beaver:
                game.beaver(1 - p)
            elif rng.random() < self.take:
                game.take(1 - p)
            else:
                game.pass_double(1 - p)
        elif game.phase is Phase.BEAVERED:
            (game.take if rng.random() < self.take else game.pass_double)(p)
        elif game.phase is Phase.RESIGNED:
            who = game.resignation()
            assert who is not None
            answer = (
                game.accept_resignation if rng.random() < self.accept else game.decline_resignation
            )
            answer(1 - who[0])
        elif game.phase is Phase.CHOOSE_DOUBLE:
            game.choose_double(p, rng.randint(1, 6))
        elif game.phase is Phase.MOVING:
            if rng.random() < self.resign:
                if game.variant.resignation_levels:
                    game.resign(p, rng.randint(1, 3))
                else:
                    game.surrender(p)
            elif rng.random() < self.singles:
                self.single_moves(game)
            else:
                game.play(p, rng.choice(game.legal_plays()))

    def single_moves(self, game: Game) -> None:
        """RULES.md 1.9: move one checker at a time, sometimes taking a move back, then
        confirm."""
        p = game.turn
        while following := game.next_moves():
            if game.moves_made and self.rng.random() < 0.2:
                game.undo(p)
                continue
            move = self.rng.choice(following)
            game.move(p, move.start, move.end)
            check_consistent(game)
        game.confirm(p)

    def play_out(self, game: Game, limit: int = 5000) -> None:
        """Act until the game is over, checking the state after every action."""
        for _ in range(limit):
            if game.over:
                return
            self.act(game)
            check_consistent(game)
        raise AssertionError("the game did not end")


def play_match(match: Match, player: RandomPlayer, max_games: int = 60) -> None:
    """Play games of ``match`` to its end."""
    while not match.over:
        assert len(match.games) < max_games
        player.play_out(match.new_game())


def check_match(match: Match) -> None:
    """The score is the sum of the results (RULES.md 1.6); every game's record (as the match
    writes them) replays to the same turns, result and record."""
    points = [0, 0]
    records = match_records(match)
    assert len(records) == len(match.games)
    for i, (game, record) in enumerate(zip(match.games, records, strict=True)):
        assert game.result is not None
        assert match._score(i) == tuple(points) == tuple(record["score"])
        if game.result.winner is not None:
            points[game.result.winner] += game.result.points
        again = replay(record)
        assert again.records == game.records
        assert again.result == game.result
        again_record = game_record(
            again, number=i + 1, players=match.players, score=match._score(i)
        )
        assert again_record == record
    assert match.score == tuple(points)


def expected_crawford(match: Match) -> list[bool]:
    """RULES.md 1.6, computed independently: the one game after a player first reaches
    N - 1 (when the cube is on)."""
    n = match.length
    flags, score, seen = [], [0, 0], False
    for game in match.games:
        at = (n - 1) in score and max(score) < n and n > 1
        flags.append(at and not seen)
        seen = seen or at
        assert game.result is not None
        if game.result.winner is not None:
            score[game.result.winner] += game.result.points
    return flags


# -- full matches per variant -------------------------------------------------------------------


def test_1_6_full_seven_point_backgammon_match() -> None:
    """RULES.md 1.4-1.6: a 7-point match played to its end: the first to reach 7 wins, the
    Crawford game comes once where it should and has no doubles, every game replays."""
    match = Match(Settings(match_length=7), SeededDice(2024))
    play_match(match, RandomPlayer(random.Random(1), double=0.03))
    check_match(match)
    a, b = match.score
    assert max(a, b) >= 7 and min(a, b) < 7
    assert match.winner == (0 if a > b else 1)
    assert max(match._score(len(match.games) - 1)) < 7
    flags = [g.crawford for g in match.games]
    assert flags == expected_crawford(match)
    for game, crawford in zip(match.games, flags, strict=True):
        if crawford:
            assert all("double" not in r.cube for r in game.records)
    assert any(any(r.cube for r in g.records) for g in match.games)  # the cube was used


def test_1_5_full_money_session_jacoby_beaver_automatic_doubles() -> None:
    """RULES.md 1.5 / 1.6: a money session with Jacoby, beavers and two automatic doubles,
    played until the agreed score difference: Jacoby scoring holds for every game, and the
    session ends at the first game that reaches the limit."""
    limit = 8
    settings = Settings(beaver=True, automatic_doubles=2, limit_points=limit)
    assert settings.resolve().jacoby
    match = Match(settings, SeededDice(77))
    play_match(match, RandomPlayer(random.Random(7), double=0.05, beaver=0.4))
    check_match(match)
    a, b = match.score
    assert abs(a - b) >= limit
    before = match._score(len(match.games) - 1)
    assert abs(before[0] - before[1]) < limit
    multiplier = {"single": 1, "gammon": 2, "backgammon": 3}
    for game in match.games:
        result = game.result
        assert result is not None
        if result.kind in multiplier:
            counted = multiplier[result.kind] if game.cube.turned else 1
            assert result.points == counted * result.cube
        assert game.cube.automatic <= 2
        ties = sum(1 for d0, d1 in game.opening_rolls if d0 == d1)
        assert game.cube.automatic == min(ties, 2)
    actions = [a for g in match.games for r in g.records for a in r.cube]
    assert "beaver" in actions and "take" in actions
    assert any(g.cube.automatic for g in match.games)


def test_3_4_full_long_nardy_series_with_mars_and_last_roll() -> None:
    """RULES.md 3.1 / 3.4: a long-nardy series to 5 points with mars and the last roll:
    oin 1, mars 2; the first player's win by bearing off comes after the second player's
    final roll (one that bears everything off draws); later games start by
    ``first-move-in-series: loser`` (and alternate after a draw)."""
    settings = Settings(variant="long", match_length=5, last_roll=True)
    match = Match(settings, SeededDice(5))
    play_match(match, RandomPlayer(random.Random(5), resign=0.0005))
    check_match(match)
    final_rolls = 0
    for i, game in enumerate(match.games):
        result = game.result
        assert result is not None
        if result.kind in ("oin", "mars"):
            assert result.points == {"oin": 1, "mars": 2}[result.kind]
            assert result.winner is not None
            if result.winner == game.first_player:
                assert game.records[-1].player != game.first_player  # the final roll
                final_rolls += 1
        if i == 0:
            assert game.opening_rolls
        else:
            previous = match.games[i - 1]
            assert previous.result is not None and previous.first_player is not None
            if previous.result.winner is None:  # a draw: no loser, so alternate
                assert game.first_player == 1 - previous.first_player
            else:
                assert game.first_player == 1 - previous.result.winner
            assert not game.opening_rolls
        if result.kind == "draw":
            assert (result.winner, result.points) == (None, 0)
            assert game.records[-1].player != game.first_player
            assert game.records[-1].after.mine[OFF] == CHECKERS
    assert final_rolls >= 1  # (with this seed one final roll also draws)
    assert max(match.score) >= 5


def test_2_full_acey_deucey_game() -> None:
    """RULES.md 2: an acey-deucey game from all checkers off the board to its end, with
    1-2s, named doubles and extra rolls; it replays exactly."""
    game = Game(Settings(variant="acey-deucey", match_length=1), SeededDice(12))
    RandomPlayer(random.Random(12), double=0.0).play_out(game)
    assert game.result is not None
    chosen = [i for i, r in enumerate(game.records) if r.chosen]
    assert chosen
    for i in chosen:
        one_two = game.records[i - 1]
        assert one_two.dice is not None and sorted(one_two.dice) == [1, 2]
        assert one_two.player == game.records[i].player
    assert_replays(game)


def test_2_full_nackgammon_match() -> None:
    """RULES.md 2 / 1.6: a 5-point nackgammon match played to its end."""
    match = Match(Settings(variant="nackgammon", match_length=5), SeededDice(99))
    play_match(match, RandomPlayer(random.Random(9)))
    check_match(match)
    assert [g.crawford for g in match.games] == expected_crawford(match)
    start = variant("nackgammon").start()
    assert all(g.records[0].before == start for g in match.games)
    assert max(match.score) >= 5


# -- random actions never corrupt a game --------------------------------------------------------


class CountingDice:
    """A dice source that counts the dice it gives, so a refused action can be seen not to
    have rolled."""

    def __init__(self, source: Dice) -> None:
        self.source = source
        self.used = 0

    def die(self) -> int:
        self.used += 1
        return self.source.die()


class LowDice:
    """Seeded dice that favour 1 and 2, so that acey-deucey's 1-2 comes often (RULES.md 2)."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def die(self) -> int:
        return self._rng.choice((1, 2, 1, 2, 3, 4, 5, 6))


def snapshot_with_dice(game: Game, dice: CountingDice) -> tuple[Any, ...]:
    """Everything an action could change, the dice drawn included."""
    return (*snapshot(game), dice.used)


def side(name: str, points: dict[int, int]) -> dict[int, int]:
    if variant(name).enters_from_outside:
        return points
    return {**points, OFF: points.get(OFF, 0) + CHECKERS - sum(points.values())}


@dataclass(frozen=True)
class Setup:
    """A way to start a game for the property test."""

    name: str
    settings: Settings
    mine: dict[int, int] | None = None
    theirs: dict[int, int] | None = None
    cube: tuple[int, int | None] = (1, None)
    crawford: bool = False
    low_dice: bool = False

    def make(self, dice: Dice, first: int) -> Game:
        if self.mine is None or self.theirs is None:
            return Game(self.settings, dice, crawford=self.crawford)
        v = variant(self.settings.variant)
        pos = Position.from_points(v, side(v.key, self.mine), side(v.key, self.theirs))
        return Game(self.settings, dice, position=pos, first_player=first, cube=Cube(*self.cube))


SETUPS = [
    Setup("money", Settings(beaver=True, automatic_doubles=1)),
    Setup("match", Settings(match_length=5)),
    Setup("crawford", Settings(match_length=5), crawford=True),
    Setup("nack-reroll", Settings(variant="nackgammon", opening="reroll", jacoby=False)),
    Setup("acey", Settings(variant="acey-deucey"), low_dice=True),
    Setup("long", Settings(variant="long", cube=True, last_roll=True)),
    Setup("long-oin", Settings(variant="long", ending="oin", first_move_in_series="alternate")),
    Setup(
        "bg-bearoff",
        Settings(beaver=True),
        {1: 2, 2: 2, 3: 1, 6: 1},
        {1: 1, 2: 2, 5: 2},
    ),
    Setup("bg-contact", Settings(jacoby=False), {BAR: 1, 1: 2, 8: 1}, {2: 2, 3: 1, 20: 1}, (2, 0)),
    Setup(
        "long-end",
        Settings(variant="long", last_roll=True, cube=True),
        {1: 2, 3: 1, 6: 1},
        {1: 2, 2: 2},
    ),
    Setup(
        "acey-end",
        Settings(variant="acey-deucey"),
        {24: 1, 5: 3, 2: 1, OFF: 10},  # every checker entered: none is off while some wait
        {3: 1, 4: 1, 6: 1, OFF: 12},
        low_dice=True,
    ),
]

NAMES = (
    "roll_opening",
    "double",
    "take",
    "pass_double",
    "beaver",
    "roll",
    "move",
    "undo",
    "confirm",
    "play",
    "resign",
    "accept_resignation",
    "decline_resignation",
    "surrender",
    "choose_double",
)
GARBAGE_PLAYS = (
    "",
    "pass",
    "24/18",
    "13/7 13/7",
    "bar/22",
    "6/off",
    "x",
    "25/-1",
    "24/18*/13",
    "1/off(5)",
)
PLAYERS = (0, 1, 2, -1, 7)


def guided(data: st.DataObject, game: Game) -> tuple[str, tuple[Any, ...]]:
    """A sensible action for the phase, mostly legal, so that games get somewhere."""
    p = game.turn
    draw = data.draw
    phase = game.phase
    if phase is Phase.OPENING:
        return "roll_opening", ()
    if phase is Phase.ROLL:
        name = draw(st.sampled_from(["roll"] * 12 + ["double", "double", "resign", "surrender"]))
        return name, (p, draw(st.integers(1, 3))) if name == "resign" else (p,)
    if phase is Phase.DOUBLED:
        return draw(st.sampled_from(["take", "pass_double", "beaver"])), (1 - p,)
    if phase is Phase.BEAVERED:
        return draw(st.sampled_from(["take", "pass_double"])), (p,)
    if phase is Phase.RESIGNED:
        who = game.resignation()
        assert who is not None
        return draw(st.sampled_from(["accept_resignation", "decline_resignation"])), (1 - who[0],)
    if phase is Phase.CHOOSE_DOUBLE:
        return "choose_double", (p, draw(st.integers(1, 6)))
    if phase is Phase.MOVING:
        kind = draw(st.sampled_from(["play", "play", "move", "move", "undo", "confirm"]))
        if kind == "play":
            plays = game.legal_plays()
            play = plays[draw(st.integers(0, len(plays) - 1))]
            return "play", (p, play if draw(st.booleans()) else str(play))
        if kind == "move":
            following = game.next_moves()
            if following:
                move = following[draw(st.integers(0, len(following) - 1))]
                return "move", (p, move.start, move.end)
            return "confirm", (p,)
        return kind, (p,)
    return "roll", (p,)


def wild(data: st.DataObject, game: Game) -> tuple[str, tuple[Any, ...]]:
    """Any action by anyone, with arguments that are often garbage."""
    draw = data.draw
    name = draw(st.sampled_from(NAMES))
    if name == "roll_opening":
        return name, ()
    player = draw(st.one_of(st.just(game.turn), st.just(1 - game.turn), st.sampled_from(PLAYERS)))
    if name == "move":
        return name, (player, draw(st.integers(-3, 30)), draw(st.integers(-3, 30)))
    if name == "play":
        choice = draw(st.integers(0, 2))
        if choice == 0:
            return name, (player, draw(st.sampled_from(GARBAGE_PLAYS)))
        if choice == 1:  # a legal play of some other roll, from the variant's start
            d1, d2 = draw(st.integers(1, 6)), draw(st.integers(1, 6))
            plays = game.variant.start().legal_plays(d1, d2)
            return name, (player, plays[draw(st.integers(0, len(plays) - 1))])
        if game.phase is Phase.MOVING:
            plays = game.legal_plays()
            return name, (player, plays[draw(st.integers(0, len(plays) - 1))])
        return name, (player, "24/18")
    if name == "resign":
        return name, (player, draw(st.integers(-1, 4)))
    if name == "choose_double":
        return name, (player, draw(st.integers(-1, 9)))
    return name, (player,)


def apply(game: Game, name: str, args: tuple[Any, ...]) -> None:
    action: Callable[..., Any] = getattr(game, name)
    action(*args)


@pytest.mark.parametrize("setup", SETUPS, ids=[s.name for s in SETUPS])
@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_random_actions_never_corrupt_a_game(setup: Setup, data: st.DataObject) -> None:
    """RULES.md 1.4-1.6, 1.9, 2, 3.4, 4: refused actions raise a NardyError and change
    nothing (dice included); accepted ones keep 15 checkers a side, no shared point and a
    phase that fits; the game replays from its record."""
    seed = data.draw(st.integers(0, 2**16), label="seed")
    dice = CountingDice(LowDice(seed) if setup.low_dice else SeededDice(seed))
    game = setup.make(dice, data.draw(st.integers(0, 1), label="first"))
    check_consistent(game)
    steps = data.draw(st.integers(0, 120), label="steps")
    for _ in range(steps):
        choose = guided if data.draw(st.integers(0, 3)) else wild
        name, args = choose(data, game)
        before = snapshot_with_dice(game, dice)
        try:
            apply(game, name, args)
        except NardyError:
            assert snapshot_with_dice(game, dice) == before, (name, args)
        else:
            check_consistent(game)
    assert_replays(game)
