"""Namespaces registered with Flask-SocketIO as its own `on_namespace` registers them, once
per app: tests build many apps on the one SocketIO object, and each must hold only its own.

Library internals touched, and only here (patches.py checks both at start-up): Flask-SocketIO's
private `Namespace._set_socketio(socketio)` and the `SocketIO.namespace_handlers` list that
`init_app` registers with the app's new Socket.IO server.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask_socketio import Namespace, SocketIO


def register(socketio: SocketIO, handlers: Sequence[Namespace]) -> None:
    """`handlers` become the namespaces of the server `socketio.init_app` makes next, in place
    of any registered before."""
    for handler in handlers:
        handler._set_socketio(socketio)  # as `socketio.on_namespace` does
    socketio.namespace_handlers = list(handlers)
