"""Memory the server gives back: the C heap trimmed after crowds of closed connections, and
the garbage collector kept calm."""

from __future__ import annotations

from collections.abc import Callable

# The heap is trimmed after this many connections ended; see trim_after_closes.
TRIM_AFTER_CLOSES = 1_000


def trim_after_closes(every_seconds: float = 5.0) -> Callable[[], None]:
    """What a crowd of closed connections freed goes back to the system: once
    TRIM_AFTER_CLOSES connections have ended and the closing has stopped (or at tenfold as
    many under churn that never stops), a green thread clears the method cache and trims the
    C heap, then trims again for a few rounds after. Returns the function that counts a close.

    It ran a full collection first while closed connections left reference cycles
    (sessions.py, protocol.py's CappedProtocol); with full collections a hundred times
    rarer (calm_garbage_collector) memory grew round after round of them (107 -> 378 MiB).
    Those cycles are gone, and the collection was a pause for every game, 0.6-0.76 s with
    1,000 games on a process (docs/performance.md); bench/attacks.py memory reads 122-135 MB
    with the trim alone, 122-133 with the collection before it."""
    import sys

    import eventlet

    closed = [0]
    give_back = heap_trimmer()

    def count() -> None:
        closed[0] += 1

    def trim_when_due() -> None:
        last = trims_left = 0
        while True:
            eventlet.sleep(every_seconds)
            now = closed[0]
            settled, last = now == last, now
            if now >= TRIM_AFTER_CLOSES and (settled or now >= 10 * TRIM_AFTER_CLOSES):
                closed[0] = last = 0
                # The method cache holds the attribute names it last looked up, strings
                # made per connection ('on_' + event) that would each pin an arena.
                sys._clear_type_cache()
                give_back()
                trims_left = 3
            elif trims_left:
                # What is freed later (connections still closing, timers still pending)
                # stays in the C heap until a trim: without these, one round of
                # bench/attacks.py memory read 173 MB 30 s after, the others 121-135.
                trims_left -= 1
                give_back()

    eventlet.spawn_n(trim_when_due)
    return count


def heap_trimmer() -> Callable[[], None]:
    """glibc's malloc_trim(0): what was freed outside Python's own arenas (saved green thread
    stacks, socket buffers) goes back to the system instead of staying in the
    heap's free lists. Does nothing where the C library has no such call."""
    import ctypes
    import ctypes.util

    try:
        trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return lambda: None
    return lambda: trim(0)


def calm_garbage_collector() -> None:
    """Thousands of connections are millions of long-lived objects, and a full collection of
    them stops every game for 100-200 ms: that was most of the moves' p99 with 1,000 games
    (docs/performance.md). Start-up objects are frozen out of collection, and full
    collections run a hundred times less often. The young generations keep Python's own
    thresholds: each of their collections is a pause too, and raising them to 50,000 made
    every young collection a 70 ms stop (docs/performance.md, change 14)."""
    import gc

    gc.freeze()
    gc.set_threshold(700, 10, 1_000)
