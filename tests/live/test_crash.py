"""SIGKILL in the middle of games: everything in play comes back, nothing counts twice."""

from __future__ import annotations

import pytest

from tests.live.test_play import BLACK_FIVE, matched_pair, play

pytestmark = [pytest.mark.live]


@pytest.fixture
def live_env() -> dict[str, str]:
    return {"GOBANG_FORFEIT_GRACE_SECONDS": "20"}


def me(live_server, http) -> dict:
    return http.get(live_server.url + "/api/me").json()


def rated_games(me: dict) -> int:
    """Games counted in the player's ratings, all categories."""
    return sum(line["games"] for line in me["ratings"].values())


def test_game_in_play_survives_sigkill_and_finishes_normally(live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, BLACK_FIVE[:3])
    last = white[2].wait_for("stone_placed")
    while last["move"] < 3:
        last = white[2].wait_for("stone_placed")
    live_server.crash_and_restart(downtime=3)

    rooms = {}
    for color, seat in (("black", black), ("white", white)):
        rooms[color] = live_server.connect(seat[0], "/room")
        state = rooms[color].ask("join_game", {"game_id": game_id})["state"]
        assert state["moves"] == [list(m) for m in BLACK_FIVE[:3]]
        assert state["to_move"] == "white"
        assert state["status"] == "playing"
    # Three seconds of downtime were not charged to white, the side to move.
    assert state["clocks"]["white_ms"] > last["clocks"]["white_ms"] - 1500
    assert state["clocks"]["black_ms"] == last["clocks"]["black_ms"]

    for index, (row, col) in enumerate(BLACK_FIVE[3:]):
        mover = rooms["white"] if index % 2 == 0 else rooms["black"]
        assert mover.ask("place_stone", {"game_id": game_id, "row": row, "col": col}) == {
            "ok": True}
    result = rooms["white"].wait_for("game_over")["result"]
    assert (result["winner"], result["reason"]) == ("black", "five")
    assert me(live_server, black[0])["score"] == 1030


def test_finished_results_are_kept_once_across_a_crash(live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, BLACK_FIVE)
    white[2].wait_for("game_over")
    before = me(live_server, black[0]), me(live_server, white[0])
    live_server.crash_and_restart()
    after = me(live_server, black[0]), me(live_server, white[0])
    assert after == before
    assert after[0]["games"] == 1
    assert rated_games(after[0]) == rated_games(after[1]) == 1
    record = black[0].get(f"{live_server.url}/api/games/{game_id}").json()
    assert record["status"] == "finished"


def test_a_crash_right_after_the_winning_move_never_leaves_an_unfinishable_game(live_server):
    """SIGKILL a few milliseconds after the winning move is sent, several times: wherever the
    kill lands (before the move is saved, between the move and the result, after both), the
    restarted server holds either the game before that move, or the game won by it."""
    import random
    import time

    delays = random.Random(5)
    for round_number in range(6):
        black, white, game_id = matched_pair(live_server, (f"ann{round_number}",
                                                           f"ben{round_number}"))
        play(black, white, game_id, BLACK_FIVE[:-1])
        row, col = BLACK_FIVE[-1]
        black[2].emit("place_stone", {"game_id": game_id, "row": row, "col": col},
                      namespace="/room")
        time.sleep(delays.uniform(0, 0.01))
        live_server.crash_and_restart()
        record = black[0].get(f"{live_server.url}/api/games/{game_id}").json()
        won = len(record["moves"]) == len(BLACK_FIVE)
        if won:
            assert record["status"] == "finished", record
            assert (record["result"]["winner"], record["result"]["reason"]) == ("black", "five")
        else:
            assert len(record["moves"]) == len(BLACK_FIVE) - 1
            assert record["status"] == "playing"
        # The score and the category rating moved with the result, or neither did.
        assert rated_games(me(live_server, black[0])) == (1 if won else 0)
        assert me(live_server, black[0])["games"] == (1 if won else 0)
