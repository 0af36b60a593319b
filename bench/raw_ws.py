"""The client end of a websocket, as little of it as the bench's hall clients need: text
frames in and out, the server's pings answered, and the closing handshake.

Why not aiohttp's: at 20,000 hall connections the bench's clients share the 2 cores with the
servers they measure, and reading a message through aiohttp's websocket (its reader, a queue,
a future, an `async for` step) cost the bench more per hall update than the servers spent
sending it (docs/performance.md). Here the frames are cut out of what the socket delivered,
in the protocol's callback, and handed to `on_text` there: one call per message."""

from __future__ import annotations

import asyncio
import base64
import os
import struct
from collections.abc import Callable
from urllib.parse import urlsplit

TEXT, BINARY, CLOSE, PING, PONG = 0x1, 0x2, 0x8, 0x9, 0xA
NORMAL_CLOSURE = 1000


class HandshakeError(ConnectionError):
    pass


def mask(payload: bytes, key: bytes) -> bytes:
    """XOR with the 4-byte key repeated (RFC 6455 5.3), in one piece."""
    if not payload:
        return payload
    repeated = (key * (len(payload) // 4 + 1))[:len(payload)]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(
        len(payload), "big")


def client_frame(opcode: int, payload: bytes, key: bytes | None = None) -> bytes:
    """One final frame, masked as a client's must be."""
    key = key if key is not None else os.urandom(4)
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    return header + key + mask(payload, key)


def server_frames(buffer: bytearray) -> list[tuple[int, bytes]]:
    """The whole frames at the front of `buffer`, taken out of it: (opcode, payload). A server's
    frames are not masked; a fragmented message is not expected (the servers send each
    Engine.IO packet as one frame)."""
    frames = []
    at = 0
    while len(buffer) - at >= 2:
        first, second = buffer[at], buffer[at + 1]
        length, start = second & 0x7F, at + 2
        if length == 126:
            if len(buffer) - at < 4:
                break
            (length,) = struct.unpack_from("!H", buffer, at + 2)
            start = at + 4
        elif length == 127:
            if len(buffer) - at < 10:
                break
            (length,) = struct.unpack_from("!Q", buffer, at + 2)
            start = at + 10
        if len(buffer) - start < length:
            break
        frames.append((first & 0x0F, bytes(buffer[start:start + length])))
        at = start + length
    del buffer[:at]
    return frames


OnText = Callable[["RawWebSocket", str], None]


class RawWebSocket(asyncio.Protocol):
    """`on_text` is called with the websocket and each text message, in order, as it is read
    (the first may come with the handshake's answer, before `open` has returned); `closed` is
    set once the connection has ended, with `close_code` the server's code if it sent one."""

    def __init__(self, on_text: OnText) -> None:
        self.on_text = on_text
        self.transport: asyncio.Transport | None = None
        self.close_code: int | None = None
        self.closed = asyncio.Event()
        self._buffer = bytearray()
        self._upgraded: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    @classmethod
    async def open(cls, url: str, headers: dict[str, str], on_text: OnText,
                   timeout: float = 60) -> RawWebSocket:
        parts = urlsplit(url)
        loop = asyncio.get_running_loop()
        _, protocol = await asyncio.wait_for(loop.create_connection(
            lambda: cls(on_text), parts.hostname, parts.port or 80), timeout)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        request = [f"GET {path} HTTP/1.1", f"Host: {parts.netloc}", "Upgrade: websocket",
                   "Connection: Upgrade", "Sec-WebSocket-Version: 13",
                   f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}",
                   *(f"{name}: {value}" for name, value in headers.items())]
        assert protocol.transport is not None
        protocol.transport.write(("\r\n".join(request) + "\r\n\r\n").encode())
        try:
            await asyncio.wait_for(asyncio.shield(protocol._upgraded), timeout)
        except BaseException:
            protocol.transport.close()
            raise
        return protocol

    def send_text(self, text: str) -> None:
        if self.transport is not None and not self.closed.is_set():
            self.transport.write(client_frame(TEXT, text.encode()))

    async def close(self) -> None:
        if self.transport is not None and not self.closed.is_set():
            self.transport.write(client_frame(CLOSE, struct.pack("!H", NORMAL_CLOSURE)))
            try:
                await asyncio.wait_for(self.closed.wait(), 5)
            except TimeoutError:
                self.transport.close()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self._upgraded.done() and not self._read_handshake():
            return
        for opcode, payload in server_frames(self._buffer):
            if opcode == TEXT:
                self.on_text(self, payload.decode())
            elif opcode == PING:
                self._write(client_frame(PONG, payload))
            elif opcode == CLOSE:
                self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 \
                    else None
                self._write(client_frame(CLOSE, payload[:2]))
                if self.transport is not None:
                    self.transport.close()
                return

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._upgraded.done():
            self._upgraded.set_exception(HandshakeError(f"closed during the handshake: {exc}"))
        self.closed.set()

    def _read_handshake(self) -> bool:
        """True once the server's 101 has been read (and cut from the buffer)."""
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            return False
        status = bytes(self._buffer[:self._buffer.find(b"\r\n")]).decode(errors="replace")
        del self._buffer[:end + 4]
        if " 101 " not in f"{status} ":
            self._upgraded.set_exception(HandshakeError(f"no upgrade: {status}"))
            if self.transport is not None:
                self.transport.close()
            return False
        self._upgraded.set_result(None)
        return True

    def _write(self, frame: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(frame)
