"""Where a live server's green threads stand, written to its log when a test fails.

A test that times out waiting for a server (no move within 60 s) says only that nothing came;
the server's log says what it last did, not where it waits now. So every server forked for a
test (tests/support/forkserver.py) writes, on SIGUSR1, the stack of each of its green threads
and of each OS thread to its log, between `BEGIN` and `END` lines; a failing test's report
asks for it before it quotes the log (tests/support/live.py). faulthandler writes the OS
threads' stacks from C, so they come even when the hub is stuck in a call that never returns
to Python; the green threads' come from Python, once the main thread runs Python again.
"""

from __future__ import annotations

import faulthandler
import gc
import os
import signal
import sys
import traceback
from types import FrameType

BEGIN = "== green threads' stacks (SIGUSR1) =="
END = "== end of the green threads' stacks =="


def install() -> None:
    """In the server's process: answer SIGUSR1 with the stacks (the OS threads' first), and
    write the OS threads' stacks on a crash (SIGSEGV and the like), which says nothing else."""
    faulthandler.enable(file=sys.stderr, all_threads=True)
    signal.signal(signal.SIGUSR1, _write_green_stacks)
    # Registered after Python's handler, faulthandler's C handler writes the OS threads'
    # stacks at once and then calls the one it replaced (chain), which has Python run
    # _write_green_stacks on the main thread.
    faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True, chain=True)


def _write_green_stacks(_signum: int, frame: FrameType | None) -> None:
    import greenlet

    parts = [BEGIN]
    if frame is not None:
        parts.append("-- the running one --\n" + "".join(traceback.format_stack(frame)))
    # The server freezes what it made at start-up (gobang/transport/memory.py), its ticker's
    # green thread among it, and get_objects lists only what the collector still tracks.
    gc.unfreeze()
    found_objects = gc.get_objects()
    gc.freeze()
    for found in found_objects:
        if isinstance(found, greenlet.greenlet) and found.gr_frame is not None:
            parts.append(f"-- {found!r} --\n" + "".join(traceback.format_stack(found.gr_frame)))
    parts.append(END)
    sys.stderr.write("\n".join(parts) + "\n")
    sys.stderr.flush()


def ask(pid: int) -> bool:
    """On the test's side: ask the server `pid` for its stacks; False when it is gone. They
    are in its log once the log has one more END line than before."""
    try:
        os.kill(pid, signal.SIGUSR1)
    except ProcessLookupError:
        return False
    return True
