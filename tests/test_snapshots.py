"""Snapshots (issue 8): a game or match saved at any moment — dice on the table, single
moves made, a pending double, beaver or resignation, acey-deucey's choice, long nardy's last
roll — restores to an equal object that awaits the same actions and, given the same dice,
goes on identically (RULES.md 1.4, 1.5, 1.9, 2, 3.4). Nothing is re-rolled on restore.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardy import NardyError
from nardy.core import actions as A
from nardy.core.chouette import Chouette
from nardy.core.dice import FixedDice, SeededDice
from nardy.core.errors import ErrorCode
from nardy.core.game import Game, Phase
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.core.team import Consultation


def random_action(game: Game | Match | Chouette | Consultation, rng: random.Random) -> A.Action:
    """A random action among those the game awaits, by whoever may take it."""
    waiting = game.awaiting()
    player, kinds = rng.choice(waiting.actors)
    weights = {"play": 3, "move": 3, "roll": 5, "resign": 0.1, "surrender": 0.1, "double": 0.5}
    kind = rng.choices(kinds, [weights.get(k, 1) for k in kinds])[0]
    if kind == "move":
        move = rng.choice(waiting.moves)
        return A.Move(player, move.start, move.end)
    if kind == "play":
        current = game if isinstance(game, Game) else game.game
        assert current is not None
        return A.Play(player, str(rng.choice(current.legal_plays())))
    if kind == "resign":
        return A.Resign(player, rng.randint(1, 3))
    if kind == "choose-double":
        return A.ChooseDouble(player, rng.randint(1, 6))
    if kind == "vote":
        return A.Vote(player, rng.random() < 0.8)
    if kind == "propose":
        return A.Propose(player, rng.choice(["8/2 6/2", "double!", "take"]))
    return A.ACTIONS[kind](player)


def round_trip(data: dict[str, Any]) -> dict[str, Any]:
    """Through JSON text, as a server would store it."""
    loaded: dict[str, Any] = json.loads(json.dumps(data))
    return loaded


SETTINGS = [
    Settings(),
    Settings(jacoby=False, beaver=True),
    Settings(automatic_doubles=2, beaver=True),
    Settings(opening="reroll", backgammon_value=2),
    Settings(match_length=5),
    Settings(cube=False),
    Settings(variant="nackgammon", jacoby=False),
    Settings(variant="acey-deucey"),
    Settings(variant="acey-deucey", beaver=True, automatic_doubles=1),
    Settings(variant="long"),
    Settings(variant="long", last_roll=True, ending="oin"),
    Settings(variant="long", cube=True, match_length=3),
    Settings(variant="long", cube=True, beaver=True, last_roll=True),
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(SETTINGS) - 1), seed=st.integers(0, 2**32))
def test_restore_at_every_step_equals_and_continues_identically(which: int, seed: int) -> None:
    """Every variant and setting: at every step the restored game has an equal snapshot,
    the same awaiting() and, with the same dice, reacts to the next action with the same
    events and reaches the same state."""
    game = Game(SETTINGS[which], SeededDice(seed))
    rng = random.Random(seed)
    phases = set()
    for _ in range(2000):
        if game.over:
            break
        snap = round_trip(game.snapshot())
        again = Game.restore(snap, copy.deepcopy(game.dice_source))
        assert again.snapshot() == snap
        assert again.awaiting() == game.awaiting()
        assert again.position == game.position and again.dice == game.dice
        phases.add(game.phase)
        action = random_action(game, rng)
        assert again.apply(action) == game.apply(action)
        assert again.snapshot() == game.snapshot()
    assert game.over
    final = Game.restore(round_trip(game.snapshot()))
    assert final.result == game.result and final.records == game.records
    assert final.awaiting().actors == ()


@pytest.mark.parametrize("which", range(len(SETTINGS)))
def test_match_restores_between_and_within_games(which: int) -> None:
    """A match restored at every step, games finished and under way, equals the original
    and goes on identically; the next game starts by itself in both."""
    setting = SETTINGS[which]
    if setting.match_length == 0:
        setting = dataclasses.replace(setting, limit_points=2)
    now = [0.0]
    match = Match(setting, SeededDice(which), clock=lambda: now[0])
    rng = random.Random(which)
    for _ in range(3000):
        if match.over:
            break
        snap = round_trip(match.snapshot())
        again = Match.restore(snap, copy.deepcopy(match.dice), clock=lambda: now[0])
        assert again.snapshot() == snap
        assert again.awaiting() == match.awaiting()
        assert again.score == match.score
        action = random_action(match, rng)
        assert again.apply(action) == match.apply(action)
    assert match.over
    again = Match.restore(round_trip(match.snapshot()), clock=lambda: now[0])
    assert again.over and again.winner == match.winner and again.score == match.score


def test_pending_states_survive_restore() -> None:
    """RULES.md 1.5, 1.4, 1.9: a pending double, a pending resignation and single moves made
    with dice on the table are all there after restore, and nothing is rolled."""
    game = Game(Settings(beaver=True, jacoby=False), FixedDice([6, 1, 5, 2]))
    game.apply(A.RollOpening(0))
    game.apply(A.Move(0, 13, 7))
    restored = Game.restore(game.snapshot(), FixedDice([]))  # a roll would raise
    assert restored.moves_made == game.moves_made and restored.dice == (6, 1)
    restored.apply(A.Move(0, 8, 7))
    restored.apply(A.Confirm(0))
    restored.apply(A.Double(1))
    beavered = Game.restore(restored.snapshot(), FixedDice([]))
    beavered.apply(A.Beaver(0))
    beavered = Game.restore(beavered.snapshot(), FixedDice([5, 2]))
    assert beavered.phase is Phase.BEAVERED and beavered.awaiting().player == 1
    beavered.apply(A.Take(1))
    assert beavered.cube.value == 4 and beavered.cube.owner == 0
    beavered.apply(A.Roll(1))
    beavered.apply(A.Resign(1, 2))
    resigned = Game.restore(beavered.snapshot())
    assert resigned.resignation() == (1, 2) and resigned.dice == (5, 2)
    resigned.apply(A.Decline(0))
    assert resigned.phase is Phase.MOVING and resigned.dice == (5, 2)


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s.pop("phase"),
        lambda s: s.update(phase="flying"),
        lambda s: s.update(snapshot=99),
        lambda s: s.update(turn=2),
        lambda s: s.update(position="00"),
        lambda s: s["current"].update(dice=[7, 1]),
        lambda s: s["current"].update(moves=[[24, 1, False, 6]]),
        lambda s: s.update(log=[{"type": "nothing"}]),
    ],
)
def test_a_bad_snapshot_is_refused_clearly(change: Any) -> None:
    game = Game(dice=FixedDice([6, 1]))
    game.apply(A.RollOpening(0))
    snap = game.snapshot()
    change(snap)
    with pytest.raises(NardyError) as refused:
        Game.restore(snap)
    assert refused.value.code in (ErrorCode.INVALID_INPUT, ErrorCode.ILLEGAL_MOVE)


@pytest.mark.parametrize("variant", ["backgammon", "acey-deucey", "long"])
def test_chouette_restores_at_every_step(variant: str) -> None:
    """RULES.md 1.7: votes under way, members' answers, who passed, settlements and the
    rotation all survive a restore; the restored chouette goes on identically."""
    chouette = Chouette(
        ("Ann", "Bob", "Cy", "Dee"), Settings(variant=variant, cube=True), SeededDice(variant)
    )
    rng = random.Random(variant)
    seen = set()
    for _ in range(700):
        snap = round_trip(chouette.snapshot())
        again = Chouette.restore(snap, copy.deepcopy(chouette.dice))
        assert again.snapshot() == snap
        assert again.awaiting() == chouette.awaiting()
        action = random_action(chouette, rng)
        seen.add(action.kind)
        assert again.apply(action) == chouette.apply(action)
        assert again.scores == chouette.scores
    assert len(chouette.games) > 1 and {"vote", "take", "roll"} <= seen
    assert sum(chouette.scores.values()) == 0


def test_consultation_restores_at_every_step() -> None:
    """RULES.md 1.8: proposals stay private to their side across a restore; the captains
    act for the sides."""
    now = [0.0]
    sides = (("Ann", "Bob"), ("Cy", "Dee", "Eve"))
    consultation = Consultation(sides, Settings(match_length=3), SeededDice(3), lambda: now[0])
    rng = random.Random(3)
    for _ in range(3000):
        if consultation.match.over:
            break
        snap = round_trip(consultation.snapshot())
        again = Consultation.restore(snap, copy.deepcopy(consultation.match.dice), lambda: now[0])
        assert again.snapshot() == snap
        assert again.awaiting() == consultation.awaiting()
        assert again.proposals("Bob") == consultation.proposals("Bob")
        action = random_action(consultation, rng)
        assert again.apply(action) == consultation.apply(action)
    assert consultation.match.over
    assert all(p.side == 0 for p in consultation.proposals("Ann"))
