"""A player's ratings per category over the wire: `/api/me` and the hall's `hello.me`."""

from __future__ import annotations

from tests.sockets.test_room import BLACK_FIVE, play
from tests.support.games import finish_game
from tests.support.ratings import first_game_ratings


def test_a_newcomer_has_no_ratings_yet(player):
    alice = player("alice")
    assert alice.http.get("/api/me").get_json()["ratings"] == {}


def test_a_rated_game_gives_both_players_a_provisional_rating_in_its_category(game_between):
    black, white, game_id = game_between()
    play(black, white, game_id, BLACK_FIVE)
    lines = first_game_ratings("freestyle:rapid", winner="black")
    for client, color in ((black, "black"), (white, "white")):
        ratings = client.http.get("/api/me").get_json()["ratings"]
        assert ratings == {"freestyle:rapid": {"rating": lines[color]["after"],
                                               "rd": lines[color]["rd"], "games": 1,
                                               "provisional": True}}


def test_hello_me_carries_the_ratings(app, player):
    alice, bob = player("alice"), player("bob")
    finish_game(app, alice.id, bob.id, winner="white", reason="resign")
    bob.join_hall()
    me = bob.received("/hall", "hello")[-1]["me"]
    assert me["ratings"]["freestyle:untimed"] == {
        "rating": first_game_ratings("freestyle:untimed", winner="white")["white"]["after"],
        "rd": first_game_ratings("freestyle:untimed", winner="white")["white"]["rd"],
        "games": 1, "provisional": True}
