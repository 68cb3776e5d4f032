"""The clock keeper of a room (:mod:`nardy.server.clocks`): where the game's clock stands
after each committed action, and a timer for the moment the running player's reserve runs
out, when the room commits the core's ``Forfeit`` through the same seq-checked commit as
any action (so of several processes holding the room only one forfeit is accepted)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from nardy.core.events import Event
from nardy.core.match import Match
from nardy.server import clocks
from nardy.server.store.store import GameRow

TimeIsUp = Callable[[int], Awaitable[None]]
"""What the room does when the reserve of the player to act at action ``seq`` has run out."""


class ClockKeeper:
    """A game's clock: its settings, its state as committed with the last action, and the
    timer that wakes the room up when the running player's reserve runs out."""

    def __init__(self, time_is_up: TimeIsUp) -> None:
        self._time_is_up = time_is_up
        self.clock: clocks.ClockSettings | None = None
        self.state: clocks.ClockState | None = None
        self._task: asyncio.Task[None] | None = None

    def load(self, row: GameRow, match: Match | None) -> None:
        """The clock as committed with the last action, or full before the first (only a
        match has a clock)."""
        self.clock = clocks.stored_clock(row.clock)
        self.heard(row.clock_state, match)

    def heard(self, state: Mapping[str, Any] | None, match: Match | None) -> None:
        """The clock as committed with an action (its stored form, None before the first):
        read from the game's row, or from another process's news of the action."""
        self.state = None
        if self.clock is None or match is None:
            return
        if state is not None:
            self.state = clocks.ClockState.from_json(state)
        else:
            self.state = clocks.start(self.clock, match.length)

    def after(self, match: Match | None, events: Sequence[Event]) -> clocks.ClockState | None:
        """The clock once this action's events have happened (None: the game has none)."""
        if self.clock is None or self.state is None or match is None:
            return None
        awaited = None if match.over else match.awaiting(moves=False).player
        assert awaited is None or type(awaited) is int
        return clocks.after(self.clock, self.state, match.length, time.time(), awaited, events)

    def flagged(self, over: bool) -> int | None:
        """The player whose reserve has run out, if one has."""
        if self.clock is None or self.state is None or over:
            return None
        return clocks.flagged(self.clock, self.state, time.time())

    def view(self, now: float) -> dict[str, Any] | None:
        """The clock as the room's state shows it."""
        if self.clock is None or self.state is None:
            return None
        return clocks.view(self.clock, self.state, now)

    def schedule(self, seq: int, over: bool) -> None:
        """Wake the room up when the running player's reserve runs out at action ``seq``
        (the last timer is dropped)."""
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self._task = None
        if self.clock is None or self.state is None or over:
            return
        end = clocks.deadline(self.clock, self.state)
        if end is not None:
            self._task = asyncio.create_task(self._runs_out(seq, end))

    async def _runs_out(self, seq: int, end: float) -> None:
        # A little past the deadline, so that the time is surely up when it is checked.
        await asyncio.sleep(max(0.0, end - time.time()) + 0.01)
        await self._time_is_up(seq)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
