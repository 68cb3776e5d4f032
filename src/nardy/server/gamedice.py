"""The dice of a server game: where they come from, what the database keeps of their source,
and which dice each action drew (the action log keeps them beside its events)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nardy.core.dice import Dice, SecretDice


class RecordingDice:
    """A game's dice source that remembers the dice drawn since they were last taken."""

    def __init__(self, source: Dice) -> None:
        self.source = source
        self._drawn: list[int] = []

    def die(self) -> int:
        value = self.source.die()
        self._drawn.append(value)
        return value

    def take(self) -> list[int]:
        """The dice drawn since the last call."""
        drawn, self._drawn = self._drawn, []
        return drawn


def start_dice(game_id: str) -> tuple[Dice, dict[str, Any]]:
    """A new game's dice source and the state to keep of it."""
    return SecretDice(), {"source": "secrets"}


def restore_dice(state: Mapping[str, Any]) -> Dice:
    """The dice source of a game from its kept state (for the rolls still to come)."""
    if state.get("source") != "secrets":
        raise ValueError(f"unknown dice source {state.get('source')!r}")
    return SecretDice()
