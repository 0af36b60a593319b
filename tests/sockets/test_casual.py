"""Casual games: a challenge may ask for one; it plays like any other and changes no score,
rating or counter, and says so wherever the game is shown (docs/protocol.md, Casual games)."""

from __future__ import annotations

import pytest

from tests.sockets.test_room import BLACK_FIVE, play


@pytest.fixture
def casual_game(player):
    """alice challenged bob to a casual game, bob accepted, both joined the room."""

    def make(rated: bool = False):
        alice, bob = player("alice"), player("bob")
        bob.join_hall()
        alice.join_hall()
        ack = alice.emit("/hall", "challenge", {"username": "bob", "rated": rated})
        bob.emit("/hall", "answer_challenge", {"challenge_id": ack["challenge_id"],
                                               "accept": True})
        found = [p.received("/hall", "match_found")[-1] for p in (alice, bob)]
        black, white = (alice, bob) if found[0]["color"] == "black" else (bob, alice)
        game_id = found[0]["game_id"]
        for p in (black, white):
            assert p.emit("/room", "join_game", {"game_id": game_id})["ok"]
            p.received("/room")
        return black, white, game_id, found

    return make


def test_the_challenged_player_is_told_the_challenge_is_casual(player):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    alice.emit("/hall", "challenge", {"username": "bob", "rated": False})
    assert bob.received("/hall", "challenge_received")[0]["rated"] is False


@pytest.mark.parametrize("rated", [False, True])
def test_the_game_says_whether_it_is_rated_in_match_found_and_the_state(casual_game, rated):
    black, _white, game_id, found = casual_game(rated)
    assert [message["rated"] for message in found] == [rated, rated]
    assert black.emit("/room", "join_game", {"game_id": game_id})["state"]["rated"] is rated


def test_a_casual_game_changes_no_score_rating_or_counter(casual_game):
    black, white, game_id, _found = casual_game()
    play(black, white, game_id, BLACK_FIVE)
    result = white.received("/room", "game_over")[0]["result"]
    assert (result["winner"], result["ratings"]) == ("black", None)
    assert result["scores"]["black"] == {"before": 1000, "after": 1000}
    for client in (black, white):
        me = client.http.get("/api/me").get_json()
        assert (me["score"], me["games"], me["wins"], me["losses"], me["ratings"]) == (
            1000, 0, 0, 0, {})


def test_the_record_of_a_casual_game_says_so(casual_game):
    black, white, game_id, _found = casual_game()
    play(black, white, game_id, BLACK_FIVE)
    assert black.http.get(f"/api/games/{game_id}").get_json()["rated"] is False


def test_a_rematch_of_a_casual_game_is_casual(casual_game):
    black, white, game_id, _found = casual_game()
    black.emit("/room", "resign", {"game_id": game_id})
    for client in (black, white):
        client.emit("/room", "rematch", {"game_id": game_id})
    (ready,) = black.received("/room", "rematch_ready")
    state = black.emit("/room", "join_game", {"game_id": ready["game_id"]})["state"]
    assert state["rated"] is False


@pytest.mark.parametrize("rated", ["no", 0, None, [False]])
def test_rated_other_than_true_or_false_is_refused(player, rated):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    ack = alice.emit("/hall", "challenge", {"username": "bob", "rated": rated})
    assert (ack["ok"], ack["error"]) == (False, "bad_request")
    assert bob.received("/hall", "challenge_received") == []


def test_the_halls_list_marks_a_casual_game_and_leaves_rated_ones_plain(
        casual_game, game_between, player, next_update):
    casual_game()
    game_between("carol", "dave")
    watcher = player("erin")
    watcher.join_hall()
    next_update()
    games = watcher.received("/hall", "hello")[-1]["view"]["games"]
    marks = {frozenset((g["black"]["username"], g["white"]["username"])): g.get("rated", "absent")
             for g in games}
    assert marks == {frozenset(("alice", "bob")): False, frozenset(("carol", "dave")): "absent"}
