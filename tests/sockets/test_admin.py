"""The host's commands reach the running server: bans, aborts and maintenance mode.

The commands run through Flask's CLI runner with `--wait 0`; the server side is the same
app's ticker, run by hand (`tick`) after the fake clock has passed the poll interval.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from gobang.extensions import db, socketio
from gobang.models import AdminCommand, utcnow
from gobang.services.admin import ABORT, queue_command
from tests.support.forms import login

POLL = 1.0  # ADMIN_POLL_SECONDS
WAITING_COMMANDS = {"ban", "abort-game", "maintenance"}


@pytest.fixture
def host(app, clock, tick):
    """Run a host command, then let the server poll for it."""

    def run(*args: str) -> str:
        if args[0] in WAITING_COMMANDS:
            args = (*args, "--wait", "0")  # the server is this very app: nothing to wait for
        result = app.test_cli_runner().invoke(args=list(args))
        assert result.exit_code == 0, result.output
        clock.advance(POLL)
        tick()
        return result.output

    return run


def scores(player) -> tuple[int, int]:
    me = player.http.get("/api/me").get_json()
    return me["score"], me["games"]


def test_banned_user_is_disconnected_from_hall_and_room_at_once(player, host):
    alice = player("alice")
    hall, room = alice.hall, alice.room
    host("ban", "alice")
    assert not hall.is_connected("/hall")
    assert not room.is_connected("/room")
    assert ("session_ended", {"reason": "banned"}) in alice.events("/hall")


def test_a_user_banned_while_only_on_another_page_is_disconnected(player, host, app):
    page = socketio.test_client(app, namespace="/site", flask_test_client=player("alice").http)
    assert page.is_connected("/site")
    host("ban", "alice")
    assert not page.is_connected("/site")


def test_banned_user_cannot_come_back(player, host, app):
    alice = player("alice")
    alice.join_hall()
    host("ban", "alice")
    again = socketio.test_client(app, namespace="/hall", flask_test_client=alice.http)
    assert not again.is_connected("/hall")
    assert alice.http.get("/api/me").status_code == 401


def test_others_see_the_banned_user_leave(player, host, next_update):
    alice, bob = player("alice"), player("bob")
    alice_id = alice.id  # asked before the ban: afterwards alice is logged out
    alice.join_hall()
    bob.join_hall()
    next_update()
    bob.received("/hall")
    host("ban", "alice")
    next_update()
    assert [u["players"]["removed"] for u in bob.received("/hall", "hall_update")] == [
        [alice_id]]


def test_banned_player_leaving_a_game_gives_the_opponent_the_grace_period(game_between, host):
    black, white, game_id = game_between()
    host("ban", black.name)
    left = white.received("/room", "opponent_left")
    assert [(e["game_id"], e["color"]) for e in left] == [(game_id, "black")]


def test_unbanned_user_can_log_in_again(player, host, app):
    player("alice")
    host("ban", "alice")
    host("unban", "alice")
    fresh = app.test_client()
    assert login(fresh, "alice").status_code == 302


def test_abort_ends_the_game_without_score_change(game_between, host):
    black, white, game_id = game_between()
    assert black.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7})["ok"]
    host("abort-game", str(game_id))
    over = white.received("/room", "game_over")
    assert [o["result"]["reason"] for o in over] == ["aborted"]
    assert over[0]["result"]["winner"] is None
    assert over[0]["result"]["abort"] == {"cause": "host", "color": None, "seconds": None}
    assert scores(black) == scores(white) == (1000, 0)


def test_aborted_game_leaves_the_live_list(game_between, host, player, next_update):
    black, white, game_id = game_between()
    watcher = player("watcher")
    watcher.join_hall()
    next_update()
    watcher.received("/hall")
    host("abort-game", str(game_id))
    next_update()
    assert watcher.received("/hall", "hall_update")[-1]["games"] == {"set": [],
                                                                      "removed": [game_id]}


def test_commands_wait_for_the_poll_interval(app, game_between, clock, tick):
    black, white, game_id = game_between()
    tick()  # the poll of this moment: the next one is a full interval away
    result = app.test_cli_runner().invoke(args=["abort-game", str(game_id), "--wait", "0"])
    assert result.exit_code == 0
    clock.advance(POLL / 2)
    tick()
    assert white.received("/room", "game_over") == []
    clock.advance(POLL / 2)
    tick()
    assert [o["result"]["reason"] for o in white.received("/room", "game_over")] == ["aborted"]


def test_maintenance_is_announced_to_the_hall(player, host):
    alice = player("alice")
    alice.join_hall()
    alice.received("/hall")
    host("maintenance", "on")
    [notice] = alice.received("/hall", "maintenance")
    assert notice["on"] is True
    assert "maintenance" in notice["message"]
    host("maintenance", "off")
    assert [n["on"] for n in alice.received("/hall", "maintenance")] == [False]


@pytest.mark.parametrize("on", [True, False])
def test_hello_says_whether_maintenance_is_on(player, host, on):
    host("maintenance", "on" if on else "off")
    alice = player("alice")
    alice.join_hall()
    assert alice.received("/hall", "hello")[0]["maintenance"] is on


@pytest.mark.parametrize(
    ("event", "payload"),
    [("start_match", {}), ("challenge", {"username": "bob"})],
)
def test_new_games_are_refused_during_maintenance(player, host, event, payload):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    bob.join_hall()
    host("maintenance", "on")
    ack = alice.emit("/hall", event, payload)
    assert (ack["ok"], ack["error"]) == (False, "conflict")
    assert "maintenance" in ack["message"]


def test_accepting_a_challenge_is_refused_during_maintenance(player, host, app):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    bob.join_hall()
    challenge_id = alice.emit("/hall", "challenge", {"username": "bob"})["challenge_id"]
    host("maintenance", "on")
    assert bob.received("/hall", "challenge_cancelled") == [{"challenge_id": challenge_id}]
    ack = bob.emit("/hall", "answer_challenge", {"challenge_id": challenge_id, "accept": True})
    assert ack["ok"] is False


def test_maintenance_empties_the_match_queue(player, host, tick, next_update):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    assert alice.emit("/hall", "start_match", {})["ok"]
    host("maintenance", "on")
    bob.join_hall()
    assert bob.emit("/hall", "cancel_match", {})["ok"]
    tick()
    told = alice.events("/hall")
    assert "match_found" not in [name for name, _payload in told]
    assert [payload["status"] for name, payload in told if name == "me"][-1] == "idle"
    next_update()
    view = bob.emit("/hall", "hall_view")["view"]
    assert {u["username"]: u["status"] for u in view["players"]}["alice"] == "idle"


def test_game_in_play_finishes_normally_during_maintenance(game_between, host):
    black, white, game_id = game_between()
    host("maintenance", "on")
    moves = [(7, 3), (0, 0), (7, 4), (0, 1), (7, 5), (0, 2), (7, 6), (0, 3), (7, 7)]
    for index, (row, col) in enumerate(moves):
        mover = black if index % 2 == 0 else white
        assert mover.emit("/room", "place_stone", {"game_id": game_id, "row": row, "col": col})[
            "ok"]
    [over] = white.received("/room", "game_over")
    assert (over["result"]["winner"], over["result"]["reason"]) == ("black", "five")


def test_rematch_is_refused_during_maintenance(game_between, host):
    black, white, game_id = game_between()
    assert black.emit("/room", "resign", {"game_id": game_id})["ok"]
    host("maintenance", "on")
    ack = white.emit("/room", "rematch", {"game_id": game_id})
    assert (ack["ok"], ack["error"]) == (False, "conflict")


def test_matching_resumes_after_maintenance(player, host, tick):
    alice, bob = player("alice"), player("bob")
    host("maintenance", "on")
    host("maintenance", "off")
    for each in (alice, bob):
        assert each.emit("/hall", "start_match", {})["ok"]
    tick()
    assert len(alice.received("/hall", "match_found")) == 1


def outcome_of_the_last_command(app) -> str | None:
    with app.app_context():
        return db.session.scalar(select(AdminCommand.outcome).order_by(AdminCommand.id.desc()))


def test_an_abort_of_a_game_nobody_plays_is_answered_two_polls_after_it_was_asked(
        app, clock, tick):
    """The process playing a game lets its lease go as it aborts, before it writes the
    outcome: a leader answering at once could say "no game in play" in between."""
    with app.app_context():
        queue_command(ABORT, 999)
    clock.advance(POLL)
    tick()
    assert outcome_of_the_last_command(app) is None
    with app.app_context():
        db.session.execute(update(AdminCommand).values(
            created_at=utcnow() - timedelta(seconds=2 * POLL)))
        db.session.commit()
    clock.advance(POLL)
    tick()
    assert outcome_of_the_last_command(app) == "No game in play has that id"
