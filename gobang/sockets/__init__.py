"""Socket.IO namespaces: thin translation between events and services."""

from __future__ import annotations

import logging
from typing import Any

from flask_socketio import SocketIO

log = logging.getLogger("gobang.sockets")


def register_namespaces(socketio: SocketIO) -> None:
    """Register once per process; each app's new server picks up the same handlers."""
    if socketio.namespace_handlers:
        return
    from gobang.sockets.hall import HallNamespace
    from gobang.sockets.room import RoomNamespace

    socketio.on_namespace(HallNamespace("/hall"))
    socketio.on_namespace(RoomNamespace("/room"))


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
