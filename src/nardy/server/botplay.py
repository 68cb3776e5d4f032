"""The computer's decisions in a server game, run in a worker process: from the game as
committed (a checkpoint and the actions since, :mod:`nardy.server.store.checkpoints`, restored
here rather than snapshotted by the room), the core action the bot of a seat takes
now. The worker never rolls: a roll is an action that the room applies with
the server's dice (the worker's copy of them only replays the rolls already dealt)."""

from __future__ import annotations

import functools

from nardy.core.actions import Action
from nardy.core.chouette import Chouette
from nardy.engine.bots import Bot, chouette_decision, consultation_decision, decision, make_bot
from nardy.server.games import GameKind
from nardy.server.store.checkpoints import Committed, match_of, table_of


@functools.cache
def _bot(name: str) -> Bot:
    return make_bot(name)  # the net loads once per worker process


def decide(committed: Committed, seat: int, bot_name: str) -> Action:
    """The action the bot ``bot_name`` playing ``seat`` takes in the match as ``committed``:
    the engine's own :func:`~nardy.engine.bots.decision`, as every other driver of a bot
    asks it."""
    return decision(match_of(committed), seat, _bot(bot_name))


def decide_at_table(
    kind: GameKind, committed: Committed, name: str, bot_name: str
) -> Action | None:
    """The action the bot ``bot_name`` seated as ``name`` takes at a chouette table or in a
    consultation game (``kind``) as ``committed``; None when it lets the decision pass
    (:func:`~nardy.engine.bots.chouette_decision`)."""
    table, _ = table_of(kind, committed)
    if isinstance(table, Chouette):
        return chouette_decision(table, name, _bot(bot_name))
    return consultation_decision(table, name, _bot(bot_name))
