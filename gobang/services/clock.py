"""Time sources, passed into services so tests can control time."""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], float]


def monotonic() -> float:
    return time.monotonic()


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
