"""Whole games against `python app.py` on eventlet, with real Socket.IO clients."""

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


def test_two_players_match_and_play_to_five(live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, BLACK_FIVE)
    over = white[2].wait_for("game_over")
    assert over["result"]["winner"] == "black"
    assert over["result"]["line"] == [[7, 3], [7, 4], [7, 5], [7, 6], [7, 7]]
    assert black[0].get(live_server.url + "/api/me").json()["score"] == 1030
    assert white[0].get(live_server.url + "/api/me").json()["score"] == 970
    record = black[0].get(f"{live_server.url}/api/games/{game_id}").json()
    assert record["status"] == "finished"
    assert len(record["moves"]) == 9


def test_spectator_sees_every_move_and_cannot_move(live_server):
    black, white, game_id = matched_pair(live_server)
    watcher = live_server.connect(live_server.user("cat"), "/room")
    assert watcher.ask("join_game", {"game_id": game_id})["state"]["you"] == "spectator"
    play(black, white, game_id, BLACK_FIVE[:4])
    seen = [watcher.wait_for("stone_placed") for _ in range(4)]
    assert [(s["row"], s["col"], s["move"]) for s in seen] == [
        (r, c, n + 1) for n, (r, c) in enumerate(BLACK_FIVE[:4])]
    ack = watcher.ask("place_stone", {"game_id": game_id, "row": 9, "col": 9})
    assert ack["error"] == "not_in_game"
    play(black, white, game_id, BLACK_FIVE[4:])
    assert watcher.wait_for("game_over")["result"]["reason"] == "five"


def test_reload_within_grace_resumes_the_game(live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, BLACK_FIVE[:3])
    black[2].disconnect()
    assert white[2].wait_for("opponent_left")["color"] == "black"
    room = live_server.connect(black[0], "/room")
    state = room.ask("join_game", {"game_id": game_id})["state"]
    assert state["moves"] == [list(m) for m in BLACK_FIVE[:3]]
    assert state["to_move"] == "white"
    assert white[2].wait_for("opponent_back")["color"] == "black"
    assert white[2].ask("place_stone", {"game_id": game_id, "row": 0, "col": 1}) == {"ok": True}
    assert room.wait_for("stone_placed")["move"] == 4


def test_staying_away_forfeits(live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, BLACK_FIVE[:2])
    white[2].disconnect()
    result = black[2].wait_for("game_over", timeout=10)["result"]
    assert (result["winner"], result["reason"]) == ("black", "disconnect")
    assert white[0].get(live_server.url + "/api/me").json()["losses"] == 1
