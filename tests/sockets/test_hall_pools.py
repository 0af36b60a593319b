"""Time-control pools: Match queues by ruleset and clock, the game gets the pool's clock, and the
hall counts who waits in each pool (docs/protocol.md)."""

from __future__ import annotations

import pytest

from tests.support.pools import NO_ONE_WAITING


def queue(player, clock, ruleset="freestyle"):
    ack = player.emit("/hall", "start_match", {"ruleset": ruleset, "clock": clock})
    assert ack == {"ok": True}


def found(player):
    (match,) = player.received("/hall", "match_found")
    return match


def test_players_of_different_clocks_are_not_paired(player, tick, clock):
    alice, bob = player("alice"), player("bob")
    queue(alice, [300, 3])
    queue(bob, [600, 5])
    clock.advance(60)
    tick()
    assert alice.received("/hall", "match_found") == []
    assert bob.received("/hall", "match_found") == []


def test_a_newcomer_to_a_pool_meets_the_one_waiting_there(player, tick):
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    queue(alice, [300, 3])
    queue(bob, None)
    queue(carol, [300, 3])
    tick()
    assert found(alice)["opponent"]["username"] == "carol"
    assert bob.received("/hall", "match_found") == []


def test_the_game_gets_the_pools_clock(player, tick):
    alice, bob = player("alice"), player("bob")
    for p in (alice, bob):
        queue(p, [180, 2], ruleset="renju")
    tick()
    match = found(alice)
    assert (match["ruleset"], match["clock"]) == ("renju", [180, 2])
    state = alice.emit("/room", "join_game", {"game_id": match["game_id"]})["state"]
    assert state["clocks"] == {"black_ms": 180_000, "white_ms": 180_000}
    assert state["clock"] == [180, 2]


def test_a_match_without_a_clock_is_in_the_hosts_default_pool(player, tick):
    alice, bob = player("alice"), player("bob")
    alice.emit("/hall", "start_match", {})
    queue(bob, [600, 5])
    tick()
    assert found(alice)["clock"] == [600, 5]


def test_a_game_without_a_clock_plays_and_never_runs_out_of_time(player, tick, clock):
    alice, bob = player("alice"), player("bob")
    for p in (alice, bob):
        queue(p, None)
    tick()
    match = found(alice)
    assert match["clock"] is None
    black, white = (alice, bob) if match["color"] == "black" else (bob, alice)
    game_id = match["game_id"]
    for p in (black, white):
        state = p.emit("/room", "join_game", {"game_id": game_id})["state"]
        assert (state["clocks"], state["clock"]) == (None, None)
    assert black.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7})["ok"]
    assert white.emit("/room", "place_stone", {"game_id": game_id, "row": 8, "col": 8})["ok"]
    placed = black.received("/room", "stone_placed")
    assert [p["clocks"] for p in placed] == [None, None]
    clock.advance(3 * 3600)
    tick()
    assert black.received("/room", "game_over") == []
    assert black.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 8})["ok"]
    record = black.http.get(f"/api/games/{game_id}").get_json()
    assert (record["clocks"], record["clock"], len(record["moves"])) == (None, None, 3)


def test_a_game_without_a_clock_is_still_aborted_when_nobody_moves(player, tick, clock, app):
    alice, bob = player("alice"), player("bob")
    for p in (alice, bob):
        queue(p, None)
    tick()
    game_id = found(alice)["game_id"]
    for p in (alice, bob):
        p.emit("/room", "join_game", {"game_id": game_id})
    clock.advance(app.config["ABORT_SECONDS"])
    tick()
    (over,) = alice.received("/room", "game_over")
    assert (over["result"]["reason"], over["clocks"]) == ("aborted", None)


def test_a_rematch_keeps_the_game_without_a_clock(player, tick):
    alice, bob = player("alice"), player("bob")
    for p in (alice, bob):
        queue(p, None)
    tick()
    game_id = found(alice)["game_id"]
    for p in (alice, bob):
        p.emit("/room", "join_game", {"game_id": game_id})
    alice.emit("/room", "resign", {"game_id": game_id})
    for p in (alice, bob):
        p.emit("/room", "rematch", {"game_id": game_id})
    (ready,) = alice.received("/room", "rematch_ready")
    state = alice.emit("/room", "join_game", {"game_id": ready["game_id"]})["state"]
    assert (state["clocks"], state["clock"]) == (None, None)


@pytest.mark.parametrize("bad", [[300.0, 3.0], [300, 3.5], [True, 3], [300], [300, 3, 1],
                                   [1, 1], "5+3", "300+3", {"initial": 300}, 300])
def test_a_clock_that_is_not_a_pool_is_refused(player, bad):
    alice = player("alice")
    ack = alice.emit("/hall", "start_match", {"clock": bad})
    assert (ack["ok"], ack["error"]) == (False, "bad_request")
    assert "[300, 3]" in ack["message"]
    assert alice.received("/hall", "me") == []


def test_waiting_players_are_counted_by_pool(player, next_update):
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    queue(alice, [300, 3])
    queue(bob, None, ruleset="renju")
    carol.join_hall()
    next_update()
    (update,) = carol.received("/hall", "hall_update")
    assert update["counts"]["waiting"] == {**NO_ONE_WAITING, "freestyle/300+3": 1,
                                           "renju/none": 1}


def test_hello_names_the_clocks_on_offer_and_the_default(player):
    (hello,) = player("alice").hall.get_received("/hall")[:1]
    assert hello["name"] == "hello"
    assert hello["args"][0]["clocks"] == [[180, 2], [300, 3], [600, 5], [900, 10], None]
    assert hello["args"][0]["default_clock"] == [600, 5]


def test_a_challenge_may_be_for_a_game_without_a_clock(player):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    challenge_id = alice.emit("/hall", "challenge", {"username": "bob",
                                                     "clock": None})["challenge_id"]
    (received,) = bob.received("/hall", "challenge_received")
    assert received["clock"] is None
    bob.emit("/hall", "answer_challenge", {"challenge_id": challenge_id, "accept": True})
    game_id = found(bob)["game_id"]
    state = bob.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert (state["clocks"], state["clock"]) == (None, None)


@pytest.mark.parametrize("app_overrides", [{"MATCH_POOLS": [[60, 0], [1800, 20]]}])
def test_the_host_sets_the_pools(player, tick, app_overrides):
    alice, bob = player("alice"), player("bob")
    hello = alice.hall.get_received("/hall")[0]["args"][0]
    assert hello["clocks"] == [[60, 0], [1800, 20], [600, 5]]
    assert "freestyle/60+0" in hello["view"]["counts"]["waiting"]
    for refused in ([300, 3], None):
        ack = alice.emit("/hall", "start_match", {"clock": refused})
        assert ack["error"] == "bad_request"
    for p in (alice, bob):
        queue(p, [60, 0])
    tick()
    assert found(alice)["clock"] == [60, 0]


def test_a_finished_games_record_and_state_keep_its_clock(player, tick):
    alice, bob = player("alice"), player("bob")
    for p in (alice, bob):
        queue(p, [900, 10])
    tick()
    game_id = found(alice)["game_id"]
    for p in (alice, bob):
        p.emit("/room", "join_game", {"game_id": game_id})
    alice.emit("/room", "resign", {"game_id": game_id})
    assert alice.http.get(f"/api/games/{game_id}").get_json()["clock"] == [900, 10]
    state = bob.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert (state["status"], state["clock"]) == ("finished", [900, 10])


def hello_of(player) -> dict:
    (hello,) = player.received("/hall", "hello")
    return hello


def test_me_names_the_pool_you_queued_in(player):
    alice = player("alice")
    queue(alice, [180, 2], ruleset="renju")
    (me,) = alice.received("/hall", "me")
    assert (me["status"], me["queue"]) == ("queued", {"ruleset": "renju", "clock": [180, 2],
                                                      "opening": "none"})
    alice.emit("/hall", "cancel_match", {})
    (me,) = alice.received("/hall", "me")
    assert (me["status"], me["queue"]) == ("idle", None)


def test_hello_names_the_pool_you_wait_in_when_the_hall_is_opened_again(player):
    alice = player("alice")
    alice.join_hall()
    assert hello_of(alice)["queue"] is None
    queue(alice, None, ruleset="standard")
    # A second tab, or a reload whose page connects before the old one is gone.
    alice.connect("/hall")
    hello = hello_of(alice)
    assert (hello["status"], hello["queue"]) == ("queued", {"ruleset": "standard", "clock": None,
                                                            "opening": "none"})


def test_a_player_in_a_game_is_queued_in_no_pool(player, tick):
    alice, bob = player("alice"), player("bob")
    for p in (alice, bob):
        queue(p, [300, 3])
    tick()
    found(alice)
    alice.connect("/hall")
    hello = hello_of(alice)
    assert (hello["status"], hello["queue"]) == ("playing", None)


SWAP2_POOL = {"ruleset": "freestyle", "clock": [600, 5], "opening": "swap2"}


def test_hello_lists_the_pools_with_an_opening(player):
    alice = player("alice")
    alice.join_hall()
    hello = hello_of(alice)
    assert hello["opening_pools"] == [SWAP2_POOL, {"ruleset": "renju", "clock": [600, 5],
                                                   "opening": "taraguchi-10"}]
    assert hello["view"]["counts"]["waiting"]["freestyle/600+5/swap2"] == 0


def test_an_opening_pool_pairs_its_own_players_and_the_game_keeps_the_opening(player, tick, app):
    from gobang.extensions import db
    from gobang.models import Game

    alice, bob, carol = player("alice"), player("bob"), player("carol")
    queue(alice, [600, 5])
    assert alice.received("/hall", "me")[-1]["queue"] == {**SWAP2_POOL, "opening": "none"}
    for p in (bob, carol):
        assert p.emit("/hall", "start_match", SWAP2_POOL) == {"ok": True}
    assert bob.received("/hall", "me")[-1]["queue"] == SWAP2_POOL
    tick()
    assert alice.received("/hall", "match_found") == []
    match = found(bob)
    assert (match["opponent"]["username"], match["opening"]) == ("carol", "swap2")
    with app.app_context():
        assert db.session.get(Game, match["game_id"]).opening == "swap2"


@pytest.mark.parametrize("payload", [
    {"ruleset": "standard", "clock": [600, 5], "opening": "swap2"},  # no such pool
    {"ruleset": "freestyle", "clock": [300, 3], "opening": "swap2"},
    {"ruleset": "freestyle", "clock": [600.0, 5.0], "opening": "swap2"},
    {"ruleset": "renju", "clock": [600, 5], "opening": "swap2"},
    {"ruleset": "freestyle", "clock": [600, 5], "opening": ["swap2"]},
])
def test_a_pool_with_an_opening_the_host_does_not_offer_is_refused(player, payload):
    alice = player("alice")
    alice.join_hall()
    assert alice.emit("/hall", "start_match", payload)["error"] == "bad_request"
