"""Sliding-window rate limits keyed by anything hashable (client address, user id): in this
process's memory, or, for what must hold across processes, in Redis."""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Hashable
from typing import Protocol

import redis
from limits import RateLimitItemPerSecond
from limits.storage import RedisStorage
from limits.strategies import MovingWindowRateLimiter

from gobang.services.clock import Clock, monotonic

log = logging.getLogger("gobang.ratelimit")
# Seconds to wait for Redis before letting an attempt through (SharedRateLimiter).
REDIS_TIMEOUT = 2.0


class Limiter(Protocol):
    def hit(self, key: Hashable) -> bool:
        """Record an attempt; False when the key is over its limit (the attempt is not counted)."""
        ...


class RateLimiter:
    """In this process's memory. Not `limits`' MemoryStorage: that one reads the wall clock
    itself (no clock can be passed in, and an NTP step shifts every window), and a check
    costs 6-17 µs against this one's 1-2 µs, on every move (bench/ratelimit.py,
    docs/performance.md)."""

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


class SharedRateLimiter:
    """The same moving window as RateLimiter, kept in Redis, so that every process sharing it
    counts the attempts of all: a client's tenth login this minute is refused whichever
    process it reaches. Redis's own clock is not used, only each process's wall clock.

    Redis unreachable: the attempt is let through and logged. Refusing every login while Redis
    is down would lock out every player, not only the guessers."""

    def __init__(self, redis_url: str, name: str, limit: int, window: float,
                 enabled: bool = True) -> None:
        storage = RedisStorage(redis_url, key_prefix="gobang:limits",
                               socket_timeout=REDIS_TIMEOUT,
                               socket_connect_timeout=REDIS_TIMEOUT)
        self._strategy = MovingWindowRateLimiter(storage)
        self._item = RateLimitItemPerSecond(limit, max(1, round(window)), namespace=name)
        self.enabled = enabled

    def hit(self, key: Hashable) -> bool:
        if not self.enabled:
            return True
        try:
            return self._strategy.hit(self._item, str(key))
        except redis.RedisError as error:
            log.warning("rate limit unchecked", extra={"fields": {
                "limit": self._item.namespace, "error": type(error).__name__}})
            return True


def shared_limiter(redis_url: str | None, name: str, local: RateLimiter) -> Limiter:
    """`local` itself for one process; with several (Redis), the same limit counted in Redis
    under `name`. For limits per client address: a client may reach any process."""
    if not redis_url:
        return local
    return SharedRateLimiter(redis_url, name, local.limit, local.window, local.enabled)
