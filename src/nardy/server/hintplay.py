"""The hints of a practice game, computed in a worker process of the bots' pool: from the
match as committed (restored here, as :mod:`nardy.server.botplay` restores it), the same
documents ``nardy hint --format json`` prints (:mod:`nardy.engine.analysis_json`), by the
same functions: the plays of the roll ranked (:func:`~nardy.engine.analysis.ranking`),
the cube decision before the roll or the answer to a double
(:func:`~nardy.engine.analysis.cube_analysis`), and, after a play, how the bot would have
played that roll and how much the play made was behind it.

Which hint a player may have now is decided in the room (:mod:`nardy.server.room.hints`,
:func:`hint_kind`) on the same committed state the worker restores.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from nardy.core.errors import NardyError
from nardy.core.game import Game, Phase, TurnRecord
from nardy.core.match import Match
from nardy.engine.analysis import DEFAULT_PLY, cube_analysis, rank_of, ranking
from nardy.engine.analysis_json import cube_json, hint_json, number
from nardy.engine.stakes import Stakes
from nardy.server.store.checkpoints import Committed, match_of

SHOWN = 5
"""How many of the ranked plays a hint shows (``nardy hint --top``), best first."""


class HintKind(StrEnum):
    """What a hint is about: the plays of the dice on the table, the cube decision before
    the roll, the answer to the bot's double, or the player's last play reviewed."""

    PLAYS = "plays"
    CUBE = "cube"
    ANSWER = "answer"
    REVIEW = "review"


class NoHint(Exception):
    """There is no hint of the kind asked for now; ``code`` says why (the refusal's)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def __reduce__(self) -> tuple[type[NoHint], tuple[str, str]]:
        return NoHint, (self.code, str(self))  # raised in a worker, read in the room


def hint_kind(match: Match, seat: int, review: bool) -> HintKind:
    """The hint ``seat`` may have now: with ``review`` the review of their last play in this
    game; otherwise advice on the decision that is theirs now. :class:`NoHint` where there is
    none: the game is over, it is not their turn or decision, or they have nothing to
    decide but the roll (or no play of theirs to review yet)."""
    game = match.game
    if match.over:
        raise NoHint("game-over", "the game is over")
    if game is None:
        raise NoHint("no-hint", "the first game has not begun: there is nothing to decide yet")
    if review:
        if _last_play(game, seat) is None:
            raise NoHint("no-hint", "you have made no play in this game yet")
        return HintKind.REVIEW
    if seat not in match.awaiting().players:
        raise NoHint("not-your-turn", "a hint is for the decision that is yours now")
    phase = game.phase
    if phase is Phase.MOVING:
        return HintKind.PLAYS
    if phase is Phase.ROLL and game.can_double(seat):
        return HintKind.CUBE
    if phase is Phase.DOUBLED:
        return HintKind.ANSWER
    raise NoHint("no-hint", "there is nothing to decide here but to go on")


def advise(committed: Committed, seat: int, kind: HintKind) -> dict[str, Any]:
    """The hint of ``kind`` for ``seat`` in the match as ``committed``: ``nardy hint``'s JSON
    document with its ``kind``; :class:`NoHint` (``no-hint``) where the engine has none
    (a variant without a trained net)."""
    game = match_of(committed).game
    assert game is not None
    try:
        if kind is HintKind.REVIEW:
            return {"kind": str(kind), **_review(game, seat)}
        if kind is HintKind.PLAYS:
            return {"kind": str(kind), **_plays(game, seat)}
        return {"kind": str(kind), **_cube(game, answering=kind is HintKind.ANSWER)}
    except NardyError as exc:
        raise NoHint("no-hint", str(exc)) from None


def _plays(game: Game, seat: int) -> dict[str, Any]:
    """The plays of the dice on the table from the start of the turn, ranked."""
    dice = game.dice
    assert dice is not None and game.turn == seat
    position, stakes = game.turn_start, Stakes.of(game, seat)
    ranked = ranking(position, *dice, DEFAULT_PLY, stakes=stakes, chosen=game.dice_chosen)
    return hint_json(position, stakes, dice, DEFAULT_PLY, ranked, ranked[:SHOWN])


def _cube(game: Game, *, answering: bool) -> dict[str, Any]:
    """The cube decision of the player on turn before the roll, or (``answering``) the
    doubled player's take or pass: X is always the one on turn, the doubler."""
    position, stakes = game.turn_start, Stakes.of(game, game.turn)
    outputs, d = cube_analysis(position, stakes, DEFAULT_PLY, doubled=answering)
    return cube_json(position, stakes, DEFAULT_PLY, outputs, d, answering=answering)


def _last_play(game: Game, seat: int) -> TurnRecord | None:
    """``seat``'s last turn in the game with a play of the dice."""
    return next(
        (
            r
            for r in reversed(game.records)
            if r.player == seat and r.dice is not None and r.play is not None
        ),
        None,
    )


def _review(game: Game, seat: int) -> dict[str, Any]:
    """``seat``'s last play against the plays of that roll ranked as a hint ranks them: the
    best first (``plays``) and the one made (``played``: its rank among all, its equity and
    how far it is behind the best, zero for the best itself)."""
    record = _last_play(game, seat)
    assert record is not None and record.dice is not None and record.play is not None
    value, owner = record.cube_after  # the cube moves before the roll only: the play's stake
    stakes = Stakes.at(game.settings, game.score, seat, game.crawford, value, owner)
    before = record.before
    reached = (record.after.mine, record.after.theirs)
    ranked = ranking(
        before, *record.dice, DEFAULT_PLY, stakes=stakes, chosen=record.chosen, made=reached
    )
    rank = rank_of(ranked, reached)
    made = ranked[rank]
    document = hint_json(before, stakes, record.dice, DEFAULT_PLY, ranked, ranked[:SHOWN])
    document["played"] = {
        "play": str(record.play),
        "rank": rank + 1,
        "equity": number(made.equity),
        "difference": number(made.equity - ranked[0].equity),
    }
    return document
