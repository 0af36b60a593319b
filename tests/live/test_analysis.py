"""A finished game's analysis on `python app.py` (eventlet): asked over HTTP, worked out in a
worker process driven by the real ticker, stored and served."""

from __future__ import annotations

import re

import pytest

from tests.support.live import wait_until

pytestmark = [pytest.mark.live]

# A worker starts in a fraction of a second; a short game takes a second or two of CPU at
# low priority on a busy machine.
DONE_SECONDS = 60


def test_a_game_resigned_against_the_computer_is_analysed(live_server):
    http = live_server.user("ann")
    hall = live_server.connect(http, "/hall")
    hall.wait_for("hello")
    game_id = hall.ask("play_computer", {"level": 1, "color": "black"})["game_id"]
    room = live_server.connect(http, "/room")
    room.ask("join_game", {"game_id": game_id})
    assert room.ask("place_stone", {"game_id": game_id, "row": 7, "col": 7}) == {"ok": True}
    assert wait_until(lambda: len(http.get(f"{live_server.url}/api/games/{game_id}").json()[
        "moves"]) == 2, timeout=DONE_SECONDS)
    assert room.ask("resign", {"game_id": game_id})["ok"] is True

    page = http.get(f"{live_server.url}/hall").text
    token = re.search(r'data-csrf-token="([^"]+)"', page).group(1)
    url = f"{live_server.url}/api/games/{game_id}/analysis"
    asked = http.post(url, headers={"X-CSRFToken": token})
    assert asked.status_code == 202, asked.text
    assert wait_until(lambda: http.get(url).json()["status"] == "done", timeout=DONE_SECONDS)
    found = http.get(url).json()["analysis"]
    assert [m["number"] for m in found["moves"]] == [1, 2]
    assert http.get(f"{live_server.url}/api/games/{game_id}").json()["analysis"] == found
