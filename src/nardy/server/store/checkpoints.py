"""Checkpoints: a game kept in the database without writing its whole snapshot, which grows
with the match, on every action.

What a room holds (a :class:`~nardy.core.match.Match`, or a table's
:class:`~nardy.core.chouette.Chouette` or :class:`~nardy.core.team.Consultation`) is stored
as a *checkpoint* — its snapshot and its dice' secret state as they were after some action
(``games.snapshot_seq``) — and the append-only action log after it. Restoring replays those
actions through the core with the dice the checkpoint left: fair dice are a function of
their seeds and of how many have been dealt, so the replay deals exactly the rolls dealt
live and leaves the dice where they were (the same next rolls).

The only chance outside the dice is the seed of each next game's dice, drawn when a game
starts (:func:`nardy.server.gamedice.prepare_next`): a checkpoint is written then, so a
replay never has to draw one, and one that would is refused as damaged data. A checkpoint
is also written every :data:`CHECKPOINT_EVERY` actions (a restore replays no more), when the
game ends (its stored snapshot is then complete, as the history and replay pages read it),
and whenever something besides an action changes what a restore needs (a player's seed for
the dice).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from nardy.core.actions import action_from_json
from nardy.core.chouette import Chouette
from nardy.core.events import GameStarted
from nardy.core.fair_dice import FairDice
from nardy.core.match import Match
from nardy.core.team import Consultation
from nardy.server import gamedice

CHECKPOINT_EVERY = 50
"""Actions between two checkpoints at most. A checkpoint costs a snapshot of the whole
match (kilobytes, growing with it); replaying an action costs about what applying it live
did (tens of microseconds). At 50 a restore replays at most 50 actions (a few milliseconds,
about one turn's worth of a long game's decisions at most) while a 1,000-action match writes
some 20 snapshots instead of 1,000."""

Table = Chouette | Consultation
Held = Match | Table
"""What a room holds: a two-player match, or a chouette table's or consultation's game."""


class ReplayError(ValueError):
    """The actions after a checkpoint do not replay to a game the checkpoint can lead to:
    damaged data (the game is set aside, as for any data the core cannot restore)."""


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The game object as it was after an action: its snapshot and its dice' secret state
    (:func:`nardy.server.gamedice.dice_state`, or a chouette's own with its lot)."""

    snapshot: Mapping[str, Any]
    dice: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Committed:
    """A room's game object as last committed, without a snapshot of it: a checkpoint at
    action ``seq`` and the actions committed after it (wire forms, in order). ``stored`` is
    the action the database's own checkpoint is at (None: none stored yet), which says when
    the next one is due; the checkpoint here may be newer than that one (a room built fresh
    keeps its empty start), never older."""

    checkpoint: Checkpoint
    seq: int
    actions: tuple[Mapping[str, Any], ...]
    stored: int | None

    @property
    def at(self) -> int:
        """The action count this committed state is at."""
        return self.seq + len(self.actions)

    def due(self, *, started: bool, over: bool) -> bool:
        """Whether the next action's commit must write a checkpoint: it started a game (its
        next game's dice were just drawn), ended the game, or comes
        :data:`CHECKPOINT_EVERY` actions after the stored checkpoint (or none is stored)."""
        if started or over or self.stored is None:
            return True
        return self.at + 1 - self.stored >= CHECKPOINT_EVERY

    def after(self, action: Mapping[str, Any], checkpoint: Checkpoint | None) -> Committed:
        """Committed once ``action`` is, with the checkpoint written with it (if one was)."""
        seq = self.at + 1
        if checkpoint is not None:
            return Committed(checkpoint, seq, (), seq)
        return Committed(self.checkpoint, self.seq, (*self.actions, action), self.stored)

    def checkpointed(self, checkpoint: Checkpoint) -> Committed:
        """Committed with a checkpoint written between two actions (a seed for the dice)."""
        return Committed(checkpoint, self.at, (), self.at)


def starts_a_game(events: Iterable[object]) -> bool:
    """Whether an action's events started a game (whose next game's dice were drawn)."""
    return any(isinstance(event, GameStarted) for event in events)


def replay(held: Held, actions: Iterable[Mapping[str, Any]]) -> None:
    """Apply committed actions again, in order: the dice deal what they dealt the first
    time. :class:`ReplayError` where one starts a game (a checkpoint should have been
    written there); the core's own error where it refuses one (damaged data either way)."""
    for index, encoded in enumerate(actions):
        events = held.apply(action_from_json(dict(encoded)))
        if starts_a_game(events):
            raise ReplayError(f"action {index + 1} after the checkpoint starts a game")


def restore_match(checkpoint: Checkpoint) -> Match:
    """The match of a checkpoint, each game with its dice as stored."""
    return gamedice.restore(checkpoint.snapshot, checkpoint.dice)


def restore_table(kind: str, checkpoint: Checkpoint) -> tuple[Table, FairDice | None]:
    """A table's game object from a checkpoint, each game with its dice as stored, and a
    chouette's lot."""
    snapshot, dice = checkpoint.snapshot, checkpoint.dice
    if kind == "consultation":
        restored = Consultation.restore(dict(snapshot), FairDice.from_state(dice["next"]))
        restored.match = gamedice.restore(dict(snapshot["match"]), dice)
        return restored, None
    chouette = Chouette.restore(dict(snapshot), FairDice.from_state(dice["next"]))
    if len(dice["games"]) != len(chouette.games):
        raise ValueError("the stored dice do not match the games of the snapshot")
    for record, state in zip(chouette.games, dice["games"], strict=True):
        record.game.dice_source = FairDice.from_state(state)
    return chouette, FairDice.from_state(dice["lot"])


def played_on(snapshot: Mapping[str, Any], seconds: float) -> dict[str, Any]:
    """A match's or consultation's snapshot with ``seconds`` more played (a money session's
    time limit counts them): a checkpoint's, as of the last action after it. A chouette's
    has no time played."""
    if "elapsed" in snapshot:
        return {**snapshot, "elapsed": float(snapshot["elapsed"]) + seconds}
    inner = snapshot.get("match")
    if isinstance(inner, Mapping):
        return {**snapshot, "match": played_on(inner, seconds)}
    return dict(snapshot)


def keep_time(old: Held | None, new: Held) -> None:
    """The time played of a game object rebuilt in place of ``old`` (after a failed
    commit) goes on from ``old``'s: its checkpoint's snapshot was taken earlier."""
    before = old.match if isinstance(old, Consultation) else old
    after = new.match if isinstance(new, Consultation) else new
    if isinstance(before, Match) and isinstance(after, Match):
        after._started = before._started


def match_of(committed: Committed) -> Match:
    """The match as committed: its checkpoint restored, the actions since replayed."""
    match = restore_match(committed.checkpoint)
    replay(match, committed.actions)
    return match


def table_of(kind: str, committed: Committed) -> tuple[Table, FairDice | None]:
    """A table's game object as committed (and a chouette's lot)."""
    table, lot = restore_table(kind, committed.checkpoint)
    replay(table, committed.actions)
    return table, lot


__all__ = [
    "CHECKPOINT_EVERY",
    "Checkpoint",
    "Committed",
    "Held",
    "ReplayError",
    "Table",
    "keep_time",
    "match_of",
    "played_on",
    "replay",
    "restore_match",
    "restore_table",
    "starts_a_game",
    "table_of",
]
