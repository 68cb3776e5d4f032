"""What the replay viewer shows of a match (docs/protocol.md, "Replay"): each game's turns
with the positions around them, the plays in notation and the cube after each turn, so that
a client steps through a finished game without knowing the rules.

The start position is written as in the room's snapshot: 104 hex digits, the mover's 26
counts then the opponent's, each side in its own numbering (0 borne off, 25 the bar). Each
turn's ``before`` and ``after`` are the board view's checkers per seat
(:func:`nardy.core.view.position_view`): each seat's counts in its own numbering, those not
entered yet counted at 25, with the pip counts and the checkers borne off."""

from __future__ import annotations

from typing import Any

from nardy.core.fair_dice import FairDice
from nardy.core.game import Game, TurnRecord
from nardy.core.match import Match
from nardy.core.position import Position
from nardy.core.view import position_view


def _hex(position: Position) -> str:
    return (position.mine + position.theirs).hex()


def _turn(record: TurnRecord) -> dict[str, Any]:
    return {
        "player": record.player,
        "cube": list(record.cube),
        "dice": None if record.dice is None else list(record.dice),
        "play": None if record.play is None else str(record.play),
        "before": position_view(record.before, record.player).to_json(),
        "after": position_view(record.after, record.player).to_json(),
        "cube-after": list(record.cube_after),
        "chosen": record.chosen,
        "resign": [
            {"level": level, "accepted": accepted, "after-roll": rolled}
            for level, accepted, rolled in record.resignations
        ],
    }


def game_view(game: Game, number: int, score: tuple[int, int]) -> dict[str, Any]:
    """One game of the match: where it started (from the side of the player who moved
    first), each finished turn, how it ended, and its dice block (the server seed only once
    the game is over)."""
    start = game.records[0].before if game.records else game.turn_start
    mover = game.records[0].player if game.records else game.turn
    result = game.result
    return {
        "number": number,
        "score": list(score),
        "crawford": game.crawford,
        "opening": [list(roll) for roll in game.opening_rolls],
        "first-player": game.first_player,
        "start": {"player": mover, "position": _hex(start), "cube": list(game.start_cube)},
        "turns": [_turn(record) for record in game.records],
        "over": game.over,
        "end": None
        if result is None
        else {
            "winner": result.winner,
            "kind": result.kind,
            "points": result.points,
            "reason": result.reason,
        },
        "dice": game.dice_source.block(reveal=game.over)
        if isinstance(game.dice_source, FairDice)
        else None,
    }


def replay_view(match: Match) -> list[dict[str, Any]]:
    """Every game of the match so far, in order."""
    return [game_view(game, i + 1, match._score(i)) for i, game in enumerate(match.games)]
