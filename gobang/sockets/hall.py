"""The /hall namespace: presence, matching, challenges and chat."""

from __future__ import annotations

from typing import Any

from flask import request
from flask_socketio import join_room

from gobang.extensions import socketio
from gobang.services.registry import services
from gobang.sockets.base import SessionNamespace, acknowledged, ok, publish, user_room


class HallNamespace(SessionNamespace):
    def on_connect(self, auth: Any = None) -> None:
        user = self.admit()
        replaced, hello, notices = services().hall.connect(user, request.sid)
        self.replace(replaced)
        join_room(user_room(user.id))
        self.emit("hello", hello, room=request.sid)
        publish(notices)

    def on_disconnect(self, *reason: Any) -> None:
        user_id = self.forget()
        if user_id is not None:
            notices = services().hall.disconnect(user_id, request.sid)
            # Broadcast from a task of its own: sending to a connection whose ping timed out
            # closes it there and then, running its disconnect handler inside this one; when
            # thousands time out at once that nesting overflowed the stack (docs/performance.md).
            socketio.start_background_task(publish, notices)

    @acknowledged
    def on_start_match(self, data: dict[str, Any]) -> dict[str, Any]:
        publish(services().hall.start_match(self.user(), data.get("ruleset")))
        return ok()

    @acknowledged
    def on_cancel_match(self, data: dict[str, Any]) -> dict[str, Any]:
        publish(services().hall.cancel_match(self.user_id()))
        return ok()

    @acknowledged
    def on_challenge(self, data: dict[str, Any]) -> dict[str, Any]:
        challenge_id, notices = services().hall.challenge(
            self.user(), data.get("username"), data.get("ruleset"), data.get("clock"))
        publish(notices)
        return ok(challenge_id=challenge_id)

    @acknowledged
    def on_answer_challenge(self, data: dict[str, Any]) -> dict[str, Any]:
        publish(services().hall.answer_challenge(
            self.user(), data.get("challenge_id"), data.get("accept")))
        return ok()

    @acknowledged
    def on_chat(self, data: dict[str, Any]) -> dict[str, Any]:
        publish(services().hall.chat(self.user(), data.get("text")))
        return ok()
