"""The bench's websocket client end: frames as RFC 6455 lays them out."""

from __future__ import annotations

import asyncio
import struct

import pytest

from bench.raw_ws import CLOSE, PING, TEXT, RawWebSocket, client_frame, mask, server_frames

UPGRADE = (b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
           b"Connection: Upgrade\r\n\r\n")


def server_frame(opcode: int, payload: bytes) -> bytes:
    length = len(payload)
    if length < 126:
        return struct.pack("!BB", 0x80 | opcode, length) + payload
    if length < 1 << 16:
        return struct.pack("!BBH", 0x80 | opcode, 126, length) + payload
    return struct.pack("!BBQ", 0x80 | opcode, 127, length) + payload


def test_masking_gives_rfc_6455s_own_example() -> None:
    # RFC 6455 5.7: "Hello" masked with 37 fa 21 3d.
    assert mask(b"Hello", bytes.fromhex("37fa213d")) == bytes.fromhex("7f9f4d5158")


@pytest.mark.parametrize("length", [0, 1, 5, 125, 126, 65535, 65536])
def test_a_client_frame_is_masked_and_says_its_length(length: int) -> None:
    payload = bytes(range(256)) * (length // 256 + 1)
    payload, key = payload[:length], b"\x01\x02\x03\x04"
    frame = client_frame(TEXT, payload, key)
    assert frame[0] == 0x80 | TEXT
    assert frame[1] & 0x80
    size, at = frame[1] & 0x7F, 2
    if size == 126:
        (size,), at = struct.unpack_from("!H", frame, 2), 4
    elif size == 127:
        (size,), at = struct.unpack_from("!Q", frame, 2), 10
    assert size == length
    assert frame[at:at + 4] == key
    assert mask(frame[at + 4:], key) == payload


@pytest.mark.parametrize("length", [0, 5, 125, 126, 65535, 65536])
def test_a_server_frame_of_any_length_is_read_whole(length: int) -> None:
    buffer = bytearray(server_frame(TEXT, b"x" * length))
    assert server_frames(buffer) == [(TEXT, b"x" * length)]
    assert buffer == bytearray()


@pytest.mark.parametrize("cut", [1, 2, 3, 9, 130])
def test_a_frame_cut_short_waits_for_the_rest(cut: int) -> None:
    whole = server_frame(TEXT, b"y" * 300)
    buffer = bytearray(whole[:cut])
    assert server_frames(buffer) == []
    buffer += whole[cut:]
    assert server_frames(buffer) == [(TEXT, b"y" * 300)]


def test_frames_read_together_come_out_in_order_and_the_rest_stays() -> None:
    following = server_frame(TEXT, b"later")
    buffer = bytearray(server_frame(TEXT, b"2") + server_frame(PING, b"")
                       + server_frame(CLOSE, b"\x03\xe8") + following[:3])
    assert server_frames(buffer) == [(TEXT, b"2"), (PING, b""), (CLOSE, b"\x03\xe8")]
    assert bytes(buffer) == following[:3]


async def answered_at_once(first: bytes) -> tuple[bytes, list[str], int | None]:
    """A server that answers the handshake and sends `first` in the same write, then reads
    the client's one frame and closes with 1001: what the server read, what the client was
    handed, and the close code it saw."""
    read: list[bytes] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(UPGRADE + first)
        head = await reader.readexactly(6)
        read.append(mask(await reader.readexactly(head[1] & 0x7F), head[2:6]))
        writer.write(server_frame(CLOSE, struct.pack("!H", 1001)))
        await writer.drain()
        await reader.read()  # the client's close frame, then its end of the connection
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    handed: list[str] = []

    def on_text(ws: RawWebSocket, text: str) -> None:
        handed.append(text)
        ws.send_text("40/hall,")

    ws = await RawWebSocket.open(f"ws://127.0.0.1:{port}/socket.io/", {}, on_text)
    await asyncio.wait_for(ws.closed.wait(), 10)
    server.close()
    return read[0], handed, ws.close_code


def test_a_message_that_came_with_the_handshakes_answer_is_handed_over_and_answered():
    read, handed, close_code = asyncio.run(answered_at_once(server_frame(TEXT, b'0{"sid":1}')))
    assert handed == ['0{"sid":1}']
    assert read == b"40/hall,"
    assert close_code == 1001
