"""What the hall tells a player who left their own game in play: how long they have to go back,
and, if they do not, that the game was lost and what it cost."""

from __future__ import annotations


def leave_room(player) -> None:
    player.room.disconnect("/room")
    player.clients.pop("/room")


def rejoin_hall(player) -> dict:
    player.hall.disconnect("/hall")
    player.clients.pop("/hall")
    player.connect("/hall")
    return player.received("/hall", "hello")[0]


def test_hello_has_no_countdown_while_the_player_is_at_their_game(game_between):
    black, _white, game_id = game_between()
    hello = rejoin_hall(black)
    assert hello["current_game"] == game_id
    assert hello["away"] is None


def test_leaving_the_game_tells_the_hall_at_once_how_long_is_left(game_between):
    black, _white, game_id = game_between()
    black.received("/hall")
    leave_room(black)
    me = black.received("/hall", "me")
    assert [m["away"] for m in me] == [{"game_id": game_id, "seconds_left": 30}]
    assert me[0]["status"] == "playing"


def test_hello_counts_the_grace_already_spent(game_between, clock):
    black, _white, game_id = game_between()
    leave_room(black)
    clock.advance(12)
    assert rejoin_hall(black)["away"] == {"game_id": game_id, "seconds_left": 18}


def test_going_back_to_the_game_stops_the_countdown(game_between):
    black, _white, game_id = game_between()
    leave_room(black)
    black.received("/hall")
    assert black.emit("/room", "join_game", {"game_id": game_id})["ok"]
    assert [m["away"] for m in black.received("/hall", "me")] == [None]


def test_a_game_lost_by_staying_away_is_told_with_the_score_change(game_between, clock, tick):
    black, white, game_id = game_between()
    leave_room(black)
    black.received("/hall")
    clock.advance(30)
    tick()
    events = dict(black.events("/hall"))
    told = events["game_result"]
    assert told["game_id"] == game_id
    assert told["color"] == "black"
    assert told["opponent"]["username"] == white.name
    assert told["result"]["reason"] == "disconnect"
    assert told["result"]["winner"] == "white"
    assert told["result"]["scores"]["black"] == {"before": 1000, "after": 970}
    me = events["me"]
    assert (me["status"], me["away"], me["me"]["losses"]) == ("idle", None, 1)


def test_only_players_in_the_hall_are_told_the_result(game_between):
    black, white, game_id = game_between()
    white.hall.disconnect("/hall")
    black.received("/hall")
    assert white.emit("/room", "resign", {"game_id": game_id})["ok"]
    assert [r["result"]["winner"] for r in black.received("/hall", "game_result")] == ["black"]
