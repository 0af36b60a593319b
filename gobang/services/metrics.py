"""What /metrics reports, in the Prometheus text format (version 0.0.4), by prometheus_client.

The counters and the histogram are the library's, in a registry of this app's own rather than
the library's global one: tests make many apps in one process, and each must count alone.
They count since the server started (Prometheus copes with the reset on a restart); the
gauges are read from the live store when scraped.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from gobang.services.store import LiveStore
from gobang.vocabulary import Namespace, Reason

# Upper bounds, in seconds, of the move-save latency histogram: a healthy save takes about a
# millisecond; a slow disk or a locked database shows up in the upper buckets.
SAVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
# Reported even before they happen, so that a dashboard's series exist from the start.
KNOWN_REASONS = tuple(Reason)
# The namespaces with one connection per user in the store (/site allows a connection per tab).
NAMESPACES = (Namespace.HALL, Namespace.ROOM)
# Where an emit can fail to reach some of its recipients (gobang/transport/fanout.py, queue.py):
# a recipient of a paced broadcast, a crowd's update that died midway, a message not published
# to the other processes through Redis. Reported from the start, as the reasons are.
EMIT_FAILURE_PLACES = ("broadcast", "crier", "redis_publish")


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=False)
        self._moves = Counter("gobang_moves", "Moves played and saved.",
                              registry=self.registry)
        self._game_ends = Counter("gobang_game_ends", "Games ended, by reason.", ["reason"],
                                  registry=self.registry)
        self._emit_failures = Counter("gobang_emit_failures",
                                      "Emits not delivered, by where they failed.", ["where"],
                                      registry=self.registry)
        self._save_seconds = Histogram("gobang_move_save_seconds",
                                       "Time to write one move to the database.",
                                       buckets=SAVE_BUCKETS, registry=self.registry)
        for reason in sorted(KNOWN_REASONS):
            self._game_ends.labels(reason)
        for where in EMIT_FAILURE_PLACES:
            self._emit_failures.labels(where)

    def move_saved(self, seconds: float) -> None:
        """One move was written to the database in `seconds`."""
        self._moves.inc()  # every move played is saved once, and timed as it is
        self._save_seconds.observe(seconds)

    def game_ended(self, reason: str) -> None:
        self._game_ends.labels(reason).inc()

    def emit_failed(self, where: str, count: int = 1) -> None:
        """`count` recipients (or messages, for Redis) of an emit were not sent it."""
        self._emit_failures.labels(where).inc(count)

    def exposition(self, store: LiveStore, queued: int, maintenance: bool, process: str) -> str:
        """Every sample carries `process` (PROCESS_NAME): each of several processes is scraped
        on its own, and their series must not collide when Prometheus adds them up."""
        scrape = _Scrape(_gauges(store, queued, maintenance), self.registry, process)
        return generate_latest(scrape).decode()


class _Scrape(Collector):
    """One scrape: the gauges read now, then the registry's counters and histogram, each
    sample labelled with the process. The `_created` samples the library adds to counters
    and histograms are left out: the text has always been without them."""

    def __init__(self, gauges: list[Metric], registry: CollectorRegistry, process: str) -> None:
        self.gauges = gauges
        self.registry = registry
        self.process = process

    def collect(self) -> Iterator[Metric]:
        for family in (*self.gauges, *self.registry.collect()):
            labelled = Metric(family.name, family.documentation, family.type, family.unit)
            labelled.samples = [sample._replace(labels={**sample.labels, "process": self.process})
                                for sample in family.samples
                                if not sample.name.endswith("_created")]
            yield labelled


def _gauges(store: LiveStore, queued: int, maintenance: bool) -> list[Metric]:
    users = GaugeMetricFamily("gobang_connected_users",
                              "Users with a live Socket.IO connection, per namespace.",
                              labels=["namespace"])
    for namespace in NAMESPACES:
        users.add_metric([namespace], store.connection_count(namespace))
    statuses = Tally(game.status for game in store.games())
    games = GaugeMetricFamily("gobang_live_games",
                              "Games held by the server, by status (waiting, playing).",
                              labels=["status"])
    for status in ("waiting", "playing"):
        games.add_metric([status], statuses[status])
    return [users,
            GaugeMetricFamily("gobang_queued_players", "Players waiting to be matched.", queued),
            games,
            GaugeMetricFamily("gobang_maintenance",
                              "1 while maintenance mode keeps new games from starting.",
                              int(maintenance))]

