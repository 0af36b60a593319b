"""Run Gobang on eventlet: `python app.py [--host H] [--port P]`.

`flask --app app run` also works, for development, on Flask's own server in threading mode.
"""

from __future__ import annotations

import argparse
import collections
import functools
import logging
import os
import sys
from collections.abc import Callable


def _use_system_allocator() -> None:
    """Run on the C library's malloc rather than Python's own small-object allocator, by
    starting this same command again with PYTHONMALLOC=malloc (kept when already set, e.g.
    to `pymalloc`). Python's allocator gives memory back a whole 1 MiB arena at a time, only
    once every object in it is gone: after 2,000 connections dropped, the few thousand
    long-lived objects made meanwhile (database connections and their statement caches,
    query caches, timers, what the ticker keeps) sat one or two to a 16 KiB pool across
    40-50 arenas, and RSS stayed 30-50 MB above its baseline for good. glibc's malloc_trim
    (_heap_trimmer) gives back any free 4 KiB page instead: RSS came back to within 5 MB
    (bench/attacks.py memory, docs/security.md)."""
    if "PYTHONMALLOC" not in os.environ:
        os.environ["PYTHONMALLOC"] = "malloc"
        _prefer_jemalloc()
        os.execv(sys.executable, sys.orig_argv)


def _prefer_jemalloc() -> None:
    """jemalloc in glibc's place where the host has it (Debian: libjemalloc2), unless the host
    preloads something itself. glibc's malloc costs a move about a third more CPU than
    Python's allocator (docs/performance.md); jemalloc is as quick as Python's and, unlike
    it, gives freed pages back to the system on its own, a few seconds after they are
    freed."""
    if os.environ.get("LD_PRELOAD"):
        return
    import ctypes.util

    found = ctypes.util.find_library("jemalloc")
    if found:
        os.environ["LD_PRELOAD"] = found
        os.environ.setdefault("MALLOC_CONF", "background_thread:true,dirty_decay_ms:5000")


if __name__ == "__main__":
    _use_system_allocator()  # first: the new process starts from here again
    # Patching must come before anything else imports socket or threading.
    import eventlet

    eventlet.monkey_patch()
    # psycopg (PostgreSQL) waits for the server in C by default, which would stall every green
    # thread for the length of each query; its select() wait goes through eventlet's hub.
    os.environ.setdefault("PSYCOPG_WAIT_FUNC", "wait_select")

from gobang import create_app  # noqa: E402
from gobang.settings import SettingsRefused  # noqa: E402

log = logging.getLogger("gobang.transport")


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve Gobang.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    args = parser.parse_args()
    _refuse_changed_libraries()
    from eventlet import tpool

    settings = {
        "SOCKETIO_ASYNC_MODE": "eventlet",
        # Password hashing and SQLite calls block in C: run them on native threads.
        "BLOCKING_OFFLOAD": _background_offload(tpool.execute),
        "SQLITE_CONNECTION_WRAPPER": _green_sqlite,
        # A process restarted on the same port keeps its name, so it takes its games back at
        # once (several processes; PROCESS_NAME set by the host wins).
        "SERVE_PORT": args.port,
    }
    try:
        server_app = create_app(settings)
    except ValueError as exc:  # a malformed GOBANG_* setting: say which, without a traceback
        raise SystemExit(f"gobang: {exc}") from None
    except SettingsRefused as exc:  # settings that must not run, e.g. several processes on SQLite
        sys.stderr.write(f"gobang: refusing to start: {exc}\n")
        raise SystemExit(2) from None
    serve(server_app, args.host, args.port)


def _refuse_changed_libraries() -> None:
    """What the server patches must still be there as written (gobang/transport/patches.py):
    else one line each, exit status 2, before anything is served."""
    from gobang.transport.patches import REFUSED, refusals

    lines = refusals()
    if lines:
        sys.stderr.write("".join(f"gobang: {line}\n" for line in lines))
        raise SystemExit(REFUSED)


def _background_offload(execute):
    """Password hashing on native threads, a few at a time and at the lowest CPU priority.

    argon2id at its default cost takes 64 MiB and tens of milliseconds of CPU on 4 lanes per
    login. A burst of logins at normal priority on all of tpool's threads starved the thread
    that runs the event loop, so every game's moves waited (docs/performance.md); niced, the
    hashes use what CPU the event loop leaves, and the slots bound their memory."""
    import threading  # green once patched: waiting for a slot holds up only that login

    slots = threading.BoundedSemaphore(os.cpu_count() or 2)

    def niced(func, *args):
        os.setpriority(os.PRIO_PROCESS, 0, 19)  # on Linux: this native thread only
        return func(*args)

    def offload(func, *args):
        with slots:
            return execute(niced, func, *args)

    return offload


def _green_sqlite(connection, wait_ms: int):
    return _inline_unless_busy()(connection, wait_ms)


@functools.cache
def _inline_unless_busy() -> type:
    """A sqlite3 connection (and its cursors) whose calls run inline, and go to a native thread
    only when SQLite answers that the database is locked: there the call waits for the lock
    (the connection's `PRAGMA busy_timeout`) while every green thread goes on. Sending every
    call to a thread instead cost a thread hand-off per call, half the server's move
    throughput (docs/performance.md). Inline, the connection's busy timeout is 0 (set so by
    gobang/database.py when it installs this wrapper), so a lock held elsewhere fails at once,
    before any change, and the call is retried as is with `wait_ms`."""
    import sqlite3

    from eventlet import tpool

    def is_locked(exc: sqlite3.OperationalError) -> bool:
        return "locked" in str(exc) or "busy" in str(exc)

    def wait_for_lock(raw: sqlite3.Connection, wait_ms: int, method, args, kwargs):
        raw.execute(f"PRAGMA busy_timeout={wait_ms}")
        try:
            return method(*args, **kwargs)
        finally:
            raw.execute("PRAGMA busy_timeout=0")

    class InlineUnlessBusy(tpool.Proxy):
        def __init__(self, obj, wait_ms: int) -> None:
            super().__init__(obj)
            self.wait_ms = wait_ms

        def __getattr__(self, name: str):
            value = getattr(self._obj, name)
            if not callable(value):
                return value
            return lambda *args, **kwargs: self._call(value, args, kwargs)

        def atomically(self, work):
            """`work(connection)`, a whole transaction ending in its commit, in one hop
            instead of one per call (gobang/services/play/move_writer.py, every move). On a
            lock, SQLite refused the first write, or the commit: the transaction is rolled
            back and all of it runs again on a native thread that waits for the lock."""
            try:
                return work(self._obj)
            except sqlite3.OperationalError as exc:
                if not is_locked(exc):
                    raise
                self._obj.rollback()
                return tpool.execute(wait_for_lock, self._obj, self.wait_ms, work,
                                     (self._obj,), {})

        def _call(self, method, args, kwargs):
            try:
                result = method(*args, **kwargs)
            except sqlite3.OperationalError as exc:
                if not is_locked(exc):
                    raise
                raw = self._obj if isinstance(self._obj, sqlite3.Connection) else (
                    self._obj.connection)
                result = tpool.execute(wait_for_lock, raw, self.wait_ms, method, args, kwargs)
            if isinstance(result, sqlite3.Cursor):
                return InlineUnlessBusy(result, self.wait_ms)
            return result

        # Row iteration and context management never wait for a lock.
        def __iter__(self):
            return iter(self._obj)

        def __next__(self):
            return next(self._obj)

        def __enter__(self):
            return self._obj.__enter__()

        def __exit__(self, *exc):
            return self._call(self._obj.__exit__, exc, {})

    return InlineUnlessBusy


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
    _calm_garbage_collector()
    _ping_on_timers()
    _unmask_in_one_piece()
    _websockets_uncompressed()
    _read_a_slice_per_poll(server_app.config["READY_SOCKETS_PER_POLL"])
    closes = _trim_after_closes()
    # Behind a proxy every connection comes from it: the proxy caps instead (deploy/nginx/).
    # Load tests, with rate limits off, connect thousands of players from one address.
    capped = server_app.config["RATELIMIT_ENABLED"] and not server_app.config["PROXY_FIX"]
    per_address = server_app.config["MAX_CONNECTIONS_PER_ADDRESS"] if capped else 0
    protocol = _capped_per_address(
        _header_deadline(_lean_protocol(eventlet.wsgi.HttpProtocol),
                         server_app.config["REQUEST_HEADER_SECONDS"]), per_address, closes)
    timeout = server_app.config["REQUEST_TIMEOUT_SECONDS"]
    # max_size: eventlet serves at most this many connections at once (its default is 1024).
    # keepalive: how long a connection may wait before (each) request line; socket_timeout:
    # each later read or write of a request (the headers, all together, have
    # REQUEST_HEADER_SECONDS: _header_deadline). A websocket sets its own timeout once open
    # (engine.io's ping interval plus timeout).
    # eventlet's own "wsgi starting up" line is off with its access log (log_output=False).
    log.info("serving", extra={"fields": {"url": _served_url(listener.getsockname())}})
    eventlet.wsgi.server(listener, server_app, log_output=False, max_size=max_connections,
                         protocol=protocol, keepalive=timeout, socket_timeout=timeout)


def _served_url(address: tuple) -> str:
    """The address the listener holds (the port the system chose, for --port 0)."""
    host, port = address[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _ping_on_timers() -> None:
    """engine.io waits out every ping interval in a green thread per connection, asleep, with
    its stack saved: one of the three green threads each idle player costs. A timer on the hub
    does the same wait for the price of a small object, and the ping is sent from a green
    thread started when it fires. What it does is engine.io's own `_send_ping` after its
    sleep; tests/live/test_silent_drop.py and test_idle.py check pings still keep a quiet
    connection open and still find a silent one."""
    import time

    import eventlet
    from engineio import packet
    from engineio.socket import Socket

    def send_ping(sock: Socket) -> None:
        if not sock.closing and not sock.closed:
            sock.last_ping = time.time()
            sock.send(packet.Packet(packet.PING))

    def schedule_ping(sock: Socket) -> None:
        if sock.last_ping:  # as engine.io's: only once the previous ping was answered
            sock.last_ping = None
            eventlet.hubs.get_hub().schedule_call_global(
                sock.server.ping_interval, eventlet.spawn_n, send_ping, sock)

    Socket.schedule_ping = schedule_ping


def _read_a_slice_per_poll(at_most: int) -> None:
    """eventlet reads every socket that one poll found ready before it runs any green thread
    that is waiting: when a crowd's thousand Match presses arrive together, that was 100 ms
    and more of reading in which no move was played (docs/performance.md). epoll is level
    triggered here, so a socket left unread is simply found again by the next poll, after
    the handlers already read have had their turn."""
    from eventlet.hubs import epolls, get_hub

    hub = get_hub()
    if isinstance(hub, epolls.Hub) and at_most > 0:
        hub.do_poll = lambda seconds: hub.poll.poll(seconds, at_most)


def _unmask_in_one_piece() -> None:
    """eventlet unmasks every frame a client sends one byte at a time in Python (a
    generator, a one-byte `bytes` and a join per byte): about 2 % of the server's CPU per
    move under load (docs/performance.md). `gobang.frames.unmask` does the same XOR in one
    piece."""
    from eventlet.websocket import RFC6455WebSocket

    from gobang.frames import unmask

    RFC6455WebSocket._apply_mask = staticmethod(unmask)


def _websockets_uncompressed() -> None:
    """eventlet accepts permessage-deflate whenever a client offers it, and browsers do: each
    connection then keeps a zlib compressor (its window and tables) from its first message on,
    and compresses every message on its own. Measured with 2,000 hall connections offering it:
    186 KB per connection instead of 53, against the 64 KB a hall connection may cost, and a
    third more CPU for the hall's updates (docs/performance.md). The messages are small JSON,
    sent uncompressed: the extension is declined, which RFC 7692 lets a server do."""
    from engineio.async_drivers.eventlet import WebSocketWSGI

    WebSocketWSGI._negotiate_permessage_deflate = lambda self, extensions: None


def _lean_protocol(protocol):
    """eventlet's HTTP handler with small socket buffers. Each connection gets a read buffer
    (8 KB) and a write buffer (16 KB) for parsing the request and writing the response; a
    WebSocket then talks to the socket directly, but the handler, and both buffers, live as
    long as the connection: 24 KB of every idle player's 60-odd (docs/performance.md). HTTP
    requests and responses here are small, and larger writes bypass the buffer anyway."""

    class LeanProtocol(protocol):
        rbufsize = 2048
        wbufsize = 2048

    return LeanProtocol


def _header_deadline(protocol, seconds: float):
    """Closes a connection, with one log line, when a request's headers have not ended
    `seconds` after the first byte of its request line. eventlet's timeouts are per read, so
    a client sending a header byte every few seconds held a connection for ever. The wait for
    that first byte stays eventlet's keepalive timeout.

    eventlet's HttpProtocol internals it touches (0.41), only here: `_read_request_line` (the
    first byte is awaited before it, with the keepalive timeout eventlet sets there) and
    `handle_one_request`, which reads the request line and then the headers in
    `parse_request`."""
    import eventlet

    class HeadersTooSlow(BaseException):  # not caught by anything that reads the headers
        pass

    class HeaderDeadlineProtocol(protocol):
        deadline: eventlet.Timeout | None = None

        def _read_request_line(self):
            if not self.rfile.closed:
                keepalive = self.server.keepalive
                if keepalive and not isinstance(keepalive, bool):
                    self.connection.settimeout(keepalive)
                try:
                    self.rfile.peek(1)
                except TimeoutError:
                    raise  # as eventlet's own read raises it: the connection is closed
                except OSError:
                    pass  # eventlet's read below meets the error again and ends its way
            self.deadline = eventlet.Timeout(seconds, HeadersTooSlow)
            return super()._read_request_line()

        def parse_request(self):
            try:
                return super().parse_request()
            finally:
                self._disarm()

        def handle_one_request(self) -> None:
            try:
                super().handle_one_request()
            except HeadersTooSlow:
                self.close_connection = 1
                log.warning("connection refused", extra={"fields": {
                    "reason": "request headers too slow",
                    "address": str(self.client_address[0])}})
            finally:
                self._disarm()

        def _disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

    return HeaderDeadlineProtocol


def _capped_per_address(protocol, per_address: int, closes: Callable[[], None]):
    """Closes a connection at once when its address already holds `per_address` (0: no cap),
    so that one client cannot take all of MAX_CONNECTIONS, half-sent requests included; logs
    once each time an address reaches the cap. Counts every connection's end in `closes`."""
    held: collections.Counter[str] = collections.Counter()
    at_cap: set[str] = set()

    class CappedProtocol(protocol):
        def handle(self) -> None:
            address = str(self.client_address[0])
            if per_address and held[address] >= per_address:
                if address not in at_cap:
                    at_cap.add(address)
                    log.warning("connection refused", extra={"fields": {
                        "reason": "too many connections from one address", "address": address}})
                return
            held[address] += 1
            try:
                super().handle()
            finally:
                held[address] -= 1
                if not held[address]:
                    del held[address]
                    at_cap.discard(address)

        def finish(self) -> None:
            try:
                super().finish()
            finally:
                # eventlet's environ holds a function that holds this protocol, which holds
                # the environ: a cycle per connection, left for a full collection.
                self.environ = None
                closes()

    return CappedProtocol


# The heap is trimmed after this many connections ended; see _trim_after_closes.
TRIM_AFTER_CLOSES = 1_000


def _trim_after_closes(every_seconds: float = 5.0) -> Callable[[], None]:
    """What a crowd of closed connections freed goes back to the system: once
    TRIM_AFTER_CLOSES connections have ended and the closing has stopped (or at tenfold as
    many under churn that never stops), a green thread clears the method cache and trims the
    C heap, then trims again for a few rounds after. Returns the function that counts a close.

    It ran a full collection first while closed connections left reference cycles
    (sockets/sessions.py, app.py's CappedProtocol); with full collections a hundred times
    rarer (_calm_garbage_collector) memory grew round after round of them (107 -> 378 MiB).
    Those cycles are gone, and the collection was a pause for every game, 0.6-0.76 s with
    1,000 games on a process (docs/performance.md); bench/attacks.py memory reads 122-135 MB
    with the trim alone, 122-133 with the collection before it."""
    import sys

    import eventlet

    closed = [0]
    give_back = _heap_trimmer()

    def count() -> None:
        closed[0] += 1

    def trim_when_due() -> None:
        last = trims_left = 0
        while True:
            eventlet.sleep(every_seconds)
            now = closed[0]
            settled, last = now == last, now
            if now >= TRIM_AFTER_CLOSES and (settled or now >= 10 * TRIM_AFTER_CLOSES):
                closed[0] = last = 0
                # The method cache holds the attribute names it last looked up, strings
                # made per connection ('on_' + event) that would each pin an arena.
                sys._clear_type_cache()
                give_back()
                trims_left = 3
            elif trims_left:
                # What is freed later (connections still closing, timers still pending)
                # stays in the C heap until a trim: without these, one round of
                # bench/attacks.py memory read 173 MB 30 s after, the others 121-135.
                trims_left -= 1
                give_back()

    eventlet.spawn_n(trim_when_due)
    return count


def _heap_trimmer() -> Callable[[], None]:
    """glibc's malloc_trim(0): what was freed outside Python's own arenas (saved green thread
    stacks, socket buffers) goes back to the system instead of staying in the
    heap's free lists. Does nothing where the C library has no such call."""
    import ctypes
    import ctypes.util

    try:
        trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return lambda: None
    return lambda: trim(0)


def _calm_garbage_collector() -> None:
    """Thousands of connections are millions of long-lived objects, and a full collection of
    them stops every game for 100-200 ms: that was most of the moves' p99 with 1,000 games
    (docs/performance.md). Start-up objects are frozen out of collection, and full
    collections run a hundred times less often. The young generations keep Python's own
    thresholds: each of their collections is a pause too, and raising them to 50,000 made
    every young collection a 70 ms stop (docs/performance.md, change 14)."""
    import gc

    gc.freeze()
    gc.set_threshold(700, 10, 1_000)


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
