"""Memory a crowd of abandoned connections took comes back once they are gone, and a second
crowd does not add to what the first left."""

from __future__ import annotations

import time

import psutil
import pytest

from tests.support.live import wait_until

pytestmark = [pytest.mark.live, pytest.mark.serial]

# As many as start the heap's trim (app.py, TRIM_AFTER_CLOSES).
CROWD = 1_000
# What stays after 1,000 dropped: 1 MB when a full collection ran before the trim; 12 MB with
# the trim alone (the collection, a pause for every game, went once closed connections left no
# reference cycles). On Python's own allocator it was 17 MB.
ALLOWED_MB = 16


def test_rss_returns_near_its_baseline_after_crowds_drop_their_connections(live_server):
    http = live_server.user("crowd")
    process = psutil.Process(live_server.process.pid)
    time.sleep(1)
    baseline = process.memory_info().rss

    def back_near_baseline() -> bool:
        return process.memory_info().rss - baseline <= ALLOWED_MB * 2**20

    for _crowd in range(2):
        sockets = [live_server.raw_socket(http, "/room") for _ in range(CROWD)]
        grown = process.memory_info().rss - baseline
        for ws in sockets:
            ws.shutdown()
        assert grown > 3 * ALLOWED_MB * 2**20, grown  # the crowd did take memory
        assert wait_until(back_near_baseline, timeout=40), (
            f"RSS {process.memory_info().rss / 2**20:.0f} MB, "
            f"baseline {baseline / 2**20:.0f} MB")
