"""eventlet and engine.io, patched for many small messages on many connections: pings on hub
timers, a slice of ready sockets per poll, frames unmasked in one piece, compression declined.
Each patch is listed in patches.py and checked before the server starts."""

from __future__ import annotations


def ping_on_timers() -> None:
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


def read_a_slice_per_poll(at_most: int) -> None:
    """eventlet reads every socket that one poll found ready before it runs any green thread
    that is waiting: when a crowd's thousand Match presses arrive together, that was 100 ms
    and more of reading in which no move was played (docs/performance.md). epoll is level
    triggered here, so a socket left unread is simply found again by the next poll, after
    the handlers already read have had their turn."""
    from eventlet.hubs import epolls, get_hub

    hub = get_hub()
    if isinstance(hub, epolls.Hub) and at_most > 0:
        hub.do_poll = lambda seconds: hub.poll.poll(seconds, at_most)


def unmask_in_one_piece() -> None:
    """eventlet unmasks every frame a client sends one byte at a time in Python (a
    generator, a one-byte `bytes` and a join per byte): about 2 % of the server's CPU per
    move under load (docs/performance.md). `gobang.transport.frames.unmask` does the same XOR in one
    piece."""
    from eventlet.websocket import RFC6455WebSocket

    from gobang.transport.frames import unmask

    RFC6455WebSocket._apply_mask = staticmethod(unmask)


def websockets_uncompressed() -> None:
    """eventlet accepts permessage-deflate whenever a client offers it, and browsers do: each
    connection then keeps a zlib compressor (its window and tables) from its first message on,
    and compresses every message on its own. Measured with 2,000 hall connections offering it:
    186 KB per connection instead of 53, against the 64 KB a hall connection may cost, and a
    third more CPU for the hall's updates (docs/performance.md). The messages are small JSON,
    sent uncompressed: the extension is declined, which RFC 7692 lets a server do."""
    from engineio.async_drivers.eventlet import WebSocketWSGI

    WebSocketWSGI._negotiate_permessage_deflate = lambda self, extensions: None
