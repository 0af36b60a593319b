"""Who is in the hall and what they are doing, told to everyone there (paced by `Fanout`)."""

from __future__ import annotations

from typing import Any

from gobang.extensions import db
from gobang.models import User
from gobang.services.events import GameEnded, GameStarted
from gobang.services.hall.fanout import Fanout
from gobang.services.hall.matcher import Matcher
from gobang.services.notices import HALL, Notice
from gobang.services.play.table import GameTable
from gobang.services.store import LiveStore
from gobang.vocabulary import Namespace

# The subject of a broadcast of the live games' list (other subjects are user ids).
GAMES = "games"


class Presence:
    def __init__(self, store: LiveStore, table: GameTable, matcher: Matcher,
                 fanout: Fanout) -> None:
        self.store = store
        self.table = table
        self.matcher = matcher
        self.fanout = fanout
        # Player objects of the users in the hall: {"id", "username", "score"}.
        self._players: dict[int, dict[str, Any]] = {}

    def arrive(self, user: User, sid: str) -> str | None:
        """Make `sid` the user's hall connection; returns the older one it replaces."""
        replaced = self.store.claim_connection(Namespace.HALL, user.id, sid)
        self._players[user.id] = user.player()
        return replaced

    def depart(self, user_id: int, sid: str) -> bool:
        """False when a newer connection had replaced `sid`: the user is still here."""
        if not self.store.release_connection(Namespace.HALL, user_id, sid):
            return False
        self._players.pop(user_id, None)
        return True

    def is_here(self, user_id: int) -> bool:
        return self.store.connection(Namespace.HALL, user_id) is not None

    def status(self, user_id: int) -> str:
        if self.table.current_game_of(user_id) is not None:
            return "playing"
        return "queued" if self.matcher.is_queued(user_id) else "idle"

    def changed(self, user_id: int) -> list[Notice]:
        """What the hall is told when a user's status (or score) changed: nothing unless they
        are in the hall, and perhaps not yet (see `Fanout`)."""
        if not self.is_here(user_id):
            return []
        user = db.session.get(User, user_id)
        if user is None:
            return []
        self._players[user_id] = user.player()
        return self.broadcast(user_id)

    def gone(self, user_id: int) -> list[Notice]:
        return self.broadcast(user_id)

    def games_changed(self) -> list[Notice]:
        return self.broadcast(GAMES)

    def game_started(self, started: GameStarted) -> list[Notice]:
        notices = self.games_changed() if started.announce else []
        return notices + [n for user_id in started.user_ids for n in self.changed(user_id)]

    def game_ended(self, ended: GameEnded) -> list[Notice]:
        return self.games_changed() + [n for user_id in ended.user_ids
                                       for n in self.changed(user_id)]

    def flush(self) -> list[Notice]:
        """The broadcasts that had to wait and may go out now, each in its current state."""
        return [self._notice_about(subject) for subject in self.fanout.due(self._hall_size())]

    def online(self) -> list[dict[str, Any]]:
        """Everyone in the hall. Each arrival lists them all, so the players already known here
        come from memory (kept fresh by every presence notice) rather than from one query of
        thousands of rows per arrival; only those connected elsewhere are read."""
        online_ids = self.store.connected_users(Namespace.HALL)
        missing = [i for i in online_ids if i not in self._players]
        if missing:
            for user in db.session.query(User).filter(User.id.in_(missing)).all():
                self._players[user.id] = user.player()
        return [{**self._players[i], "status": self.status(i)}
                for i in sorted(online_ids) if i in self._players]

    def broadcast(self, subject: int | str) -> list[Notice]:
        if self.fanout.offer(subject, self._hall_size()):
            return [self._notice_about(subject)]
        return []

    def _notice_about(self, subject: int | str) -> Notice:
        if subject == GAMES:
            return Notice("games_changed", {"games": self.table.summaries()}, HALL)
        player = self._players.get(subject)
        if player is None or not self.is_here(subject):
            return Notice("presence_gone", {"id": subject}, HALL)
        return Notice("presence", {"user": {**player, "status": self.status(subject)}}, HALL)

    def _hall_size(self) -> int:
        return self.store.connection_count(Namespace.HALL)
