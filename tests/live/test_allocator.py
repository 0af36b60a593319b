"""`python app.py` runs on jemalloc where the host has it: less CPU per move than glibc's malloc,
and freed pages go back to the system (docs/performance.md, tests/live/test_memory_returns.py)."""

from __future__ import annotations

import ctypes.util
from pathlib import Path

import pytest

from tests.support.required import missing

pytestmark = [pytest.mark.live]


def test_the_server_runs_on_jemalloc_where_the_host_has_it(live_server):
    if ctypes.util.find_library("jemalloc") is None:
        missing("libjemalloc2 is not installed (apt-get install libjemalloc2)",
                "GOBANG_REQUIRE_JEMALLOC")
    maps = Path(f"/proc/{live_server.process.pid}/maps").read_text()
    assert "libjemalloc" in maps
