"""Joining a game while Redis has just started (empty): a game in play waits until its
process has taken its lease again (`conflict`, try again), but a game nobody can be playing
is answered at once: one that does not exist, and one already finished."""

from __future__ import annotations

import random

import pytest

from tests.support.games import BLACK_FIVE, finish_game, start_game
from tests.support.redis import LASTING_LEASE_SECONDS

# Redis counts as just started for two leases of its uptime: an hour's lease keeps this
# session's Redis young for the whole test.
YOUNG = {"LEASE_SECONDS": LASTING_LEASE_SECONDS, "REDIS_MESSAGE_QUEUE": False}


@pytest.fixture
def base_overrides(clock, redis_server) -> dict[str, object]:
    """On the Redis store whatever the pass (the PostgreSQL pass sets it for every socket
    test; this module needs it in both)."""
    return {"CLOCK": clock, "RANDOM": random.Random(7), "REDIS_URL": redis_server.url, **YOUNG}


def test_an_unknown_game_is_not_found_at_once(player):
    answer = player("alice").emit("/room", "join_game", {"game_id": 424242})
    assert (answer["ok"], answer["error"]) == (False, "not_found")


def test_a_finished_game_is_joined_at_once(player, app):
    ann, ben = player("ann"), player("ben")
    game_id = finish_game(app, _id(ann), _id(ben), "black", "five", moves=BLACK_FIVE)
    answer = ann.emit("/room", "join_game", {"game_id": game_id})
    assert (answer["ok"], answer["state"]["status"]) == (True, "finished")


def test_a_game_in_play_waits_for_its_process(player, app):
    ann, ben = player("ann"), player("ben")
    game_id = start_game(app, _id(ann), _id(ben), BLACK_FIVE[:2])
    answer = ann.emit("/room", "join_game", {"game_id": game_id})
    assert (answer["ok"], answer["error"]) == (False, "conflict")


def _id(someone) -> int:
    return someone.http.get("/api/me").get_json()["id"]
