"""Challenges and chat in the hall."""

from __future__ import annotations

import pytest


def test_challenge_reaches_the_named_player_with_the_default_clock(player):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    ack = alice.emit("/hall", "challenge", {"username": "BOB", "ruleset": "renju"})
    assert ack["ok"] is True
    received = bob.received("/hall", "challenge_received")
    assert received == [{"challenge_id": ack["challenge_id"],
                         "from": {"id": alice.id, "username": "alice", "score": 1000},
                         "ruleset": "renju", "clock": [600, 5], "rated": True,
                         "color": "random", "opening": "none"}]


def test_a_challenge_names_its_opening_and_the_game_keeps_it(player, app):
    from gobang.extensions import db
    from gobang.models import Game

    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    ack = alice.emit("/hall", "challenge", {"username": "bob", "ruleset": "renju",
                                            "opening": "taraguchi-10"})
    (received,) = bob.received("/hall", "challenge_received")
    assert (received["ruleset"], received["opening"]) == ("renju", "taraguchi-10")
    bob.emit("/hall", "answer_challenge", {"challenge_id": ack["challenge_id"], "accept": True})
    (match,) = bob.received("/hall", "match_found")
    assert match["opening"] == "taraguchi-10"
    with app.app_context():
        assert db.session.get(Game, match["game_id"]).opening == "taraguchi-10"


@pytest.mark.parametrize(("ruleset", "opening"), [
    ("freestyle", "taraguchi-10"), ("renju", "swap2"), ("standard", "swap3"), (None, 2),
    ("renju", None),
])
def test_a_challenge_with_an_opening_its_ruleset_does_not_allow_is_refused(player, ruleset,
                                                                           opening):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    ack = alice.emit("/hall", "challenge", {"username": "bob", "ruleset": ruleset,
                                            "opening": opening})
    assert ack["error"] == "bad_request"
    assert "Opening must be one of" in ack["message"]
    assert bob.received("/hall", "challenge_received") == []


def test_accepted_challenge_starts_a_game_for_both(player):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    challenge_id = alice.emit("/hall", "challenge", {"username": "bob"})["challenge_id"]
    assert bob.emit("/hall", "answer_challenge", {"challenge_id": challenge_id,
                                                   "accept": True}) == {"ok": True}
    a, b = alice.received("/hall", "match_found"), bob.received("/hall", "match_found")
    assert a[0]["game_id"] == b[0]["game_id"]
    assert a[0]["ruleset"] == "freestyle"


def test_challenge_with_a_chosen_clock(player):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    challenge_id = alice.emit("/hall", "challenge", {"username": "bob",
                                                     "clock": [300, 3]})["challenge_id"]
    bob.emit("/hall", "answer_challenge", {"challenge_id": challenge_id, "accept": True})
    game_id = bob.received("/hall", "match_found")[0]["game_id"]
    state = bob.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert state["clocks"] == {"black_ms": 300_000, "white_ms": 300_000}


def test_declined_challenge_tells_the_challenger(player):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    challenge_id = alice.emit("/hall", "challenge", {"username": "bob"})["challenge_id"]
    bob.emit("/hall", "answer_challenge", {"challenge_id": challenge_id, "accept": False})
    assert alice.received("/hall", "challenge_declined") == [{"challenge_id": challenge_id}]
    assert bob.emit("/hall", "answer_challenge", {"challenge_id": challenge_id,
                                                   "accept": True})["error"] == "not_found"


def test_challenge_is_cancelled_when_the_challenger_leaves(player):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    challenge_id = alice.emit("/hall", "challenge", {"username": "bob"})["challenge_id"]
    alice.hall.disconnect("/hall")
    assert bob.received("/hall", "challenge_cancelled") == [{"challenge_id": challenge_id}]


def test_challenge_is_cancelled_when_the_challenger_starts_another(player):
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    bob.join_hall()
    carol.join_hall()
    first = alice.emit("/hall", "challenge", {"username": "bob"})["challenge_id"]
    alice.emit("/hall", "challenge", {"username": "carol"})
    assert bob.received("/hall", "challenge_cancelled") == [{"challenge_id": first}]


def test_same_player_cannot_be_challenged_twice_by_one_person(player):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    alice.emit("/hall", "challenge", {"username": "bob"})
    assert alice.emit("/hall", "challenge", {"username": "bob"})["error"] == "conflict"


def test_player_in_a_game_cannot_be_challenged(game_between, player):
    black, _white, _game_id = game_between()
    ack = player("carol").emit("/hall", "challenge", {"username": black.name})
    assert ack["error"] == "busy"


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"username": "nobody"}, "not_found"),
        ({"username": "alice"}, "bad_request"),
        ({"username": ""}, "bad_request"),
        ({"username": 5}, "bad_request"),
        ({"username": "bob", "ruleset": "go"}, "bad_request"),
        ({"username": "bob", "clock": [1, 1]}, "bad_request"),
        ({"username": "bob", "clock": "fast"}, "bad_request"),
    ],
)
def test_bad_challenges_are_refused(player, payload, code):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    assert alice.emit("/hall", "challenge", payload)["error"] == code


def test_offline_player_cannot_be_challenged(player):
    alice, _bob = player("alice"), player("bob")
    assert alice.emit("/hall", "challenge", {"username": "bob"})["error"] == "not_found"


def test_hall_chat_reaches_everyone(player):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    assert alice.emit("/hall", "chat", {"text": " hello "}) == {"ok": True}
    message = bob.received("/hall", "chat")[0]
    assert message["from"] == {"id": alice.id, "username": "alice"}
    assert message["text"] == "hello"


@pytest.mark.parametrize("app_overrides", [{"CHAT_MESSAGES_PER_WINDOW": 100}])
def test_newcomer_sees_the_last_fifty_messages(player):
    alice = player("alice")
    for i in range(55):
        assert alice.emit("/hall", "chat", {"text": f"m{i}"}) == {"ok": True}
    bob = player("bob")
    bob.join_hall()
    hello = bob.received("/hall", "hello")[0]
    assert [m["text"] for m in hello["chat"]] == [f"m{i}" for i in range(5, 55)]


@pytest.mark.parametrize("text", ["", " ", "y" * 301, None, {"t": 1}])
def test_hall_chat_rejects_bad_text(player, text):
    assert player("alice").emit("/hall", "chat", {"text": text})["error"] == "bad_request"


def test_hall_chat_is_rate_limited(player):
    alice = player("alice")
    codes = [alice.emit("/hall", "chat", {"text": "hi"}).get("error") for _ in range(6)]
    assert codes == [None] * 5 + ["rate_limited"]


@pytest.mark.parametrize("app_overrides", [{"HALL_ACTIONS_PER_MINUTE": 3}])
def test_match_requests_are_rate_limited(player, app_overrides):
    alice = player("alice")
    alice.join_hall()
    codes = []
    for _ in range(4):
        codes.append(alice.emit("/hall", "start_match", {}).get("error"))
        alice.emit("/hall", "cancel_match", {})
    assert codes == [None, None, None, "rate_limited"]


@pytest.mark.parametrize("app_overrides", [{"HALL_ACTIONS_PER_MINUTE": 2}])
def test_challenges_are_rate_limited(player, app_overrides):
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    for someone in (alice, bob, carol):
        someone.join_hall()
    codes = [alice.emit("/hall", "challenge", {"username": name}).get("error")
             for name in ("bob", "carol", "bob")]
    assert codes == [None, None, "rate_limited"]


@pytest.mark.parametrize(("chosen", "challenger_plays"), [("black", "black"), ("white", "white")])
def test_the_challenger_may_choose_a_colour(player, chosen, challenger_plays):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    alice.join_hall()
    ack = alice.emit("/hall", "challenge", {"username": "bob", "color": chosen})
    assert bob.received("/hall", "challenge_received")[0]["color"] == chosen
    bob.emit("/hall", "answer_challenge", {"challenge_id": ack["challenge_id"], "accept": True})
    assert alice.received("/hall", "match_found")[0]["color"] == challenger_plays


@pytest.mark.parametrize("color", ["green", "BLACK", None, 1])
def test_a_colour_that_is_none_of_the_three_is_refused(player, color):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    ack = alice.emit("/hall", "challenge", {"username": "bob", "color": color})
    assert (ack["ok"], ack["error"]) == (False, "bad_request")
