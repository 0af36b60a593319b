"""New games' players, written into the user -> game map before the games are committed.

The leader makes a batch of games in one database transaction. Its players must be "in a game"
in Redis before that commit, never after: a leader killed between a commit and a later Redis
write left committed games whose players looked free, and the next leader paired them again.
So the order is: flush (the ids), `reserve` (one script: each game's players into the map, out
of the queue, the game marked reserved by this process), commit, `confirm` (the marks gone, the
pairs no longer kept aside). A rollback `release`s the batch again.

Killed between `reserve` and `confirm`, a process leaves reserved marks. Once its lease has run
out they are `stale`: the leader looks each game up in the database (committed: `confirm`, and
the sweep adopts it; not committed: `release`, and the pair waits in the queue again), and so
does a player's next press that finds one. A process that stalled past its lease and commits
after all finds its marks gone (`confirm` names them) and aborts those games.

Keys: `gobang:reserved` (game id -> "process|when ms|user,user").
"""

from __future__ import annotations

from collections.abc import Sequence

import redis

from gobang.services.cluster.processes import NOW_MS, PROCESSES, Processes
from gobang.services.cluster.redis_store import PAIRING, PAIRING_AT, QUEUE, RESERVED, USER_GAME

# The users of a reserved mark ("process|ms|1,2").
USERS = """
local function users(mark)
  local list = {}
  local _, _, names = string.find(mark, '^[^|]*|[^|]*|(.*)$')
  for user in string.gmatch(names, '%d+') do list[#list + 1] = user end
  return list
end
"""

# KEYS: user_game, queue, reserved. ARGV: member, then "game:user,user" for each game.
# A game whose player already has a game is refused: returns {game, the player's game, ...}.
RESERVE = NOW_MS + USERS + """
local refused = {}
for i = 2, #ARGV do
  local _, _, game, names = string.find(ARGV[i], '^(%d+):(.*)$')
  local people = users('||' .. names)
  local busy = nil
  for _, user in ipairs(people) do
    busy = busy or redis.call('HGET', KEYS[1], user)
  end
  if busy then
    refused[#refused + 1] = game
    refused[#refused + 1] = busy
  else
    for _, user in ipairs(people) do
      redis.call('HSET', KEYS[1], user, game)
      redis.call('HDEL', KEYS[2], user)
    end
    redis.call('HSET', KEYS[3], game, ARGV[1] .. '|' .. now .. '|' .. names)
  end
end
return refused
"""

# KEYS: reserved, pairing, pairing times. ARGV: game ids, committed. Their marks go, and their
# players are no longer kept aside; returns the games whose mark was already gone (released by
# another process while this one stalled).
CONFIRM = USERS + """
local revoked = {}
for i = 1, #ARGV do
  local mark = redis.call('HGET', KEYS[1], ARGV[i])
  if mark then
    redis.call('HDEL', KEYS[1], ARGV[i])
    for _, user in ipairs(users(mark)) do
      redis.call('HDEL', KEYS[2], user)
      redis.call('ZREM', KEYS[3], user)
    end
  else
    revoked[#revoked + 1] = ARGV[i]
  end
end
return revoked
"""

# KEYS: reserved, user_game. ARGV: game ids, never committed. Their players' entries that
# still name them go, with their marks; returns the games released (a game already confirmed
# has no mark and is left alone).
RELEASE = USERS + """
local released = {}
for i = 1, #ARGV do
  local mark = redis.call('HGET', KEYS[1], ARGV[i])
  if mark then
    for _, user in ipairs(users(mark)) do
      if redis.call('HGET', KEYS[2], user) == ARGV[i] then redis.call('HDEL', KEYS[2], user) end
    end
    redis.call('HDEL', KEYS[1], ARGV[i])
    released[#released + 1] = ARGV[i]
  end
end
return released
"""

# KEYS: reserved, processes. ARGV: age ms. The games reserved by a process whose lease has run
# out, or longer ago than the age (a reservation lasts one commit).
STALE = NOW_MS + """
local found = {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local _, _, member, at = string.find(all[i + 1], '^([^|]*)|([^|]*)|')
  local ends = redis.call('ZSCORE', KEYS[2], member)
  if not ends or tonumber(ends) <= now or tonumber(at) < now - tonumber(ARGV[1]) then
    found[#found + 1] = all[i]
  end
end
return found
"""

# KEYS: user_game, reserved. ARGV: user, game. Drops the user's entry if it still names a game
# that is not reserved (a reserved one is settled as a whole: `release`).
FORGET_ENTRY = """
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return 0 end
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
return redis.call('HDEL', KEYS[1], ARGV[1])
"""

# A reservation older than this many leases is stale even if its process lives: it lasts
# one commit, and the database gives up on a connection well before.
OLD_LEASES = 10


class RedisReservations:
    def __init__(self, client: redis.Redis, processes: Processes) -> None:
        self.client = client
        self.processes = processes
        self._reserve = client.register_script(RESERVE)
        self._confirm = client.register_script(CONFIRM)
        self._release = client.register_script(RELEASE)
        self._stale = client.register_script(STALE)
        self._forget_entry = client.register_script(FORGET_ENTRY)

    def reserve(self, games: Sequence[tuple[int, tuple[int, ...]]]) -> dict[int, int]:
        """Each game's players into the user -> game map and out of the queue, atomically
        for the batch; returns the refused games, each with the game a player already has."""
        if not games:
            return {}
        found = self._reserve(keys=[USER_GAME, QUEUE, RESERVED], args=[
            self.processes.me,
            *(f"{game_id}:{','.join(map(str, people))}" for game_id, people in games)])
        return {int(found[i]): int(found[i + 1]) for i in range(0, len(found), 2)}

    def confirm(self, game_ids: Sequence[int]) -> list[int]:
        """The games are committed; returns those released meanwhile by another process."""
        if not game_ids:
            return []
        return [int(g) for g in self._confirm(keys=[RESERVED, PAIRING, PAIRING_AT],
                                              args=list(game_ids))]

    def release(self, game_ids: Sequence[int]) -> list[int]:
        """The games were not committed: their players are free again."""
        if not game_ids:
            return []
        return [int(g) for g in self._release(keys=[RESERVED, USER_GAME], args=list(game_ids))]

    def stale(self) -> list[int]:
        """Games reserved by a process that died (or long ago), committed or not."""
        age = OLD_LEASES * self.processes.lease_ms
        return [int(g) for g in self._stale(keys=[RESERVED, PROCESSES], args=[age])]

    def forget_entry(self, user_id: int, game_id: int) -> bool:
        """The user's entry names a game that is over or gone: dropped, unless it is reserved
        or names another game by now."""
        return bool(self._forget_entry(keys=[USER_GAME, RESERVED], args=[user_id, game_id]))
