"""Ports for the servers tests start.

Each pytest-xdist worker hands out ports from a block of its own below the kernel's ephemeral
range (32768 and up on Linux). Two workers never pick the same port. An outgoing connection's
local port, which the kernel takes from the ephemeral range, cannot take a port between its
choice and the server's bind, which the former `bind(("127.0.0.1", 0))` way allowed. A run's
start inside its block depends on its process id, so that two runs at once (a `make check`
beside a `make test`) start far apart; a port still bound by anyone is skipped.
"""

from __future__ import annotations

import itertools
import os
import socket

FIRST = 20_000
BLOCK = 1_500  # 8 workers: 20,000 to 31,999, below the ephemeral range
WORKERS = 8


def worker_index(name: str | None = None) -> int:
    """gw0 -> 0, gw5 -> 5; 0 outside xdist."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "") if name is None else name
    digits = name.removeprefix("gw")
    return int(digits) % WORKERS if digits.isdigit() else 0


def _candidates() -> itertools.cycle[int]:
    start = FIRST + worker_index() * BLOCK
    offset = (os.getpid() * 7919) % BLOCK
    return itertools.cycle([start + (offset + i) % BLOCK for i in range(BLOCK)])


_ports = _candidates()


def free_port() -> int:
    """The next port of this worker's block that nobody has bound."""
    for _ in range(BLOCK):
        port = next(_ports)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in this worker's block")
