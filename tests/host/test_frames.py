"""Unmasking a client's WebSocket frame in one piece gives what RFC 6455 (5.3) defines byte
by byte, as eventlet's own `_apply_mask` computes it, for every length, mask phase and
buffer type it is called with. (eventlet itself is not imported here: it warns on every
fork, and the bench tests in this directory fork.)"""

from __future__ import annotations

import random

import pytest

from gobang.transport.frames import unmask

MASK = bytes([0x37, 0xFA, 0x21, 0x3D])


def byte_by_byte(data, mask: bytes, length: int | None = None, offset: int = 0) -> bytes:
    """eventlet 0.41's `RFC6455WebSocket._apply_mask`, the RFC's definition."""
    if length is None:
        length = len(data)
    return b"".join(bytes((data[i] ^ mask[(offset + i) % 4],)) for i in range(length))


EVENTLETS = byte_by_byte


@pytest.mark.parametrize(("data", "length", "offset"), [
    (b"", None, 0),
    (b"a", None, 0),
    (b"Hello", None, 0),
    (b"Hello", 3, 0),  # only the first `length` bytes
    (b"Hello", None, 1),  # a frame's later chunk: the mask's cycle continues
    (b"Hello", None, 6),
    (bytes(range(256)), None, 3),
    (bytearray(b"42/room,1[\"place_stone\"]"), None, 0),
    (memoryview(b"42/room,1[\"place_stone\"]"), 10, 2),
])
def test_unmasking_matches_eventlets(data, length, offset):
    assert unmask(data, MASK, length, offset) == EVENTLETS(data, MASK, length, offset)


def test_unmasking_matches_eventlets_on_random_frames():
    rng = random.Random(7)
    for _ in range(500):
        data = rng.randbytes(rng.randrange(300))
        mask = rng.randbytes(4)
        length = rng.choice([None, rng.randrange(len(data) + 1)])
        offset = rng.randrange(8)
        assert unmask(data, mask, length, offset) == EVENTLETS(data, mask, length, offset)


def test_unmasking_twice_gives_the_frame_back():
    frame = b'42/room,7["place_stone",{"game_id":3,"row":7,"col":7}]'
    assert unmask(unmask(frame, MASK), MASK) == frame
