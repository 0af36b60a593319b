"""Which server processes are alive, so that what a dead one held disappears from every reader.

Each process renews a lease in one sorted set, scored by the time its lease ends on Redis's own
clock (`TIME`), so the hosts' clocks never have to agree. Readers ignore entries of a process
whose lease has ended; the first live process to notice sweeps them away.
"""

from __future__ import annotations

from collections.abc import Iterable

import redis

PROCESSES = "gobang:processes"
STARTS = "gobang:process_starts"

# Redis's clock in milliseconds, for the scripts that compare it with a lease.
NOW_MS = "local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000) "

# KEYS: processes. ARGV: member, lease ms. Renews the lease; returns the members whose lease
# has ended.
RENEW = NOW_MS + """
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
"""

# KEYS: processes. Returns the members whose lease still runs.
ALIVE = NOW_MS + "return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')"


def text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class Processes:
    def __init__(self, client: redis.Redis, name: str, lease_seconds: float) -> None:
        self.client = client
        self.lease_ms = max(1, int(lease_seconds * 1000))
        # One member per start: a process that restarts under the same name must not bring
        # back the entries its former run left behind.
        self.me = f"{name}#{client.incr(STARTS)}"
        self._renew = client.register_script(RENEW)
        self._alive = client.register_script(ALIVE)
        self.renew()

    def renew(self) -> list[str]:
        """Extend this process's lease; returns the processes whose lease has ended."""
        return [text(m) for m in self._renew(keys=[PROCESSES], args=[self.me, self.lease_ms])
                if text(m) != self.me]

    def alive(self) -> list[str]:
        return [text(m) for m in self._alive(keys=[PROCESSES])]

    def key(self, name: str, member: str | None = None) -> str:
        """A key that belongs to one process (this one by default): gone with it."""
        return f"gobang:process:{member or self.me}:{name}"

    def keys(self, name: str, members: Iterable[str]) -> list[str]:
        return [self.key(name, member) for member in members]

    def forget(self, member: str) -> None:
        """Delete a dead process's own keys and its lease."""
        pattern = f"gobang:process:{_glob_escape(member)}:*"
        found = list(self.client.scan_iter(match=pattern, count=1000))
        with self.client.pipeline() as pipe:
            if found:
                pipe.delete(*found)
            pipe.zrem(PROCESSES, member)
            pipe.execute()


def _glob_escape(name: str) -> str:
    return "".join(f"\\{c}" if c in "*?[]\\" else c for c in name)
