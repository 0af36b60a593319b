"""An external engine behind ENGINE_COMMAND on `python app.py`: while it takes its time the
server answers everyone at once, and when it fails the built-in engine plays its move."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
import requests

from tests.live.test_computer import next_stone, start

pytestmark = [pytest.mark.live]

SLOW_ENGINE = Path(__file__).resolve().parents[1] / "support" / "slow_engine.py"
PAUSE_SECONDS = 2.5


@pytest.fixture
def live_env() -> dict[str, str]:
    return {"GOBANG_ENGINE_COMMAND": f"{sys.executable} {SLOW_ENGINE} {PAUSE_SECONDS}"}


def test_the_server_answers_while_an_engine_thinks_and_the_fallback_plays(live_server):
    _http, room, game_id = start(live_server, "ann", "black")
    assert room.ask("place_stone", {"game_id": game_id, "row": 7, "col": 7}) == {"ok": True}
    assert next_stone(room)["color"] == "black"
    slowest, end = 0.0, time.monotonic() + PAUSE_SECONDS
    while time.monotonic() < end:  # the engine is pausing all this while
        asked = time.monotonic()
        assert requests.get(live_server.url + "/healthz", timeout=5).ok
        slowest = max(slowest, time.monotonic() - asked)
    assert slowest < 0.5
    reply = next_stone(room)
    assert reply["color"] == "white"
    assert "engine" in live_server.log() and "fallback plays" in live_server.log()
