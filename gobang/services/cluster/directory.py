"""The processes of a cluster as each other sees them: the Socket.IO path that reaches each
one through the proxy, and when each last showed a sign of life (a game adopted from a dead
process is charged thinking time up to then, not the downtime)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Protocol

import redis

PATHS = "gobang:process_paths"
ALIVE = "gobang:process_alive"
HOMES = "gobang:game_homes"


class Directory(Protocol):
    def stamp(self) -> None: ...
    def path_of(self, process: str) -> str | None: ...
    def alive_at(self, process: str) -> datetime | None: ...
    def settle(self, game_ids: Sequence[int]) -> None: ...
    def last_home(self, game_id: int) -> str | None: ...
    def forget(self, game_id: int) -> None: ...
    def settled(self) -> bool: ...
    def others_alive(self) -> bool: ...


class SoleDirectory:
    """One process: nobody else to find."""

    def stamp(self) -> None:
        return None

    def path_of(self, process: str) -> str | None:
        return None

    def alive_at(self, process: str) -> datetime | None:
        return None

    def settle(self, game_ids: Sequence[int]) -> None:
        return None

    def last_home(self, game_id: int) -> str | None:
        return None

    def forget(self, game_id: int) -> None:
        return None

    def settled(self) -> bool:
        return True

    def others_alive(self) -> bool:
        return False


class RedisDirectory:
    def __init__(self, client: redis.Redis, me: str, path: str | None, lease_seconds: float,
                 wall: Callable[[], float] = time.time) -> None:
        self.client = client
        self.me = me
        self.path = path
        self.lease_seconds = lease_seconds
        self.wall = wall

    def stamp(self) -> None:
        pipe = self.client.pipeline(transaction=False)
        pipe.hset(ALIVE, self.me, repr(self.wall()))
        if self.path:
            pipe.hset(PATHS, self.me, self.path)
        pipe.execute()

    def path_of(self, process: str) -> str | None:
        value = self.client.hget(PATHS, process)
        return value.decode() if value is not None else None

    def alive_at(self, process: str) -> datetime | None:
        value = self.client.hget(ALIVE, process)
        if value is None:
            return None
        # Naive UTC, as the database's timestamps are.
        return datetime.fromtimestamp(float(value), UTC).replace(tzinfo=None)

    def settle(self, game_ids: Sequence[int]) -> None:
        """This process plays the games now: remembered after their leases are gone, so that
        whoever adopts one knows whose last sign of life to charge the clock to."""
        if game_ids:
            self.client.hset(HOMES, mapping={str(game_id): self.me for game_id in game_ids})

    def last_home(self, game_id: int) -> str | None:
        value = self.client.hget(HOMES, str(game_id))
        return value.decode() if value is not None else None

    def forget(self, game_id: int) -> None:
        self.client.hdel(HOMES, str(game_id))

    def others_alive(self) -> bool:
        """Whether another process showed a sign of life within the last lease."""
        now = self.wall()
        return any(name.decode() != self.me and now - float(at) < self.lease_seconds
                   for name, at in self.client.hgetall(ALIVE).items())

    def settled(self) -> bool:
        """False for two leases after Redis started: every live process has renewed (so
        taken again) the leases of its games by then."""
        uptime = self.client.info("server").get("uptime_in_seconds", 0)
        return float(uptime) >= 2 * self.lease_seconds
