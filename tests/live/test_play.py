"""Two players matched on `python app.py` (eventlet, real Socket.IO clients), the helpers the
other live tests play with, and a forfeit ended by the server's own ticker. A whole game, a
spectator and a reload within the grace period are proved by socket tests and end to end in
the browser (docs/testing.md, "Removed as duplicates")."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.live]

BLACK_FIVE = [(7, 3), (0, 0), (7, 4), (0, 1), (7, 5), (0, 2), (7, 6), (0, 3), (7, 7)]


@pytest.fixture
def live_env() -> dict[str, str]:
    return {"GOBANG_FORFEIT_GRACE_SECONDS": "2"}


def matched_pair(live_server, names=("ann", "ben")):
    """Two users who pressed Match; returns (black, white) as (http, hall, room, game_id)."""
    seats = []
    for name in names:
        http = live_server.user(name)
        hall = live_server.connect(http, "/hall")
        hall.wait_for("hello")
        assert hall.ask("start_match", {}) == {"ok": True}
        seats.append((http, hall))
    found = [hall.wait_for("match_found", timeout=5) for _http, hall in seats]
    assert found[0]["game_id"] == found[1]["game_id"]
    players = {}
    for (http, hall), match in zip(seats, found, strict=True):
        room = live_server.connect(http, "/room")
        players[match["color"]] = (http, hall, room)
    game_id = found[0]["game_id"]
    for color in ("black", "white"):
        assert players[color][2].ask("join_game", {"game_id": game_id})["ok"]
    players["black"][2].wait_for("game_ready")
    return players["black"], players["white"], game_id


def play(black, white, game_id, moves):
    for index, (row, col) in enumerate(moves):
        mover = black if index % 2 == 0 else white
        ack = mover[2].ask("place_stone", {"game_id": game_id, "row": row, "col": col})
        assert ack == {"ok": True}, ack


def test_staying_away_forfeits(live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, BLACK_FIVE[:2])
    white[2].disconnect()
    result = black[2].wait_for("game_over", timeout=10)["result"]
    assert (result["winner"], result["reason"]) == ("black", "disconnect")
    assert white[0].get(live_server.url + "/api/me").json()["losses"] == 1
