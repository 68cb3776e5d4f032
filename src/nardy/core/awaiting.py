"""Who must act now: what a client reads to enable its buttons and a bot to know whose
decision it is (the answer of ``awaiting()`` on a game, match, chouette or consultation)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nardy.core.actions import Player
from nardy.core.moves import Move


@dataclass(frozen=True, slots=True)
class Awaiting:
    """What the game waits for.

    ``phase`` is the game's phase (``opening``, ``roll``, ``doubled``, ``beavered``,
    ``moving``, ``choose-double``, ``resigned``, ``over``; a match between games says
    ``next-game``). ``actors`` lists each player who may act now with the action kinds (the
    actions' JSON ``type``) open to them; nobody acts in a finished game. While moving,
    ``moves`` are the legal next single moves and ``dice`` the dice on the table.
    """

    phase: str
    actors: tuple[tuple[Player, tuple[str, ...]], ...]
    moves: tuple[Move, ...] = ()
    dice: tuple[int, int] | None = None

    @property
    def players(self) -> tuple[Player, ...]:
        """The players who may act now."""
        return tuple(player for player, _ in self.actors)

    @property
    def player(self) -> Player | None:
        """The one player whose decision it is, or None where both or nobody may act (the
        opening roll is rolled for both; a finished game waits for no one)."""
        return self.actors[0][0] if len(self.actors) == 1 else None

    def kinds(self, player: Player) -> tuple[str, ...]:
        """The action kinds open to ``player`` now (none if it is not their decision)."""
        return next((kinds for p, kinds in self.actors if p == player), ())

    def to_json(self) -> dict[str, Any]:
        """``{"phase", "actors": [{"player", "actions"}], "moves": ["24/18"...], "dice"}``."""
        return {
            "phase": self.phase,
            "actors": [{"player": p, "actions": list(kinds)} for p, kinds in self.actors],
            "moves": [{"from": m.start, "to": m.end, "hit": m.hit} for m in self.moves],
            "dice": None if self.dice is None else list(self.dice),
        }
