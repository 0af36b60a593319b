"""A database that refuses a game's result (a full disk) through a real server: the move that
would end the game is refused whole, and played again once writes succeed it ends the game
exactly once. SQLite by default, PostgreSQL with GOBANG_TEST_DATABASE_URL."""

from __future__ import annotations

import pytest

from tests.live.test_play import BLACK_FIVE, matched_pair, play
from tests.support.refusals import results_refused

pytestmark = [pytest.mark.live]


def events_before_chat(sender, receivers, game_id, text):
    """What each receiver got before a chat line sent now: anything the server emitted to the
    room before it arrives first."""
    assert sender[2].ask("chat", {"game_id": game_id, "text": text}) == {"ok": True}
    found = []
    for room in receivers:
        assert room.wait_for("chat")["text"] == text
        found.append([name for name, _data in room.drain()])
    return found


def settled(room, moves: int) -> None:
    """Wait until `room` has heard the `stone_placed` of move `moves`, then forget all it
    heard: a broadcast of an earlier move (through Redis, it may come late) must not be
    taken for one sent while the result was refused."""
    while room.wait_for("stone_placed")["move"] != moves:
        pass
    room.drain()


def test_a_winning_move_refused_by_a_full_disk_is_refused_whole_and_wins_once_played_again(
        live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, BLACK_FIVE[:-1])
    for room in (black[2], white[2]):
        settled(room, len(BLACK_FIVE) - 1)
    winning = {"game_id": game_id, "row": BLACK_FIVE[-1][0], "col": BLACK_FIVE[-1][1]}
    with results_refused(live_server.database_url):
        ack = black[2].ask("place_stone", winning)
        assert (ack["ok"], ack["error"]) == (False, "conflict")
        seen = events_before_chat(white, [black[2], white[2]], game_id, "still on?")
        assert all("stone_placed" not in got and "game_over" not in got for got in seen), seen
        state = white[2].ask("join_game", {"game_id": game_id})["state"]
        assert (state["status"], state["to_move"], len(state["moves"])) == ("playing", "black", 8)
        record = black[0].get(f"{live_server.url}/api/games/{game_id}").json()
        assert (record["status"], len(record["moves"])) == ("playing", 8)
    assert black[2].ask("place_stone", winning) == {"ok": True}
    for room in (black[2], white[2]):
        assert room.wait_for("stone_placed")["move"] == 9
        assert room.wait_for("game_over")["result"]["reason"] == "five"
    record = black[0].get(f"{live_server.url}/api/games/{game_id}").json()
    assert record["status"] == "finished"
    assert (record["result"]["winner"], record["result"]["reason"]) == ("black", "five")
    assert len(record["moves"]) == 9
    assert black[0].get(live_server.url + "/api/me").json()["score"] == 1030
    assert white[0].get(live_server.url + "/api/me").json()["score"] == 970
    # Once only: nothing more ends it, and nothing more is sent.
    assert black[2].ask("resign", {"game_id": game_id})["error"] == "game_over"
    assert black[0].get(live_server.url + "/api/me").json()["games"] == 1
