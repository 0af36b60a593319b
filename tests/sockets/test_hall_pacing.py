"""A crowded hall: broadcasts to everyone wait for the bucket and go out in their latest state.

With HALL_FANOUT_BURST 3, the first two arrivals (costing 1 and 2 messages) empty the bucket."""

from __future__ import annotations

import pytest

from tests.sockets.conftest import services_of
from tests.support.prometheus import sample

pytestmark = pytest.mark.parametrize(
    "app_overrides", [{"HALL_FANOUT_BURST": 3, "HALL_FANOUT_PER_SECOND": 1}])


@pytest.fixture
def crowded(player):
    """alice and bob in the hall, and the bucket empty."""
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    bob.join_hall()
    alice.received("/hall")
    return alice, bob


@pytest.fixture
def settle(app, tick, clock):
    """Let time pass and the ticker run until nothing is waiting."""

    def run() -> None:
        fanout = services_of(app).lobby.fanout
        for _ in range(20):
            clock.advance(5)
            tick()
            if fanout.waiting() == 0:
                return
        raise AssertionError("broadcasts still waiting")

    return run


def test_an_arrival_past_the_bucket_is_not_announced_at_once(crowded, player):
    alice, _bob = crowded
    player("carol").join_hall()
    assert alice.received("/hall", "presence") == []


def test_the_newcomer_still_sees_everyone_in_hello(crowded, player):
    carol = player("carol")
    carol.join_hall()
    hello = carol.received("/hall", "hello")[0]
    assert [u["username"] for u in hello["online"]] == ["alice", "bob", "carol"]


def test_a_waiting_presence_arrives_once_in_its_latest_state(crowded, player, settle):
    alice, _bob = crowded
    carol = player("carol")
    carol.join_hall()
    assert carol.emit("/hall", "start_match", {})["ok"]
    settle()
    assert alice.received("/hall", "presence") == [
        {"user": {"id": carol.id, "username": "carol", "score": 1000, "status": "queued"}}]


def test_someone_who_came_and_went_while_waiting_is_only_said_gone(crowded, player, settle):
    alice, _bob = crowded
    dave = player("dave")
    dave.join_hall()
    dave_id = dave.id
    dave.hall.disconnect("/hall")
    settle()
    assert alice.events("/hall") == [("presence_gone", {"id": dave_id})]


def test_a_pairing_in_a_crowded_hall_is_told_first_and_the_hall_catches_up(
        crowded, player, tick, settle):
    alice, _bob = crowded
    carol, dave = player("carol"), player("dave")
    for p in (carol, dave):
        p.join_hall()
        assert p.emit("/hall", "start_match", {})["ok"]
    tick()
    assert len(carol.received("/hall", "match_found")) == 1
    settle()
    events = alice.events("/hall")
    statuses = {e["user"]["username"]: e["user"]["status"] for name, e in events
                if name == "presence"}
    assert statuses == {"carol": "playing", "dave": "playing"}
    assert [len(e["games"]) for name, e in events if name == "games_changed"] == [1]


def test_the_broadcasts_held_back_are_a_metric(app, crowded, player, settle):
    for name in ("carol", "dave"):
        player(name).join_hall()

    def waiting() -> float:
        return sample(app.test_client().get("/metrics").get_data(as_text=True),
                      "gobang_hall_broadcasts_waiting")

    assert waiting() == 2
    settle()
    assert waiting() == 0
