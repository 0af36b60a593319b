"""Socket.IO namespaces: thin translation between events and services."""

from __future__ import annotations

from flask_socketio import SocketIO


def register_namespaces(socketio: SocketIO) -> None:
    """Register once per process; each app's new server picks up the same handlers."""
    if socketio.namespace_handlers:
        return
    from gobang.sockets.hall import HallNamespace
    from gobang.sockets.room import RoomNamespace

    socketio.on_namespace(HallNamespace("/hall"))
    socketio.on_namespace(RoomNamespace("/room"))
