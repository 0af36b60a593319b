"""Socket.IO packets held to what the contract sends: a malformed one closes its connection
with one log line, not a traceback (python-socketio's private `_handle_eio_message` is
wrapped, and its `packet_class` replaced)."""

from __future__ import annotations

import logging
from typing import Any

from socketio import packet

from gobang.transport.guard import close_at_once

# The namespaces' logger: a refused packet was logged there before it moved here.
log = logging.getLogger("gobang.sockets")


class MalformedPacket(ValueError):
    """A Socket.IO packet this server will not act on; its message says why, briefly."""


# What Socket.IO's decoder lets escape for hostile input, besides ValueError.
_DECODE_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError)


class StrictPacket(packet.Packet):
    """Socket.IO's packet, checked as it is decoded: the shapes the dispatcher indexes into
    without checking (an event's name, an ack's arguments, connect's auth), and no binary
    attachments, which the contract never uses and which the library buffers without limit
    until the announced count arrives."""

    def decode(self, encoded_packet: Any) -> int:
        if not isinstance(encoded_packet, str):
            raise MalformedPacket("binary attachment")
        try:
            attachments = super().decode(encoded_packet)
        except _DECODE_ERRORS as exc:
            raise MalformedPacket(f"undecodable: {type(exc).__name__}") from None
        if attachments or self.packet_type in (packet.BINARY_EVENT, packet.BINARY_ACK):
            raise MalformedPacket("binary attachment")
        if not _well_shaped(self.packet_type, self.data):
            raise MalformedPacket(f"bad payload for packet type {self.packet_type}")
        return 0

    @classmethod
    def data_is_binary(cls, data: Any) -> bool:
        """Never: everything the server sends is JSON. The library walks every outgoing
        payload looking for bytes, and with a full hall view to a thousand connections that
        walk was a tenth of the server's time in a Match burst (bench/load.py matching)."""
        return False


def _well_shaped(packet_type: int, data: Any) -> bool:
    if packet_type == packet.EVENT:
        return isinstance(data, list) and bool(data) and isinstance(data[0], str)
    if packet_type == packet.ACK:
        return isinstance(data, list)
    if packet_type == packet.CONNECT:
        return data is None or isinstance(data, dict)
    return packet_type == packet.DISCONNECT


def guard_malformed_packets(server: Any) -> None:
    """A packet that does not parse is a client's fault, not a server error: close that
    connection with one log line instead of a traceback. Packets that were already read from
    a connection closed this way are dropped unlogged, so a stream of them logs once."""
    server.packet_class = StrictPacket
    handle = server._handle_eio_message

    def guarded(eio_sid: str, data: Any) -> Any:
        if eio_sid not in server.eio.sockets:
            return None
        try:
            return handle(eio_sid, data)
        except MalformedPacket as exc:
            log.warning("connection refused",
                        extra={"fields": {"reason": "malformed packet", "detail": str(exc)[:80]}})
            # engine.io's disconnect waits for the send queue to drain, and a long-polling
            # session's queue drains only when polled: the POST that carried the packet
            # waited for good.
            close_at_once(server.eio, eio_sid)
            return None

    server.eio.on("message", guarded)
