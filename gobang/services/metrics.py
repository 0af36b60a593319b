"""What /metrics reports, in the Prometheus text format (version 0.0.4).

Counters are kept here, in memory, since the server started (Prometheus copes with the reset
on a restart); gauges are read from the live store when scraped.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import accumulate

from gobang.services.store import LiveStore
from gobang.vocabulary import Namespace, Reason

# Upper bounds, in seconds, of the move-save latency histogram: a healthy save takes about a
# millisecond; a slow disk or a locked database shows up in the upper buckets.
SAVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
# Reported even before they happen, so that a dashboard's series exist from the start.
KNOWN_REASONS = tuple(Reason)
# The namespaces with one connection per user in the store (/site allows a connection per tab).
NAMESPACES = (Namespace.HALL, Namespace.ROOM)
# Where an emit can fail to reach some of its recipients (gobang/sockets/fanout.py, queue.py):
# a recipient of a paced broadcast, a crowd's update that died midway, a message not published
# to the other processes through Redis. Reported from the start, as the reasons are.
EMIT_FAILURE_PLACES = ("broadcast", "crier", "redis_publish")

# A sample line: name, value and labels.
Sampler = Callable[..., str]


@dataclass
class Metrics:
    game_ends: Counter[str] = field(default_factory=Counter)
    emit_failures: Counter[str] = field(default_factory=Counter)
    save_buckets: list[int] = field(default_factory=lambda: [0] * (len(SAVE_BUCKETS) + 1))
    save_count: int = 0
    save_sum: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def move_saved(self, seconds: float) -> None:
        """One move was written to the database in `seconds`."""
        with self._lock:
            self.save_count += 1
            self.save_sum += seconds
            # Counted in the one bucket it falls in (the last: above them all); Prometheus'
            # cumulative counts are summed when scraped, not on every move.
            self.save_buckets[bisect_left(SAVE_BUCKETS, seconds)] += 1

    def game_ended(self, reason: str) -> None:
        with self._lock:
            self.game_ends[reason] += 1

    def emit_failed(self, where: str, count: int = 1) -> None:
        """`count` recipients (or messages, for Redis) of an emit were not sent it."""
        with self._lock:
            self.emit_failures[where] += count

    def exposition(self, store: LiveStore, queued: int, maintenance: bool, process: str) -> str:
        """Every sample carries `process` (PROCESS_NAME): each of several processes is scraped
        on its own, and their series must not collide when Prometheus adds them up."""

        def sample(name: str, value: float, **labels: str) -> str:
            return _sample(name, value, **labels, process=process)

        with self._lock:
            lines = [*self._gauges(store, queued, maintenance, sample), *self._counters(sample),
                     *self._histogram(sample)]
        return "\n".join(lines) + "\n"

    def _gauges(self, store: LiveStore, queued: int, maintenance: bool,
                sample: Sampler) -> Iterable[str]:
        yield from _family("gobang_connected_users", "gauge",
                           "Users with a live Socket.IO connection, per namespace.")
        for namespace in NAMESPACES:
            yield sample("gobang_connected_users", store.connection_count(namespace),
                         namespace=namespace)
        yield from _family("gobang_queued_players", "gauge", "Players waiting to be matched.")
        yield sample("gobang_queued_players", queued)
        statuses = Counter(game.status for game in store.games())
        yield from _family("gobang_live_games", "gauge",
                           "Games held by the server, by status (waiting, playing).")
        for status in ("waiting", "playing"):
            yield sample("gobang_live_games", statuses[status], status=status)
        yield from _family("gobang_maintenance", "gauge",
                           "1 while maintenance mode keeps new games from starting.")
        yield sample("gobang_maintenance", int(maintenance))

    def _counters(self, sample: Sampler) -> Iterable[str]:
        yield from _family("gobang_moves_total", "counter", "Moves played and saved.")
        # Every move played is saved once, and timed as it is.
        yield sample("gobang_moves_total", self.save_count)
        yield from _family("gobang_game_ends_total", "counter", "Games ended, by reason.")
        for reason in sorted(set(KNOWN_REASONS) | set(self.game_ends)):
            yield sample("gobang_game_ends_total", self.game_ends[reason], reason=reason)
        yield from _family("gobang_emit_failures_total", "counter",
                           "Emits not delivered, by where they failed.")
        for where in sorted(set(EMIT_FAILURE_PLACES) | set(self.emit_failures)):
            yield sample("gobang_emit_failures_total", self.emit_failures[where], where=where)

    def _histogram(self, sample: Sampler) -> Iterable[str]:
        name = "gobang_move_save_seconds"
        yield from _family(name, "histogram", "Time to write one move to the database.")
        cumulative = accumulate(self.save_buckets[:-1])
        for bound, count in zip(SAVE_BUCKETS, cumulative, strict=True):
            yield sample(f"{name}_bucket", count, le=repr(bound))
        yield sample(f"{name}_bucket", self.save_count, le="+Inf")
        yield sample(f"{name}_sum", self.save_sum)
        yield sample(f"{name}_count", self.save_count)


def _family(name: str, kind: str, help_text: str) -> list[str]:
    return [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}"]


def _sample(name: str, value: float, **labels: str) -> str:
    if not labels:
        return f"{name} {value}"
    pairs = ",".join(f'{key}="{_escape(text)}"' for key, text in labels.items())
    return f"{name}{{{pairs}}} {value}"


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
