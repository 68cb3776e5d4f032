"""The computer's decisions in a server game, run in a worker process: from the match's
snapshot, the action the bot of a seat takes now (as the core's wire form). The worker
never rolls: a roll is an action that the room applies with the server's dice."""

from __future__ import annotations

import functools
from typing import Any

from nardy.core.dice import FixedDice
from nardy.core.match import Match
from nardy.engine.bots import Bot, decision, make_bot


@functools.cache
def _bot(name: str) -> Bot:
    return make_bot(name)  # the net loads once per worker process


def decide(snapshot: dict[str, Any], seat: int, bot_name: str) -> dict[str, Any]:
    """The action the bot ``bot_name`` playing ``seat`` takes in the match ``snapshot``: the
    engine's own :func:`~nardy.engine.bots.decision`, as every other driver of a bot asks it."""
    match = Match.restore(snapshot, dice=FixedDice([]))
    return decision(match, seat, _bot(bot_name)).to_json()
