"""The computer's decisions in a server game, run in a worker process: from the match's
snapshot, the core action the bot of a seat takes now. The worker never rolls: a roll is an
action that the room applies with the server's dice."""

from __future__ import annotations

import functools
from typing import Any

from nardy.core.actions import Action
from nardy.core.chouette import Chouette
from nardy.core.dice import FixedDice
from nardy.core.match import Match
from nardy.core.team import Consultation
from nardy.engine.bots import Bot, chouette_decision, consultation_decision, decision, make_bot
from nardy.server.games import GameKind


@functools.cache
def _bot(name: str) -> Bot:
    return make_bot(name)  # the net loads once per worker process


def decide(snapshot: dict[str, Any], seat: int, bot_name: str) -> Action:
    """The action the bot ``bot_name`` playing ``seat`` takes in the match ``snapshot``: the
    engine's own :func:`~nardy.engine.bots.decision`, as every other driver of a bot asks it."""
    match = Match.restore(snapshot, dice=FixedDice([]))
    return decision(match, seat, _bot(bot_name))


def decide_at_table(
    kind: GameKind, snapshot: dict[str, Any], name: str, bot_name: str
) -> Action | None:
    """The action the bot ``bot_name`` seated as ``name`` takes at a chouette table or in a
    consultation game (``kind``) whose snapshot this is; None when it lets the decision pass
    (:func:`~nardy.engine.bots.chouette_decision`)."""
    if kind == GameKind.CHOUETTE:
        return chouette_decision(Chouette.restore(snapshot, FixedDice([])), name, _bot(bot_name))
    consultation = Consultation.restore(snapshot, FixedDice([]))
    return consultation_decision(consultation, name, _bot(bot_name))
