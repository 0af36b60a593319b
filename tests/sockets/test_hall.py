"""The /hall namespace, event by event."""

from __future__ import annotations

import pytest

from gobang.extensions import socketio


def test_anonymous_cannot_join_hall(app):
    client = socketio.test_client(app, namespace="/hall", flask_test_client=app.test_client())
    assert not client.is_connected("/hall")


def test_hello_describes_me_and_the_hall(player, next_update):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    next_update()
    bob.join_hall()
    hello = bob.received("/hall", "hello")[0]
    assert hello["me"]["username"] == "bob"
    assert hello["me"]["score"] == 1000
    assert hello["status"] == "idle"
    assert hello["current_game"] is None
    assert [(u["username"], u["status"]) for u in hello["view"]["players"]] == [
        ("alice", "idle")]
    assert hello["view"]["games"] == []
    assert "online" not in hello and "games" not in hello


def test_newcomer_is_announced_to_others_in_the_next_update(player, next_update):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    next_update()
    alice.received("/hall")
    bob.join_hall()
    assert alice.received("/hall", "hall_update") == []
    next_update()
    update = alice.received("/hall", "hall_update")
    assert [u["players"]["set"] for u in update] == [
        [{"id": bob.id, "username": "bob", "score": 1000, "status": "idle", "game_id": None}]]


def test_second_connection_replaces_the_first(player):
    alice = player("alice")
    first = alice.connect("/hall")
    second = alice.connect("/hall")
    assert not first.is_connected("/hall")
    # The test client refuses to read a closed connection's inbox, so read it directly.
    assert "session_replaced" in [packet["name"] for packet in first.queue]
    assert second.is_connected("/hall")


def test_leaving_is_announced_in_the_next_update(player, next_update):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    bob.join_hall()
    bob_id = bob.id
    next_update()
    alice.received("/hall")
    bob.hall.disconnect("/hall")
    next_update()
    assert [u["players"]["removed"] for u in alice.received("/hall", "hall_update")] == [
        [bob_id]]


def test_start_match_queues_and_is_idempotent(player):
    alice = player("alice")
    alice.join_hall()
    assert alice.emit("/hall", "start_match", {}) == {"ok": True}
    assert alice.emit("/hall", "start_match", {}) == {"ok": True}
    assert [me["status"] for me in alice.received("/hall", "me")] == ["queued"]


def test_cancel_match_is_idempotent(player):
    alice = player("alice")
    alice.emit("/hall", "start_match", {})
    assert alice.emit("/hall", "cancel_match", {}) == {"ok": True}
    assert alice.emit("/hall", "cancel_match", {}) == {"ok": True}


@pytest.mark.parametrize("payload", [{"ruleset": "chess"}, {"ruleset": 5}, [1, 2], "x"])
def test_start_match_rejects_bad_payload(player, payload):
    alice = player("alice")
    ack = alice.emit("/hall", "start_match", payload)
    assert ack["ok"] is False
    assert ack["error"] == "bad_request"
    assert ack["message"]


def test_matcher_pairs_two_queued_players_and_tells_both(player, tick):
    alice, bob = player("alice"), player("bob")
    for p in (alice, bob):
        p.emit("/hall", "start_match", {"ruleset": "renju"})
    tick()
    a = alice.received("/hall", "match_found")
    b = bob.received("/hall", "match_found")
    assert len(a) == len(b) == 1
    assert a[0]["game_id"] == b[0]["game_id"]
    assert {a[0]["color"], b[0]["color"]} == {"black", "white"}
    assert a[0]["opponent"] == {"id": bob.id, "username": "bob", "score": 1000,
                              "rating": 1500}
    assert a[0]["ruleset"] == "renju"


def test_players_of_different_rulesets_are_not_paired(player, tick):
    alice, bob = player("alice"), player("bob")
    alice.emit("/hall", "start_match", {"ruleset": "renju"})
    bob.emit("/hall", "start_match", {"ruleset": "standard"})
    tick()
    assert alice.received("/hall", "match_found") == []


def test_new_game_is_listed_for_everyone(player, tick):
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    carol.join_hall()
    for p in (alice, bob):
        p.emit("/hall", "start_match", {})
    tick()
    changed = carol.received("/hall", "hall_update")[-1]["games"]["set"]
    assert len(changed) == 1
    assert {changed[0]["black"]["username"], changed[0]["white"]["username"]} == {"alice", "bob"}
    assert changed[0]["moves"] == 0
    assert changed[0]["ruleset"] == "freestyle"


def test_player_with_live_game_is_busy(game_between):
    black, _white, game_id = game_between()
    ack = black.emit("/hall", "start_match", {})
    assert ack["ok"] is False
    assert ack["error"] == "busy"
    assert ack["game_id"] == game_id


def test_hello_tells_a_player_of_the_game_in_progress(game_between):
    black, _white, game_id = game_between()
    black.hall.disconnect("/hall")
    black.clients.pop("/hall")
    black.connect("/hall")
    assert black.received("/hall", "hello")[0]["current_game"] == game_id


def test_queued_player_who_leaves_is_dropped_from_queue(player, tick):
    alice, bob = player("alice"), player("bob")
    alice.emit("/hall", "start_match", {})
    alice.hall.disconnect("/hall")
    bob.emit("/hall", "start_match", {})
    tick()
    assert bob.received("/hall", "match_found") == []


@pytest.mark.parametrize(("event", "expected"), [
    # Unknown fields are ignored: these two need none.
    ("start_match", {"ok": True}),
    ("cancel_match", {"ok": True}),
    ("challenge", "bad_request"),
    ("answer_challenge", "bad_request"),
    ("chat", "bad_request"),
    ("find_players", "bad_request"),
])
def test_every_hall_event_is_acknowledged_even_with_junk(player, event, expected):
    alice = player("alice")
    ack = alice.emit("/hall", event, {"junk": [1, {"x": None}]})
    if isinstance(expected, dict):
        assert ack == expected
    else:
        assert (ack["ok"], ack["error"]) == (False, expected)
        assert ack["message"]
