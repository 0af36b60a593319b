"""The /room namespace: joining games, moves, the end, and what players ask of each other."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from flask import request
from flask_socketio import join_room, leave_room

from gobang.rules.openings import TARAGUCHI_OFFERS
from gobang.services.ratelimit import RateLimiter
from gobang.services.registry import Play
from gobang.services.store import LiveStore
from gobang.sockets.base import (
    Publisher,
    SessionNamespace,
    acknowledged,
    game_room,
    id_field,
    int_field,
    ok,
    points_field,
    spectator_chat_room,
    user_room,
    watching,
)
from gobang.vocabulary import Namespace

# Longer lists are refused before the referee reads them: no step takes more.
OFFERS_AT_MOST = TARAGUCHI_OFFERS


class RoomNamespace(SessionNamespace):
    """Players and spectators; visitors without an account come in as viewers, who may join
    a game to watch it (counted with its spectators) and ask what only reads, nothing else:
    every other event answers them `unauthorized` (`acknowledged`)."""

    admits_viewers = True

    def __init__(self, play: Play, store: LiveStore, publish: Publisher,
                 unknown: RateLimiter) -> None:
        super().__init__(Namespace.ROOM, publish, unknown)
        self.play = play
        self.store = store

    def on_connect(self, auth: Any = None) -> None:
        user = self.admit()
        if user is None:
            return  # a viewer: no user's connection to claim, no user's room to hear
        self.replace(self.store.claim_connection(self.namespace, user.id, request.sid))
        join_room(user_room(user.id))

    def on_disconnect(self, *reason: Any) -> None:
        viewer = self.is_viewer()
        user_id = self.forget()
        if user_id is None and not viewer:
            return
        notices = self.play.seating.leave(request.sid)
        if user_id is not None:
            self.store.release_connection(self.namespace, user_id, request.sid)
        self.publish(notices)

    def _pace_key(self) -> Hashable:
        """Whose pace joining games as a spectator counts against: the user's, or a viewer's
        address (a viewer has no other name, and a new connection is cheap)."""
        user_id = self.user_id()
        return ("viewer", request.remote_addr) if user_id is None else user_id

    @watching
    def on_join_game(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        self.play.homes.locate(game_id)
        previous = self.play.seating.joined_game(request.sid)
        # In the room before taking the seat, and the state read last: every event sent from
        # here on reaches this connection, those before the answer are already in its state,
        # and none can be sent between reading it and answering (nothing there waits on I/O).
        # Read first, an opponent's arrival while this join waited on I/O was lost to it: the
        # page kept "waiting" with the game begun.
        join_room(game_room(game_id))
        try:
            notices = self.play.seating.join(game_id, self.user_id(), request.sid,
                                             self._pace_key())
        except Exception:
            if previous != game_id:
                leave_room(game_room(game_id))
            raise
        if previous is not None and previous != game_id:
            leave_room(game_room(previous))
            leave_room(spectator_chat_room(previous))
        self.publish(notices)
        hears = self._hear_spectators(game_id)
        return ok(state=self.play.seating.state(game_id, self.user_id(), hears))

    def _hear_spectators(self, game_id: int) -> bool:
        """In the audience of the game's spectators' chat, or out of it (a player whose
        preference changed joins again), before the state is read, as for the game's room."""
        hears = self.play.chat.hears_spectators(game_id, self.user_id())
        (join_room if hears else leave_room)(spectator_chat_room(game_id))
        return hears

    @acknowledged
    def on_place_stone(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        # A missing or non-integer coordinate is a malformed request; an integer off the
        # board is the referee's `out_of_range`.
        row, col = int_field(data, "row"), int_field(data, "col")
        self.publish(self.play.moves.place_stone(game_id, self.user_id(), row, col))
        return ok()

    @acknowledged
    def on_opening_choose(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        self.publish(self.play.openings.choose(game_id, self.user_id(), data.get("option")))
        return ok()

    @acknowledged
    def on_opening_offer(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        points = points_field(data, "points", most=OFFERS_AT_MOST)
        self.publish(self.play.openings.offer(game_id, self.user_id(), points))
        return ok()

    @acknowledged
    def on_opening_pick(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        row, col = int_field(data, "row"), int_field(data, "col")
        self.publish(self.play.openings.pick(game_id, self.user_id(), row, col))
        return ok()

    @watching
    def on_forbidden_points(self, data: dict[str, Any]) -> dict[str, Any]:
        return ok(**self.play.hints.forbidden_points(id_field(data)))

    @acknowledged
    def on_resign(self, data: dict[str, Any]) -> dict[str, Any]:
        self.publish(self.play.finisher.resign(id_field(data), self.user_id()))
        return ok()

    @acknowledged
    def on_offer_draw(self, data: dict[str, Any]) -> dict[str, Any]:
        self.publish(self.play.draws.offer(id_field(data), self.user_id()))
        return ok()

    @acknowledged
    def on_answer_draw(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        self.publish(self.play.draws.answer(game_id, self.user_id(), data.get("accept")))
        return ok()

    @acknowledged
    def on_request_undo(self, data: dict[str, Any]) -> dict[str, Any]:
        self.publish(self.play.takebacks.request(id_field(data), self.user_id()))
        return ok()

    @acknowledged
    def on_answer_undo(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        self.publish(self.play.takebacks.answer(game_id, self.user_id(), data.get("accept")))
        return ok()

    @acknowledged
    def on_request_pause(self, data: dict[str, Any]) -> dict[str, Any]:
        self.publish(self.play.pauses.request(id_field(data), self.user_id()))
        return ok()

    @acknowledged
    def on_answer_pause(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        self.publish(self.play.pauses.answer(game_id, self.user_id(), data.get("accept")))
        return ok()

    @acknowledged
    def on_resume(self, data: dict[str, Any]) -> dict[str, Any]:
        self.publish(self.play.pauses.resume(id_field(data), self.user_id()))
        return ok()

    @acknowledged
    def on_rematch(self, data: dict[str, Any]) -> dict[str, Any]:
        self.publish(self.play.rematches.offer(id_field(data), self.user_id()))
        return ok()

    @acknowledged
    def on_chat(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        self.publish(self.play.chat.say(game_id, self.user(), request.sid, data.get("text"),
                                        data.get("channel")))
        return ok()
