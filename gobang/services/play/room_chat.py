"""Chat in a game's room, for its players and the spectators who joined it."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from gobang.extensions import db
from gobang.models import Game, User
from gobang.services.moderation.chat_guard import ChatGuard
from gobang.services.notices import GAME, ActionError, Notice
from gobang.services.play.live import room_notice
from gobang.services.play.table import GameTable
from gobang.services.ratelimit import RateLimiter
from gobang.services.store import Recent
from gobang.services.text import check_rate, clean_text, timestamp

CHAT_KEPT = 50
# Chat is kept for the most recent games only, so that memory stays flat.
RECENT_GAMES_KEPT = 2000


class Attendance:
    """Which game each /room connection has joined, and as which user; and so who is at a
    game, which a finished game (no longer in the table) learns only from here."""

    def __init__(self) -> None:
        self._by_sid: dict[str, tuple[int, int]] = {}
        self._by_game: dict[int, dict[str, int]] = {}

    def seat(self, sid: str, game_id: int, user_id: int) -> None:
        self.unseat(sid)
        self._by_sid[sid] = (game_id, user_id)
        self._by_game.setdefault(game_id, {})[sid] = user_id

    def unseat(self, sid: str) -> tuple[int, int] | None:
        entry = self._by_sid.pop(sid, None)
        if entry is not None:
            at = self._by_game.get(entry[0], {})
            at.pop(sid, None)
            if not at:
                self._by_game.pop(entry[0], None)
        return entry

    def game_of(self, sid: str) -> int | None:
        entry = self._by_sid.get(sid)
        return entry[0] if entry else None

    def users_at(self, game_id: int) -> list[int]:
        """The user of each connection at the game (a user twice with two connections)."""
        return list(self._by_game.get(game_id, {}).values())


class RoomChat:
    def __init__(self, attendance: Attendance, limiter: RateLimiter, table: GameTable,
                 guard: ChatGuard) -> None:
        self.attendance = attendance
        self.guard = guard
        self.table = table
        self.limiter = limiter
        self._logs: Recent[int, list[dict[str, Any]]] = Recent(RECENT_GAMES_KEPT)

    def say(self, game_id: int, user: User, sid: str, text: Any) -> list[Notice]:
        text = clean_text(text)
        role = self._role(game_id, user.id, sid)
        check_rate(self.limiter, user.id)
        self.guard.check(user.id, text)
        message = {"game_id": game_id, "from": {"id": user.id, "username": user.username},
                   "role": role, "text": text, "ts": timestamp()}
        log = self._logs.setdefault(game_id, [])
        log.append(message)
        del log[:-CHAT_KEPT]
        return [self._notice(game_id, message)]

    def _notice(self, game_id: int, message: dict[str, Any]) -> Notice:
        """Numbered as the game's other events while it is played here; after the end (or
        on a process that does not play it) a chat line is not one of the game's events."""
        live = self.table.get(game_id)
        if live is None:
            return Notice("chat", message, GAME, game_id)
        with live.lock:
            return room_notice("chat", live, **message)

    def history(self, game_id: int) -> list[dict[str, Any]]:
        return list(self._logs.get(game_id, []))

    def _role(self, game_id: int, user_id: int, sid: str) -> str:
        row = db.session.get(Game, game_id)
        if row is None:
            raise ActionError("not_found", gettext("There is no such game."))
        color = row.color_of(user_id)
        if color is not None:
            return color
        if self.attendance.game_of(sid) != game_id:
            raise ActionError("not_in_game", gettext("Join the game to chat in it."))
        return "spectator"
