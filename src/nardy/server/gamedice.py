"""The verifiable dice of a server match (docs/dice.md): each game of the match has its own
:class:`~nardy.core.fair_dice.FairDice`, whose commitment is published, and stored, before
the game's first roll; the players may add their seeds until then; the seed is revealed when
the game is over. The match's ``dice`` attribute always holds the dice of the *next* game to
start, so that even a game that starts by itself (when the previous one ends) was committed
to in advance."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nardy.core.fair_dice import FairDice
from nardy.core.game import Game
from nardy.core.match import Match


def first_dice(game_id: str) -> FairDice:
    """The dice of a match's first game."""
    return FairDice.new(f"{game_id}.1")


def _fair(game: Game) -> FairDice:
    dice = game.dice_source
    assert isinstance(dice, FairDice), "a server game rolls fair dice"
    return dice


def _next(match: Match) -> FairDice:
    dice = match.dice
    assert isinstance(dice, FairDice), "a server match rolls fair dice"
    return dice


def prepare_next(match: Match, game_id: str) -> None:
    """After an action: if a game started with the prepared dice, prepare the next game's."""
    if match.games and _fair(match.games[-1]) is _next(match):
        match.dice = FairDice.new(f"{game_id}.{len(match.games) + 1}")


def dice_state(match: Match) -> dict[str, Any]:
    """What the database keeps (secret: it holds the server seeds): each game's dice and
    the next game's."""
    return {
        "games": [_fair(game).state() for game in match.games],
        "next": _next(match).state(),
    }


def take_next(match: Match, state: Mapping[str, Any]) -> None:
    """The next game's dice as a stored checkpoint (:func:`dice_state`) holds them: drawn
    by the process that committed the start of the game under way, which this match has
    just replayed. :class:`ValueError` where this match's games did not deal what the
    checkpoint's did (it is not the game committed)."""
    if [_fair(game).state() for game in match.games] != list(state["games"]):
        raise ValueError("the games' dice are not those of the checkpoint")
    match.dice = FairDice.from_state(state["next"])


def restore(snapshot: Mapping[str, Any], state: Mapping[str, Any]) -> Match:
    """The match of a snapshot with each game's dice as stored, going on at the next die."""
    match = Match.restore(dict(snapshot), dice=FairDice.from_state(state["next"]))
    stored = state["games"]
    if len(stored) != len(match.games):
        raise ValueError("the stored dice do not match the games of the snapshot")
    for game, dice in zip(match.games, stored, strict=True):
        game.dice_source = FairDice.from_state(dice)
    return match


def public(match: Match) -> dict[str, Any]:
    """What everybody sees of the dice: the game under way's commitment and client seeds
    (and its server seed once it is over), and the next game's commitment."""
    game = match.game
    return {
        "game": None if game is None else _fair(game).block(reveal=game.over),
        "next": _next(match).block(reveal=False),
    }


def seed_target(match: Match) -> FairDice:
    """The dice a player's seed goes to now: the game under way's, or before the first game
    the first game's."""
    game = match.game
    return _next(match) if game is None or game.over else _fair(game)


def rolls_dealt(state: Mapping[str, Any], skip: int = 0) -> list[tuple[int, int]]:
    """Every roll a match's stored dice (:func:`dice_state`) have dealt, game by game, after
    the first ``skip`` of them: the opening rolls (one die each, as one roll of the scheme)
    and every turn's roll, derived from the seeds as ``nardy verify-dice`` derives them. Only
    dice already dealt are derived, never the next ones; the next game's dice have dealt
    none. The rolls skipped are not derived at all, so counting on from a tally costs only
    the new rolls."""
    rolls: list[tuple[int, int]] = []
    for stored in state["games"]:
        dice = FairDice.from_state(stored)
        # a lone last die (half a roll) is no roll: counting it would skew the per-roll table
        count = dice.dealt // 2
        rolls += [dice.seeds.roll(n) for n in range(min(skip, count), count)]
        skip = max(0, skip - count)
    return rolls
