"""`make cluster`'s script: processes behind nginx, each one's own Socket.IO path, and Ctrl-C
stops everything it started (PostgreSQL and Redis included)."""

from __future__ import annotations

import glob
import os
import queue
import re
import secrets
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.support.live import ROOT
from tests.support.nginx import nginx_binary

URL_LINE = re.compile(r"^Gobang: (http://127\.0\.0\.1:\d+)/ ")
# Every process the cluster starts inherits its environment, wherever it ends up.
MARK = "GOBANG_CLUSTER_TEST_MARK"
HANDSHAKE = "EIO=4&transport=polling"


class Cluster:
    def __init__(self, processes: int) -> None:
        self.mark = secrets.token_hex(8)
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("GOBANG_")},
               MARK: self.mark}
        # A session of its own: our SIGINT is the terminal's Ctrl-C to that session's group.
        self.process = subprocess.Popen(
            [sys.executable, "deploy/cluster/cluster.py", "--processes", str(processes),
             "--port", "0"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            line = raw.decode(errors="replace")
            self.output.append(line)
            self.lines.put(line)

    def url(self, timeout: float = 180) -> str:
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                pytest.fail("no URL printed:\n" + "".join(self.output))
            if found := URL_LINE.match(line):
                return found.group(1)

    def ctrl_c(self) -> int:
        os.killpg(self.process.pid, signal.SIGINT)
        return self.process.wait(timeout=60)

    def survivors(self) -> dict[int, str]:
        """Processes still carrying this cluster's mark in their environment: pid, command."""
        found = {}
        needle = f"{MARK}={self.mark}".encode()
        for path in map(Path, glob.glob("/proc/[0-9]*/environ")):
            try:
                if needle in path.read_bytes().split(b"\0"):
                    command = (path.parent / "cmdline").read_bytes().replace(b"\0", b" ")
                    found[int(path.parent.name)] = command.decode(errors="replace")
            except OSError:  # gone meanwhile, or not ours to read
                continue
        return found

    def kill_survivors(self) -> None:
        for pid in self.survivors():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    nginx_binary()  # skips (or fails in CI) without nginx
    if not glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"):
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    started = Cluster(processes=2)
    yield started
    if started.process.poll() is None:  # the test failed before its Ctrl-C
        try:
            started.ctrl_c()
        except subprocess.TimeoutExpired:
            started.process.kill()
            started.process.wait()
    started.kill_survivors()
    started.reader.join(timeout=10)
    started.process.stdout.close()


def handshake(url: str) -> str:
    """An engine.io long-polling open packet from `url`; its session id."""
    answer = requests.get(f"{url}?{HANDSHAKE}", timeout=10)
    assert answer.status_code == 200 and answer.text.startswith("0{"), answer.text
    return re.search(r'"sid":"([^"]+)"', answer.text).group(1)


def post(url: str, sid: str) -> int:
    return requests.post(f"{url}?{HANDSHAKE}&sid={sid}", data="40/hall,", timeout=10).status_code


@pytest.mark.live
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_cluster_serves_each_process_through_nginx_and_stops_on_ctrl_c(cluster):
    url = cluster.url()
    assert requests.get(f"{url}/healthz", timeout=10).json() == {"status": "ok"}
    own_paths = [f"{url}/p1/socket.io/", f"{url}/p2/socket.io/"]
    sessions = [handshake(path) for path in own_paths]
    # Each path reaches one process: its session goes on there, and is unknown at the other.
    assert [post(path, sid) for path, sid in zip(own_paths, sessions, strict=True)] == [200, 200]
    assert post(own_paths[1], sessions[0]) == 400
    assert post(own_paths[0], sessions[1]) == 400
    assert cluster.survivors()  # the mark finds the cluster's processes

    assert cluster.ctrl_c() == 0
    assert cluster.survivors() == {}
