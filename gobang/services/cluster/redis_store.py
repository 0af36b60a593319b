"""The live store shared by several server processes: connections and who plays which game
live in Redis; the LiveGame objects stay with the process that owns them. The match queue is
beside it (redis_queue.py), on the keys named here.

Keys: `gobang:connections:<namespace>` (user -> "sid|process"), `gobang:queue` (user -> the
entry as JSON), `gobang:user_game` (user -> game id). Every check-then-write is one Lua script,
so that two processes never both win.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import redis

from gobang.services.cluster.processes import NOW_MS, PROCESSES, Processes, text
from gobang.services.store import LocalGames

NAMESPACES = "gobang:connection_namespaces"
QUEUE = "gobang:queue"
PAIRING = "gobang:pairing"
PAIRING_AT = "gobang:pairing_at"
USER_GAME = "gobang:user_game"
# New games whose players are in USER_GAME before their commit (cluster/reservations.py).
RESERVED = "gobang:reserved"

# Whether the process `member` (an entry's part after the "|") still holds its lease.
ALIVE = NOW_MS + """
local function alive(member)
  local ends = redis.call('ZSCORE', KEYS[2], member)
  return ends and tonumber(ends) > now
end
local function split(entry)
  local bar = string.find(entry, '|', 1, true)
  return string.sub(entry, 1, bar - 1), string.sub(entry, bar + 1)
end
"""

# KEYS: connections, processes, namespaces. ARGV: user, "sid|member", sid, namespace, lease ms.
# Returns the sid replaced, if it was another one and its process is alive.
# A claim shows its process alive: with no lease on record (Redis restarted empty), one is
# written, else the connection would look dead until the process's next renewal. An existing
# lease is left as it is: renewing stays the keep-alive's job.
CLAIM = ALIVE + """
local old = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local _, me = split(ARGV[2])
redis.call('ZADD', KEYS[2], 'NX', now + tonumber(ARGV[5]), me)
redis.call('SADD', KEYS[3], ARGV[4])
if not old then return false end
local sid, member = split(old)
if sid == ARGV[3] or not alive(member) then return false end
return sid
"""

# KEYS: connections. ARGV: user, "sid|member". Forgets it unless another replaced it.
RELEASE = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
return redis.call('HDEL', KEYS[1], ARGV[1])
"""

# KEYS: connections, processes. ARGV: user. The live sid, if its process is alive.
CONNECTION = ALIVE + """
local entry = redis.call('HGET', KEYS[1], ARGV[1])
if not entry then return false end
local sid, member = split(entry)
if alive(member) then return sid end
return false
"""

# KEYS: connections, processes. The users whose connection's process is alive.
CONNECTED = ALIVE + """
local found, seen = {}, {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local _, member = split(all[i + 1])
  if seen[member] == nil then seen[member] = alive(member) or false end
  if seen[member] then found[#found + 1] = all[i] end
end
return found
"""

# KEYS: connections, processes. ARGV: users. Those of them whose connection's process is alive.
CONNECTED_AMONG = ALIVE + """
local found, seen = {}, {}
for i = 1, #ARGV do
  local entry = redis.call('HGET', KEYS[1], ARGV[i])
  if entry then
    local _, member = split(entry)
    if seen[member] == nil then seen[member] = alive(member) or false end
    if seen[member] then found[#found + 1] = ARGV[i] end
  end
end
return found
"""

# KEYS: connections. ARGV: a dead member. Removes its entries.
FORGET = """
local all = redis.call('HGETALL', KEYS[1])
local suffix = '|' .. ARGV[1]
for i = 1, #all, 2 do
  local entry = all[i + 1]
  if string.sub(entry, -#suffix) == suffix then redis.call('HDEL', KEYS[1], all[i]) end
end
"""

# KEYS: user_game. ARGV: game id, users. Drops a user's entry only if it still names that game.
DROP_GAME = """
for i = 2, #ARGV do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[1] then
    redis.call('HDEL', KEYS[1], ARGV[i])
  end
end
"""


class RedisStore:
    def __init__(self, client: redis.Redis, process: str, lease_seconds: float) -> None:
        self.client = client
        self.processes = Processes(client, process, lease_seconds)
        scripts = {"claim": CLAIM, "release": RELEASE, "connection": CONNECTION,
                   "connected": CONNECTED, "connected_among": CONNECTED_AMONG,
                   "forget": FORGET, "drop_game": DROP_GAME}
        self._scripts = {name: client.register_script(body) for name, body in scripts.items()}
        # The games this process owns, and their people (to drop their entries).
        self._games = LocalGames()

    def heartbeat(self) -> None:
        """Renew this process's lease (every tick) and sweep away what dead processes left."""
        for member in self.processes.renew():
            for namespace in self.client.smembers(NAMESPACES):
                self._run("forget", [connections_key(text(namespace))], [member])
            self.processes.forget(member)

    def claim_connection(self, namespace: str, user_id: int, sid: str) -> str | None:
        """Make `sid` the user's live connection; returns the one it replaces, on whichever
        process that one is."""
        replaced = self._run("claim", [connections_key(namespace), PROCESSES, NAMESPACES],
                             [user_id, self._entry(sid), sid, namespace,
                              self.processes.lease_ms])
        return text(replaced) if replaced else None

    def release_connection(self, namespace: str, user_id: int, sid: str) -> bool:
        """Forget `sid`; False when a newer connection had already replaced it."""
        return bool(self._run("release", [connections_key(namespace)],
                              [user_id, self._entry(sid)]))

    def connection(self, namespace: str, user_id: int) -> str | None:
        sid = self._run("connection", [connections_key(namespace), PROCESSES], [user_id])
        return text(sid) if sid else None

    def connected_users(self, namespace: str) -> list[int]:
        keys = [connections_key(namespace), PROCESSES]
        return [int(u) for u in self._run("connected", keys, [])]

    def connected_among(self, namespace: str, user_ids: Iterable[int]) -> set[int]:
        """Those of `user_ids` with a live connection, in one round trip."""
        users = list(user_ids)
        if not users:
            return set()
        found = self._run("connected_among", [connections_key(namespace), PROCESSES], users)
        return {int(u) for u in found}

    def connection_count(self, namespace: str) -> int:
        return len(self.connected_users(namespace))

    def put_game(self, game_id: int, game: Any, user_ids: tuple[int, ...],
                 mapped: bool = False) -> None:
        """`mapped`: the users' entries already name the game (a new game's reservation)."""
        self._games.put(game_id, game, user_ids)
        if user_ids and not mapped:
            self.client.hset(USER_GAME, mapping={str(u): game_id for u in user_ids})

    def get_game(self, game_id: int) -> Any | None:
        return self._games.get(game_id)

    def drop_game(self, game_id: int) -> None:
        people = self._games.forget(game_id)
        if people is None:  # not ours: whoever the map still says plays it
            people = tuple(int(u) for u, g in self.client.hgetall(USER_GAME).items()
                           if int(g) == game_id)
        if people:
            self._run("drop_game", [USER_GAME], [game_id, *people])

    def forget_game(self, game_id: int) -> None:
        """The game goes on, played by another process: the user map still names it."""
        self._games.forget(game_id)

    def games(self) -> list[Any]:
        """The games this process owns."""
        return self._games.all()

    def game_of_user(self, user_id: int) -> int | None:
        """The user's live game, whichever process owns it."""
        found = self.client.hget(USER_GAME, str(user_id))
        return int(found) if found is not None else None

    def _entry(self, sid: str) -> str:
        return f"{sid}|{self.processes.me}"

    def _run(self, script: str, keys: list[str], args: list[Any]) -> Any:
        return self._scripts[script](keys=keys, args=args)


def connections_key(namespace: str) -> str:
    return f"gobang:connections:{namespace}"
