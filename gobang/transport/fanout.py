"""Broadcasts to a crowd sent a slice at a time, handing the event loop back between slices.

Why: an emit queues the packet on every recipient's connection at once, and their writers
then all run before the event loop next reads a socket. The hall's update every second to a
thousand connections was a thousand socket writes in one go, 50-140 ms in which no move was
read (docs/performance.md, "The hall's events one per turn"). The packet is still encoded
once; only the queueing is spread over turns of the loop.

The hall's update to a crowd goes out from a green thread of its own (`Crier`): paced, its
delivery to thousands took longer than a second under load, and the emitter waited for it.
That emitter is the ticker (clocks, pairing, the next update) or, with several processes, the
one reader of the message queue (every other process's emits, moves among them), and the
update reached the other processes only after this one's crowd (docs/performance.md, "The
hall's update from a green thread of its own").
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import socketio
from engineio import packet as eio_packet
from socketio import packet

log = logging.getLogger("gobang.sockets")

# Recipients queued per turn of the event loop: about 3 ms of socket writes on this machine.
SLICE = 64

# Events a client puts in order itself, by their `seq`, and that may therefore reach a crowd
# after what the emitter sends next: the page ignores an update older than its view and asks
# for the whole view when one is missing (docs/protocol.md).
LATER = frozenset({"hall_update"})

# Told where an emit failed and for how many recipients: /metrics counts them
# (`Metrics.emit_failed`, gobang_emit_failures_total, labelled by these places).
FailureCount = Callable[[str, int], None]
BROADCAST, CRIER = "broadcast", "crier"


def uncounted(where: str, count: int) -> None:
    """A manager built without a counter (a test's): its failures are only logged."""


@dataclass(frozen=True)
class Delivery:
    """One packet, encoded once, for a crowd as it was when emitted."""

    recipients: list[tuple[str, str]]
    skipped: list[Any]
    frames: list[eio_packet.Packet]

    def send(self, server: Any, count_failure: FailureCount, paced: bool = True) -> None:
        """To each recipient in turn; `paced`: handing the loop back after every slice."""
        failed = 0
        for index, (sid, eio_sid) in enumerate(self.recipients, start=1):
            if sid not in self.skipped:
                try:
                    for frame in self.frames:
                        server._send_eio_packet(eio_sid, frame)
                except Exception:  # noqa: BLE001 - one connection's fault is not the crowd's
                    failed += 1
            if paced and index % SLICE == 0:
                server.sleep(0)
        if failed:  # one line for the crowd, however many of it failed
            count_failure(BROADCAST, failed)
            log.error("broadcast not sent to some", extra={"fields": {
                "failed": failed, "recipients": len(self.recipients)}})


class Crier:
    """Deliveries that may go out late, one after the other in the order queued, from a green
    thread started when the first is queued and ending when none is left."""

    def __init__(self, count_failure: FailureCount) -> None:
        self._count_failure = count_failure
        self._waiting: deque[Delivery] = deque()
        self._lock = threading.Lock()
        self._busy = False

    def queue(self, server: Any, delivery: Delivery) -> None:
        with self._lock:
            self._waiting.append(delivery)
            if self._busy:
                return
            self._busy = True
        server.start_background_task(self._run, server)

    def idle(self) -> bool:
        """Nothing queued and nothing being sent: the hall's next update may be worked out."""
        return not self._busy

    def _run(self, server: Any) -> None:
        while True:
            with self._lock:
                if not self._waiting:
                    self._busy = False
                    return
                delivery = self._waiting.popleft()
            try:
                delivery.send(server, self._count_failure)
            except Exception:  # the crier must go on with the updates queued behind
                self._count_failure(CRIER, 1)
                log.exception("broadcast failed")


class PacedEmits(socketio.Manager):
    """python-socketio's local emit, yielding between slices of a large audience: the
    manager of a single process, and the Redis manager's local delivery. An emit to a few
    (every room's events) is sent at once, as python-socketio's own emit sends it, but here
    too a recipient that cannot be sent to is counted and the others still get theirs."""

    def __init__(self, count_failure: FailureCount = uncounted) -> None:
        super().__init__()
        self.count_failure = count_failure
        # Through the method, so that a counter set after construction is the one used.
        self.crier = Crier(self._failed)

    def _failed(self, where: str, count: int) -> None:
        self.count_failure(where, count)

    def emit(self, event: str, data: Any, namespace: str, room: Any = None,
             skip_sid: Any = None, callback: Any = None, to: Any = None, **kwargs: Any) -> Any:
        if callback:  # a packet of its own per recipient: python-socketio's emit
            return super().emit(event, data, namespace, room=room, skip_sid=skip_sid,
                                callback=callback, to=to, **kwargs)
        if namespace not in self.rooms:  # nobody connected to it
            return None
        crowd = self._audience(namespace, to or room) > SLICE
        # An update for a few, while one for a crowd is still going out, must not pass it.
        behind = event in LATER and not self.crier.idle()
        args = list(data) if isinstance(data, tuple) else [] if data is None else [data]
        encoded = self.server.packet_class(packet.EVENT, namespace=namespace,
                                           data=[event, *args]).encode()
        delivery = Delivery(
            list(self.get_participants(namespace, to or room)),
            skip_sid if isinstance(skip_sid, list) else [skip_sid],
            [eio_packet.Packet(eio_packet.MESSAGE, part)
             for part in (encoded if isinstance(encoded, list) else [encoded])])
        if event in LATER and (crowd or behind):
            self.crier.queue(self.server, delivery)
        else:
            delivery.send(self.server, self._failed, paced=crowd)
        return None

    def _audience(self, namespace: str, room: Any) -> int:
        """How many a room holds, at most, without copying it: every move's emit asks."""
        rooms = self.rooms.get(namespace, {})
        named = room if hasattr(room, "__len__") and not isinstance(room, str) else [room]
        return sum(len(rooms[name]) for name in named if name in rooms)
