"""Reports and the moderators' pages, over HTTP (docs/moderation.md)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gobang.extensions import db
from gobang.models import AdminCommand, ModerationEntry, Report, User
from tests.support.forms import post_form, register
from tests.support.games import add_user, set_columns, start_game, user_id


@pytest.fixture
def reporter(app, client):
    """alice logged in; bob a player she may report."""
    register(client, "alice")
    add_user(app, "bob")
    return client


@pytest.fixture
def moderator(app, client):
    """mia, a moderator, logged in; bob a player; a report of bob by carl waiting."""
    register(client, "mia")
    set_columns(app, "mia", moderator=True)
    bob, carl = add_user(app, "bob"), add_user(app, "carl")
    with app.app_context():
        db.session.add(Report(reporter_id=carl, target_id=bob, reason="abuse",
                              chat_text="you are bad"))
        db.session.commit()
    return client


def report(client, **fields):
    return post_form(client, "/report", {"reason": "abuse", **fields},
                     page="/report?username=bob")


def reports(app) -> list[tuple[str, int | None, str | None, str]]:
    with app.app_context():
        rows = db.session.scalars(select(Report).order_by(Report.id)).all()
        return [(row.target.username, row.game_id, row.chat_text, row.reason) for row in rows]


def test_a_player_reports_a_player(app, reporter):
    response = report(reporter, username="bob", note="insults in chat")
    assert response.status_code == 302
    assert reports(app) == [("bob", None, None, "abuse")]


def test_a_player_reports_their_opponent_in_a_game(app, reporter):
    game_id = start_game(app, user_id(app, "alice"), user_id(app, "bob"))
    report(reporter, game_id=str(game_id), reason="cheating")
    assert reports(app) == [("bob", game_id, None, "cheating")]


def test_a_player_reports_a_chat_line(app, reporter):
    report(reporter, username="bob", chat_text="you are bad")
    assert reports(app) == [("bob", None, "you are bad", "abuse")]


@pytest.mark.parametrize(("fields", "message"), [
    ({"username": "alice"}, "You cannot report yourself."),
    ({"username": "nobody"}, "There is no such player."),
    ({"username": "bob", "reason": "boring"}, "Reason must be one of"),
    ({}, "Name the player you report."),
    ({"username": "bob", "note": "x" * 501}, "at most 500 characters"),
])
def test_a_report_the_site_cannot_take_is_refused_with_a_message(app, reporter, fields,
                                                                 message):
    response = report(reporter, **fields)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    assert reports(app) == []


@pytest.mark.parametrize("app_overrides", [{"REPORTS_PER_HOUR": 2}])
def test_reports_are_limited_per_player(app, reporter):
    statuses = [report(reporter, username="bob").status_code for _ in range(3)]
    assert statuses == [302, 302, 400] and len(reports(app)) == 2


MODERATOR_PAGES = [
    ("get", "/moderation"), ("get", "/moderation/log"), ("get", "/moderation/players/bob"),
    ("post", "/moderation/reports/1/resolve"), ("post", "/moderation/players/bob/ban"),
    ("post", "/moderation/players/bob/mute"), ("post", "/moderation/games/1/abort"),
]


@pytest.mark.parametrize(("method", "path"), MODERATOR_PAGES)
def test_the_moderation_pages_refuse_a_player_who_is_not_a_moderator(app, reporter, method,
                                                                     path):
    if method == "get":
        response = reporter.get(path)
    else:
        response = post_form(reporter, path, {"reason": "x"}, page="/report")
    assert response.status_code == 403
    with app.app_context():
        assert db.session.scalar(select(ModerationEntry.id)) is None
        assert not db.session.scalar(select(User.banned).where(User.username == "bob"))


@pytest.mark.parametrize("path", ["/moderation", "/moderation/log"])
def test_the_moderation_pages_send_a_visitor_to_log_in(app, path):
    response = app.test_client().get(path)
    assert response.status_code == 302 and "/login" in response.headers["Location"]


def log_of(app) -> list[tuple[str, str, str]]:
    with app.app_context():
        rows = db.session.scalars(select(ModerationEntry).order_by(ModerationEntry.id)).all()
        return [(row.moderator.username, row.action, row.reason) for row in rows]


def test_the_queue_shows_a_waiting_report(moderator):
    page = moderator.get("/moderation").get_data(as_text=True)
    assert "bob" in page and "you are bad" in page and "carl" in page


def test_settling_a_report_takes_it_off_the_queue_and_is_logged(app, moderator):
    post_form(moderator, "/moderation/reports/1/resolve", {"reason": "warned"},
              page="/moderation")
    assert "No report is waiting." in moderator.get("/moderation").get_data(as_text=True)
    assert log_of(app) == [("mia", "resolve_report", "warned")]


def test_an_action_without_a_reason_is_refused_and_nothing_changes(app, moderator):
    post_form(moderator, "/moderation/players/bob/ban", {"reason": " "}, page="/moderation")
    with app.app_context():
        assert not db.session.scalar(select(User.banned).where(User.username == "bob"))
    assert log_of(app) == []


def test_a_mute_holds_for_its_minutes_and_is_logged(app, moderator):
    post_form(moderator, "/moderation/players/bob/mute", {"minutes": "30", "reason": "spam"},
              page="/moderation")
    with app.app_context():
        until = db.session.scalar(select(User.muted_until).where(User.username == "bob"))
        entry = db.session.scalar(select(ModerationEntry))
        assert (until - entry.created_at).total_seconds() == 30 * 60
    assert log_of(app) == [("mia", "mute", "30 min: spam")]


def test_a_ban_locks_the_player_out_and_asks_the_server_to_disconnect_them(app, moderator):
    post_form(moderator, "/moderation/players/bob/ban", {"reason": "abuse"}, page="/moderation")
    with app.app_context():
        bob = db.session.scalar(select(User).where(User.username == "bob"))
        kinds = db.session.scalars(select(AdminCommand.kind)).all()
        assert bob.banned and kinds == ["disconnect_user"]
    assert log_of(app) == [("mia", "ban", "abuse")]


def test_a_moderator_cannot_act_on_another_moderator(app, moderator):
    set_columns(app, "bob", moderator=True)
    response = post_form(moderator, "/moderation/players/bob/ban", {"reason": "x"},
                         page="/moderation")
    assert response.status_code == 302 and log_of(app) == []


def test_a_game_in_play_is_aborted_through_the_servers_commands(app, moderator):
    game_id = start_game(app, user_id(app, "bob"), user_id(app, "carl"))
    post_form(moderator, f"/moderation/games/{game_id}/abort", {"reason": "stuck"},
              page="/moderation")
    with app.app_context():
        assert db.session.scalars(select(AdminCommand.target_id)).all() == [game_id]
    assert log_of(app) == [("mia", "abort_game", "stuck")]


@pytest.mark.parametrize("method", ["post", "put", "delete", "patch"])
def test_the_moderation_log_cannot_be_changed_through_the_site(app, moderator, method):
    post_form(moderator, "/moderation/reports/1/resolve", {"reason": "warned"},
              page="/moderation")
    response = getattr(moderator, method)("/moderation/log")
    assert response.status_code in (400, 405)  # 400: a POST without its CSRF token
    assert log_of(app) == [("mia", "resolve_report", "warned")]


def test_the_log_page_lists_every_action(app, moderator):
    post_form(moderator, "/moderation/reports/1/resolve", {"reason": "warned"},
              page="/moderation")
    page = moderator.get("/moderation/log").get_data(as_text=True)
    assert "resolve_report" in page and "warned" in page
