"""The server's event loop reads at most READY_SOCKETS_PER_POLL ready sockets per poll, and the
ones it left are found by the next poll. Run in a process of its own: eventlet is not
imported into the test process (it warns on every fork, and the bench tests here fork)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Each probe imports app.py in a process of its own.
pytestmark = [pytest.mark.live]

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
sys.path.insert(0, ".")
import app  # monkey-patches and builds the app, as the server does
import eventlet
from eventlet import patcher
from gobang.transport.tuning import read_a_slice_per_poll
socket = patcher.original("socket")

read_a_slice_per_poll(int(sys.argv[1]))
hub = eventlet.hubs.get_hub()
pairs = [socket.socketpair() for _ in range(10)]
for _ours, theirs in pairs:
    hub.add(hub.READ, theirs.fileno(), lambda fileno: None, lambda exc: None, lambda: None)
    _ours.send(b"x")
seen = set()
polls = []
while len(seen) < len(pairs) and len(polls) < 20:
    ready = [fileno for fileno, _event in hub.do_poll(0)]
    polls.append(len(ready))
    for fileno in ready:
        seen.add(fileno)
        for _ours, theirs in pairs:
            if theirs.fileno() == fileno:
                theirs.recv(1)
print(json.dumps({"polls": polls, "read": len(seen)}))
"""


def probe(tmp_path: Path, at_most: int) -> dict:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("GOBANG_")},
           "GOBANG_SECRET_KEY": "event-loop-test",
           "GOBANG_DATABASE_URL": f"sqlite:///{tmp_path / 'probe.sqlite3'}"}
    done = subprocess.run([sys.executable, "-c", PROBE, str(at_most)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize(("at_most", "polls"), [
    (3, [3, 3, 3, 1]),
    (4, [4, 4, 2]),
    (0, [10]),  # 0: every ready socket in one poll, as eventlet does by itself
])
def test_a_poll_reads_at_most_the_slice_and_the_next_finds_the_rest(tmp_path, at_most,
                                                                     polls):
    assert probe(tmp_path, at_most) == {"polls": polls, "read": 10}
