"""Writing to a child process's input when the child may have ended: an error, never a spin.

In the server eventlet has patched the standard library, and a child's stdin is eventlet's
`GreenFileIO`, whose writes go through eventlet's `os.write`. That one retries EPIPE as it
retries EAGAIN, forever (eventlet 0.41, eventlet/green/os.py): a write to an engine or an
analysis process that has exited never returns, and its green thread spins while every other
one runs (docs/testing.md). So every write to a child goes through `send`, which calls the
system call itself (`posix.write`, which eventlet leaves alone) and raises on EPIPE.
"""

from __future__ import annotations

import os
import posix
import select
import time
from collections.abc import Callable
from typing import IO

WRITE_SECONDS = 5.0  # a child that reads nothing for this long is given up as a dead one


def send(pipe: IO, data: bytes, seconds: float = WRITE_SECONDS,
         clock: Callable[[], float] = time.monotonic) -> None:
    """Write all of `data` to `pipe` (a child's stdin, nothing left in its buffer).

    BrokenPipeError when the child has closed its end (exited); TimeoutError when the pipe
    stays full for `seconds` on `clock`. The pipe is written past its buffer, so every write
    to it must come through here."""
    fd = pipe.fileno()
    # Eventlet's pipes are non-blocking already; a plain one is made so, or a full pipe
    # would block the write past `seconds`.
    os.set_blocking(fd, False)
    left = memoryview(data)
    deadline = clock() + seconds
    while left:
        try:
            left = left[posix.write(fd, left):]
        except BlockingIOError:  # the pipe is full
            wait = deadline - clock()
            if wait <= 0:
                raise TimeoutError("the child reads nothing") from None
            # Green under eventlet: the other green threads run while this one waits.
            select.select([], [fd], [], wait)
