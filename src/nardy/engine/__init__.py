"""The engine: bots and analysis. Builds on the rules core and notation.

A :class:`Bot` makes every decision of a player; :func:`play_game` and :func:`play_match`
let bots play to the end (see :mod:`nardy.engine.bots`).
"""

from nardy.engine.bots import (
    BOTS,
    Bot,
    HeuristicBot,
    RandomBot,
    keith_count,
    make_bot,
    play_game,
    play_match,
    step,
)

__all__ = [
    "BOTS",
    "Bot",
    "HeuristicBot",
    "RandomBot",
    "keith_count",
    "make_bot",
    "play_game",
    "play_match",
    "step",
]
