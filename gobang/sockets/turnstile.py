"""One namespace's events let in one per turn of the event loop, so that a burst of them
cannot hold the loop while other connections' events wait.

Why: under eventlet, every handler that is ready runs before the loop next reads its
sockets. A thousand Match presses that arrive together are a thousand handlers ready at once,
about a millisecond each, and a move that arrives among them waited behind all of them (a
second at worst, docs/performance.md "The hall's events one per turn"). Letting the hall's
events in one at a time, each woken through the loop, puts a read of every socket between
two presses; the room's events do not queue here, so a move waits for one press at most.

A lock or a semaphore does not do this: handlers that never wait on I/O each take the free
slot and give it back before the next one runs, all in the same turn of the loop.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol


class Waitable(Protocol):
    def wait(self) -> object: ...

    def set(self) -> None: ...


class Turnstile:
    """Lets callers in first come, first served: one per `pause()` of the pump, and at most
    `inside_at_most` at once (handlers that wait on Redis or PostgreSQL overlap that far)."""

    def __init__(self, spawn: Callable[[Callable[[], None]], object],
                 pause: Callable[[], None], make_event: Callable[[], Waitable],
                 inside_at_most: int) -> None:
        if inside_at_most < 1:
            raise ValueError("inside_at_most must be at least 1")
        self._spawn = spawn
        self._pause = pause
        self._make_event = make_event
        self._inside_at_most = inside_at_most
        self._waiting: deque[Waitable] = deque()
        self._inside = 0
        self._pumping = False
        self._room: Waitable | None = None  # set when the pump waits for someone to leave
        # Only for the threading mode of `flask run` and the tests: under eventlet nothing
        # here yields while the lock is held, so it is never contended.
        self._lock = threading.Lock()

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @contextmanager
    def turn(self) -> Iterator[None]:
        admitted = self._make_event()
        with self._lock:
            self._waiting.append(admitted)
            start_pump, self._pumping = not self._pumping, True
        if start_pump:
            self._spawn(self._pump)
        try:
            admitted.wait()
        except BaseException:  # killed while waiting: give back the turn if it came
            self._withdraw(admitted)
            raise
        try:
            yield
        finally:
            self._leave()

    def _withdraw(self, admitted: Waitable) -> None:
        with self._lock:
            if admitted in self._waiting:
                self._waiting.remove(admitted)
                return
        self._leave()

    def _leave(self) -> None:
        with self._lock:
            self._inside -= 1
            room, self._room = self._room, None
        if room is not None:
            room.set()

    def _pump(self) -> None:
        while True:
            with self._lock:
                if not self._waiting:
                    self._pumping = False
                    return
                full = self._inside >= self._inside_at_most
                if full:
                    room = self._room = self._make_event()
                else:
                    self._inside += 1
                    admitted = self._waiting.popleft()
            if full:
                room.wait()
                continue
            admitted.set()
            self._pause()
