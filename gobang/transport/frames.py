"""WebSocket frames, whatever serves them."""

from __future__ import annotations


def unmask(data: bytes, mask: bytes, length: int | None = None, offset: int = 0) -> bytes:
    """The first `length` bytes of `data` XORed with the 4-byte `mask`, starting at
    position `offset` of the mask's cycle (RFC 6455, 5.3), as one integer XOR rather than
    one byte at a time. Signature and result as eventlet's `RFC6455WebSocket._apply_mask`,
    which gobang/transport/tuning.py replaces with it."""
    if length is None:
        length = len(data)
    shift = offset % 4
    key = (mask[shift:] + mask[:shift]) * (length // 4 + 1)
    value = int.from_bytes(data[:length], "little") ^ int.from_bytes(key[:length], "little")
    return value.to_bytes(length, "little")
