"""Pacing what is told to everyone in the hall.

Every presence change and every change of the live games goes to each hall connection, so a
crowd arriving at once costs the square of its size in messages. Sent on the spot, thousands
of arrivals queue millions of frames ahead of everything else, pings included, and the server
drops connections that are merely waiting. Here each broadcast is priced at one token per
recipient from a bucket refilled at a fixed rate: while tokens last (always, in a hall of a
few hundred) a broadcast goes out at once; past that, the subject (a user id, or the game
list) waits and is sent from the ticker in its current state, so a player who queues, is
paired and leaves before their turn comes costs one broadcast, not three.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable

from gobang.services.clock import Clock


class Fanout:
    def __init__(self, clock: Clock, per_second: float, burst: float) -> None:
        self.clock = clock
        self.per_second = per_second
        self.burst = burst
        self.tokens = burst
        self._refilled_at = clock()
        # Subjects waiting, oldest first; a subject changed again keeps its place.
        self._waiting: dict[Hashable, None] = {}
        # `flask run` serves each connection on a thread of its own.
        self._lock = threading.Lock()

    def offer(self, subject: Hashable, recipients: int) -> bool:
        """True when the broadcast about `subject` may go out now (and is paid for); False
        when it must wait for `due`. Nothing overtakes what is already waiting, so the
        latest word about a subject is always the last one sent."""
        with self._lock:
            self._refill()
            if self._waiting or self.tokens <= 0:
                self._waiting[subject] = None
                return False
            self.tokens -= recipients
            return True

    def due(self, recipients: int) -> list[Hashable]:
        """The waiting subjects that may be broadcast now, each paid for. One broadcast may
        overdraw the bucket, so a hall larger than the burst still hears something."""
        ready: list[Hashable] = []
        with self._lock:
            self._refill()
            while self._waiting and self.tokens > 0:
                subject = next(iter(self._waiting))
                del self._waiting[subject]
                self.tokens -= recipients
                ready.append(subject)
        return ready

    def waiting(self) -> int:
        return len(self._waiting)

    def _refill(self) -> None:
        now = self.clock()
        elapsed = max(0.0, now - self._refilled_at)
        self._refilled_at = now
        self.tokens = min(self.burst, self.tokens + elapsed * self.per_second)
