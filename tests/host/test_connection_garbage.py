"""A closed connection is freed by reference counting: it leaves no reference cycle for the
garbage collector, whose full collections stop every game (docs/performance.md). Run in a
process of its own, as the server runs: eventlet is not imported into the test process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# The probe runs the server (gobang/transport/server.py) in a process of its own.
pytestmark = [pytest.mark.live]

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import eventlet
eventlet.monkey_patch()  # as app.py does when it runs the server
import collections, gc, json, sys
sys.path.insert(0, ".")
from gobang.transport.server import serve
import websocket
from gobang import create_app

listener = eventlet.listen(("127.0.0.1", 0))
port = listener.getsockname()[1]
listener.close()
eventlet.spawn(serve, create_app(), "127.0.0.1", port)
eventlet.sleep(1)
gc.collect()
gc.set_debug(gc.DEBUG_SAVEALL)
for _ in range(int(sys.argv[1])):
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket", timeout=10)
    ws.recv()  # engine.io's open packet
    ws.send("40/room,")  # a connect, refused to the anonymous: its handler ran all the same
    ws.recv()
    ws.close()
eventlet.sleep(1)
gc.collect()
kinds = collections.Counter(type(o).__name__ for o in gc.garbage)
print(json.dumps({name: kinds[name] for name in ("CappedProtocol", "EventRequestContext")}))
"""


def test_closed_connections_leave_no_cycles_behind(tmp_path):
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("GOBANG_")},
           "GOBANG_SECRET_KEY": "garbage-test",
           "GOBANG_DATABASE_URL": f"sqlite:///{tmp_path / 'probe.sqlite3'}"}
    done = subprocess.run([sys.executable, "-c", PROBE, "20"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.splitlines()[-1]) == {"CappedProtocol": 0,
                                                        "EventRequestContext": 0}
