"""An external engine behind ENGINE_COMMAND on `python app.py`: while it takes its time the
server answers everyone at once, and when it fails the built-in engine plays its move."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
import requests

from tests.live.test_computer import next_stone, start
from tests.support.live import wait_until

pytestmark = [pytest.mark.live, pytest.mark.serial]

SLOW_ENGINE = Path(__file__).resolve().parents[1] / "support" / "slow_engine.py"
PAUSE_SECONDS = 2.5
# Level 8's move is due 3.2 + 0.45 s after its turn: the engine's whole pause fits in it.
LEVEL = 8
# How long the engine may take to start or to be asked on a busy machine.
MARK_SECONDS = 30


@pytest.fixture
def marks(tmp_path: Path) -> Path:
    return tmp_path / "engine-marks"


@pytest.fixture
def live_env(marks: Path) -> dict[str, str]:
    return {"GOBANG_ENGINE_COMMAND": f"{sys.executable} {SLOW_ENGINE} {PAUSE_SECONDS} {marks}"}


def marked(marks: Path, what: str) -> float:
    """When the slow engine first marked `what` (its `time.monotonic()`), waited for."""
    def found() -> list[float]:
        lines = marks.read_text().splitlines() if marks.exists() else []
        return [float(line.split()[1]) for line in lines if line.split()[0] == what]

    assert wait_until(found, timeout=MARK_SECONDS), (
        f"the engine did not mark {what!r} within {MARK_SECONDS} s")
    return found()[0]


def test_the_server_answers_while_an_engine_thinks_and_the_fallback_plays(live_server, marks):
    _http, room, game_id = start(live_server, "ann", "black", level=LEVEL)
    marked(marks, "started")  # with the game, before any move: the move has all its time
    assert room.ask("place_stone", {"game_id": game_id, "row": 7, "col": 7}) == {"ok": True}
    assert next_stone(room)["color"] == "black"
    pause_ends = marked(marks, "asked") + PAUSE_SECONDS
    # Blocked by the engine, the server would answer only when the pause ends: from the first
    # half of it, in PAUSE_SECONDS / 2 or more. Answering everyone while the engine thinks, it
    # answers in a small part of that, however busy the machine.
    first_asked, slowest = time.monotonic(), 0.0
    assert first_asked < pause_ends - PAUSE_SECONDS / 2, "the pause was seen too late to test"
    while time.monotonic() < pause_ends:
        asked = time.monotonic()
        assert requests.get(live_server.url + "/healthz", timeout=5).ok
        slowest = max(slowest, time.monotonic() - asked)
    assert slowest < PAUSE_SECONDS / 2
    try:
        reply = next_stone(room)
    except AssertionError as missing:  # what the engine did says how far the move came
        raise AssertionError(f"{missing}; the engine's marks:\n{marks.read_text()}") from None
    assert reply["color"] == "white"
    # Its ERROR after the pause (or, on a starved machine, no answer by the deadline).
    log = live_server.log()
    assert ("failed: engine error: ERROR too slow to be of use; fallback plays" in log
            or "failed: no answer in time; fallback plays" in log)
