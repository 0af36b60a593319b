"""The host's commands reach every process: an abort is carried out by the process that plays
the game, and every process refuses new games in maintenance mode, not only the leader."""

from __future__ import annotations

import pytest

from tests.cluster.test_cluster_hall import leader_of
from tests.cluster.test_game_owner import play, seated_game
from tests.live.test_admin import flask
from tests.support.cluster import owner_of
from tests.support.games import BLACK_FIVE
from tests.support.live import wait_until

pytestmark = [pytest.mark.live]


def follower(cluster):
    """A process that does not lead."""
    leader = leader_of(cluster)
    return next(s for n, s in enumerate(cluster.servers, 1) if f"p{n}" != leader)


def test_an_abort_is_carried_out_by_the_process_playing_the_game(cluster):
    black, white, game_id = seated_game(cluster)
    plays = follower(cluster)
    name = plays.env["GOBANG_PROCESS_NAME"]
    rooms = [cluster.join(http, game_id, via=f"{name}/socket.io")[0] for http in (black, white)]
    assert owner_of(cluster.redis, game_id) == name
    play(rooms, game_id, BLACK_FIVE[:3])
    assert "Server: aborted." in flask(plays, "abort-game", str(game_id))
    result = rooms[1].wait_for("game_over")["result"]
    assert (result["winner"], result["reason"]) == (None, "aborted")


def test_a_process_that_does_not_lead_refuses_new_games_in_maintenance(cluster):
    there = follower(cluster)
    ann, ben = cluster.user("ann"), cluster.user("ben")
    flask(there, "maintenance", "on")

    def refused_there() -> bool:
        hall = there.connect(ann, "/hall")
        try:
            return hall.wait_for("hello")["maintenance"] is True
        finally:
            hall.disconnect()

    assert wait_until(refused_there, timeout=5)
    halls = [there.connect(http, "/hall") for http in (ann, ben)]
    for hall in halls:
        hall.wait_for("hello")
    answer = halls[0].ask("challenge", {"username": "ben"})
    assert (answer["ok"], answer["error"]) == (False, "conflict")
