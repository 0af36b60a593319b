"""Leases: a name held by one process at a time for a few seconds, renewed while it lives.

The leader's lease says which process runs the matcher and the hall's fan-out; a game's lease
says which process plays it. A process that dies stops renewing, and after `seconds` another
may take what it held. One process alone holds every lease (`SoleLeases`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import redis

PREFIX = "gobang:lease:"

# Take when free, already ours, or held by ARGV[3] (a hand-over mark); ours for the lease's
# length from now.
_TAKE = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] and holder ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
# Ours becomes ARGV[2] (a mark anyone may take) for ARGV[3] ms.
_HAND_OVER = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) and 1 or 0
end
return 0
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

    def take(self, name: str, over: str = "") -> bool: ...
    def take_many(self, names: Sequence[str]) -> list[bool]: ...
    def hand_over(self, names: Sequence[str], mark: str, seconds: float) -> None: ...
    def renew(self, names: Sequence[str]) -> list[str]: ...
    def release(self, name: str) -> None: ...
    def holder(self, name: str) -> str | None: ...
    def holders(self, names: Sequence[str]) -> list[str | None]: ...


class SoleLeases:
    """The single process: every lease is its own, always."""

    def __init__(self, me: str) -> None:
        self.me = me

    def take(self, name: str, over: str = "") -> bool:
        return True

    def take_many(self, names: Sequence[str]) -> list[bool]:
        return [True] * len(names)

    def hand_over(self, names: Sequence[str], mark: str, seconds: float) -> None:
        return None

    def renew(self, names: Sequence[str]) -> list[str]:
        return []

    def release(self, name: str) -> None:
        return None

    def holder(self, name: str) -> str | None:
        return self.me

    def holders(self, names: Sequence[str]) -> list[str | None]:
        return [self.me] * len(names)


class RedisLeases:
    def __init__(self, client: redis.Redis, me: str, seconds: float) -> None:
        self.client = client
        self.me = me
        self.millis = int(seconds * 1000)
        self._take = client.register_script(_TAKE)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)
        self._hand_over = client.register_script(_HAND_OVER)

    def take(self, name: str, over: str = "") -> bool:
        """Ours if free or already ours, or if its holder is the mark `over`."""
        return bool(self._take(keys=[PREFIX + name], args=[self.me, self.millis, over]))

    def take_many(self, names: Sequence[str]) -> list[bool]:
        """`take` for each (a batch of new games), in one round trip."""
        return self._each(self._take, names, [self.me, self.millis, ""])

    def hand_over(self, names: Sequence[str], mark: str, seconds: float) -> None:
        """Ours no longer: held by `mark` for `seconds`, for whoever takes them over it."""
        self._each(self._hand_over, names, [self.me, mark, int(seconds * 1000)])

    def _each(self, script: Any, names: Sequence[str], args: list[Any]) -> list[bool]:
        if not names:
            return []
        pipe = self.client.pipeline(transaction=False)
        for name in names:
            script(keys=[PREFIX + name], args=args, client=pipe)
        return [bool(done) for done in pipe.execute()]

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

    def holders(self, names: Sequence[str]) -> list[str | None]:
        """`holder` of each, in one round trip."""
        if not names:
            return []
        return [value.decode() if value is not None else None
                for value in self.client.mget([PREFIX + name for name in names])]
