"""/metrics counts what happens: connections, the queue, games, moves and endings."""

from __future__ import annotations

from gobang.extensions import socketio
from gobang.transport.fanout import SLICE
from tests.support.prometheus import sample

FIVE = [(7, 3), (0, 0), (7, 4), (0, 1), (7, 5), (0, 2), (7, 6), (0, 3), (7, 7)]


def metrics(app) -> str:
    return app.test_client().get("/metrics").get_data(as_text=True)


def test_connections_and_queue_are_gauges(app, player):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    bob.join_hall()
    bob.room  # noqa: B018 - connects
    assert alice.emit("/hall", "start_match", {})["ok"]
    text = metrics(app)
    assert sample(text, "gobang_connected_users", namespace="/hall") == 2
    assert sample(text, "gobang_connected_users", namespace="/room") == 1
    assert sample(text, "gobang_queued_players") == 1


def test_live_games_are_counted_by_status(app, game_between):
    game_between()
    assert sample(metrics(app), "gobang_live_games", status="playing") == 1


def test_moves_endings_and_save_times_are_counted(app, game_between):
    black, white, game_id = game_between()
    for index, (row, col) in enumerate(FIVE):
        mover = black if index % 2 == 0 else white
        assert mover.emit("/room", "place_stone", {"game_id": game_id, "row": row, "col": col})[
            "ok"]
    text = metrics(app)
    assert sample(text, "gobang_moves_total") == len(FIVE)
    assert sample(text, "gobang_game_ends_total", reason="five") == 1
    assert sample(text, "gobang_game_ends_total", reason="resign") == 0
    assert sample(text, "gobang_move_save_seconds_count") == len(FIVE)
    assert sample(text, "gobang_move_save_seconds_bucket", le="+Inf") == len(FIVE)
    assert sample(text, "gobang_move_save_seconds_sum") > 0
    assert sample(text, "gobang_live_games", status="playing") == 0


def test_a_broadcast_the_server_could_not_deliver_is_counted_in_metrics(app, monkeypatch):
    server = socketio.server
    crowd = SLICE + 1  # paced, through the app's own manager
    for n in range(crowd):
        server.manager.basic_enter_room(f"s{n}", "/hall", None, eio_sid=f"e{n}")

    def refuse(eio_sid, eio_pkt):
        raise OSError("connection reset")

    monkeypatch.setattr(server, "_send_eio_packet", refuse)
    server.emit("chat_message", {"text": "hi"}, namespace="/hall")
    assert sample(metrics(app), "gobang_emit_failures_total", where="broadcast") == crowd
