"""The /hall namespace: the hall view, finding players, matching, challenges and chat."""

from __future__ import annotations

from typing import Any

from flask import request
from flask_socketio import join_room

from gobang.extensions import socketio
from gobang.services.computer.computer import Computer
from gobang.services.pools import NO_OPENING, OMITTED
from gobang.services.ratelimit import RateLimiter
from gobang.services.registry import Lobby
from gobang.sockets.base import Publisher, SessionNamespace, acknowledged, ok, user_room
from gobang.sockets.turnstile import Turnstile
from gobang.vocabulary import Namespace


class HallNamespace(SessionNamespace):
    # Guests play the computer from their own page and never meet people: kept out at the
    # door, none of the hall's events (matching, challenges, chat) has to ask about them.
    admits_guests = False

    def __init__(self, lobby: Lobby, computer: Computer, publish: Publisher,
                 unknown: RateLimiter, turnstile: Turnstile) -> None:
        super().__init__(Namespace.HALL, publish, unknown, turnstile)
        self.lobby = lobby
        self.computer = computer

    def on_connect(self, auth: Any = None) -> None:
        user = self.admit()
        replaced, hello = self.lobby.hall.connect(user, request.sid)
        join_room(user_room(user.id))
        self.emit("hello", hello, room=request.sid)
        self.emit("following", self.lobby.following.of(user.id), room=request.sid)
        self.replace(replaced)  # after `hello`: telling another process's connection waits

    def on_disconnect(self, *reason: Any) -> None:
        user_id = self.forget()
        if user_id is not None:
            notices = self.lobby.hall.disconnect(user_id, request.sid)
            # Broadcast from a task of its own: sending to a connection whose ping timed out
            # closes it there and then, running its disconnect handler inside this one; when
            # thousands time out at once that nesting overflowed the stack (docs/performance.md).
            socketio.start_background_task(self.publish, notices)

    @acknowledged
    def on_hall_view(self, data: dict[str, Any]) -> dict[str, Any]:
        return ok(view=self.lobby.hall.whole_view(self.user_id()))

    @acknowledged
    def on_find_players(self, data: dict[str, Any]) -> dict[str, Any]:
        return ok(players=self.lobby.hall.find_players(data.get("prefix")))

    @acknowledged
    def on_start_match(self, data: dict[str, Any]) -> dict[str, Any]:
        self.publish(self.lobby.matchmaking.start(
            self.user(), data.get("ruleset"), data.get("clock", OMITTED),
            data.get("opening", NO_OPENING)))
        return ok()

    @acknowledged
    def on_cancel_match(self, data: dict[str, Any]) -> dict[str, Any]:
        self.publish(self.lobby.matchmaking.cancel(self.user_id()))
        return ok()

    @acknowledged
    def on_challenge(self, data: dict[str, Any]) -> dict[str, Any]:
        challenge_id, notices = self.lobby.challenges.send(
            self.user(), data.get("username"), data.get("ruleset"), data.get("clock", OMITTED),
            data.get("rated", True), data.get("color", "random"),
            data.get("opening", NO_OPENING))
        self.publish(notices)
        return ok(challenge_id=challenge_id)

    @acknowledged
    def on_answer_challenge(self, data: dict[str, Any]) -> dict[str, Any]:
        self.publish(self.lobby.challenges.answer(
            self.user(), data.get("challenge_id"), data.get("accept")))
        return ok()

    @acknowledged
    def on_chat(self, data: dict[str, Any]) -> dict[str, Any]:
        self.publish(self.lobby.chat.say(self.user(), data.get("text")))
        return ok()

    @acknowledged
    def on_play_computer(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id, notices = self.computer.start(
            self.user(), data.get("level"), data.get("color"), data.get("ruleset"),
            data.get("clock"), data.get("opening"))
        self.publish(notices)
        return ok(game_id=game_id)
