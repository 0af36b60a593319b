"""SIGKILL between two rounds of a Swiss event, with every game of the first ended and the
second not yet paired: after the restart the second round is paired once, and the first
round's results stand."""

from __future__ import annotations

import pytest

from tests.live.test_arena_crash import Arena
from tests.live.test_play import BLACK_FIVE
from tests.support.arenas import count, scheduled_swiss, start_now
from tests.support.live import wait_until

pytestmark = [pytest.mark.live]
PAUSE = 8  # long enough to kill and restart the server inside it


@pytest.fixture
def live_env() -> dict[str, str]:
    return {"GOBANG_FORFEIT_GRACE_SECONDS": "20",
            "GOBANG_SWISS_ROUND_PAUSE_SECONDS": str(PAUSE)}


def boards(server, tournament_id: int, number: int) -> int:
    return count(server.database_url, "SELECT COUNT(*) FROM swiss_boards WHERE"
                 " tournament_id = :id AND round = :round", id=tournament_id, round=number)


def games(server, tournament_id: int) -> int:
    return count(server.database_url, "SELECT COUNT(*) FROM tournament_games WHERE"
                 " tournament_id = :id", id=tournament_id)


def test_a_swiss_event_killed_between_rounds_pairs_the_next_once_and_loses_nothing(
        live_server):
    names = ("ann", "ben", "cyd")
    swiss = Arena(live_server, names, scheduled_swiss(live_server.database_url, rounds=2))
    start_now(live_server.database_url, swiss.id)
    first, seats = swiss.next_game(names)
    rooms = swiss.play(first, seats, BLACK_FIVE)
    rooms["white"].wait_for("game_over")
    assert wait_until(lambda: swiss.summary("ann")["seconds_to_next_round"] is not None)
    before = {row["username"]: (row["points"], row["marks"])
              for row in swiss.summary("ann")["standings"]}
    assert sorted(points for points, _marks in before.values()) == [0.0, 1.0, 1.0]  # a bye
    assert boards(live_server, swiss.id, 2) == 0

    live_server.crash_and_restart()
    for name in names:  # their pages reconnect
        live_server.connect(swiss.http[name], "/site")
    assert {row["username"]: (row["points"], row["marks"])
            for row in swiss.summary("ann")["standings"]} == before
    assert wait_until(lambda: swiss.summary("ann")["round"] == 2, timeout=PAUSE + 10)
    second, _seats = swiss.next_game(names)
    assert second != first
    # Round 1 stands; round 2's bye counts at once, its game once it ends.
    after = {row["username"]: (row["points"], row["marks"])
             for row in swiss.summary("ann")["standings"]}
    assert {name: marks[0] for name, (_points, marks) in after.items()} == {
        name: marks[0] for name, (_points, marks) in before.items()}
    assert {name: points - (marks[1]["outcome"] == "bye") for name, (points, marks)
            in after.items()} == {name: points for name, (points, _marks) in before.items()}
    assert (boards(live_server, swiss.id, 2), games(live_server, swiss.id)) == (2, 2)
