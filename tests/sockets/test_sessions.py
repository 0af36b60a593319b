"""Ended sessions lose their live connections: at once when the session ends in this server,
and at the latest on their next event when it ended elsewhere (the host's command line)."""

from __future__ import annotations

import pytest

from gobang.extensions import socketio
from tests.support.forms import login, logout, post_form

PASSWORD = "correct horse"
NEW_PASSWORD = "battery staple"


def change_password(http):
    return post_form(http, "/settings/password",
                     {"old": PASSWORD, "new": NEW_PASSWORD, "confirm": NEW_PASSWORD},
                     page="/settings")


def delete_account(http):
    return post_form(http, "/settings/delete", {"password": PASSWORD}, page="/settings")


@pytest.fixture
def laptop(app):
    """A second browser, logged in as the given player."""

    def make(player):
        http = app.test_client()
        assert login(http, player.name).status_code == 302
        return http

    return make


@pytest.mark.parametrize(("end", "reason"), [
    (change_password, "password_changed"),
    (delete_account, "account_deleted"),
    (logout, "logged_out"),
])
def test_ending_a_session_elsewhere_closes_the_live_connections(player, laptop, end, reason):
    alice = player("alice")
    hall, room = alice.hall, alice.room
    end(laptop(alice))
    assert not hall.is_connected("/hall")
    assert not room.is_connected("/room")
    assert ("session_ended", {"reason": reason}) in alice.events("/hall")


def test_after_a_password_change_the_old_session_cannot_reconnect(player, laptop, app):
    alice = player("alice")
    change_password(laptop(alice))
    for namespace in ("/hall", "/room"):
        again = socketio.test_client(app, namespace=namespace, flask_test_client=alice.http)
        assert not again.is_connected(namespace)


def test_the_session_that_changed_the_password_connects_again(player, app):
    alice = player("alice")
    alice.join_hall()
    change_password(alice.http)
    again = socketio.test_client(app, namespace="/hall", flask_test_client=alice.http)
    assert again.is_connected("/hall")
    again.disconnect("/hall")


def test_a_deleted_player_can_no_longer_move_and_the_opponent_is_told(game_between, laptop):
    black, white, game_id = game_between()
    room = black.room
    delete_account(laptop(black))
    assert not room.is_connected("/room")
    left = white.received("/room", "opponent_left")
    assert [(e["game_id"], e["color"]) for e in left] == [(game_id, "black")]


def test_a_connection_whose_session_ended_elsewhere_is_refused_and_closed(game_between, app):
    """The host's reset-password runs in another process: until the server polls for its
    disconnect command, the connection's next event finds the session over."""
    black, white, game_id = game_between()
    result = app.test_cli_runner().invoke(
        args=["reset-password", black.name, "--wait", "0"], input=f"{NEW_PASSWORD}\n" * 2)
    assert result.exit_code == 0, result.output
    room = black.room
    ack = black.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7})
    assert ack["ok"] is False
    assert ack["error"] == "unauthorized"
    assert not room.is_connected("/room")
    assert white.received("/room", "stone_placed") == []


@pytest.mark.parametrize("event", ["offer_draw", "resign", "request_undo", "rematch"])
def test_no_room_event_gets_through_a_session_ended_elsewhere(game_between, app, event):
    black, white, game_id = game_between()
    app.test_cli_runner().invoke(args=["reset-password", black.name, "--wait", "0"],
                                 input=f"{NEW_PASSWORD}\n" * 2)
    ack = black.emit("/room", event, {"game_id": game_id})
    assert ack["error"] == "unauthorized"
    # Only the closed connection shows: no offer, no result.
    assert [name for name, _ in white.events("/room")] == ["opponent_left"]


def test_a_hall_event_from_a_session_ended_elsewhere_is_refused(player, app):
    alice = player("alice")
    hall = alice.hall
    app.test_cli_runner().invoke(args=["reset-password", "alice", "--wait", "0"],
                                 input=f"{NEW_PASSWORD}\n" * 2)
    ack = alice.emit("/hall", "chat", {"text": "still here?"})
    assert ack["error"] == "unauthorized"
    assert not hall.is_connected("/hall")
    assert ("session_ended", {"reason": "ended_elsewhere"}) in alice.events("/hall")


def test_a_silent_connection_is_closed_on_the_server_s_next_poll_after_a_reset(
        player, app, clock, tick):
    alice = player("alice")
    hall, room = alice.hall, alice.room
    app.test_cli_runner().invoke(args=["reset-password", "alice", "--wait", "0"],
                                 input=f"{NEW_PASSWORD}\n" * 2)
    clock.advance(1.0)  # ADMIN_POLL_SECONDS
    tick()
    assert not hall.is_connected("/hall")
    assert not room.is_connected("/room")
