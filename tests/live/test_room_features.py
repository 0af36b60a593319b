"""Take-back, timeout and abort against the real server (its ticker ends games on its own).
Draw, rematch and challenge are proved by socket and browser tests (docs/testing.md)."""

from __future__ import annotations

import pytest

from tests.live.test_play import matched_pair, play

pytestmark = [pytest.mark.live]


@pytest.fixture
def live_env() -> dict[str, str]:
    # Short clocks and abort windows so the time-driven endings happen within seconds.
    return {"GOBANG_CLOCK_INITIAL_SECONDS": "3", "GOBANG_CLOCK_INCREMENT_SECONDS": "0",
            "GOBANG_ABORT_SECONDS": "2"}


def test_take_back(live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, [(7, 7), (7, 8)])
    assert black[2].ask("request_undo", {"game_id": game_id}) == {"ok": True}
    white[2].wait_for("undo_requested")
    assert white[2].ask("answer_undo", {"game_id": game_id, "accept": True}) == {"ok": True}
    assert black[2].wait_for("undone")["moves"] == []
    state = white[2].ask("join_game", {"game_id": game_id})["state"]
    assert (state["moves"], state["to_move"]) == ([], "black")


def test_flag_falls_with_nobody_sending_anything(live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, [(7, 7), (7, 8)])
    result = white[2].wait_for("game_over", timeout=8)["result"]
    assert (result["winner"], result["reason"]) == ("white", "timeout")


def test_no_first_move_aborts(live_server):
    black, white, game_id = matched_pair(live_server)
    result = white[2].wait_for("game_over", timeout=6)["result"]
    assert (result["winner"], result["reason"]) == (None, "aborted")
    me = black[0].get(live_server.url + "/api/me").json()
    assert (me["score"], me["games"]) == (1000, 0)
