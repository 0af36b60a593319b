"""Time sources, passed into services so tests can control time."""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], float]


def monotonic() -> float:
    return time.monotonic()


def wall() -> float:
    """Seconds since the epoch: for what must agree between processes, unlike monotonic()."""
    return time.time()
