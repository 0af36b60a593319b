"""Socket.IO namespaces: thin translation between events and services."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask_socketio import SocketIO

if TYPE_CHECKING:
    from gobang.services.registry import Services


def register_namespaces(socketio: SocketIO, found: Services, hall_at_once: int) -> None:
    """The namespaces of this app, handed its services; `socketio.init_app` then registers
    them with the app's new Socket.IO server (one app per process, but tests build many)."""
    from gobang.sockets.base import Publisher
    from gobang.sockets.hall import HallNamespace
    from gobang.sockets.room import RoomNamespace
    from gobang.sockets.site import SiteNamespace
    from gobang.sockets.turnstile import Turnstile
    from gobang.transport.namespaces import register

    publish = Publisher(found.store)
    # The server exists once init_app has run: the event is made when first needed.
    hall_turnstile = Turnstile(socketio.start_background_task, lambda: socketio.sleep(0),
                               lambda: socketio.server.eio.create_event(), hall_at_once)
    handlers = [HallNamespace(found.lobby, found.computer, publish, found.event_limiter,
                              hall_turnstile),
                RoomNamespace(found.play, found.store, publish, found.event_limiter),
                SiteNamespace(found.lobby, found.play.table, publish, found.event_limiter)]
    register(socketio, handlers)
