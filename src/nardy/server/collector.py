"""The garbage collector of a server process, kept from pausing the rooms.

A full collection of CPython's cycle collector scans every object the process holds, and
every room holds thousands (its match, the log since the checkpoint, its sockets'
coroutines): 150 games held ~280,000, and a full collection of them paused the event loop
for 70-200 ms, which every action waiting then waited too (docs/benchmarks.md). So the
process freezes what has lived a while (:func:`gc.freeze`, which moves every tracked object
out of the collector's reach in constant time) every :data:`FREEZE_S`: the collector's own
collections then scan only what was made since, and stay short. What a frozen object's cycle
leaves behind once it is dropped (a room that ends, a socket that closes) is collected by a
sweep of everything every :data:`SWEEP_S`, the one long pause left, rare enough to stay
out of the 99th percentile.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time

FREEZE_S = 1.0
"""How often what has survived so far is frozen (the young collections keep running)."""
SWEEP_S = 600.0
"""How often everything, the frozen included, is collected once."""


class Collector:
    """The process's freezing and sweeping, on its event loop from :meth:`start` to
    :meth:`stop`."""

    def __init__(self, freeze_s: float = FREEZE_S, sweep_s: float = SWEEP_S) -> None:
        self.freeze_s = freeze_s
        self.sweep_s = sweep_s
        self.sweeps = 0
        """Full collections made so far."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Freeze what the process holds now (its code, its restored rooms) and keep
        freezing."""
        gc.freeze()
        self._task = asyncio.create_task(self._run(), name="garbage collector")

    async def _run(self) -> None:
        swept = time.monotonic()
        while True:
            await asyncio.sleep(self.freeze_s)
            if time.monotonic() - swept >= self.sweep_s:
                self.sweep()
                swept = time.monotonic()
            gc.freeze()

    def sweep(self) -> None:
        """Collect everything once, the frozen objects included, and freeze the survivors."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.sweeps += 1

    async def stop(self) -> None:
        """Stop freezing and give the collector back everything frozen."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        gc.unfreeze()
