"""Ended sessions lose their live connections: at once when the session ends in this server;
when the host's command line ends it, on the server's next poll, or before that on the first
event that loads the user."""

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


def as_viewer(app, http):
    """A /room connection of an ended session: /room admits it as it admits any visitor, as
    a viewer, who is nobody and may only watch (docs/protocol.md, "Visitors and guests")."""
    return socketio.test_client(app, namespace="/room", flask_test_client=http)


def test_after_a_password_change_the_old_session_cannot_reconnect(player, laptop, app):
    alice = player("alice")
    change_password(laptop(alice))
    again = socketio.test_client(app, namespace="/hall", flask_test_client=alice.http)
    assert not again.is_connected("/hall")
    answer = as_viewer(app, alice.http).emit("rematch", {"game_id": 1}, namespace="/room",
                                             callback=True)
    assert (answer["error"], answer["message"]) == (
        "unauthorized", "Visitors can only watch. Log in, or play the computer as a guest.")


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


def reset_password(app, name: str) -> None:
    """The host's command runs in another process: the server hears of it on its next poll."""
    result = app.test_cli_runner().invoke(
        args=["reset-password", name, "--wait", "0"], input=f"{NEW_PASSWORD}\n" * 2)
    assert result.exit_code == 0, result.output


def test_a_room_event_from_a_session_ended_elsewhere_is_refused_and_closes_it(game_between,
                                                                             app):
    black, white, game_id = game_between()
    reset_password(app, black.name)
    room = black.room
    ack = black.emit("/room", "chat", {"game_id": game_id, "text": "still here?"})
    assert ack["ok"] is False
    assert ack["error"] == "unauthorized"
    assert not room.is_connected("/room")
    assert [name for name, _ in white.events("/room")] == ["opponent_left"]


@pytest.mark.parametrize(("event", "payload"), [
    ("start_match", {}),
    ("challenge", {"username": "bob"}),
    ("chat", {"text": "still here?"}),
])
def test_a_hall_event_from_a_session_ended_elsewhere_is_refused(player, app, event, payload):
    alice, bob = player("alice"), player("bob")
    hall = alice.hall
    bob.join_hall()
    bob.received("/hall")
    reset_password(app, "alice")
    ack = alice.emit("/hall", event, payload)
    assert ack["error"] == "unauthorized"
    assert not hall.is_connected("/hall")
    assert ("session_ended", {"reason": "ended_elsewhere"}) in alice.events("/hall")
    assert [name for name, _ in bob.events("/hall")
            if name in ("challenge_received", "chat")] == []


def test_a_silent_connection_is_closed_on_the_server_s_next_poll_after_a_reset(
        game_between, app, clock, tick):
    """Game actions do not read the user (a database read per move): a player whose session
    the host ended is closed by the poll, and cannot move after it."""
    black, white, game_id = game_between()
    hall, room = black.hall, black.room
    reset_password(app, black.name)
    clock.advance(1.0)  # ADMIN_POLL_SECONDS
    tick()
    assert not hall.is_connected("/hall")
    assert not room.is_connected("/room")
    again = as_viewer(app, black.http)
    again.emit("join_game", {"game_id": game_id}, namespace="/room", callback=True)
    move = {"game_id": game_id, "row": 7, "col": 7}
    assert again.emit("place_stone", move, namespace="/room", callback=True)["error"] == (
        "unauthorized")
    assert white.emit("/room", "join_game", {"game_id": game_id})["state"]["moves"] == []
