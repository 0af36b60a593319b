"""Long-polling POSTs held to what a real client sends, as websocket frames are.

engine.io decodes a POST's body as it reads it, and what it raises for junk it logged as a
traceback, answering 200 with the session still open: a body that is not UTF-8
(UnicodeDecodeError), a frame whose type is not a digit (`int()`'s ValueError), more frames
than its payload decoder takes (ValueError). A body over the size limit, or holding a noop,
was refused, but the refusal waited, for good, for the session's send queue to drain. Every
frame of a POST now passes the websocket's checks (gobang/transport/guard.py: `frame_fault`,
and the same frame budget, kept per session) before engine.io reads it; a POST that fails
them is answered 400 and its session closed, with one log line.
"""

from __future__ import annotations

import io
import logging
import urllib.parse
import weakref
from collections.abc import Callable
from typing import Any

from engineio.payload import Payload

from gobang.transport.guard import FrameBudget, close_at_once, frame_fault

log = logging.getLogger("gobang.transport")

SEPARATOR = "\x1e"  # between the frames of one long-polling body (Engine.IO v4)
# A noop is a frame the server sends to end a poll. engine.io ignores one on a websocket; on
# a POST it closes the session, and the POST waited for good for the send queue to drain.
NOOP = "6"
_REFUSAL = ("400 BAD REQUEST", [("Content-Type", "text/plain")], [b'"Bad Request"'])


def post_fault(body: bytes, frames_at_most: int, budget: FrameBudget | None) -> str | None:
    """Why a long-polling body is refused, or None when every frame in it is one a real
    client sends, within the connection's frame budget."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return "body not UTF-8"
    frames = text.split(SEPARATOR)
    if len(frames) > frames_at_most:
        return "too many frames in one request"
    for frame in frames:
        fault = frame_fault(frame, upgrading=False)
        if fault is None and frame == NOOP:
            fault = "noop by long-polling"
        if fault is None and budget is not None and not budget.spend():
            fault = "too many frames"
        if fault is not None:
            return fault
    return None


class PollingGuard:
    """Wraps one Engine.IO server's `handle_request` (its public WSGI entry point) so that a
    POST to an open long-polling session is checked before engine.io reads it.

    Library internals used, as gobang/transport/guard.py uses them: the server's `sockets`
    table and its Socket's `connected`, `upgraded` and `close(wait=False)`; and engine.io's
    `Payload.max_decode_packets`, the most frames it decodes from one body."""

    def __init__(self, eio: Any, *, frames_per_second: float | None, frame_burst: int,
                 clock: Callable[[], float]) -> None:
        self.eio = eio
        self.frames_per_second = frames_per_second
        self.frame_burst = frame_burst
        self.clock = clock
        # A budget per session, gone with the session's Socket.
        self.budgets: weakref.WeakKeyDictionary[Any, FrameBudget] = (
            weakref.WeakKeyDictionary())

    def install(self) -> None:
        handle = self.eio.handle_request

        def guarded(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
            if environ.get("REQUEST_METHOD") == "POST" and self.refused(environ):
                status, headers, body = _REFUSAL
                start_response(status, headers)
                return body
            return handle(environ, start_response)

        self.eio.handle_request = guarded

    def refused(self, environ: dict[str, Any]) -> bool:
        """Checks the body of a POST to an open polling session, and closes the session with
        one log line when it fails; any other request is left to engine.io as it is."""
        query = urllib.parse.parse_qs(environ.get("QUERY_STRING", ""))
        sid = query.get("sid", [None])[0]
        socket = self.eio.sockets.get(sid) if sid is not None else None
        if socket is None or not socket.connected or socket.upgraded:
            return False  # engine.io refuses these itself, without a traceback
        fault = self._fault(environ, socket)
        if fault is None:
            return False
        log.warning("connection refused", extra={"fields": {"reason": fault}})
        close_at_once(self.eio, sid)  # nothing may ever poll it again
        return True

    def _fault(self, environ: dict[str, Any], socket: Any) -> str | None:
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return "bad content length"
        if length > self.eio.max_http_buffer_size:
            return "body too large"
        body = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(body)  # engine.io reads it again
        budget = None
        if self.frames_per_second is not None:
            budget = self.budgets.get(socket)
            if budget is None:
                budget = self.budgets[socket] = FrameBudget(
                    self.frames_per_second, self.frame_burst, self.clock)
        return post_fault(body, Payload.max_decode_packets, budget)


def install_polling_guard(socketio_server: Any, config: dict[str, Any],
                          clock: Callable[[], float]) -> PollingGuard:
    guard = PollingGuard(
        socketio_server.eio,
        frames_per_second=(config["SOCKET_FRAMES_PER_SECOND"] if config["RATELIMIT_ENABLED"]
                           else None),
        frame_burst=config["SOCKET_FRAME_BURST"],
        clock=clock,
    )
    guard.install()
    return guard
