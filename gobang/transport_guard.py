"""Engine.IO connections held to what a real client does, before Socket.IO sees anything.

A websocket may send only the frames the contract's clients send, at most a budget of frames
per second (tokens refilled at SOCKET_FRAMES_PER_SECOND up to SOCKET_FRAME_BURST; none when
RATELIMIT_ENABLED is off, as for load tests' closed loops), and must join a namespace within
NAMESPACE_CONNECT_SECONDS of opening. Any other connection is closed with one log line.

Why here: engine.io's websocket loop reads frame after frame without yielding while the
client keeps data buffered, so one unpaced sender held the whole server (docs/security.md).
Independent of the async mode: the clock and sleep come from the caller.
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger("gobang.transport")

# Engine.IO frames a client sends on an open websocket: close, pong, noop, and messages, which
# always carry a Socket.IO packet (its type is a digit). Anything else is refused before
# engine.io parses it (it would json-decode the rest of a PONG or NOOP, to any depth).
_PLAIN_FRAMES = frozenset({"1", "3", "6"})
# Sent once each while a long-polling connection upgrades to this websocket.
_UPGRADE_FRAMES = ("2probe", "5")


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
    """The websocket engine.io reads from, refusing what `frame_fault` and the budget refuse.
    Refusing reads as the client having closed, so engine.io ends the connection its usual
    way; everything but `wait` goes to the wrapped websocket. A connection that is already
    connected when its websocket opens is upgrading from long-polling."""

    def __init__(self, ws: Any, budget: FrameBudget | None, connection: Any) -> None:
        self._ws = ws
        self._budget = budget
        self._connection = connection  # engine.io's Socket
        self._upgrade_frames_left = 2 if connection.connected else 0

    def wait(self) -> Any:
        frame = self._ws.wait()
        if frame is None or self._connection.closed:
            return None  # closed by the server already (Socket.IO's guard logged why)
        fault = frame_fault(frame, self._upgrade_frames_left > 0)
        self._upgrade_frames_left = max(0, self._upgrade_frames_left - 1)
        if fault is None and self._budget is not None and not self._budget.spend():
            fault = "too many frames"
        if fault is not None:
            log.warning("connection refused", extra={"fields": {"reason": fault}})
            return None
        return frame

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ws, name)


class TransportGuard:
    """Installs the frame checks and the namespace deadline on one Engine.IO server."""

    def __init__(self, socketio_server: Any, *, frames_per_second: float | None,
                 frame_burst: int, namespace_seconds: float,
                 clock: Callable[[], float]) -> None:
        self.server = socketio_server
        self.eio = socketio_server.eio
        self.frames_per_second = frames_per_second
        self.frame_burst = frame_burst
        self.namespace_seconds = namespace_seconds
        self.clock = clock
        # (deadline, eio sid), in the order connections opened: deadlines come due in order.
        self.pending: collections.deque[tuple[float, str]] = collections.deque()
        self.sweeping = False

    def install(self) -> None:
        self._guard_websockets()
        if self.namespace_seconds > 0:
            self._watch_connects()

    def _guard_websockets(self) -> None:
        websocket_class = self.eio._async["websocket"]
        if websocket_class is None:
            return

        def guarded_class(handler: Callable[[Any], Any], server: Any) -> Any:
            connection = handler.__self__  # engine.io's Socket._websocket_handler

            def guarded_handler(ws: Any) -> Any:
                budget = None if self.frames_per_second is None else (
                    FrameBudget(self.frames_per_second, self.frame_burst, self.clock))
                return handler(GuardedWebSocket(ws, budget, connection))

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
                self._close(eio_sid)
                closed += 1
        return closed

    def _close(self, eio_sid: str) -> None:
        """Close without waiting for the socket's queue to drain (engine.io's `disconnect`
        waits): a connection whose writer is already gone never drains it, and the sweep, with
        every later deadline, stopped there for good, keeping each connection's entry."""
        socket = self.eio.sockets.pop(eio_sid, None)
        if socket is not None:
            socket.close(wait=False, reason=self.eio.reason.SERVER_DISCONNECT)

    def _in_a_namespace(self, eio_sid: str) -> bool:
        manager = self.server.manager
        return any(manager.sid_from_eio_sid(eio_sid, namespace) is not None
                   for namespace in list(manager.get_namespaces()))


def install_transport_guard(socketio_server: Any, config: dict[str, Any],
                            clock: Callable[[], float]) -> TransportGuard:
    guard = TransportGuard(
        socketio_server,
        frames_per_second=(config["SOCKET_FRAMES_PER_SECOND"] if config["RATELIMIT_ENABLED"]
                           else None),
        frame_burst=config["SOCKET_FRAME_BURST"],
        namespace_seconds=config["NAMESPACE_CONNECT_SECONDS"],
        clock=clock,
    )
    guard.install()
    return guard
