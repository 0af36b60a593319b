"""Each live game is played by one process; a room connection that reaches another is sent
there (`moved`), and a game whose process dies is adopted by another from the database."""

from __future__ import annotations

import time

import pytest
import socketio
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from gobang import create_app
from gobang.extensions import db
from tests.conftest import make_config
from tests.support.cluster import owner_of
from tests.support.games import BLACK_FIVE, start_game

pytestmark = [pytest.mark.live, pytest.mark.serial]


def seated_game(cluster, moves=()):
    """Two registered players and their game in play, written to the database, owned by no
    process yet; returns (black http, white http, game id)."""
    black, white = cluster.user("ann"), cluster.user("ben")
    ids = [http.get(cluster.url + "/api/me", timeout=5).json()["id"] for http in (black, white)]
    app = create_app(make_config(cluster.database_url))
    game_id = start_game(app, ids[0], ids[1], moves)
    with app.app_context():
        db.engine.dispose()
    return black, white, game_id


def both_join(cluster, black, white, game_id):
    (b_room, b_state, b_path), (w_room, _w_state, w_path) = (
        cluster.join(black, game_id), cluster.join(white, game_id))
    return b_room, w_room, b_state, (b_path, w_path)


def play(rooms, game_id, moves, first=0):
    for index, (row, col) in enumerate(moves, start=first):
        ack = rooms[index % 2].ask("place_stone", {"game_id": game_id, "row": row, "col": col})
        assert ack == {"ok": True}, ack


def assert_won_by_five(cluster, http, room, game_id):
    """The room heard the end, and the record holds the whole game, finished."""
    assert room.wait_for("game_over")["result"]["reason"] == "five"
    record = http.get(f"{cluster.url}/api/games/{game_id}", timeout=5).json()
    assert (record["status"], len(record["moves"])) == ("finished", 9)


def test_a_game_is_played_to_five_whichever_process_each_player_reached(cluster):
    black, white, game_id = seated_game(cluster)
    b_room, w_room, _state, _paths = both_join(cluster, black, white, game_id)
    assert owner_of(cluster.redis, game_id) in ("p1", "p2")
    play((b_room, w_room), game_id, BLACK_FIVE)
    assert w_room.wait_for("game_over")["result"]["winner"] == "black"
    record = black.get(f"{cluster.url}/api/games/{game_id}", timeout=5).json()
    assert (record["status"], len(record["moves"])) == ("finished", 9)
    assert black.get(cluster.url + "/api/me", timeout=5).json()["score"] == 1030


def test_the_two_chats_of_a_game_are_sent_by_its_owner(cluster):
    """A room's chat stays with its game's owner, as before there were two: the spectators'
    line reaches the spectators and not the players, the players' line everyone, and the end
    sends each player (to their room connection, through the message queue) what the
    spectators said."""
    black, white, game_id = seated_game(cluster)
    b_room, w_room, _state, _paths = both_join(cluster, black, white, game_id)
    c_room, _c_state, _c_path = cluster.join(cluster.user("cat"), game_id)
    assert c_room.ask("chat", {"game_id": game_id, "text": "nice block!"}) == {"ok": True}
    assert b_room.ask("chat", {"game_id": game_id, "text": "thanks"}) == {"ok": True}
    assert [c_room.wait_for("chat")["text"] for _ in range(2)] == ["nice block!", "thanks"]
    for room in (b_room, w_room):
        assert room.wait_for("chat")["text"] == "thanks"  # nothing of the spectators' first
    assert b_room.ask("resign", {"game_id": game_id}) == {"ok": True}
    for room in (b_room, w_room):
        opened = room.wait_for("chat_opened")
        assert [line["text"] for line in opened["chat"]] == ["nice block!"]


def test_a_join_that_reaches_another_process_is_sent_to_the_owner(cluster):
    black, white, game_id = seated_game(cluster)
    cluster.join(black, game_id)
    owner = owner_of(cluster.redis, game_id)
    other = cluster.servers[1] if owner == "p1" else cluster.servers[0]
    ack = other.connect(white, "/room").ask("join_game", {"game_id": game_id})
    assert (ack["ok"], ack["error"], ack["path"]) == (False, "moved", f"/{owner}/socket.io")


def test_a_move_sent_to_another_process_is_sent_to_the_owner(cluster):
    black, white, game_id = seated_game(cluster)
    cluster.join(black, game_id)
    owner = owner_of(cluster.redis, game_id)
    other = cluster.servers[1] if owner == "p1" else cluster.servers[0]
    ack = other.connect(black, "/room").ask(
        "place_stone", {"game_id": game_id, "row": 7, "col": 7})
    assert (ack["error"], ack["path"]) == ("moved", f"/{owner}/socket.io")


def test_players_move_again_on_another_process_after_the_owner_is_killed(cluster):
    black, white, game_id = seated_game(cluster)
    b_room, w_room, _state, _paths = both_join(cluster, black, white, game_id)
    play((b_room, w_room), game_id, BLACK_FIVE[:4])
    owner = owner_of(cluster.redis, game_id)
    cluster.kill(owner)
    killed_at = time.monotonic()
    b_room, b_state, b_path = cluster.join(black, game_id)
    w_room, _w_state, _ = cluster.join(white, game_id)
    play((b_room, w_room), game_id, [BLACK_FIVE[4]], first=4)
    resumed = time.monotonic() - killed_at
    assert resumed < 10
    assert b_state["moves"] == [list(m) for m in BLACK_FIVE[:4]]
    assert owner_of(cluster.redis, game_id) not in (None, owner)
    assert not b_path.startswith(owner)
    play((b_room, w_room), game_id, BLACK_FIVE[5:], first=5)
    assert_won_by_five(cluster, black, w_room, game_id)


def test_a_game_goes_on_after_redis_restarts_empty(cluster):
    black, white, game_id = seated_game(cluster)
    b_room, w_room, _state, _paths = both_join(cluster, black, white, game_id)
    play((b_room, w_room), game_id, BLACK_FIVE[:4])
    cluster.redis.restart(down_seconds=3)
    # The pages' own recovery: join again, from the state the server holds.
    b_room, b_state, _ = cluster.join(black, game_id)
    w_room, _w_state, _ = cluster.join(white, game_id)
    assert b_state["moves"] == [list(m) for m in BLACK_FIVE[:4]]
    play((b_room, w_room), game_id, BLACK_FIVE[4:], first=4)
    assert_won_by_five(cluster, black, w_room, game_id)


def test_a_player_in_a_game_gets_no_second_one_after_redis_restarts_empty(cluster):
    black, white, game_id = seated_game(cluster)
    both_join(cluster, black, white, game_id)
    cluster.redis.restart()
    halls = {}
    for name, http in (("ann", black), ("cat", cluster.user("cat"))):
        halls[name], _hello = hall_when_admitted(cluster, http)
    assert emits_flow(halls["ann"], halls["cat"])
    ack = halls["ann"].ask("challenge", {"username": "cat", "ruleset": "freestyle"})
    if ack["ok"]:  # Redis forgot ann's game: the hall lets the challenge through
        received = halls["cat"].wait_for("challenge_received")
        ack = halls["cat"].ask("answer_challenge", {
            "challenge_id": received["challenge_id"], "accept": True})
        # cat is not in a game: told so without ann's game, which is not theirs
        assert "game_id" not in ack
    assert (ack["ok"], ack["error"]) == (False, "busy")
    assert unfinished_games(cluster) == [game_id]


def test_a_player_in_a_game_is_greeted_with_it_again_after_redis_restarts_empty(cluster):
    """The owner writes its games' players back into the emptied store with its next
    renewal of their leases, so the hall says where the game is and refuses a challenge."""
    black, white, game_id = seated_game(cluster)
    both_join(cluster, black, white, game_id)
    cluster.user("cat")
    cluster.redis.restart()
    deadline = time.monotonic() + 10
    hall, hello = hall_when_admitted(cluster, black)
    while hello["current_game"] != game_id:
        assert time.monotonic() < deadline, "the hall still greets ann as idle"
        hall.disconnect()
        hall, hello = hall_when_admitted(cluster, black)
    ack = hall.ask("challenge", {"username": "cat", "ruleset": "freestyle"})
    assert (ack["ok"], ack["error"], ack["game_id"]) == (False, "busy", game_id)


def hall_when_admitted(cluster, http, timeout: float = 10):
    """What the hall page does while Redis comes back: connect again until admitted. The
    connection and its `hello`."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            hall = cluster.connect(http, "/hall")
        except socketio.exceptions.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
            continue
        return hall, hall.wait_for("hello")


def emits_flow(sender, receiver, timeout: float = 15) -> bool:
    """Whether a hall chat line gets from one process to the other within `timeout`: the
    processes' message queue listens to Redis again after its restart."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sender.ask("chat", {"text": "here?"})
        try:
            receiver.wait_for("chat", timeout=1)
        except AssertionError:
            continue
        return True
    return False


def unfinished_games(cluster) -> list[int]:
    engine = create_engine(cluster.database_url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return list(connection.scalars(text(
                "SELECT id FROM games WHERE status != 'finished' ORDER BY id")))
    finally:
        engine.dispose()


def test_a_move_whose_broadcast_was_lost_while_redis_was_down_reaches_the_opponent(cluster):
    black, white, game_id = seated_game(cluster)
    b_room, w_room, _state, _paths = both_join(cluster, black, white, game_id)
    play((b_room, w_room), game_id, BLACK_FIVE[:4])
    for _ in range(4):
        w_room.wait_for("stone_placed")
    cluster.redis.stop()
    play((b_room, w_room), game_id, [BLACK_FIVE[4]], first=4)  # saved; its emit is lost
    cluster.redis.start()
    assert w_room.wait_for("stone_placed", timeout=10)["move"] == 5
