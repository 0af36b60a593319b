"""A quiet connection that answers pings stays open; the server keeps pinging it on time."""

from __future__ import annotations

import time

import pytest

pytestmark = [pytest.mark.live, pytest.mark.serial, pytest.mark.transport]

PING_INTERVAL = 1


@pytest.fixture
def live_env() -> dict[str, str]:
    return {"GOBANG_SOCKETIO_PING_INTERVAL": str(PING_INTERVAL),
            "GOBANG_SOCKETIO_PING_TIMEOUT": "1"}


def test_a_quiet_client_answering_pings_is_pinged_every_interval_and_kept(live_server):
    ws = live_server.raw_socket(live_server.user("quiet"), "/room")
    pings: list[float] = []
    started = time.monotonic()
    while time.monotonic() - started < 6 * PING_INTERVAL:
        frame = ws.recv()
        if frame == "2":
            pings.append(time.monotonic() - started)
            ws.send("3")
    gaps = [b - a for a, b in zip(pings, pings[1:], strict=False)]
    assert len(pings) >= 5, pings
    assert all(0.8 * PING_INTERVAL <= gap <= 1.5 * PING_INTERVAL for gap in gaps), gaps
    ws.send("42/room,1[\"join_game\",{\"game_id\":1}]")
    assert ws.recv().startswith("43/room,1")  # still open and answering
    ws.close()
