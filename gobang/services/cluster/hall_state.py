"""The hall's live state in Redis, for several server processes (see gobang/services/hall/state.py
for what each store holds).

What belongs to one process's sockets (its /site pages, its games) is kept under that
process's own keys and read from every live process: it is gone with the process. The rest
(hall players, challenges, chat) is shared outright.
"""

from __future__ import annotations

import json
import threading
from dataclasses import asdict
from typing import Any

import redis

from gobang.services.cluster.processes import Processes
from gobang.services.cluster.redis_store import RedisStore, connections_key
from gobang.services.hall.state import Challenge, HallState, LiveGames, PageSids, Player
from gobang.vocabulary import Namespace

HALL_PLAYERS = "gobang:hall_players"
CHALLENGES = "gobang:challenges"
CHALLENGE_IDS = "gobang:challenge_ids"
CHAT = "gobang:hall_chat"
VIEW = "gobang:hall_view"

# KEYS: hall players, hall connections. ARGV: users. Forgets the players of those with no hall
# connection left (their process died): arrivals claim the connection before writing the player.
PRUNE = """
for i = 1, #ARGV do
  if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 0 then redis.call('HDEL', KEYS[1], ARGV[i]) end
end
"""

# KEYS: every live process's page players. ARGV: user, player. A new score, where listed.
UPDATE = """
for i = 1, #KEYS do
  if redis.call('HEXISTS', KEYS[i], ARGV[1]) == 1 then
    redis.call('HSET', KEYS[i], ARGV[1], ARGV[2])
  end
end
"""


def redis_hall_state(store: RedisStore, table: LiveGames, chat_kept: int) -> HallState:
    return HallState(RedisPresence(store), RedisChallenges(store.client),
                     RedisChatLog(store.client, chat_kept),
                     RedisGameList(store.client, store.processes, table),
                     RedisViewRecord(store.client))


class RedisPresence:
    """Hall players are shared, and listed while their hall connection lives (RedisStore).
    Each process lists the players of its own /site pages; it knows their sids itself."""

    def __init__(self, store: RedisStore) -> None:
        self.store = store
        self.client = store.client
        self.processes = store.processes
        self._prune = self.client.register_script(PRUNE)
        self._update = self.client.register_script(UPDATE)
        # Held over the Redis write too, so that a page opening and one closing for the same
        # user leave Redis as they leave the sids.
        self._lock = threading.Lock()
        self._pages = PageSids()
        self._hall_decoded = DecodedPlayers()
        self._pages_decoded = DecodedPlayers()

    def hall_add(self, user_id: int, player: Player) -> None:
        self.client.hset(HALL_PLAYERS, str(user_id), json.dumps(player))

    def hall_remove(self, user_id: int) -> None:
        self.client.hdel(HALL_PLAYERS, str(user_id))

    def hall_players(self) -> dict[int, Player]:
        here = set(self.store.connected_users(Namespace.HALL))
        found = self._hall_decoded.decode(self.client.hgetall(HALL_PLAYERS))
        stale = [u for u in found if u not in here]
        if stale:
            self._prune(keys=[HALL_PLAYERS, connections_key(Namespace.HALL)], args=stale)
        return {u: p for u, p in found.items() if u in here}

    def page_add(self, user_id: int, sid: str, player: Player) -> None:
        with self._lock:
            self._pages.add(user_id, sid)
            self.client.hset(self._own, str(user_id), json.dumps(player))

    def page_remove(self, user_id: int, sid: str) -> bool:
        """True when that was the user's last page on any process."""
        with self._lock:
            if not self._pages.remove(user_id, sid):
                return False
            self.client.hdel(self._own, str(user_id))
        return not self.on_pages(user_id)

    def page_update(self, user_id: int, player: Player) -> None:
        self._update(keys=self._everyones(), args=[user_id, json.dumps(player)])

    def on_pages(self, user_id: int) -> bool:
        with self.client.pipeline(transaction=False) as pipe:
            for key in self._everyones():
                pipe.hexists(key, str(user_id))
            return any(pipe.execute())

    def page_users(self) -> list[int]:
        return list(self.page_players())

    def page_players(self) -> dict[int, Player]:
        with self.client.pipeline(transaction=False) as pipe:
            for key in self._everyones():
                pipe.hgetall(key)
            found = pipe.execute()
        return self._pages_decoded.decode({u: p for each in found for u, p in each.items()})

    @property
    def _own(self) -> str:
        return self.processes.key("page_players")

    def _everyones(self) -> list[str]:
        return self.processes.keys("page_players", self.processes.alive())


class DecodedPlayers:
    """A hash of JSON players decoded, remembering each entry's bytes and decoded form until
    the next read: the leader reads everyone online every second for the hall view, and
    decoding 20,000 entries anew took longer than reading them (docs/performance.md).
    Readers get shared dicts and must not change them (the view copies what it sends)."""

    def __init__(self) -> None:
        self._last: dict[bytes, tuple[bytes, Player]] = {}

    def decode(self, found: dict[bytes, bytes]) -> dict[int, Player]:
        last, kept = self._last, {}
        players: dict[int, Player] = {}
        for user, raw in found.items():
            known = last.get(user)
            if known is None or known[0] != raw:
                known = (raw, json.loads(raw))
            kept[user] = known
            players[int(user)] = known[1]
        # Replaced whole, never changed in place: a read on another green thread keeps its own.
        self._last = kept
        return players


class RedisChallenges:
    def __init__(self, client: redis.Redis) -> None:
        self.client = client

    def new_id(self) -> str:
        """Unique among all processes."""
        return f"c{self.client.incr(CHALLENGE_IDS)}"

    def add(self, challenge: Challenge) -> None:
        self.client.hset(CHALLENGES, challenge.challenge_id, json.dumps(asdict(challenge)))

    def get(self, challenge_id: str) -> Challenge | None:
        found = self.client.hget(CHALLENGES, challenge_id)
        return _challenge(found) if found else None

    def take(self, challenge_id: str) -> bool:
        """Close the challenge; False when it was no longer open (one process wins)."""
        return self.client.hdel(CHALLENGES, challenge_id) == 1

    def all(self) -> list[Challenge]:
        """Oldest first, as they were sent."""
        found = [_challenge(raw) for raw in self.client.hvals(CHALLENGES)]
        return sorted(found, key=lambda c: int(c.challenge_id[1:]))


class RedisChatLog:
    def __init__(self, client: redis.Redis, kept: int) -> None:
        self.client = client
        self.kept = kept

    def append(self, message: dict[str, Any]) -> None:
        with self.client.pipeline() as pipe:
            pipe.rpush(CHAT, json.dumps(message))
            pipe.ltrim(CHAT, -self.kept, -1)
            pipe.execute()

    def messages(self) -> list[dict[str, Any]]:
        """Oldest first."""
        return [json.loads(raw) for raw in self.client.lrange(CHAT, 0, -1)]


class RedisGameList:
    """Each process publishes its own games' summaries every tick, under a key that lives one
    lease: the list is every live process's, and a dead process's games leave it with it."""

    def __init__(self, client: redis.Redis, processes: Processes, table: LiveGames) -> None:
        self.client = client
        self.processes = processes
        self.table = table

    def publish(self) -> None:
        self.client.set(self.processes.key("games"), json.dumps(self.table.summaries()),
                        px=self.processes.lease_ms)

    def summaries(self) -> list[dict[str, Any]]:
        """Oldest first; a game that has just moved to another process is listed once. This
        process's own games as they are now, the others' as last published."""
        others = [m for m in self.processes.alive() if m != self.processes.me]
        keys = self.processes.keys("games", others)
        found = {game["game_id"]: game
                 for raw in (self.client.mget(keys) if keys else []) if raw
                 for game in json.loads(raw)}
        found.update((game["game_id"], game) for game in self.table.summaries())
        return [found[game_id] for game_id in sorted(found)]


def _challenge(raw: bytes | str) -> Challenge:
    found = json.loads(raw)
    clock = found["clock"]
    return Challenge(found["challenge_id"], found["from_id"], found["to_id"], found["ruleset"],
                     tuple(clock) if clock is not None else None,
                     found.get("rated", True),  # written before casual games: rated
                     found.get("color", "random"),
                     found.get("opening", "none"),  # written before openings: none
                     found.get("hidden", False))  # written before blocks: shown


class RedisViewRecord:
    def __init__(self, client: redis.Redis) -> None:
        self.client = client

    def read(self) -> dict[str, Any] | None:
        raw = self.client.get(VIEW)
        return json.loads(raw) if raw is not None else None

    def write(self, view: dict[str, Any]) -> None:
        self.client.set(VIEW, json.dumps(view, separators=(",", ":")))
