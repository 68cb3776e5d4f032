"""The rematch of a finished two-seat match: once every person seated has offered it (the
bot always agrees), a new game with the same settings and clock starts with the seats
swapped, and everyone in the room is sent to it."""

from __future__ import annotations

from typing import Any

from nardy.server.games import GameStatus
from nardy.server.http import off_loop
from nardy.server.lobby.matches import new_game_id
from nardy.server.store.store import GameRow, Store


class Rematch:
    """The offers made so far and the rematch's game once it started."""

    def __init__(self) -> None:
        self.offers: set[int] = set()
        self.game: str | None = None

    def agreed(self, row: GameRow) -> bool:
        """Whether every person seated has offered the rematch."""
        people = {s for s, holder in enumerate(row.seats) if holder is not None}
        return people <= self.offers

    async def start(self, row: GameRow, store: Store) -> GameRow:
        """The new game, the seats swapped, stored as being played."""
        first, second = row.seats
        return await off_loop(
            store.create_game,
            new_game_id(),
            row.settings,
            row.creator_id,
            (second, first),
            status=GameStatus.PLAYING,
            private=row.private,
            bot=row.bot,
            bot_delay_ms=row.bot_delay_ms,
            clock=row.clock,
        )

    def view(self) -> dict[str, Any]:
        """The rematch as the room's state shows it."""
        return {"offers": sorted(self.offers), "game": self.game}
