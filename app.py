"""Run Gobang on eventlet: `python app.py [--host H] [--port P]`.

`flask --app app run` also works, for development, on Flask's own server in threading mode.
"""

from __future__ import annotations

import argparse
import os

if __name__ == "__main__":
    # Patching must come before anything else imports socket or threading.
    import eventlet

    eventlet.monkey_patch()
    # psycopg (PostgreSQL) waits for the server in C by default, which would stall every green
    # thread for the length of each query; its select() wait goes through eventlet's hub.
    os.environ.setdefault("PSYCOPG_WAIT_FUNC", "wait_select")

from gobang import create_app  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve Gobang.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    args = parser.parse_args()
    from eventlet import tpool

    settings = {
        "SOCKETIO_ASYNC_MODE": "eventlet",
        # Password hashing and SQLite calls block in C: run them on native threads.
        "BLOCKING_OFFLOAD": tpool.execute,
        "SQLITE_CONNECTION_WRAPPER": _green_sqlite,
    }
    try:
        server_app = create_app(settings)
    except ValueError as exc:  # a malformed GOBANG_* setting: say which, without a traceback
        raise SystemExit(f"gobang: {exc}") from None
    serve(server_app, args.host, args.port)


def _green_sqlite(connection):
    import sqlite3

    from eventlet import tpool

    return tpool.Proxy(connection, autowrap=(sqlite3.Cursor,))


def serve(server_app, host: str, port: int) -> None:
    """eventlet's WSGI server (as `socketio.run` starts it), tuned for many small messages
    on many connections."""
    import socket

    import eventlet
    import eventlet.wsgi

    max_connections = server_app.config["MAX_CONNECTIONS"]
    _raise_open_files_limit(max_connections + 256)
    family, _type, _proto, _name, address = socket.getaddrinfo(host, port)[0]
    listener = eventlet.listen(address, family, backlog=server_app.config["LISTEN_BACKLOG"])
    # Accepted sockets inherit TCP_NODELAY. Without it Nagle's algorithm holds back a small
    # frame while an earlier one is unacknowledged, and the peer's delayed ACK turns a
    # sub-millisecond move into 25-45 ms (measured with bench/load.py --scenario single).
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    # max_size: eventlet serves at most this many connections at once (its default is 1024).
    eventlet.wsgi.server(listener, server_app, log_output=False, max_size=max_connections)


def _raise_open_files_limit(wanted: int) -> None:
    """One file descriptor per connection: raise the soft limit towards the hard one."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, ceiling), hard))


if __name__ == "__main__":
    main()
else:
    app = create_app()
