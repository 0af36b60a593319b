"""Engine.IO connections held to what a real client does, before Socket.IO sees anything.

A websocket may send only the frames the contract's clients send, at most a budget of frames
per second (tokens refilled at SOCKET_FRAMES_PER_SECOND up to SOCKET_FRAME_BURST; none when
RATELIMIT_ENABLED is off, as for load tests' closed loops), and must join a namespace within
NAMESPACE_CONNECT_SECONDS of opening. Any other connection is closed with one log line.

Why here: engine.io's websocket loop reads frame after frame without yielding while the
client keeps data buffered, so one unpaced sender held the whole server (docs/security.md).
Independent of the async mode: the clock and sleep come from the caller.

Under eventlet the guard reads the frames itself, so that every frame of any opcode spends
from the budget: eventlet's own frame loop (`RFC6455WebSocket._iter_frames`) answers PING and
drops PONG frames, and gathers a fragmented message, without returning, so a flood of control
frames or one endless fragmented message never reached a check. The eventlet internals it
touches (0.41), and only here: `RFC6455WebSocket._recv_frame(message=...)` (one frame; the
message it belongs to, `Message.opcode`, `.finished`, `.data`, `.getvalue()`),
`RFC6455WebSocket._handle_control_frame(opcode, data)`, its unused frame loop
`RFC6455WebSocket.iterator` (closed), and the exceptions
`ConnectionClosedError` and `FailedConnectionError` (`eventlet_frame_errors`). Any other
websocket (the threading mode's) is read through its public `wait`.
"""

from __future__ import annotations

import collections
import functools
import logging
from collections.abc import Callable
from typing import Any, NamedTuple

from gobang.transport.patches import ENGINEIO_ASYNC, LibraryChanged, refusal

log = logging.getLogger("gobang.transport")

# Engine.IO frames a client sends on an open websocket: close, pong, noop, and messages, which
# always carry a Socket.IO packet (its type is a digit). Anything else is refused before
# engine.io parses it (it would json-decode the rest of a PONG or NOOP, to any depth).
_PLAIN_FRAMES = frozenset({"1", "3", "6"})
# Sent once each while a long-polling connection upgrades to this websocket.
_UPGRADE_FRAMES = ("2probe", "5")
# A socket that keeps data buffered is never paused by its reads: every this many frames it
# yields to the other green threads. A real client sends a few frames a second, so the pause
# costs its moves nothing; a flooder gets turns like everyone else.
FRAMES_PER_TURN = 16


class FrameErrors(NamedTuple):
    """How a frame reader says the connection ended."""

    closed: type[BaseException]  # by the client (eventlet's ConnectionClosedError)
    failed: type[BaseException]  # on a protocol error (FailedConnectionError: status, message)


@functools.cache
def eventlet_frame_errors() -> FrameErrors:
    """eventlet's, imported only once a websocket of eventlet's is read."""
    from eventlet.websocket import ConnectionClosedError, FailedConnectionError

    return FrameErrors(ConnectionClosedError, FailedConnectionError)


class Refused(Exception):
    """A frame no real client sends; the argument says why."""


def close_at_once(eio: Any, eio_sid: str) -> None:
    """Close an Engine.IO connection without waiting for its send queue to drain (engine.io's
    `disconnect` waits): a connection whose writer is gone, or a long-polling session that
    nobody polls any more, never drains it, and the caller (a sweep, or the very POST that
    is refused) waited there for good. Library internals: the server's `sockets` table and
    its Socket's `close(wait=False, reason=...)`."""
    socket = eio.sockets.pop(eio_sid, None)
    if socket is not None:
        socket.close(wait=False, reason=eio.reason.SERVER_DISCONNECT)


class FrameBudget:
    """Tokens for one connection: `rate` a second, holding at most `burst`."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.updated = clock()

    def spend(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def frame_fault(frame: Any, upgrading: bool) -> str | None:
    """Why a client's frame is refused, or None when it is one a real client sends."""
    if not isinstance(frame, str):
        return "binary frame"
    if frame in _PLAIN_FRAMES or (upgrading and frame in _UPGRADE_FRAMES):
        return None
    if len(frame) >= 2 and frame[0] == "4" and frame[1].isdigit():
        return None
    return "malformed frame"


class GuardedWebSocket:
    """The websocket engine.io reads from, refusing what `frame_fault`, the budget and the
    message size refuse. Refusing reads as the client having closed, so engine.io ends the
    connection its usual way; everything but `wait` goes to the wrapped websocket. A
    connection that is already connected when its websocket opens is upgrading from
    long-polling. With `errors` (eventlet's websocket) the frames are read one by one here;
    without, whole messages through the wrapped websocket's `wait`."""

    def __init__(self, ws: Any, budget: FrameBudget | None, connection: Any, *,
                 max_message_bytes: int, sleep: Callable[[float], Any],
                 errors: FrameErrors | None) -> None:
        self._ws = ws
        self._budget = budget
        self._connection = connection  # engine.io's Socket
        self._upgrade_frames_left = 2 if connection.connected else 0
        self._max_message_bytes = max_message_bytes
        self._sleep = sleep
        self._errors = errors
        if errors is not None:
            # The websocket's own frame loop, a generator made when it opened, is never run:
            # unstarted, its frame holds the websocket, a reference cycle per connection that
            # only a full collection (rare here: gobang/transport/memory.py) would free; 1,000
            # closed connections kept 28 MB (tests/live/test_memory_returns.py). Closed, it
            # lets go at once.
            ws.iterator.close()
        self._frames_read = 0
        self._fragments: Any = None  # the message in progress, while its frames arrive
        self._fragment_bytes = 0
        self._fragment_chunks = 0

    def wait(self) -> Any:
        try:
            frame = self._next_message()
            if frame is None or self._connection.closed:
                return None  # closed by the client, or by the server (Socket.IO's guard logged)
            fault = frame_fault(frame, self._upgrade_frames_left > 0)
            self._upgrade_frames_left = max(0, self._upgrade_frames_left - 1)
            if fault is not None:
                raise Refused(fault)
        except Refused as refused:
            if not self._connection.closed:
                log.warning("connection refused", extra={"fields": {"reason": str(refused)}})
            return None
        except TimeoutError as silent:
            # A client silent for the ping interval and timeout: the read timed out. eventlet
            # raises the one instance it made before waiting, a local of a frame in the
            # exception's own traceback: a reference cycle that held the closed connection
            # (its websocket, green threads and buffers) until a full collection, rare here
            # (gobang/transport/memory.py). Up to 15 MB stayed after 1,000 silent connections
            # (tests/live/test_memory_returns.py). Dropping the traceback frees it at once;
            # the connection ends as engine.io ends it on any read error.
            silent.__traceback__ = None
            return None
        return frame

    def _next_message(self) -> Any:
        if self._errors is None:
            self._take_turn()
            message = self._ws.wait()
            if message is not None:
                self._spend()
            return message
        return self._read_frames(self._errors)

    def _read_frames(self, errors: FrameErrors) -> Any:
        """Frames until one finishes a data message, as eventlet's `_iter_frames` reads them,
        with the same endings: a protocol error closes with its status, any other error with
        1011."""
        try:
            while not self._connection.closed:
                message = self._read_frame()
                if message is not None:
                    return message.getvalue()
            return None
        except errors.closed:
            return None
        except errors.failed as failed:
            self._ws.close(close_data=(failed.status, failed.message))
            raise Refused("protocol error") from None
        except Refused:
            raise
        except Exception:
            self._ws.close(close_data=(1011, "Internal Server Error"))
            raise

    def _read_frame(self) -> Any:
        """One frame of any opcode; the data message it finishes, or None."""
        self._take_turn()
        message = self._ws._recv_frame(message=self._fragments)
        self._spend()
        if message.opcode & 8:  # close, ping or pong: eventlet answers them
            self._ws._handle_control_frame(message.opcode, message.getvalue())
            return None
        if message.finished and self._fragments is None:
            return message  # one frame: eventlet checked its length
        self._add_fragment(message)
        if not message.finished:
            self._fragments = message
            return None
        self._fragments = None
        return message

    def _add_fragment(self, message: Any) -> None:
        """eventlet checks each frame's length, never a fragmented message's: the sum of its
        frames may not pass the same limit. An empty frame counts as a byte, or empty frames
        would pile up in the message for free."""
        if message is not self._fragments:
            self._fragment_bytes = self._fragment_chunks = 0
        chunks = message.data
        pushed = sum(len(chunk) for chunk in chunks[self._fragment_chunks:])
        self._fragment_bytes += max(1, pushed)
        self._fragment_chunks = len(chunks)
        if self._fragment_bytes > self._max_message_bytes:
            raise Refused("message too long")

    def _spend(self) -> None:
        if self._budget is not None and not self._budget.spend():
            raise Refused("too many frames")

    def _take_turn(self) -> None:
        self._frames_read += 1
        if self._frames_read % FRAMES_PER_TURN == 0:
            self._sleep(0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ws, name)


class TransportGuard:
    """Installs the frame checks and the namespace deadline on one Engine.IO server."""

    def __init__(self, socketio_server: Any, *, frames_per_second: float | None,
                 frame_burst: int, namespace_seconds: float, max_message_bytes: int,
                 clock: Callable[[], float], sleep: Callable[[float], Any]) -> None:
        self.server = socketio_server
        self.eio = socketio_server.eio
        self.frames_per_second = frames_per_second
        self.frame_burst = frame_burst
        self.namespace_seconds = namespace_seconds
        self.max_message_bytes = max_message_bytes
        self.clock = clock
        self.sleep = sleep
        # (deadline, eio sid), in the order connections opened: deadlines come due in order.
        self.pending: collections.deque[tuple[float, str]] = collections.deque()
        self.sweeping = False

    def install(self) -> None:
        self._guard_websockets()
        if self.namespace_seconds > 0:
            self._watch_connects()

    def _guard_websockets(self) -> None:
        websocket_class = self.eio._async.get("websocket")
        if websocket_class is None:
            # Every websocket would be read unguarded: no frame budget, no message limit.
            raise LibraryChanged(refusal(ENGINEIO_ASYNC, "no websocket class"))

        def guarded_class(handler: Callable[[Any], Any], server: Any) -> Any:
            connection = handler.__self__  # engine.io's Socket._websocket_handler

            def guarded_handler(ws: Any) -> Any:
                budget = None if self.frames_per_second is None else (
                    FrameBudget(self.frames_per_second, self.frame_burst, self.clock))
                errors = eventlet_frame_errors() if hasattr(ws, "_recv_frame") else None
                return handler(GuardedWebSocket(
                    ws, budget, connection, max_message_bytes=self.max_message_bytes,
                    sleep=self.sleep, errors=errors))

            return websocket_class(guarded_handler, server)

        # A copy: engine.io shares the driver's table between servers.
        self.eio._async = {**self.eio._async, "websocket": guarded_class}

    def _watch_connects(self) -> None:
        on_connect = self.eio.handlers["connect"]

        def connected(eio_sid: str, *args: Any) -> Any:
            self.pending.append((self.clock() + self.namespace_seconds, eio_sid))
            if not self.sweeping:
                self.sweeping = True
                self.eio.start_background_task(self._sweep_forever)
            return on_connect(eio_sid, *args)

        self.eio.on("connect", connected)

    def _sweep_forever(self) -> None:
        while True:
            self.eio.sleep(min(1.0, self.namespace_seconds / 2))
            try:
                self.sweep()
            except Exception:  # one bad sweep must not end the deadline for good
                log.exception("namespace deadline sweep failed")

    def sweep(self) -> int:
        """Close the connections whose deadline passed without joining a namespace."""
        closed = 0
        now = self.clock()
        while self.pending and self.pending[0][0] <= now:
            _deadline, eio_sid = self.pending.popleft()
            if eio_sid in self.eio.sockets and not self._in_a_namespace(eio_sid):
                log.info("connection refused", extra={"fields": {"reason": "no namespace"}})
                close_at_once(self.eio, eio_sid)
                closed += 1
        return closed

    def _in_a_namespace(self, eio_sid: str) -> bool:
        manager = self.server.manager
        return any(manager.sid_from_eio_sid(eio_sid, namespace) is not None
                   for namespace in list(manager.get_namespaces()))


def install_transport_guard(socketio_server: Any, config: dict[str, Any],
                            clock: Callable[[], float],
                            sleep: Callable[[float], Any]) -> TransportGuard:
    guard = TransportGuard(
        socketio_server,
        frames_per_second=(config["SOCKET_FRAMES_PER_SECOND"] if config["RATELIMIT_ENABLED"]
                           else None),
        frame_burst=config["SOCKET_FRAME_BURST"],
        namespace_seconds=config["NAMESPACE_CONNECT_SECONDS"],
        max_message_bytes=config["SOCKETIO_MAX_MESSAGE_BYTES"],
        clock=clock,
        sleep=sleep,
    )
    guard.install()
    return guard
