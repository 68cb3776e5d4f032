"""The server's garbage collector: what lived a while is frozen out of the collector's scans,
and the sweep still frees what a frozen cycle left behind."""

from __future__ import annotations

import asyncio
import gc
import weakref

from nardy.server.collector import Collector


class Node:
    """One half of a reference cycle, which only the cycle collector can free."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> Node:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a


def test_what_lived_a_while_is_frozen_and_the_sweep_frees_its_cycles() -> None:
    async def scenario() -> tuple[int, bool, bool, int]:
        collector = Collector(freeze_s=0.01, sweep_s=3600)
        collector.start()
        try:
            node: Node | None = cycle()
            held = weakref.ref(node)
            await asyncio.sleep(0.05)  # frozen by now
            frozen = gc.get_freeze_count()
            node = None  # garbage now, but a frozen cycle
            gc.collect()
            kept = held() is not None  # out of the collector's reach while frozen
            collector.sweep()
            freed = held() is None
            return frozen, kept, freed, collector.sweeps
        finally:
            await collector.stop()

    frozen, kept, freed, sweeps = asyncio.run(scenario())
    assert frozen > 0
    assert kept and freed and sweeps == 1
    assert gc.get_freeze_count() == 0  # stopped: everything is the collector's again


def test_the_sweep_comes_by_itself() -> None:
    async def scenario() -> int:
        collector = Collector(freeze_s=0.01, sweep_s=0.02)
        collector.start()
        await asyncio.sleep(0.2)
        await collector.stop()
        return collector.sweeps

    assert asyncio.run(scenario()) >= 1
