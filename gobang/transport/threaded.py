"""The second async mode: one OS thread per connection, no patching (`python app.py
--async-mode threading`, or GOBANG_ASYNC_MODE=threading).

Werkzeug's threaded WSGI server, with simple-websocket for the websockets (the pairing
Flask-SocketIO documents for its "threading" mode; engine.io's threading driver reads the
socket Werkzeug leaves in the environ). Nothing here imports eventlet: in this mode app.py
neither patches nor tunes it, and checks only the touched library internals that apply
(`touched`). The services and namespaces are the same; what each mode does differently is
listed in docs/architecture.md, "The eventlet question". A spike that keeps the seam from
rotting (tests/live/test_async_modes.py), not a production set-up: eventlet stays the
default.
"""

from __future__ import annotations

import socket
from typing import Any

from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

from gobang.transport.memory import calm_garbage_collector
from gobang.transport.patches import EVENTLET, TOUCHES, Touch
from gobang.transport.server import raise_open_files_limit, say_serving, served_url

ASYNC_MODE = "threading"

# Touches installed only by the eventlet server (tuning.py): the ping on hub timers and
# eventlet's websocket's compression. Every touch of the eventlet distribution is left out too.
EVENTLET_SERVER_ONLY = frozenset({
    "engineio.socket.Socket.schedule_ping",
    "engineio.async_drivers.eventlet.WebSocketWSGI._negotiate_permessage_deflate",
})


def touched() -> tuple[Touch, ...]:
    """The rows of patches.py's table that this mode relies on: the guards', the fan-out's,
    the queue's and the sessions' touches, not the eventlet server's."""
    return tuple(touch for touch in TOUCHES
                 if touch.distribution != EVENTLET and touch.name() not in EVENTLET_SERVER_ONLY)


def settings() -> dict[str, Any]:
    """The app's settings for this mode. No BLOCKING_OFFLOAD (password hashing runs on the
    request's own thread) and no SQLITE_CONNECTION_WRAPPER (SQLite waits for a lock with its
    own busy timeout, blocking only the thread that asked)."""
    return {"SOCKETIO_ASYNC_MODE": ASYNC_MODE}


class QuietHandler(WSGIRequestHandler):
    """Werkzeug's handler without its line per request (eventlet's access log is off too);
    its errors are still logged. A websocket's end reaches Werkzeug as a dropped connection
    (engine.io's driver raises ConnectionError), and the connection is then closed. Werkzeug
    kept it open instead, to read it as the next request of a kept-alive connection: it took
    the client's close frame for one (a 400 in the log), and every client that disconnected
    waited its own 3 s timeout for the connection's end (tests/live/test_async_modes.py)."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return

    def connection_dropped(self, error: BaseException,
                           environ: dict[str, Any] | None = None) -> None:
        self.close_connection = True


def serve(server_app: Any, host: str, port: int) -> None:
    """Werkzeug's threaded server on `host`:`port` (0: a port the system chooses), until
    the process is stopped."""
    raise_open_files_limit(server_app.config["MAX_CONNECTIONS"] + 256)

    class Server(ThreadedWSGIServer):
        request_queue_size = server_app.config["LISTEN_BACKLOG"]

    server = Server(host, port, server_app, handler=QuietHandler)
    # Accepted sockets inherit TCP_NODELAY: a small frame is not held back by Nagle's
    # algorithm behind an unacknowledged one (gobang/transport/server.py says what it cost).
    server.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    calm_garbage_collector()
    say_serving(served_url(server.socket.getsockname()), async_mode=ASYNC_MODE)
    server.serve_forever()
