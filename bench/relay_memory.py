"""The stack's own memory per idle connection: N connections held by bench/relay_server.py.

    .venv/bin/python bench/relay_memory.py [--connections 5000]

The floor under `bench/load.py --scenario idle`: the same Flask-SocketIO + eventlet set-up with
no login, no application state. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import Server  # noqa: E402
from bench.players import HallIdler, new_http  # noqa: E402


async def hold(server: Server, count: int) -> dict:
    async with new_http() as http:
        time.sleep(1)
        before = server.rss()
        idlers = [HallIdler(http, server.url, "bench=1", "/room") for _ in range(count)]
        slots = asyncio.Semaphore(50)

        async def connect(idler: HallIdler) -> None:
            async with slots:
                await idler.connect()

        await asyncio.gather(*(connect(i) for i in idlers))
        await asyncio.sleep(10)
        after = server.rss()
        report = {"scenario": "relay-memory", "connections": count,
                  "open": sum(i.open for i in idlers),
                  "server_rss_mb": {"before": round(before / 2**20, 1),
                                    "connected": round(after / 2**20, 1)},
                  "kb_per_connection": round((after - before) / count / 1024, 1)}
        await asyncio.gather(*(i.close() for i in idlers))
        return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=5000)
    args = parser.parse_args()
    server = Server("relay").start()
    try:
        print(json.dumps(asyncio.run(hold(server, args.connections))))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
