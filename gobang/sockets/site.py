"""The /site namespace: what reaches a logged-in player on any page but the hall (which has
its own connection): challenges, with Accept and Decline. A connection per tab; no
`session_replaced`, since every open page should show the challenge."""

from __future__ import annotations

from typing import Any

from flask import request
from flask_socketio import join_room

from gobang.services.play.table import GameTable
from gobang.services.ratelimit import RateLimiter
from gobang.services.registry import Lobby
from gobang.sockets.base import Publisher, SessionNamespace, acknowledged, ok, user_room
from gobang.vocabulary import Namespace


class SiteNamespace(SessionNamespace):
    # A guest cannot be challenged: with no /site connection a guest is never online to one.
    admits_guests = False

    def __init__(self, lobby: Lobby, table: GameTable, publish: Publisher,
                 unknown: RateLimiter) -> None:
        super().__init__(Namespace.SITE, publish, unknown)
        self.lobby = lobby
        self.table = table

    def on_connect(self, auth: Any = None) -> None:
        user = self.admit()
        self.lobby.hall.visit(user, request.sid)
        join_room(user_room(user.id))

    def on_disconnect(self, *reason: Any) -> None:
        user_id = self.forget()
        if user_id is not None:
            self.publish(self.lobby.hall.leave_page(user_id, request.sid))

    @acknowledged
    def on_answer_challenge(self, data: dict[str, Any]) -> dict[str, Any]:
        """As in the hall; an accepted challenge's answer carries the new game's id, so that
        the page that accepted goes to it (match_found goes to the hall)."""
        user = self.user()
        self.publish(self.lobby.challenges.answer(
            user, data.get("challenge_id"), data.get("accept")))
        game_id = self.table.current_game_of(user.id) if data.get("accept") else None
        return ok(game_id=game_id)
