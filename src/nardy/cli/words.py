"""The words of the terminal client: verbs that agree with a player's name, counted nouns,
and dice as GNU Backgammon writes them (the larger die first)."""

from __future__ import annotations

import re

from nardy.core.game import Game, Phase

_IRREGULAR = {"be": ("are", "is"), "have": ("have", "has")}


def conjugate(name: str, verb: str) -> str:
    """``verb`` agreeing with ``name`` as its subject: "You roll", "Player 2 rolls", "Bot
    passes", "You are", "Ann has"."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb][name != "You"]
    if name == "You":
        return verb
    return verb + ("es" if verb.endswith(("s", "sh", "ch", "x")) else "s")


def counted(count: int, noun: str) -> str:
    """``1 point``, ``3 points``, ``2 matches``."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {noun}{'es' if noun.endswith(('s', 'sh', 'ch', 'x')) else 's'}"


def dice_text(dice: tuple[int, int]) -> str:
    """Dice as GNU Backgammon writes them, the larger first: ``5-3``."""
    return f"{max(dice)}-{min(dice)}"


def dice_as_shown(text: str, dice: tuple[int, int] | None) -> str:
    """``text`` (a refusal of the game's) with the dice written as the screen shows them,
    the larger first: ``3-5`` as rolled becomes ``5-3``."""
    if dice is None or dice[0] >= dice[1]:
        return text
    return re.sub(rf"(?<!\d){dice[0]}-{dice[1]}(?!\d)", dice_text(dice), text)


def rolled(game: Game) -> str:
    """What the roll just made in ``game`` shows, the larger die first, and ``: no legal
    move`` where it passed the turn by itself."""
    if game.phase is Phase.MOVING:
        assert game.dice is not None
        return dice_text(game.dice)
    dice = game.records[-1].dice
    assert dice is not None
    return f"{dice_text(dice)}: no legal move"
