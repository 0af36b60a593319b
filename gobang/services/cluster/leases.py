"""Leases: a name held by one process at a time for a few seconds, renewed while it lives.

The leader's lease says which process runs the matcher and the hall's fan-out; a game's lease
says which process plays it. A process that dies stops renewing, and after `seconds` another
may take what it held. One process alone holds every lease (`SoleLeases`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import redis

PREFIX = "gobang:lease:"

# Take when free or already ours; either way ours for the lease's length from now.
_TAKE = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Leases(Protocol):
    me: str

    def take(self, name: str) -> bool: ...
    def renew(self, names: Sequence[str]) -> list[str]: ...
    def release(self, name: str) -> None: ...
    def holder(self, name: str) -> str | None: ...


class SoleLeases:
    """The single process: every lease is its own, always."""

    def __init__(self, me: str) -> None:
        self.me = me

    def take(self, name: str) -> bool:
        return True

    def renew(self, names: Sequence[str]) -> list[str]:
        return []

    def release(self, name: str) -> None:
        return None

    def holder(self, name: str) -> str | None:
        return self.me


class RedisLeases:
    def __init__(self, client: redis.Redis, me: str, seconds: float) -> None:
        self.client = client
        self.me = me
        self.millis = int(seconds * 1000)
        self._take = client.register_script(_TAKE)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    def take(self, name: str) -> bool:
        """Ours if free or already ours."""
        return bool(self._take(keys=[PREFIX + name], args=[self.me, self.millis]))

    def renew(self, names: Sequence[str]) -> list[str]:
        """Renews the leases still ours in one round trip; returns the names we lost."""
        if not names:
            return []
        pipe = self.client.pipeline(transaction=False)
        for name in names:
            self._renew(keys=[PREFIX + name], args=[self.me, self.millis], client=pipe)
        kept = pipe.execute()
        return [name for name, ok in zip(names, kept, strict=True) if not ok]

    def release(self, name: str) -> None:
        self._release(keys=[PREFIX + name], args=[self.me])

    def holder(self, name: str) -> str | None:
        value = self.client.get(PREFIX + name)
        return value.decode() if value is not None else None
