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


def test_a_games_seats_show_each_players_rating_in_its_category(app, player, tick):
    from gobang.extensions import db
    from gobang.models import CategoryRating

    alice, bob = player("alice"), player("bob")
    with app.app_context():
        db.session.add(CategoryRating(user_id=alice.id, category="renju:untimed", rating=1562.4,
                                      deviation=60, volatility=0.06, games=30))
        db.session.commit()
    for client in (alice, bob):
        client.join_hall()
        assert client.emit("/hall", "start_match", {"ruleset": "renju", "clock": None})["ok"]
    tick()
    assert bob.received("/hall", "match_found")[0]["opponent"]["rating"] == 1562
    game_id = alice.received("/hall", "match_found")[0]["game_id"]
    state = alice.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert {state[color]["username"]: state[color]["rating"] for color in ("black", "white")} == {
        "alice": 1562, "bob": 1500}
