"""eventlet's HTTP protocol for each connection: small buffers, one deadline for a request's
headers, a cap on connections per address."""

from __future__ import annotations

import collections
import logging
from collections.abc import Callable

log = logging.getLogger("gobang.transport")

def lean_protocol(protocol):
    """eventlet's HTTP handler with small socket buffers. Each connection gets a read buffer
    (8 KB) and a write buffer (16 KB) for parsing the request and writing the response; a
    WebSocket then talks to the socket directly, but the handler, and both buffers, live as
    long as the connection: 24 KB of every idle player's 60-odd (docs/performance.md). HTTP
    requests and responses here are small, and larger writes bypass the buffer anyway."""

    class LeanProtocol(protocol):
        rbufsize = 2048
        wbufsize = 2048

    return LeanProtocol


def header_deadline(protocol, seconds: float):
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


def capped_per_address(protocol, per_address: int, closes: Callable[[], None]):
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
