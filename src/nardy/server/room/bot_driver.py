"""The bot driver of a room: the computer's players decide in a process pool, off the
event loop, on the committed snapshot, and act after the delay their opponent chose, through
the room's own :meth:`~nardy.server.room.actor.Room.act` like any player."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor

from nardy.core.actions import Action, Player
from nardy.server import protocol
from nardy.server.room.host import Host
from nardy.server.store.store import GameRow

log = logging.getLogger(__name__)

Act = Callable[[Player, Action], Awaitable[protocol.Refused | None]]


class BotDriver:
    """Asks the first bot the game waits for, one at a time."""

    def __init__(
        self,
        host: Host,
        row: Callable[[], GameRow],
        seq: Callable[[], int],
        act: Act,
        pool: Callable[[], Executor],
    ) -> None:
        self._host = host
        self._row = row
        self._seq = seq
        self._act = act
        self._pool = pool
        self._task: asyncio.Task[None] | None = None
        # A bot that let a decision pass (a chouette member who would not double), by the
        # action number it decided at: not asked again until the game moves on.
        self.resting: dict[Player, int] = {}

    def schedule(self) -> None:
        """Let the first bot the game waits for act after its delay."""
        if self._task is not None and not self._task.done():
            return
        for player in self._host.bot_players(self._row()):
            if self.resting.get(player) != self._seq() and self._host.bot_waits(player):
                self._task = asyncio.create_task(self._turn(player))
                return

    async def _turn(self, player: Player) -> None:
        host, row = self._host, self._row()
        await asyncio.sleep(host.bot_delay(row, player))
        if not host.bot_waits(player):
            # The game moved on while the bot waited (the person won the opening roll):
            # nothing to decide; the person's next action schedules the bot again.
            self._task = None
            return
        seq = self._seq()
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(self._pool(), host.bot_job(self._row(), player))
        except Exception:
            log.exception("game %s: the bot failed", host.game_id)
            self._task = None
            if self._seq() != seq:  # asked about a moment that has passed: ask about this one
                self.schedule()
            return
        self._task = None  # this turn is done thinking: the next may be scheduled
        if self._seq() != seq:  # the human acted meanwhile (the opening roll): think again
            self.schedule()
            return
        if action is None:  # it lets this decision pass: ask again after the next action
            self.resting[player] = seq
            self.schedule()  # another bot may be the one the game waits for
            return
        refused = await self._act(player, action)
        if refused is None:
            return
        if self._seq() != seq:  # the human's action got in first: think again on the new state
            self.schedule()
        else:
            log.error(
                "game %s: the bot's %r was refused: %s", host.game_id, action, refused.message
            )

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
