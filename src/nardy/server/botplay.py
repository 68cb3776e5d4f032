"""The computer's decisions in a server game, run in a worker process: from the match's
snapshot, the action the bot of a seat takes now (as the core's wire form). The worker
never rolls: a roll is an action that the room applies with the server's dice."""

from __future__ import annotations

import functools
from typing import Any

from nardy.core import actions as act
from nardy.core.dice import FixedDice
from nardy.core.match import Match
from nardy.engine.bots import Bot, make_bot


@functools.cache
def _bot(name: str) -> Bot:
    return make_bot(name)  # the net loads once per worker process


def decide(snapshot: dict[str, Any], seat: int, bot_name: str) -> dict[str, Any]:
    """The action the bot ``bot_name`` playing ``seat`` takes in the match ``snapshot``."""
    match = Match.restore(snapshot, dice=FixedDice([]))
    return choose(match, seat, _bot(bot_name)).to_json()


def choose(match: Match, seat: int, bot: Bot) -> act.Action:
    """The bot's action where the match waits for ``seat``."""
    awaiting = match.awaiting()
    kinds = awaiting.kinds(seat)
    game = match.game
    if not kinds:
        raise ValueError(f"the match does not wait for seat {seat}")
    if "roll-opening" in kinds or game is None:
        return act.RollOpening(seat)
    if "accept" in kinds:
        pending = game.resignation()
        assert pending is not None
        if bot.accept_resignation(game, seat, pending[1]):
            return act.Accept(seat)
        return act.Decline(seat)
    if "take" in kinds:
        if "beaver" in kinds and bot.should_beaver(game, seat):
            return act.Beaver(seat)
        return act.Take(seat) if bot.should_take(game, seat) else act.Pass(seat)
    if "roll" in kinds:
        if "double" in kinds and bot.should_double(game, seat):
            return act.Double(seat)
        return act.Roll(seat)
    if "choose-double" in kinds:
        return act.ChooseDouble(seat, bot.choose_double(game.position))
    if "play" in kinds:
        assert awaiting.dice is not None
        return act.Play(seat, str(bot.choose_play(game.turn_start, *awaiting.dice)))
    raise ValueError(f"the bot cannot answer {', '.join(kinds)}")
