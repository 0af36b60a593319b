"""The hall's live state, behind small stores: who is in the hall or on another page of the
site, the open challenges, the chat log and the list of live games.

The in-memory stores here hold it for one server process; gobang/services/cluster holds it in
Redis for several (config REDIS_URL). The services above them read and write the same way.
"""

from __future__ import annotations

import itertools
import threading
from collections import deque
from dataclasses import dataclass
from typing import Any, Protocol

from gobang.services.pools import TimeControl

# A player object, {"id", "username", "score"} (and "computer" for the computer's seat).
Player = dict[str, Any]


@dataclass(frozen=True)
class Challenge:
    challenge_id: str
    from_id: int
    to_id: int
    ruleset: str
    clock: TimeControl
    rated: bool = True
    color: str = "random"  # the challenger's: black, white or random
    opening: str = "none"  # an opening rule the ruleset allows (gobang.rules.openings)
    # From a player the challenged one blocks: never shown to them, and never accepted; it
    # ends as any unanswered challenge does (gobang/services/social/blocks.py).
    hidden: bool = False


class PresenceState(Protocol):
    """The player objects of those in the hall, and of those with other pages of the site open
    (one /site connection per page): the view and the search read them from here, never from
    the database."""

    def hall_add(self, user_id: int, player: Player) -> None: ...
    def hall_remove(self, user_id: int) -> None: ...
    def hall_players(self) -> dict[int, Player]: ...
    def page_add(self, user_id: int, sid: str, player: Player) -> None: ...
    def page_remove(self, user_id: int, sid: str) -> bool: ...
    def page_update(self, user_id: int, player: Player) -> None: ...
    def on_pages(self, user_id: int) -> bool: ...
    def page_users(self) -> list[int]: ...
    def page_players(self) -> dict[int, Player]: ...


class ChallengeBook(Protocol):
    def new_id(self) -> str: ...
    def add(self, challenge: Challenge) -> None: ...
    def get(self, challenge_id: str) -> Challenge | None: ...
    def take(self, challenge_id: str) -> bool: ...
    def all(self) -> list[Challenge]: ...


class ChatLog(Protocol):
    def append(self, message: dict[str, Any]) -> None: ...
    def messages(self) -> list[dict[str, Any]]: ...


class LiveGames(Protocol):
    """This process's own live games, summarised: play's GameTable, wired in
    services/registry.py. The state reads no more of play, so that cluster's Redis stores,
    which play's leases live beside, need not import it."""

    def summaries(self) -> list[dict[str, Any]]: ...


class GameList(LiveGames, Protocol):
    """The live games the hall lists (LiveGame summaries), whichever process holds them."""

    def publish(self) -> None: ...


class ViewRecord(Protocol):
    """The hall view as last sent (`{"seq", "counts", "players", "games"}`): the leader
    writes it with each update, and every process's `hello` and `hall_view` read it, so a new
    leader goes on from the same view and sequence number."""

    def read(self) -> dict[str, Any] | None: ...
    def write(self, view: dict[str, Any]) -> None: ...


@dataclass(frozen=True)
class HallState:
    presence: PresenceState
    challenges: ChallengeBook
    chat: ChatLog
    games: GameList
    view: ViewRecord


def memory_hall_state(table: LiveGames, chat_kept: int) -> HallState:
    return HallState(MemoryPresence(), MemoryChallenges(), MemoryChatLog(chat_kept),
                     LocalGameList(table), MemoryViewRecord())


class MemoryViewRecord:
    def __init__(self) -> None:
        self._view: dict[str, Any] | None = None

    def read(self) -> dict[str, Any] | None:
        return self._view

    def write(self, view: dict[str, Any]) -> None:
        self._view = view


class PageSids:
    """The sids of each user's /site pages open on this process (not thread-safe: its
    holder locks)."""

    def __init__(self) -> None:
        self._sids: dict[int, set[str]] = {}

    def add(self, user_id: int, sid: str) -> None:
        self._sids.setdefault(user_id, set()).add(sid)

    def remove(self, user_id: int, sid: str) -> bool:
        """True when that was the user's last page here."""
        sids = self._sids.get(user_id, set())
        sids.discard(sid)
        if sids:
            return False
        self._sids.pop(user_id, None)
        return True

    def users(self) -> list[int]:
        return list(self._sids)


class MemoryPresence:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hall: dict[int, Player] = {}
        self._pages = PageSids()
        self._page_players: dict[int, Player] = {}

    def hall_add(self, user_id: int, player: Player) -> None:
        with self._lock:
            self._hall[user_id] = player

    def hall_remove(self, user_id: int) -> None:
        with self._lock:
            self._hall.pop(user_id, None)

    def hall_players(self) -> dict[int, Player]:
        with self._lock:
            return dict(self._hall)

    def page_add(self, user_id: int, sid: str, player: Player) -> None:
        with self._lock:
            self._pages.add(user_id, sid)
            self._page_players[user_id] = player

    def page_remove(self, user_id: int, sid: str) -> bool:
        """True when that was the user's last page."""
        with self._lock:
            if not self._pages.remove(user_id, sid):
                return False
            self._page_players.pop(user_id, None)
            return True

    def page_update(self, user_id: int, player: Player) -> None:
        with self._lock:
            if user_id in self._page_players:
                self._page_players[user_id] = player

    def on_pages(self, user_id: int) -> bool:
        with self._lock:
            return user_id in self._page_players

    def page_users(self) -> list[int]:
        with self._lock:
            return self._pages.users()

    def page_players(self) -> dict[int, Player]:
        with self._lock:
            return dict(self._page_players)


class MemoryChallenges:
    def __init__(self) -> None:
        self._open: dict[str, Challenge] = {}
        self._ids = itertools.count(1)

    def new_id(self) -> str:
        return f"c{next(self._ids)}"

    def add(self, challenge: Challenge) -> None:
        self._open[challenge.challenge_id] = challenge

    def get(self, challenge_id: str) -> Challenge | None:
        return self._open.get(challenge_id)

    def take(self, challenge_id: str) -> bool:
        """Close the challenge; False when it was no longer open."""
        return self._open.pop(challenge_id, None) is not None

    def all(self) -> list[Challenge]:
        return list(self._open.values())


class MemoryChatLog:
    def __init__(self, kept: int) -> None:
        self._log: deque[dict[str, Any]] = deque(maxlen=kept)

    def append(self, message: dict[str, Any]) -> None:
        self._log.append(message)

    def messages(self) -> list[dict[str, Any]]:
        """Oldest first."""
        return list(self._log)


class LocalGameList:
    """One process holds every live game: the list is its table."""

    def __init__(self, table: LiveGames) -> None:
        self.table = table

    def publish(self) -> None:
        """Nothing to share."""

    def summaries(self) -> list[dict[str, Any]]:
        return self.table.summaries()
