"""Sliding-window rate limits keyed by anything hashable (client address, user id)."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Hashable

from gobang.services.clock import Clock, monotonic


class RateLimiter:
    def __init__(
        self, limit: int, window: float, clock: Clock = monotonic, enabled: bool = True
    ) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.enabled = enabled
        self._hits: dict[Hashable, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: Hashable) -> bool:
        """Record an attempt; False when the key is over its limit (the attempt is not counted)."""
        if not self.enabled:
            return True
        now = self.clock()
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return False
            hits.append(now)
            self._forget_idle(now)
            return True

    def _forget_idle(self, now: float) -> None:
        # Keeps memory bounded by the number of recently active keys.
        if len(self._hits) > 10_000:
            stale = [k for k, h in self._hits.items() if not h or h[-1] <= now - self.window]
            for key in stale:
                del self._hits[key]
