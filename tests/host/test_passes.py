"""The PostgreSQL pass leaves to the SQLite pass the tests that would only run twice there
(tests/conftest.py, SAME_IN_BOTH_PASSES): those that start their own servers and databases
whatever the pass (`own_servers`), and those about frames and connections (`transport`)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support.live import ROOT

OWN_SERVERS = ("tests/host/test_bench_smoke.py::"
               "test_throughput_bench_plays_the_relay_and_gobang_in_turns")
TRANSPORT = ("tests/live/test_idle.py::"
             "test_a_quiet_client_answering_pings_is_pinged_every_interval_and_kept")
ON_THE_STORE = "tests/live/test_memory_returns.py"
# Collects a test in a pytest of its own and says whether it would be skipped.
LOOK = """
import sys, pytest
class Look:
    def pytest_collection_finish(self, session):
        print("SKIPPED" if session.items[0].get_closest_marker("skip") else "RUNS")
sys.exit(pytest.main(["-p", "no:cacheprovider", "--collect-only", "-q", sys.argv[1]],
                     plugins=[Look()]))
"""


@pytest.mark.parametrize(("test", "pass_name", "seen"), [
    (OWN_SERVERS, "postgresql", "SKIPPED"), (OWN_SERVERS, "", "RUNS"),
    (TRANSPORT, "postgresql", "SKIPPED"), (TRANSPORT, "", "RUNS"),
    (ON_THE_STORE, "postgresql", "RUNS"),
])
def test_a_test_the_second_pass_would_repeat_runs_in_one_pass_only(test, pass_name, seen):
    done = subprocess.run([sys.executable, "-c", LOOK, test], cwd=ROOT, capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "GOBANG_TEST_PASS": pass_name})
    assert done.returncode == 0, done.stdout + done.stderr
    assert seen in done.stdout.split(), done.stdout
