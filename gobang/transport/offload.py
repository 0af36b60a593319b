"""Blocking work off the event loop: password hashing on niced native threads, and SQLite
calls inline unless the database is locked (then on a native thread that waits for it)."""

from __future__ import annotations

import functools
import os


def background_offload(execute):
    """Password hashing on native threads, a few at a time and at the lowest CPU priority.

    argon2id at its default cost takes 64 MiB and tens of milliseconds of CPU on 4 lanes per
    login. A burst of logins at normal priority on all of tpool's threads starved the thread
    that runs the event loop, so every game's moves waited (docs/performance.md); niced, the
    hashes use what CPU the event loop leaves, and the slots bound their memory."""
    import threading  # green once patched: waiting for a slot holds up only that login

    slots = threading.BoundedSemaphore(os.cpu_count() or 2)

    def niced(func, *args):
        os.setpriority(os.PRIO_PROCESS, 0, 19)  # on Linux: this native thread only
        return func(*args)

    def offload(func, *args):
        with slots:
            return execute(niced, func, *args)

    return offload


def green_sqlite(connection, wait_ms: int):
    return inline_unless_busy()(connection, wait_ms)


@functools.cache
def inline_unless_busy() -> type:
    """A sqlite3 connection (and its cursors) whose calls run inline, and go to a native thread
    only when SQLite answers that the database is locked: there the call waits for the lock
    (the connection's `PRAGMA busy_timeout`) while every green thread goes on. Sending every
    call to a thread instead cost a thread hand-off per call, half the server's move
    throughput (docs/performance.md). Inline, the connection's busy timeout is 0 (set so by
    gobang/database.py when it installs this wrapper), so a lock held elsewhere fails at once,
    before any change, and the call is retried as is with `wait_ms`."""
    import sqlite3

    from eventlet import tpool

    def is_locked(exc: sqlite3.OperationalError) -> bool:
        return "locked" in str(exc) or "busy" in str(exc)

    def wait_for_lock(raw: sqlite3.Connection, wait_ms: int, method, args, kwargs):
        raw.execute(f"PRAGMA busy_timeout={wait_ms}")
        try:
            return method(*args, **kwargs)
        finally:
            raw.execute("PRAGMA busy_timeout=0")

    class InlineUnlessBusy(tpool.Proxy):
        def __init__(self, obj, wait_ms: int) -> None:
            super().__init__(obj)
            self.wait_ms = wait_ms

        def __getattr__(self, name: str):
            value = getattr(self._obj, name)
            if not callable(value):
                return value
            return lambda *args, **kwargs: self._call(value, args, kwargs)

        def atomically(self, work):
            """`work(connection)`, a whole transaction ending in its commit, in one hop
            instead of one per call (gobang/services/play/move_writer.py, every move). On a
            lock, SQLite refused the first write, or the commit: the transaction is rolled
            back and all of it runs again on a native thread that waits for the lock."""
            try:
                return work(self._obj)
            except sqlite3.OperationalError as exc:
                if not is_locked(exc):
                    raise
                self._obj.rollback()
                return tpool.execute(wait_for_lock, self._obj, self.wait_ms, work,
                                     (self._obj,), {})

        def _call(self, method, args, kwargs):
            try:
                result = method(*args, **kwargs)
            except sqlite3.OperationalError as exc:
                if not is_locked(exc):
                    raise
                raw = self._obj if isinstance(self._obj, sqlite3.Connection) else (
                    self._obj.connection)
                result = tpool.execute(wait_for_lock, raw, self.wait_ms, method, args, kwargs)
            if isinstance(result, sqlite3.Cursor):
                return InlineUnlessBusy(result, self.wait_ms)
            return result

        # Row iteration and context management never wait for a lock.
        def __iter__(self):
            return iter(self._obj)

        def __next__(self):
            return next(self._obj)

        def __enter__(self):
            return self._obj.__enter__()

        def __exit__(self, *exc):
            return self._call(self._obj.__exit__, exc, {})

    return InlineUnlessBusy
