"""Broadcasts to a crowd sent a slice at a time, handing the event loop back between slices.

Why: an emit queues the packet on every recipient's connection at once, and their writers
then all run before the event loop next reads a socket. The hall's update every second to a
thousand connections was a thousand socket writes in one go, 50-140 ms in which no move was
read (docs/performance.md, "The hall's events one per turn"). The packet is still encoded
once; only the queueing is spread over turns of the loop.
"""

from __future__ import annotations

from typing import Any

import socketio
from engineio import packet as eio_packet
from socketio import packet

# Recipients queued per turn of the event loop: about 3 ms of socket writes on this machine.
SLICE = 64


class PacedEmits(socketio.Manager):
    """python-socketio's local emit, yielding between slices of a large audience: the
    manager of a single process, and the Redis manager's local delivery."""

    def emit(self, event: str, data: Any, namespace: str, room: Any = None,
             skip_sid: Any = None, callback: Any = None, to: Any = None, **kwargs: Any) -> Any:
        if callback or self._audience(namespace, to or room) <= SLICE:
            return super().emit(event, data, namespace, room=room, skip_sid=skip_sid,
                                callback=callback, to=to, **kwargs)
        recipients = list(self.get_participants(namespace, to or room))
        skipped = skip_sid if isinstance(skip_sid, list) else [skip_sid]
        args = list(data) if isinstance(data, tuple) else [] if data is None else [data]
        encoded = self.server.packet_class(packet.EVENT, namespace=namespace,
                                           data=[event, *args]).encode()
        frames = [eio_packet.Packet(eio_packet.MESSAGE, part)
                  for part in (encoded if isinstance(encoded, list) else [encoded])]
        for index, (sid, eio_sid) in enumerate(recipients, start=1):
            if sid not in skipped:
                for frame in frames:
                    self.server._send_eio_packet(eio_sid, frame)
            if index % SLICE == 0:
                self.server.sleep(0)
        return None

    def _audience(self, namespace: str, room: Any) -> int:
        """How many a room holds, at most, without copying it: every move's emit asks."""
        rooms = self.rooms.get(namespace, {})
        named = room if hasattr(room, "__len__") and not isinstance(room, str) else [room]
        return sum(len(rooms[name]) for name in named if name in rooms)
