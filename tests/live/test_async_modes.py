"""The seam of gobang/transport/: `python app.py` serves on eventlet unless told otherwise,
and `--async-mode threading` (gobang/transport/threaded.py) still starts and plays.

The room's live tests run on the threading mode with
`GOBANG_TEST_ASYNC_MODE=threading .venv/bin/python -m pytest tests/live/test_play.py
tests/live/test_room_features.py` (tests/support/live.py; docs/architecture.md, "The eventlet
question", says which pass).
"""

from __future__ import annotations

import contextlib
import os

import psutil
import pytest
import websocket

from gobang.transport import threaded
from gobang.transport.patches import EVENTLET, TOUCHES
from tests.live.test_play import matched_pair

THREADING = {"GOBANG_ASYNC_MODE": "threading"}


def greenlet_loaded(pid: int) -> bool:
    """Whether the process has greenlet's C extension mapped: eventlet cannot run without it,
    and nothing else the server imports loads it."""
    return any("greenlet" in os.path.basename(region.path)
               for region in psutil.Process(pid).memory_maps())


def one_move_seen_by_the_opponent(live_server) -> None:
    black, white, game_id = matched_pair(live_server)
    ack = black[2].ask("place_stone", {"game_id": game_id, "row": 7, "col": 7})
    assert ack == {"ok": True}, ack
    placed = white[2].wait_for("stone_placed")
    assert (placed["row"], placed["col"], placed["move"]) == (7, 7, 1)


@pytest.mark.live
@pytest.mark.parametrize("live_env", [THREADING])
def test_the_threading_mode_starts_and_plays_a_move(live_server) -> None:
    one_move_seen_by_the_opponent(live_server)
    assert "async_mode='threading'" in live_server.log()
    assert f"Gobang serving on {live_server.url}" in live_server.log().splitlines()
    assert not greenlet_loaded(live_server.process.pid)


@pytest.mark.live
@pytest.mark.parametrize("live_env", [THREADING, {}], ids=["threading", "default"])
def test_a_websocket_that_ended_is_closed(live_server) -> None:
    """Once a websocket's close is answered the server ends the connection, as a client
    closing waits for (python-socketio's client waited out a 3 s timeout on every disconnect
    while the threading mode kept it open)."""
    ws = live_server.raw_socket(live_server.user("ann"), "/room")
    ws.send("1")  # Engine.IO's close: the server closes the websocket
    while ws.recv_data_frame(True)[0] != websocket.ABNF.OPCODE_CLOSE:
        pass
    with contextlib.suppress(OSError, websocket.WebSocketException):
        ws.send_close()  # the answer; the server may have ended the connection already
    ws.sock.settimeout(10)
    try:
        while ws.sock.recv(4096):  # a timeout fails the test: the connection stayed open
            pass
    except ConnectionResetError:  # ended with the answer unread: ended all the same
        pass
    finally:
        ws.shutdown()
    assert "Bad request" not in live_server.log()


@pytest.mark.live
@pytest.mark.skipif(bool(os.environ.get("GOBANG_TEST_ASYNC_MODE")),
                    reason="the live servers of this run are started in another async mode")
def test_the_default_is_eventlet(live_server) -> None:
    one_move_seen_by_the_opponent(live_server)
    assert "async_mode=" not in live_server.log()
    assert greenlet_loaded(live_server.process.pid)


def test_the_threading_mode_checks_only_its_own_touches() -> None:
    names = {touch.name() for touch in TOUCHES}
    assert threaded.EVENTLET_SERVER_ONLY <= names  # a renamed row would be checked again
    kept = threaded.touched()
    assert kept and all(touch.distribution != EVENTLET for touch in kept)
    assert not {touch.name() for touch in kept} & threaded.EVENTLET_SERVER_ONLY
    eventlet_rows = sum(1 for touch in TOUCHES if touch.distribution == EVENTLET)
    assert len(kept) == len(TOUCHES) - eventlet_rows - len(threaded.EVENTLET_SERVER_ONLY)
