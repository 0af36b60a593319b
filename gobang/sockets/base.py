"""What both namespaces share: room names, publishing notices, acknowledgements."""

from __future__ import annotations

import functools
import logging
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from flask import request, session
from flask_babel import gettext
from flask_login import current_user

# python-socketio sends a refusal's reason only from its own ConnectionRefusedError; Python's
# built-in one of the same name reaches the client as "Connection refused by server", and the
# pages retry only a refusal that says `unavailable`.
from flask_socketio import ConnectionRefusedError as Refused
from flask_socketio import Namespace
from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from gobang.extensions import db, socketio
from gobang.models import User
from gobang.services.accounts.accounts import SESSION_GENERATION_KEY, session_is_current
from gobang.services.notices import (
    DISCONNECT_USER,
    GAME,
    HALL,
    HALL_USER,
    ROOM_USER,
    SID,
    SPECTATOR_CHAT,
    USER,
    ActionError,
    Notice,
)
from gobang.services.ratelimit import RateLimiter
from gobang.services.store import LiveStore
from gobang.sockets.turnstile import Turnstile
from gobang.transport.queue import batched
from gobang.vocabulary import Namespace as Ns

log = logging.getLogger("gobang.sockets")
GOBANG_ROOT = Path(__file__).resolve().parents[1]
HALL_NS = Ns.HALL
ROOM_NS = Ns.ROOM
SITE_NS = Ns.SITE


def game_room(game_id: int) -> str:
    return f"game:{game_id}"


def spectator_chat_room(game_id: int) -> str:
    """The connections at a game that hear its spectators' chat while it is played: its
    spectators, and players who asked to. After the end the whole game's room hears it."""
    return f"game:{game_id}:spectator-chat"


def user_room(user_id: int) -> str:
    return f"user:{user_id}"


_ROUTES: dict[str, tuple[tuple[str, Callable[[Any], str | None]], ...]] = {
    GAME: ((ROOM_NS, game_room),),
    HALL: ((HALL_NS, lambda _key: None),),
    HALL_USER: ((HALL_NS, user_room),),
    ROOM_USER: ((ROOM_NS, user_room),),
    SID: ((ROOM_NS, str),),
    SPECTATOR_CHAT: ((ROOM_NS, spectator_chat_room),),
    USER: ((HALL_NS, user_room), (SITE_NS, user_room)),
}

_LOCAL = frozenset({GAME, SPECTATOR_CHAT, SID})


class Publisher:
    """Sends the services' notices to whom they name."""

    def __init__(self, store: LiveStore) -> None:
        self.store = store

    def __call__(self, notices: Iterable[Notice]) -> None:
        # Several processes: what goes through Redis goes in one round trip
        # (gobang/transport/queue.py).
        with batched(socketio.server):
            for notice in notices:
                self._send(notice)

    def _send(self, notice: Notice) -> None:
        if notice.target == DISCONNECT_USER:
            self._disconnect_user(notice)
            return
        # A game's room is all on the process that plays it (several processes: every room
        # connection of a game is sent to its owner), so its events skip Redis.
        local = notice.target in _LOCAL
        for namespace, room_of in _ROUTES[notice.target]:
            socketio.emit(notice.event, notice.payload, namespace=namespace,
                          to=room_of(notice.key), ignore_queue=local,
                          skip_sid=self._skipped(namespace, notice.skip))

    def _skipped(self, namespace: str, user_ids: tuple[int, ...]) -> list[str] | None:
        """The live connections of these users in the namespace: one read of who is
        connected, then one per user who is."""
        if not user_ids:
            return None
        present = self.store.connected_among(namespace, user_ids)
        sids = [self.store.connection(namespace, user_id) for user_id in present]
        return [sid for sid in sids if sid is not None] or None

    def _disconnect_user(self, notice: Notice) -> None:
        """Tell each of the user's live connections why, then close it (a ban, from the host)."""
        for namespace in (HALL_NS, ROOM_NS):
            sid = self.store.connection(namespace, notice.key)
            if sid is not None:
                socketio.emit(notice.event, notice.payload, namespace=namespace, to=sid)
                socketio.server.disconnect(sid, namespace=namespace)
        # Every page's /site connection: the user's room there holds them all.
        room = user_room(notice.key)
        socketio.emit(notice.event, notice.payload, namespace=SITE_NS, to=room)
        for sid, _eio_sid in list(socketio.server.manager.get_participants(SITE_NS, room)):
            socketio.server.disconnect(sid, namespace=SITE_NS)


def publish(notices: Iterable[Notice]) -> None:
    """For views and commands that run in the server process (a password change closes the
    user's other connections); namespaces and the ticker hold their own Publisher."""
    from gobang.services.registry import services

    Publisher(services().store)(notices)


def ok(**fields: Any) -> dict[str, Any]:
    return {"ok": True, **fields}


def bad_request(message: str) -> ActionError:
    return ActionError("bad_request", message)


def payload_dict(data: Any) -> dict[str, Any]:
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise bad_request(gettext("The payload must be a JSON object."))
    return data


def int_field(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if type(value) is not int:
        raise bad_request(gettext("'%(name)s' must be an integer.", name=name))
    return value


def points_field(data: dict[str, Any], name: str, most: int) -> list[tuple[int, int]]:
    """A list of at most `most` [row, col] pairs of integers (whether they are on the board
    is the referee's to say)."""
    value = data.get(name)
    message = gettext("'%(name)s' must be a list of at most %(most)d [row, col] pairs.",
                      name=name, most=most)
    if not isinstance(value, list) or len(value) > most:
        raise bad_request(message)
    points = []
    for item in value:
        if (not isinstance(item, list) or len(item) != 2
                or any(type(number) is not int for number in item)):
            raise bad_request(message)
        points.append((item[0], item[1]))
    return points


MAX_ID = 2**62


def id_field(data: dict[str, Any], name: str = "game_id") -> int:
    value = int_field(data, name)
    if not 0 < value < MAX_ID:
        raise ActionError("not_found", gettext("There is no such game."))
    return value


def acknowledged(handler: Callable[..., dict[str, Any]], *,
                 viewers: bool = False) -> Callable[..., dict[str, Any]]:
    """Turn a handler's refusals into the contract's error acknowledgement; every client
    event gets an answer and a refused one changes nothing. Only a logged-in connection's
    events reach the handler, and a viewer's too where `viewers` says so (`watching`)."""

    @functools.wraps(handler)
    def wrapper(self: SessionNamespace, data: Any = None, *extra: Any) -> dict[str, Any]:
        if self.user_id() is None and not (viewers and self.is_viewer()):
            return self.refusal().ack()
        try:
            return handler(self, payload_dict(data))
        except ActionError as error:
            db.session.rollback()
            self.publish(error.notices)
            return error.ack()
        # The database refused (locked, disk full), or the shared store is restarting.
        except (SQLAlchemyError, OSError, RedisError) as exc:
            db.session.rollback()
            log.warning("database refused an event", extra={"fields": {
                "event": handler.__name__[3:], "error": type(exc).__name__}})
            return ActionError("conflict", gettext(
                "The server could not save that just now; try again.")).ack()

    return wrapper


def watching(handler: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """As `acknowledged`, for the events a viewer may send too: those that only read."""
    return acknowledged(handler, viewers=True)


class SessionNamespace(Namespace):
    """A namespace open to logged-in users, with one live connection per user; where
    `admits_viewers`, also to visitors without an account, as viewers who may only watch;
    where not `admits_guests`, closed to guest accounts."""

    admits_viewers = False
    admits_guests = True

    def __init__(self, namespace: str, publish: Publisher, unknown: RateLimiter,
                 turnstile: Turnstile | None = None) -> None:
        super().__init__(namespace)
        self.publish = publish
        # Unknown events per connection: each costs an answer, so a client may not loop them.
        self.unknown = unknown
        # The hall's events queue here, one per turn of the event loop (sockets/turnstile.py).
        self.turnstile = turnstile
        self._users: dict[str, int] = {}
        # Connections without an account (admits_viewers): any number, none of them a user's.
        self._viewers: set[str] = set()

    def trigger_event(self, event: str, *args: Any) -> Any:
        """Route events, refusing what a client cannot legitimately send: unknown events,
        and "connect"/"disconnect" sent as ordinary events to fake a (dis)connection. These
        run before Flask-SocketIO makes the event's request context, so they stay English."""
        lifecycle = event in ("connect", "disconnect")
        if lifecycle:
            sid = args[0] if args else None
            if not self._is_lifecycle(event, sid):
                return ActionError("bad_request", f"'{event}' cannot be sent.").ack()
        elif not event or not hasattr(self, f"on_{event}"):
            if not self.unknown.hit(args[0] if args else None):
                return ActionError("rate_limited", "Too many unknown events.").ack()
            return ActionError("bad_request", f"Unknown event {str(event)[:40]!r}.").ack()
        try:
            # A connection's own arrival and departure are not queued behind the hall's events.
            if self.turnstile is None or lifecycle:
                return super().trigger_event(event, *args)
            with self.turnstile.turn():
                return super().trigger_event(event, *args)
        except (RedisError, SQLAlchemyError) as error:
            # Connecting, or a disconnect's bookkeeping, while the shared store restarts or
            # every pooled connection stays busy: a refused connection is tried again by the
            # page, and a lost disconnect leaves an entry that a newer connection replaces.
            # (The event's app context, and its session, already ended, rolled back.)
            log.warning("store unreachable", extra={"fields": {
                "event": event, "error": type(error).__name__,
                "detail": str(error)[:120], "at": where_raised(error)}})
            if event == "connect":
                raise Refused("unavailable") from None  # pages retry this one
            return None

    def _is_lifecycle(self, event: str, sid: str | None) -> bool:
        if event == "connect":
            return sid not in self._users and sid not in self._viewers
        # During a real disconnect the manager no longer counts the sid as connected.
        return not self.socketio.server.manager.is_connected(sid, self.namespace)

    def user_id(self) -> int | None:
        return self._users.get(request.sid)

    def is_viewer(self) -> bool:
        return request.sid in self._viewers

    def refusal(self) -> ActionError:
        """The answer to an event this connection may not send for want of an account."""
        if self.is_viewer():
            return ActionError("unauthorized", gettext(
                "Visitors can only watch. Log in, or play the computer as a guest."))
        return ActionError("unauthorized", gettext("Log in first."))

    def user(self) -> User:
        """The connection's user, while its session lasts. Only events that load the user
        check the session here: a game action must not pay a database read (about 1 ms) per
        move. An ended session's connections are closed anyway: at once when it ends in this
        server, on the next admin poll when the host's command line ends it."""
        user = db.session.get(User, self.user_id())
        if user is None or not user.is_active:
            raise ActionError("unauthorized", gettext("Your account is not available."))
        if not session_is_current(user, session.get(SESSION_GENERATION_KEY)):
            error = ActionError("unauthorized", gettext("Your session has ended. Log in again."))
            error.notices.append(Notice("session_ended", {"reason": "ended_elsewhere"},
                                        DISCONNECT_USER, user.id))
            raise error
        return user

    def admit(self) -> User | None:
        """The connecting user; None for a viewer (a visitor without an account, where the
        namespace admits them). Refused: no account where viewers are not admitted
        (`unauthorized`), a guest where guests are not (`registered_only`)."""
        if not current_user.is_authenticated:
            if not self.admits_viewers:
                raise Refused("unauthorized")
            self._viewers.add(request.sid)
            return None
        if current_user.guest and not self.admits_guests:
            raise Refused("registered_only")
        self._users[request.sid] = current_user.id
        return current_user._get_current_object()

    def replace(self, older_sid: str | None) -> None:
        """One live connection per user: the older one is told, then closed."""
        if older_sid is not None:
            self.emit("session_replaced", {}, room=older_sid)
            self.disconnect(older_sid)

    def forget(self) -> int | None:
        """The connection's user, forgotten (None for a viewer, or a refused connection)."""
        self._viewers.discard(request.sid)
        return self._users.pop(request.sid, None)


def where_raised(error: BaseException) -> str:
    """The last line of Gobang's own code that the error passed through (`services/hall/
    presence.py:120`): which of the server's calls to a store failed, for a host reading the
    log (the error's own text names the library's frame, not ours)."""
    found = ""
    for frame in traceback.extract_tb(error.__traceback__):
        path = Path(frame.filename)
        if path.is_relative_to(GOBANG_ROOT):
            found = f"{path.relative_to(GOBANG_ROOT)}:{frame.lineno}"
    return found
