"""The /room namespace: joining games, moves, the end, and what players ask of each other."""

from __future__ import annotations

from typing import Any

from flask import request
from flask_socketio import join_room, leave_room

from gobang.services.registry import services
from gobang.sockets.base import (
    SessionNamespace,
    acknowledged,
    game_room,
    id_field,
    ok,
    publish,
    user_room,
)


class RoomNamespace(SessionNamespace):
    def on_connect(self, auth: Any = None) -> None:
        user = self.admit()
        self.replace(services().store.claim_connection(self.namespace, user.id, request.sid))
        join_room(user_room(user.id))

    def on_disconnect(self, *reason: Any) -> None:
        user_id = self.forget()
        if user_id is None:
            return
        notices = services().games.leave(request.sid)
        services().store.release_connection(self.namespace, user_id, request.sid)
        publish(notices)

    @acknowledged
    def on_join_game(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        previous = services().games.joined_game(request.sid)
        state, notices = services().games.join(game_id, self.user_id(), request.sid)
        if previous is not None and previous != game_id:
            leave_room(game_room(previous))
        join_room(game_room(game_id))
        publish(notices)
        return ok(state=state)

    @acknowledged
    def on_place_stone(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        row, col = data.get("row"), data.get("col")
        publish(services().games.place_stone(game_id, self.user_id(), row, col))
        return ok()

    @acknowledged
    def on_resign(self, data: dict[str, Any]) -> dict[str, Any]:
        publish(services().games.resign(id_field(data), self.user_id()))
        return ok()

    @acknowledged
    def on_offer_draw(self, data: dict[str, Any]) -> dict[str, Any]:
        publish(services().games.offer_draw(id_field(data), self.user_id()))
        return ok()

    @acknowledged
    def on_answer_draw(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        publish(services().games.answer_draw(game_id, self.user_id(), data.get("accept")))
        return ok()

    @acknowledged
    def on_request_undo(self, data: dict[str, Any]) -> dict[str, Any]:
        publish(services().games.request_undo(id_field(data), self.user_id()))
        return ok()

    @acknowledged
    def on_answer_undo(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        publish(services().games.answer_undo(game_id, self.user_id(), data.get("accept")))
        return ok()

    @acknowledged
    def on_request_pause(self, data: dict[str, Any]) -> dict[str, Any]:
        publish(services().games.request_pause(id_field(data), self.user_id()))
        return ok()

    @acknowledged
    def on_answer_pause(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        publish(services().games.answer_pause(game_id, self.user_id(), data.get("accept")))
        return ok()

    @acknowledged
    def on_resume(self, data: dict[str, Any]) -> dict[str, Any]:
        publish(services().games.resume(id_field(data), self.user_id()))
        return ok()

    @acknowledged
    def on_rematch(self, data: dict[str, Any]) -> dict[str, Any]:
        publish(services().games.rematch(id_field(data), self.user_id()))
        return ok()

    @acknowledged
    def on_chat(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = id_field(data)
        publish(services().games.chat(game_id, self.user(), request.sid, data.get("text")))
        return ok()
