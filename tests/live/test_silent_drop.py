"""A connection that goes silent without closing is noticed within 15 seconds."""

from __future__ import annotations

import json
import time

import pytest
import websocket

from tests.live.test_play import matched_pair

pytestmark = [pytest.mark.live, pytest.mark.serial, pytest.mark.transport]


def raw_room_connection(live_server, http, game_id: int) -> websocket.WebSocket:
    """Speak Engine.IO/Socket.IO by hand, so the client can later fall silent completely."""
    ws = live_server.raw_socket(http, "/room")
    ws.send("42/room,0" + json.dumps(["join_game", {"game_id": game_id}]))
    while True:
        frame = ws.recv()
        if frame.startswith("43/room,0"):
            assert json.loads(frame[len("43/room,0"):])[0]["ok"] is True
            return ws


def test_silent_drop_is_detected_within_15_seconds(live_server):
    black, white, game_id = matched_pair(live_server)
    ws = raw_room_connection(live_server, black[0], game_id)
    white[2].wait_for("opponent_back")
    silent_since = time.monotonic()
    left = white[2].wait_for("opponent_left", timeout=20)
    elapsed = time.monotonic() - silent_since
    assert left["color"] == "black"
    assert elapsed <= 15, elapsed
    ws.shutdown()
