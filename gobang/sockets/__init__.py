"""Socket.IO namespaces: thin translation between events and services."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from flask_socketio import SocketIO

if TYPE_CHECKING:
    from gobang.services.registry import Services

log = logging.getLogger("gobang.sockets")


def register_namespaces(socketio: SocketIO, found: Services) -> None:
    """The namespaces of this app, handed its services; `socketio.init_app` then registers
    them with the app's new Socket.IO server (one app per process, but tests build many)."""
    from gobang.sockets.base import Publisher
    from gobang.sockets.hall import HallNamespace
    from gobang.sockets.room import RoomNamespace

    publish = Publisher(found.store)
    handlers = [HallNamespace(found.lobby, publish),
                RoomNamespace(found.play, found.store, publish)]
    for handler in handlers:
        handler._set_socketio(socketio)  # as `socketio.on_namespace` does
    socketio.namespace_handlers = handlers


def guard_malformed_packets(server: Any) -> None:
    """A packet that does not parse is a client's fault, not a server error: close that
    connection with one log line instead of a traceback."""
    handle = server._handle_eio_message

    def guarded(eio_sid: str, data: Any) -> Any:
        try:
            return handle(eio_sid, data)
        except ValueError as exc:  # json.JSONDecodeError is a ValueError too
            log.warning("malformed packet", extra={"fields": {"error": str(exc)[:100]}})
            server.eio.disconnect(eio_sid)
            return None

    server.eio.on("message", guarded)
