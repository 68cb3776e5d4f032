"""Latency of the event bus between processes (nardy.server.bus.bus over Redis).

    python bench/bus.py --rate 1000 --seconds 5 --channels 2000

One bus subscribes to ``--channels`` game channels; another publishes ``--rate`` messages a
second, spread over the channels (a server with that many games, each making a move every
``channels / rate`` seconds). Prints the messages received and the p50 / p99 / max time from
a publish call to the subscriber having the message. ``--burst`` publishes them all at once
instead and prints the throughput. Both buses run in this one process, so on a busy machine
the figures include waiting for the CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from nardy.server.bus.bus import Message, RedisBus, Subscription


async def run(url: str, rate: float, seconds: float, channels: int, burst: bool) -> None:
    tag = uuid.uuid4().hex[:8]
    names = [f"bench-{tag}:{i}" for i in range(channels)]
    async with RedisBus(url, name="bench-receiver") as receiver, RedisBus(url) as sender:
        started = time.perf_counter()
        subscriptions = [await receiver.subscribe(name) for name in names]
        print(f"{channels} subscriptions in {time.perf_counter() - started:.2f} s")
        latencies: list[float] = []

        async def consume(subscription: Subscription) -> None:
            while True:
                item = await subscription.get()
                if isinstance(item, Message):
                    latencies.append(time.perf_counter() - item.data["t"])

        consumers = [asyncio.create_task(consume(s)) for s in subscriptions]
        count = int(rate * seconds)
        started = time.perf_counter()
        if burst:
            await asyncio.gather(
                *(
                    sender.publish(names[k % channels], {"t": time.perf_counter()})
                    for k in range(count)
                )
            )
        else:
            sends = []
            for k in range(count):
                wait = started + k / rate - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
                message = {"t": time.perf_counter()}
                sends.append(asyncio.create_task(sender.publish(names[k % channels], message)))
            await asyncio.gather(*sends)
        while len(latencies) < count and time.perf_counter() - started < seconds + 10:
            await asyncio.sleep(0.01)
        elapsed = time.perf_counter() - started
        for consumer in consumers:
            consumer.cancel()
        latencies.sort()
        if not latencies:
            print("nothing received")
            return
        ms = [1000 * latencies[int(q * (len(latencies) - 1))] for q in (0.5, 0.99, 1.0)]
        print(
            f"{len(latencies)} of {count} received in {elapsed:.2f} s"
            + (f" ({len(latencies) / elapsed:.0f}/s)" if burst else f" at {rate:.0f}/s")
            + f"; latency p50 {ms[0]:.1f} ms, p99 {ms[1]:.1f} ms, max {ms[2]:.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--rate", type=float, default=1000.0, help="messages a second")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--channels", type=int, default=2000)
    parser.add_argument("--burst", action="store_true", help="all messages at once")
    args = parser.parse_args()
    asyncio.run(run(args.url, args.rate, args.seconds, args.channels, args.burst))


if __name__ == "__main__":
    main()
