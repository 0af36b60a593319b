"""Draw, take-back, rematch, challenge, timeout and abort against the real server."""

from __future__ import annotations

import pytest

from tests.live.test_play import matched_pair, play

pytestmark = [pytest.mark.live]


@pytest.fixture
def live_env() -> dict[str, str]:
    # Short clocks and abort windows so the time-driven endings happen within seconds.
    return {"GOBANG_CLOCK_INITIAL_SECONDS": "3", "GOBANG_CLOCK_INCREMENT_SECONDS": "0",
            "GOBANG_ABORT_SECONDS": "2"}


def test_agreed_draw(live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, [(7, 7)])
    assert white[2].ask("offer_draw", {"game_id": game_id}) == {"ok": True}
    assert black[2].wait_for("draw_offered")["by"] == "white"
    assert black[2].ask("answer_draw", {"game_id": game_id, "accept": True}) == {"ok": True}
    result = white[2].wait_for("game_over")["result"]
    assert (result["winner"], result["reason"]) == (None, "draw_agreed")
    assert black[0].get(live_server.url + "/api/me").json()["draws"] == 1


def test_take_back(live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, [(7, 7), (7, 8)])
    assert black[2].ask("request_undo", {"game_id": game_id}) == {"ok": True}
    white[2].wait_for("undo_requested")
    assert white[2].ask("answer_undo", {"game_id": game_id, "accept": True}) == {"ok": True}
    assert black[2].wait_for("undone")["moves"] == []
    state = white[2].ask("join_game", {"game_id": game_id})["state"]
    assert (state["moves"], state["to_move"]) == ([], "black")


def test_rematch_swaps_colours(live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, [(7, 7)])
    white[2].ask("resign", {"game_id": game_id})
    for seat in (black, white):
        assert seat[2].ask("rematch", {"game_id": game_id}) == {"ok": True}
    new_id = black[2].wait_for("rematch_ready")["game_id"]
    state = black[2].ask("join_game", {"game_id": new_id})["state"]
    assert state["you"] == "white"


def test_challenge_accepted_starts_a_game(live_server):
    alice_http, bob_http = live_server.user("alice"), live_server.user("bob")
    alice = live_server.connect(alice_http, "/hall")
    bob = live_server.connect(bob_http, "/hall")
    for hall in (alice, bob):
        hall.wait_for("hello")
    challenge_id = alice.ask("challenge", {"username": "bob", "ruleset": "renju"})[
        "challenge_id"]
    assert bob.wait_for("challenge_received")["challenge_id"] == challenge_id
    assert bob.ask("answer_challenge", {"challenge_id": challenge_id, "accept": True}) == {
        "ok": True}
    found = alice.wait_for("match_found"), bob.wait_for("match_found")
    assert found[0]["game_id"] == found[1]["game_id"]
    assert found[0]["ruleset"] == "renju"


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
