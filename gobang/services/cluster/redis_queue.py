"""The match queue shared by several server processes, in Redis (keys in redis_store.py):
each entry as JSON, and pairs kept aside from the moment a matcher takes them until their game
is made, so that a leader dying in between loses no one."""

from __future__ import annotations

import json
from collections.abc import Sequence

import redis

from gobang.services.cluster.processes import NOW_MS
from gobang.services.cluster.redis_store import PAIRING, PAIRING_AT, QUEUE, RESERVED, USER_GAME
from gobang.services.store import QueueEntry

# KEYS: queue. ARGV: user. Removes and returns the entry.
TAKE = """
local entry = redis.call('HGET', KEYS[1], ARGV[1])
if entry then redis.call('HDEL', KEYS[1], ARGV[1]) end
return entry
"""

# KEYS: queue, pairing, pairing times. ARGV: pairs of users. Of each pair both out of the
# queue, or neither; kept aside in `pairing`, with when, until their game is made (a game's
# reservation is confirmed, or `settle`). Returns 1 or 0 for each pair.
TAKE_PAIRS = NOW_MS + """
local taken = {}
for i = 1, #ARGV, 2 do
  local first = redis.call('HGET', KEYS[1], ARGV[i])
  local second = redis.call('HGET', KEYS[1], ARGV[i + 1])
  if ARGV[i] ~= ARGV[i + 1] and first and second then
    redis.call('HDEL', KEYS[1], ARGV[i], ARGV[i + 1])
    redis.call('HSET', KEYS[2], ARGV[i], first, ARGV[i + 1], second)
    redis.call('ZADD', KEYS[3], now, ARGV[i], now, ARGV[i + 1])
    taken[#taken + 1] = 1
  else
    taken[#taken + 1] = 0
  end
end
return taken
"""

# KEYS: queue, pairing, pairing times, user_game, reserved. ARGV: age in ms. Back to the
# queue, whoever was taken that long ago for a game that was never made (the leader died
# between taking them and making it). A younger pair is being made into a game right now, and
# one whose game is reserved but not yet known to be committed or not waits for that: left.
RETURN_PENDING = NOW_MS + """
local stale = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now - tonumber(ARGV[1]))
local back = 0
for _, user in ipairs(stale) do
  local entry = redis.call('HGET', KEYS[2], user)
  local game = redis.call('HGET', KEYS[4], user)
  if not (game and redis.call('HEXISTS', KEYS[5], game) == 1) then
    if entry and not game then
      back = back + redis.call('HSETNX', KEYS[1], user, entry)
    end
    redis.call('HDEL', KEYS[2], user)
    redis.call('ZREM', KEYS[3], user)
  end
end
return back
"""


class RedisQueue:
    """The queue every process pairs from: taking a pair is one script, so that two
    matchers never both take a player."""

    def __init__(self, client: redis.Redis, lease_ms: int) -> None:
        self.client = client
        # How long a pair may stay taken before it is known that no game will be made of it.
        self.lease_ms = lease_ms
        self._take = client.register_script(TAKE)
        self._take_pairs = client.register_script(TAKE_PAIRS)
        self._return_pending = client.register_script(RETURN_PENDING)

    def put(self, entry: QueueEntry) -> bool:
        """Queue the user unless already queued (then the first entry keeps its place)."""
        return bool(self.client.hsetnx(QUEUE, str(entry.user_id), _dump(entry)))

    def remove(self, user_id: int) -> QueueEntry | None:
        found = self._take(keys=[QUEUE], args=[user_id])
        return _load(found) if found else None

    def entries(self) -> list[QueueEntry]:
        """In the order they joined (Redis keeps no order of its own)."""
        entries = [_load(raw) for raw in self.client.hvals(QUEUE)]
        return sorted(entries, key=lambda e: (e.joined_at, e.user_id))

    def entry(self, user_id: int) -> QueueEntry | None:
        found = self.client.hget(QUEUE, str(user_id))
        return _load(found) if found else None

    def take_pair(self, first: int, second: int) -> bool:
        return self.take_pairs([(first, second)])[0]

    def take_pairs(self, pairs: Sequence[tuple[int, int]]) -> list[bool]:
        """Of each pair both users out of the queue, or neither, atomically across processes,
        for a batch in one round trip; they are kept aside until their game is made."""
        if not pairs:
            return []
        found = self._take_pairs(keys=[QUEUE, PAIRING, PAIRING_AT],
                                 args=[user for pair in pairs for user in pair])
        return [bool(taken) for taken in found]

    def settle(self, first: int, second: int) -> None:
        with self.client.pipeline() as settle:
            settle.hdel(PAIRING, str(first), str(second))
            settle.zrem(PAIRING_AT, str(first), str(second))
            settle.execute()

    def return_pending(self) -> int:
        """Pairs taken a lease ago and never settled (their leader died before making the
        game) go back to the queue, unless they have a game. Returns how many users went
        back. Not younger ones: another process may still be making their game (a leader
        whose lead just passed on, or a second matcher)."""
        return int(self._return_pending(keys=[QUEUE, PAIRING, PAIRING_AT, USER_GAME, RESERVED],
                                        args=[self.lease_ms]))


def _dump(entry: QueueEntry) -> str:
    return json.dumps({"user_id": entry.user_id, "score": entry.score,
                       "ruleset": entry.ruleset, "clock": entry.clock,
                       "joined_at": entry.joined_at, "provisional": entry.provisional,
                       "opening": entry.opening})


def _load(raw: bytes | str) -> QueueEntry:
    found = json.loads(raw)
    clock = found["clock"]
    return QueueEntry(found["user_id"], found["score"], found["ruleset"],
                      tuple(clock) if clock is not None else None, found["joined_at"],
                      found.get("provisional", False),  # queued before ratings: not
                      found.get("opening", "none"))  # queued before openings: none
