"""The move-save histogram: each save is counted in every bucket at or above its time."""

from __future__ import annotations

from gobang.services.metrics import Metrics
from gobang.services.store import MemoryQueue, MemoryStore
from tests.support.prometheus import sample


def test_save_times_fill_the_cumulative_buckets_up_from_their_own():
    metrics = Metrics()
    for seconds in (0.0005, 0.001, 0.003, 0.2, 7.0):
        metrics.move_saved(seconds)
    text = metrics.exposition(MemoryStore(MemoryQueue()), queued=0, maintenance=False, process="p")
    buckets = {le: sample(text, "gobang_move_save_seconds_bucket", le=le)
               for le in ("0.001", "0.0025", "0.005", "0.1", "0.25", "2.5", "+Inf")}
    assert buckets == {"0.001": 2, "0.0025": 2, "0.005": 3, "0.1": 3, "0.25": 4, "2.5": 4,
                       "+Inf": 5}
    assert sample(text, "gobang_move_save_seconds_count") == 5
