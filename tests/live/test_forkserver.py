"""The live servers forked from the fork server (tests/support/forkserver.py) are servers as
`python app.py` starts them: the test's environment, their own hub, their end reported."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from tests.support.forkserver import ForkedProcess
from tests.support.live import ROOT, fork_server, wait_until

pytestmark = [pytest.mark.live]


def test_the_live_servers_are_forked(live_server):
    assert isinstance(live_server.process, ForkedProcess)


def test_a_forked_server_runs_with_the_tests_environment(live_server):
    """Its database is the one the test's environment names, not the fork server's none."""
    live_server.user("forked")
    engine = create_engine(live_server.database_url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            names = connection.execute(text("SELECT username FROM users")).scalars().all()
    finally:
        engine.dispose()
    assert "forked" in names


def test_a_child_polls_on_a_hub_of_its_own():
    """The fork server's hub (made by eventlet's patching) is shared with every child by the
    fork: each child starts a new one, so no child's events wake another's poll."""
    script = (
        "import eventlet; eventlet.monkey_patch()\n"
        "import os\n"
        "from eventlet import hubs\n"
        "from tests.support.forkserver import fresh_hub\n"
        "before = hubs.get_hub()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    fresh_hub()\n"
        "    os._exit(0 if hubs.get_hub() is not before else 3)\n"
        "os._exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr.decode()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_forked_servers_end_is_reported_as_a_processs_would_be(live_server, sig):
    live_server.process.send_signal(sig)
    assert live_server.process.wait(timeout=10) == -sig


def test_a_child_that_refuses_to_start_reports_its_status_and_says_why(tmp_path):
    log = tmp_path / "server.log"
    child = fork_server().spawn(["--port", "1"], {"GOBANG_MAX_CONNECTIONS": "many"}, log)
    assert wait_until(lambda: child.poll() is not None, timeout=30)
    assert child.returncode == 1
    assert "gobang:" in log.read_text()
