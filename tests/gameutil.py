"""Helpers shared by the game-flow tests: positions from point maps, state snapshots, replay
checks, driving a game to a player's turn, and a random legal player for any table (a game's
match, a chouette, a consultation: whatever its ``awaiting()`` opens)."""

from __future__ import annotations

import random
from typing import Any

from nardy import CHECKERS, OFF, Position, variant
from nardy.core import actions as act
from nardy.core.awaiting import Awaiting
from nardy.core.game import Game, Phase
from nardy.notation.record import game_record, replay


def position(name: str, mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A checked position; each side's borne-off count is filled up to 15 (in acey-deucey the
    missing checkers are the ones waiting to enter instead)."""
    v = variant(name)

    def fill(side: dict[int, int]) -> dict[int, int]:
        if v.enters_from_outside:
            return dict(side)
        return {**side, OFF: side.get(OFF, 0) + CHECKERS - sum(side.values())}

    return Position.from_points(v, fill(mine), fill(theirs))


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything an action could change, as comparable values."""
    return (
        game.phase,
        game.turn,
        game.position,
        game.dice,
        (game.cube.value, game.cube.owner, game.cube.turned, game.cube.automatic),
        tuple(game.records),
        game.result,
        tuple(game.moves_made),
        game.resignation(),
        tuple(game.opening_rolls),
        game.first_player,
    )


def assert_replays(game: Game, **context: Any) -> None:
    """RULES.md 1.9 / NOTATION.md: the record of ``game`` replays to the same turns, the same
    record and the same result."""
    record = game_record(game, **context)
    again = replay(record)
    assert again.records == game.records
    assert again.result == game.result
    assert game_record(again, **context) == record


def reach_turn(game: Game, player: int) -> None:
    """Play first legal plays until ``player`` is on turn before or after rolling."""
    while not (game.turn == player and game.phase in (Phase.ROLL, Phase.MOVING)):
        assert not game.over
        if game.phase is Phase.ROLL:
            game.roll(game.turn)
        if game.phase is Phase.MOVING:
            game.play(game.turn, game.legal_plays()[0])


def rewritten(record: dict[str, Any]) -> dict[str, Any]:
    """The record written again from the game that replaying ``record`` reaches: equal to
    ``record`` (its board-game fields) when the record replays exactly."""
    return game_record(
        replay(record),
        number=record["game"],
        players=tuple(record["players"]),
        score=tuple(record["score"]),
    )


# How often a random player picks each kind of action among those open (the rare ones
# rarely, so that games get played to their end).
WEIGHTS = {
    "roll-opening": 1.0, "roll": 1.0, "move": 3.0, "undo": 0.4, "confirm": 3.0, "play": 1.0,
    "double": 0.15, "take": 1.0, "pass": 0.3, "beaver": 0.3, "resign": 0.02,
    "surrender": 0.01, "accept": 0.4, "decline": 1.0, "choose-double": 1.0, "vote": 1.0,
    "propose": 0.1,
}  # fmt: skip


def random_action(rng: random.Random, waiting: Awaiting, game: Game | None) -> act.Action:
    """One action open now, picked at random by :data:`WEIGHTS`: any actor, any kind."""
    options = [(player, kind) for player, kinds in waiting.actors for kind in kinds]
    player, kind = rng.choices(options, [WEIGHTS[kind] for _, kind in options])[0]
    match kind:
        case "move":
            move = rng.choice(waiting.moves)
            return act.Move(player, move.start, move.end)
        case "play":
            assert game is not None
            return act.Play(player, str(rng.choice(game.legal_plays())))
        case "resign":
            return act.Resign(player, rng.randint(1, 3))
        case "choose-double":
            return act.ChooseDouble(player, rng.randint(1, 6))
        case "vote":
            return act.Vote(player, rng.random() < 0.5)
        case "propose":
            return act.Propose(player, "13/7")
    return act.ACTIONS[kind](player)
