"""Live state shared by the hall and the rooms: connections and live games (`LiveStore`), and
the match queue (`MatchQueue`).

Kept behind this small interface so that the store several server processes share
(gobang/services/cluster/redis_store.py, with config REDIS_URL) replaces the in-process one
without touching the namespaces.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar


@dataclass
class QueueEntry:
    user_id: int
    score: int
    ruleset: str
    # (initial, increment) seconds, or None: the pool's clock, with the ruleset.
    clock: tuple[int, int] | None
    joined_at: float
    # The score is the player's rating in the pool's category; while it is provisional the
    # matcher allows twice the gap (the rating says little yet).
    provisional: bool = False
    # The pool's opening rule, with its ruleset and clock (gobang.rules.openings).
    opening: str = "none"


@dataclass
class Connections:
    """Which socket is the live one for each user in one namespace."""

    by_user: dict[int, str] = field(default_factory=dict)


class LiveStore(Protocol):
    def claim_connection(self, namespace: str, user_id: int, sid: str) -> str | None: ...
    def release_connection(self, namespace: str, user_id: int, sid: str) -> bool: ...
    def connection(self, namespace: str, user_id: int) -> str | None: ...
    def connected_users(self, namespace: str) -> list[int]: ...
    def connected_among(self, namespace: str, user_ids: Iterable[int]) -> set[int]: ...
    def connection_count(self, namespace: str) -> int: ...
    def put_game(self, game_id: int, game: Any, user_ids: tuple[int, ...],
                 mapped: bool = False) -> None: ...
    def get_game(self, game_id: int) -> Any | None: ...
    def drop_game(self, game_id: int) -> None: ...
    def forget_game(self, game_id: int) -> None: ...
    def games(self) -> list[Any]: ...
    def game_of_user(self, user_id: int) -> int | None: ...
    def heartbeat(self) -> None: ...


class MatchQueue(Protocol):
    """The players waiting to be paired (several processes: cluster/redis_queue.py)."""

    def put(self, entry: QueueEntry) -> bool: ...
    def remove(self, user_id: int) -> QueueEntry | None: ...
    def entries(self) -> list[QueueEntry]: ...
    def entry(self, user_id: int) -> QueueEntry | None: ...
    def take_pair(self, first: int, second: int) -> bool: ...
    def take_pairs(self, pairs: Sequence[tuple[int, int]]) -> list[bool]: ...
    def settle(self, first: int, second: int) -> None: ...
    def return_pending(self) -> int: ...


class Reservations(Protocol):
    """New games' players in the user -> game map before their commit (several processes:
    gobang/services/cluster/reservations.py, which says why)."""

    def reserve(self, games: Sequence[tuple[int, tuple[int, ...]]]) -> dict[int, int]: ...
    def confirm(self, game_ids: Sequence[int]) -> list[int]: ...
    def release(self, game_ids: Sequence[int]) -> list[int]: ...
    def stale(self) -> list[int]: ...
    def forget_entry(self, user_id: int, game_id: int) -> bool: ...


class LocalGames:
    """The LiveGame objects this process plays, each with its people (the users whose entries
    in the user -> game map name it), whichever store holds that map."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[int, Any] = {}
        self._people: dict[int, tuple[int, ...]] = {}

    def put(self, game_id: int, game: Any, user_ids: tuple[int, ...]) -> None:
        with self._lock:
            self._games[game_id] = game
            self._people[game_id] = user_ids

    def get(self, game_id: int) -> Any | None:
        # One dict read is atomic: no lock on the path of every move.
        return self._games.get(game_id)

    def forget(self, game_id: int) -> tuple[int, ...] | None:
        """Let go of the game; its people, or None when this process did not play it."""
        with self._lock:
            self._games.pop(game_id, None)
            return self._people.pop(game_id, None)

    def all(self) -> list[Any]:
        with self._lock:
            return list(self._games.values())


class MemoryQueue:
    """The in-process match queue."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._entries: dict[int, QueueEntry] = {}

    def put(self, entry: QueueEntry) -> bool:
        """Queue the user unless already queued (then the first entry keeps its place)."""
        with self._lock:
            if entry.user_id in self._entries:
                return False
            self._entries[entry.user_id] = entry
            return True

    def remove(self, user_id: int) -> QueueEntry | None:
        with self._lock:
            return self._entries.pop(user_id, None)

    def entries(self) -> list[QueueEntry]:
        with self._lock:
            return list(self._entries.values())

    def entry(self, user_id: int) -> QueueEntry | None:
        with self._lock:
            return self._entries.get(user_id)

    def take_pair(self, first: int, second: int) -> bool:
        """Take both users out of the queue, or neither: a pairing only stands if both still
        wait (one may have cancelled, or been paired by another round, since they were read)."""
        with self._lock:
            if first == second or first not in self._entries or second not in self._entries:
                return False
            del self._entries[first], self._entries[second]
            return True

    def take_pairs(self, pairs: Sequence[tuple[int, int]]) -> list[bool]:
        return [self.take_pair(first, second) for first, second in pairs]

    def settle(self, first: int, second: int) -> None:
        """Nothing kept aside: one process dies with its whole queue."""

    def return_pending(self) -> int:
        return 0


class MemoryStore:
    """The in-process store: one server process holds all live state. Players leave the
    match queue as their game is made (`claim_players`)."""

    def __init__(self, queue: MemoryQueue) -> None:
        self._lock = threading.RLock()
        self._connections: dict[str, Connections] = {}
        self._queue = queue
        self._games = LocalGames()
        self._user_game: dict[int, int] = {}

    def claim_connection(self, namespace: str, user_id: int, sid: str) -> str | None:
        """Make `sid` the user's live connection; returns the one it replaces, if any."""
        with self._lock:
            table = self._connections.setdefault(namespace, Connections()).by_user
            previous = table.get(user_id)
            table[user_id] = sid
            return previous if previous != sid else None

    def release_connection(self, namespace: str, user_id: int, sid: str) -> bool:
        """Forget `sid`; False when a newer connection had already replaced it."""
        with self._lock:
            table = self._connections.setdefault(namespace, Connections()).by_user
            if table.get(user_id) != sid:
                return False
            del table[user_id]
            return True

    def connection(self, namespace: str, user_id: int) -> str | None:
        with self._lock:
            return self._connections.get(namespace, Connections()).by_user.get(user_id)

    def connected_users(self, namespace: str) -> list[int]:
        with self._lock:
            return list(self._connections.get(namespace, Connections()).by_user)

    def connected_among(self, namespace: str, user_ids: Iterable[int]) -> set[int]:
        """Those of `user_ids` with a live connection."""
        with self._lock:
            table = self._connections.get(namespace, Connections()).by_user
            return {user_id for user_id in user_ids if user_id in table}

    def connection_count(self, namespace: str) -> int:
        with self._lock:
            return len(self._connections.get(namespace, Connections()).by_user)

    def put_game(self, game_id: int, game: Any, user_ids: tuple[int, ...],
                 mapped: bool = False) -> None:
        self._games.put(game_id, game, user_ids)
        with self._lock:
            for user_id in user_ids:
                self._user_game[user_id] = game_id

    def get_game(self, game_id: int) -> Any | None:
        return self._games.get(game_id)

    def drop_game(self, game_id: int) -> None:
        people = self._games.forget(game_id)
        with self._lock:
            if people is None:  # not played here: whoever the map still says plays it
                people = tuple(u for u, g in self._user_game.items() if g == game_id)
            for user_id in people:
                if self._user_game.get(user_id) == game_id:
                    del self._user_game[user_id]

    def forget_game(self, game_id: int) -> None:
        """The game goes on, played by another process: only this one lets go of it."""
        self._games.forget(game_id)

    def games(self) -> list[Any]:
        return self._games.all()

    def game_of_user(self, user_id: int) -> int | None:
        with self._lock:
            return self._user_game.get(user_id)

    def heartbeat(self) -> None:
        """Nothing to renew: this process is the only one, alive while it runs."""

    def claim_players(self, game_id: int, user_ids: tuple[int, ...]) -> int | None:
        """The users into the map for this game and out of the queue, or, if one of them has
        a game already, nobody and that game."""
        with self._lock:
            for user_id in user_ids:
                if user_id in self._user_game:
                    return self._user_game[user_id]
            for user_id in user_ids:
                self._user_game[user_id] = game_id
                self._queue.remove(user_id)
            return None


class MemoryReservations:
    """One process: nothing outlives it to settle, so a reservation is the map's entries."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store

    def reserve(self, games: Sequence[tuple[int, tuple[int, ...]]]) -> dict[int, int]:
        refused = {}
        for game_id, user_ids in games:
            busy = self.store.claim_players(game_id, user_ids)
            if busy is not None:
                refused[game_id] = busy
        return refused

    def confirm(self, game_ids: Sequence[int]) -> list[int]:
        return []

    def release(self, game_ids: Sequence[int]) -> list[int]:
        for game_id in game_ids:
            self.store.drop_game(game_id)
        return list(game_ids)

    def stale(self) -> list[int]:
        return []

    def forget_entry(self, user_id: int, game_id: int) -> bool:
        return False


K = TypeVar("K")
V = TypeVar("V")


class Recent(OrderedDict[K, V]):
    """A dict that keeps only the `limit` most recently written keys."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)

    def setdefault(self, key: K, default: V) -> V:  # OrderedDict's would bypass the limit
        if key not in self:
            self[key] = default
        return self[key]
