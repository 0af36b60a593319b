"""The hall's list of the players one follows who are online (gobang/services/hall/
following.py): `following` on arrival, `following_update` with the hall's updates."""

from __future__ import annotations

import json

import pytest

from gobang.services.hall.following import FOLLOWING_SHOWN
from gobang.services.notices import HALL_USER


@pytest.fixture
def update(env, clock):
    """The hall's next update: the view's interval passed, then its flush."""

    def run():
        clock.advance(env.lobby.view.interval)
        return [n for n in env.lobby.view.flush() if n.event == "following_update"]

    return run


def told(notices) -> dict[int, dict]:
    return {n.key: n.payload for n in notices if n.target == HALL_USER}


def test_following_lists_the_online_players_one_follows_in_name_order(env, users, hall_of):
    alice, bob, carol, dave = users("alice", "Bob", "carol", "dave")
    for other in (bob, carol, dave):
        env.social.follows.follow(alice, other)
    hall_of(alice, dave, bob)  # carol is not online
    assert env.lobby.following.of(alice.id) == {"players": [
        {"id": bob.id, "username": "Bob", "score": 1000, "status": "idle", "game_id": None},
        {"id": dave.id, "username": "dave", "score": 1000, "status": "idle", "game_id": None}]}


@pytest.fixture
def fan(env, users):
    (found,) = users("fan")
    return found


def test_a_player_in_a_game_is_listed_as_playing_it(env, started, fan):
    live, black, _white = started
    env.social.follows.follow(fan, black)
    (entry,) = env.lobby.following.of(fan.id)["players"]
    assert (entry["status"], entry["game_id"]) == ("playing", live.game_id)


def test_following_nobody_lists_nobody(env, users, hall_of):
    alice, _bob = hall_of(*users("alice", "bob"))
    assert env.lobby.following.of(alice.id) == {"players": []}


def test_following_is_bounded_and_stays_small_with_long_chinese_names(env, users, hall_of):
    fan, *crowd = hall_of(*users("fan", *(f"棋手{number:02d}" + "棋" * 16
                                        for number in range(FOLLOWING_SHOWN + 5))))
    env.social.follows.at_most = len(crowd)
    for other in crowd:
        env.social.follows.follow(fan, other)
    listed = env.lobby.following.of(fan.id)
    assert len(listed["players"]) == FOLLOWING_SHOWN
    sent = json.dumps(listed)  # as the wire escapes non-ASCII text
    assert len(sent) <= 12 * 1024, len(sent)


def test_the_first_update_of_a_process_tells_nothing(env, users, hall_of, update):
    alice, bob = users("alice", "bob")
    env.social.follows.follow(alice, bob)
    hall_of(alice, bob)
    assert update() == []


def test_an_arrival_is_told_to_its_followers_in_the_hall_only(env, users, hall_of, update):
    alice, bob, carol, dave = users("alice", "bob", "carol", "dave")
    for follower in (alice, carol):
        env.social.follows.follow(follower, bob)
    hall_of(alice, dave)  # carol is not in the hall
    update()
    hall_of(bob)
    assert told(update()) == {alice.id: {"set": [
        {"id": bob.id, "username": "bob", "score": 1000, "status": "idle", "game_id": None}],
        "removed": []}}


def test_an_arrival_nobody_follows_tells_nobody(env, users, hall_of, update):
    alice, bob, carol = users("alice", "bob", "carol")
    env.social.follows.follow(alice, bob)
    hall_of(alice, bob)
    update()
    hall_of(carol)
    assert update() == []


def test_a_departure_is_told_as_removed(env, users, hall_of, update):
    alice, bob = users("alice", "bob")
    env.social.follows.follow(alice, bob)
    hall_of(alice, bob)
    update()
    env.lobby.hall.disconnect(bob.id, f"hall-{bob.id}-1")
    assert told(update()) == {alice.id: {"set": [], "removed": [bob.id]}}


def test_a_game_starting_is_told_with_the_game_to_watch(env, users, hall_of, update):
    alice, bob, carol = users("alice", "bob", "carol")
    env.social.follows.follow(alice, bob)
    hall_of(alice, bob, carol)
    update()
    for user in (bob, carol):
        env.lobby.matchmaking.start(user, "freestyle")
    env.lobby.matchmaking.run()
    ((entry,),) = [payload["set"] for payload in told(update()).values()]
    assert (entry["status"], entry["game_id"]) == (
        "playing", env.play.table.current_game_of(bob.id))
