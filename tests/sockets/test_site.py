"""/site: a logged-in player's pages other than the hall hear of challenges and answer them."""

from __future__ import annotations

import pytest

from gobang.extensions import socketio


def open_page(player):
    """One more page of the site (a tab on a profile, a finished game, settings...)."""
    return socketio.test_client(player.app, namespace="/site", flask_test_client=player.http)


def events(client, name: str) -> list[dict]:
    return [p["args"][0] for p in client.get_received("/site") if p["name"] == name]


def answer(client, challenge_id: str, accept: bool) -> dict:
    return client.emit("answer_challenge", {"challenge_id": challenge_id, "accept": accept},
                       namespace="/site", callback=True)


def test_anonymous_page_cannot_connect(app):
    client = socketio.test_client(app, namespace="/site", flask_test_client=app.test_client())
    assert not client.is_connected("/site")


def test_a_challenge_reaches_every_page_of_a_player_outside_the_hall(player):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    profile, settings = open_page(bob), open_page(bob)
    ack = alice.emit("/hall", "challenge", {"username": "bob", "ruleset": "renju"})
    assert ack["ok"]
    for page in (profile, settings):
        [received] = events(page, "challenge_received")
        assert received["challenge_id"] == ack["challenge_id"]
        assert received["from"]["username"] == "alice"
        assert received["ruleset"] == "renju"


def test_a_player_on_another_page_is_listed_online_and_idle(player):
    alice, bob = player("alice"), player("bob")
    open_page(bob)
    found = alice.emit("/hall", "find_players", {"prefix": "bo"})["players"]
    assert [(p["username"], p["status"]) for p in found] == [("bob", "idle")]


def test_accepting_on_a_page_answers_with_the_new_game(player):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    page = open_page(bob)
    challenge_id = alice.emit("/hall", "challenge", {"username": "bob"})["challenge_id"]
    ack = answer(page, challenge_id, True)
    assert ack["ok"] is True
    [found] = alice.received("/hall", "match_found")
    assert ack["game_id"] == found["game_id"]


def test_declining_on_a_page_tells_the_challenger(player):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    page = open_page(bob)
    challenge_id = alice.emit("/hall", "challenge", {"username": "bob"})["challenge_id"]
    assert answer(page, challenge_id, False) == {"ok": True, "game_id": None}
    assert alice.received("/hall", "challenge_declined") == [{"challenge_id": challenge_id}]


def test_closing_the_last_page_cancels_the_challenge(player):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    first, second = open_page(bob), open_page(bob)
    challenge_id = alice.emit("/hall", "challenge", {"username": "bob"})["challenge_id"]
    first.disconnect("/site")
    assert alice.received("/hall", "challenge_cancelled") == []
    second.disconnect("/site")
    assert alice.received("/hall", "challenge_cancelled") == [{"challenge_id": challenge_id}]


def test_leaving_the_hall_for_another_page_cancels_the_challenges_sent(player):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    assert open_page(alice).is_connected("/site")
    challenge_id = alice.emit("/hall", "challenge", {"username": "bob"})["challenge_id"]
    alice.hall.disconnect("/hall")
    assert bob.received("/hall", "challenge_cancelled") == [{"challenge_id": challenge_id}]


def test_leaving_the_hall_with_another_page_open_keeps_the_challenges_received(player):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    bob.join_hall()
    page = open_page(bob)
    challenge_id = alice.emit("/hall", "challenge", {"username": "bob"})["challenge_id"]
    bob.hall.disconnect("/hall")
    assert alice.received("/hall", "challenge_cancelled") == []
    assert answer(page, challenge_id, True)["ok"] is True


@pytest.mark.parametrize("payload", [
    {}, {"challenge_id": "c1"}, {"challenge_id": 1, "accept": True}])
def test_bad_answers_are_refused(player, payload):
    page = open_page(player("bob"))
    ack = page.emit("answer_challenge", payload, namespace="/site", callback=True)
    assert (ack["ok"], ack["error"]) == (False, "bad_request")


def test_a_ban_closes_the_pages_too(player, app):
    from gobang.services.notices import DISCONNECT_USER, Notice
    from gobang.sockets.base import publish

    bob = player("bob")
    page = open_page(bob)
    assert page.is_connected("/site")
    with app.test_request_context():
        publish([Notice("session_ended", {"reason": "banned"}, DISCONNECT_USER, bob.id)])
    assert not page.is_connected("/site")
