"""The cluster's nginx (tests and bench) holds more websockets than one worker may: as many
workers as the open-files limit needs, sharing the port."""

from __future__ import annotations

import resource
from pathlib import Path

import psutil
import pytest
import requests

from tests.support.cluster import ClusterNginx, nginx_workers

pytestmark = [pytest.mark.live]


@pytest.mark.parametrize(("connections", "hard_limit", "planned"), [
    (3_000, 20_000, (1, 3_000)),  # fits one worker
    (19_936, 20_000, (1, 19_936)),  # exactly what one worker may hold
    (19_937, 20_000, (3, 19_936)),  # past it: workers filled to half
    (41_024, 20_000, (5, 19_936)),  # 20,000 websockets, two connections each, and headroom
    (41_024, resource.RLIM_INFINITY, (1, 41_024)),  # no limit: one worker holds them all
])
def test_workers_are_planned_from_the_open_files_limit(connections, hard_limit, planned):
    assert nginx_workers(connections, hard_limit) == planned


def test_nginx_for_more_than_one_worker_holds_runs_several_on_one_port(live_server,
                                                                       tmp_path: Path):
    hard_limit = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard_limit == resource.RLIM_INFINITY:
        pytest.skip("no limit on open files: one worker is enough")
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    proxy = ClusterNginx(prefix, [live_server.port], worker_connections=hard_limit)
    proxy.start()
    try:
        assert proxy.process is not None
        workers = psutil.Process(proxy.process.pid).children()
        assert len(workers) == nginx_workers(hard_limit)[0] >= 2
        # Each request is a new connection: the kernel hands them to any of the workers.
        for _ in range(20):
            assert requests.get(f"{proxy.url}/healthz", timeout=5).ok
    finally:
        proxy.stop()
    assert "setrlimit" not in proxy.error_log()
