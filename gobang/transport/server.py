"""eventlet's WSGI server, as `socketio.run` starts it, tuned for many small messages on many
connections."""

from __future__ import annotations

import logging
import sys
from typing import Any

from gobang.transport.memory import calm_garbage_collector, trim_after_closes
from gobang.transport.patches import TOUCHES, Touch
from gobang.transport.protocol import capped_per_address, header_deadline, lean_protocol
from gobang.transport.tuning import (
    ping_on_timers,
    read_a_slice_per_poll,
    unmask_in_one_piece,
    websockets_uncompressed,
)

log = logging.getLogger("gobang.transport")
# The line for the person who started the server goes to standard output whatever the log
# level, plain, apart from the key=value event log on standard error.
person = logging.getLogger("gobang.person")

ASYNC_MODE = "eventlet"


def touched() -> tuple[Touch, ...]:
    """Every row of patches.py's table: this server relies on all of them."""
    return TOUCHES


def settings() -> dict[str, Any]:
    """The app's settings for this mode: password hashing and SQLite calls block in C, so they
    run on native threads (eventlet's tpool), off the hub."""
    from eventlet import tpool

    from gobang.transport.offload import background_offload, green_sqlite

    return {"SOCKETIO_ASYNC_MODE": ASYNC_MODE,
            "BLOCKING_OFFLOAD": background_offload(tpool.execute),
            "SQLITE_CONNECTION_WRAPPER": green_sqlite}

def serve(server_app, host: str, port: int) -> None:
    """eventlet's WSGI server (as `socketio.run` starts it), tuned for many small messages
    on many connections."""
    import socket

    import eventlet
    import eventlet.wsgi

    max_connections = server_app.config["MAX_CONNECTIONS"]
    raise_open_files_limit(max_connections + 256)
    family, _type, _proto, _name, address = socket.getaddrinfo(host, port)[0]
    listener = eventlet.listen(address, family, backlog=server_app.config["LISTEN_BACKLOG"])
    # Accepted sockets inherit TCP_NODELAY. Without it Nagle's algorithm holds back a small
    # frame while an earlier one is unacknowledged, and the peer's delayed ACK turns a
    # sub-millisecond move into 25-45 ms (measured with bench/load.py --scenario single).
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    calm_garbage_collector()
    ping_on_timers()
    unmask_in_one_piece()
    websockets_uncompressed()
    read_a_slice_per_poll(server_app.config["READY_SOCKETS_PER_POLL"])
    closes = trim_after_closes()
    # Behind a proxy every connection comes from it: the proxy caps instead (deploy/nginx/).
    # Load tests, with rate limits off, connect thousands of players from one address.
    capped = server_app.config["RATELIMIT_ENABLED"] and not server_app.config["PROXY_FIX"]
    per_address = server_app.config["MAX_CONNECTIONS_PER_ADDRESS"] if capped else 0
    protocol = capped_per_address(
        header_deadline(lean_protocol(eventlet.wsgi.HttpProtocol),
                         server_app.config["REQUEST_HEADER_SECONDS"]), per_address, closes)
    timeout = server_app.config["REQUEST_TIMEOUT_SECONDS"]
    # max_size: eventlet serves at most this many connections at once (its default is 1024).
    # keepalive: how long a connection may wait before (each) request line; socket_timeout:
    # each later read or write of a request (the headers, all together, have
    # REQUEST_HEADER_SECONDS: header_deadline). A websocket sets its own timeout once open
    # (engine.io's ping interval plus timeout).
    # eventlet's own "wsgi starting up" line is off with its access log (log_output=False).
    say_serving(served_url(listener.getsockname()))
    eventlet.wsgi.server(listener, server_app, log_output=False, max_size=max_connections,
                         protocol=protocol, keepalive=timeout, socket_timeout=timeout)


def say_serving(url: str, **fields: str) -> None:
    """Once listening: one line for a person on standard output, `Gobang serving on URL`,
    and the `serving` event for anything that reads the log (it may be set to warnings only)."""
    tell_person(f"Gobang serving on {url}")
    log.info("serving", extra={"fields": {"url": url, **fields}})


def tell_person(text: str) -> None:
    if not person.handlers:
        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(logging.Formatter("%(message)s"))
        person.addHandler(handler)
        person.setLevel(logging.INFO)
        person.propagate = False
    person.info(text)


def served_url(address: tuple) -> str:
    """The address the listener holds (the port the system chose, for --port 0)."""
    host, port = address[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def raise_open_files_limit(wanted: int) -> None:
    """One file descriptor per connection: raise the soft limit towards the hard one."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, ceiling), hard))
