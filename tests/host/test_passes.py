"""The PostgreSQL pass leaves to the SQLite pass the tests that start their own servers and
databases whatever the pass (`own_servers`, tests/conftest.py): they would only run twice."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support.live import ROOT

TEST = "tests/host/test_bench_smoke.py::test_throughput_bench_plays_the_relay_and_gobang_in_turns"
# Collects TEST in a pytest of its own and says whether it would be skipped.
LOOK = f"""
import sys, pytest
class Look:
    def pytest_collection_finish(self, session):
        print("SKIPPED" if session.items[0].get_closest_marker("skip") else "RUNS")
sys.exit(pytest.main(["-p", "no:cacheprovider", "--collect-only", "-q", "{TEST}"],
                     plugins=[Look()]))
"""


@pytest.mark.parametrize(("pass_name", "seen"), [("postgresql", "SKIPPED"), ("", "RUNS")])
def test_a_test_with_servers_of_its_own_runs_in_one_pass_only(pass_name, seen):
    done = subprocess.run([sys.executable, "-c", LOOK], cwd=ROOT, capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "GOBANG_TEST_PASS": pass_name})
    assert done.returncode == 0, done.stdout + done.stderr
    assert seen in done.stdout.split(), done.stdout
