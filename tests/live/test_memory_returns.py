"""Memory a crowd of abandoned connections took comes back once they are gone."""

from __future__ import annotations

import time

import psutil
import pytest

from tests.support.live import wait_until

pytestmark = [pytest.mark.live]

# As many as start a full collection (app.py, COLLECT_AFTER_CLOSES).
CROWD = 1_000
# On Python's own allocator 1,000 dropped left 17 MB (2,000: 20-45 MB, bench/attacks.py memory);
# on the C library's malloc, 1 MB (2,000: 3-7 MB).
ALLOWED_MB = 10


def test_rss_returns_near_its_baseline_after_a_crowd_drops_its_connections(live_server):
    http = live_server.user("crowd")
    process = psutil.Process(live_server.process.pid)
    time.sleep(1)
    baseline = process.memory_info().rss
    sockets = [live_server.raw_socket(http, "/room") for _ in range(CROWD)]
    grown = process.memory_info().rss - baseline
    for ws in sockets:
        ws.shutdown()

    def back_near_baseline() -> bool:
        return process.memory_info().rss - baseline <= ALLOWED_MB * 2**20

    assert grown > 4 * ALLOWED_MB * 2**20, grown  # the crowd did take memory
    assert wait_until(back_near_baseline, timeout=40), (
        f"RSS {process.memory_info().rss / 2**20:.0f} MB, baseline {baseline / 2**20:.0f} MB")
