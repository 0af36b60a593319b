"""Pages, API endpoints, error pages and security headers over HTTP."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gobang.extensions import db
from gobang.models import User
from tests.support.forms import login, logout, post_form, register


@pytest.mark.parametrize("path", ["/hall", "/computer", "/settings"])
def test_pages_need_login(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response.headers["Location"] == f"/login?next={path}"


def test_root_shows_visitors_the_front_page_and_sends_players_to_hall(client):
    assert client.get("/").status_code == 200  # tests/http/test_front_page.py says what is on it
    register(client, "alice")
    assert client.get("/").headers["Location"] == "/hall"


def test_hall_shows_name_and_stats(client):
    register(client, "alice")
    page = client.get("/hall").get_data(as_text=True)
    assert 'data-testid="me-username">alice<' in page
    assert 'data-testid="me-score">1000<' in page
    assert 'data-testid="logout"' in page


def test_api_me_needs_login(client):
    response = client.get("/api/me")
    assert response.status_code == 401
    assert response.get_json() == {"error": "unauthorized"}


def test_healthz(client):
    response = client.get("/healthz")
    assert (response.status_code, response.get_json()) == (200, {"status": "ok"})


def test_unknown_game_record_is_404(client):
    assert client.get("/api/games/12345").status_code == 404


def test_unknown_game_page_is_404(client):
    register(client, "alice")
    assert client.get("/game/12345").status_code == 404


def test_unknown_page_is_a_readable_404(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert "Page not found" in response.get_data(as_text=True)


def test_server_error_is_a_readable_500(app, client):
    @app.route("/boom")
    def boom():
        raise RuntimeError("boom")

    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = client.get("/boom")
    assert response.status_code == 500
    page = response.get_data(as_text=True)
    assert "Something went wrong" in page
    assert "Traceback" not in page


@pytest.mark.parametrize("path", ["/login", "/healthz"])
def test_security_headers(client, path):
    headers = client.get(path).headers
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert "unsafe-inline" not in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"


def test_pages_have_no_inline_scripts(client):
    register(client, "alice")
    for path in ("/login", "/hall", "/settings"):
        page = client.get(path).get_data(as_text=True)
        assert "<script>" not in page
        assert " onclick=" not in page
        assert " style=" not in page


def test_change_password_needs_the_old_one(client):
    register(client, "alice")
    data = {"old": "wrong password", "new": "new password 1", "confirm": "new password 1"}
    response = post_form(client, "/settings/password", data, page="/settings")
    assert "The current password is wrong." in response.get_data(as_text=True)
    logout(client)
    assert login(client, "alice", "correct horse").status_code == 302


@pytest.mark.parametrize(
    ("new", "confirm", "message"),
    [("short", "short", "at least 8"), ("long enough", "different!", "do not match")],
)
def test_change_password_validates_the_new_one(client, new, confirm, message):
    register(client, "alice")
    data = {"old": "correct horse", "new": new, "confirm": confirm}
    response = post_form(client, "/settings/password", data, page="/settings")
    assert message in response.get_data(as_text=True)


def test_change_password_works(client):
    register(client, "alice")
    data = {"old": "correct horse", "new": "new password 1", "confirm": "new password 1"}
    response = post_form(client, "/settings/password", data, page="/settings")
    assert response.status_code == 302
    logout(client)
    assert login(client, "alice", "correct horse").status_code == 200
    assert login(client, "alice", "new password 1").status_code == 302


def test_delete_account_needs_the_password(client, app):
    register(client, "alice")
    response = post_form(client, "/settings/delete", {"password": "nope nope"}, page="/settings")
    assert "The password is wrong." in response.get_data(as_text=True)
    assert client.get("/api/me").status_code == 200


def test_delete_account_frees_the_name_and_keeps_a_placeholder(client, app):
    register(client, "alice")
    response = post_form(client, "/settings/delete", {"password": "correct horse"},
                         page="/settings")
    assert response.headers["Location"] == "/login"
    assert client.get("/api/me").status_code == 401
    assert login(client, "alice").status_code == 200
    with app.app_context():
        user = db.session.scalar(select(User))
        assert (user.username, user.deleted, user.password_hash) == ("deleted user", True, "")
    assert register(client, "alice").status_code == 302


def test_weaker_hash_is_upgraded_on_login(client, app):
    from werkzeug.security import generate_password_hash

    register(client, "alice")
    logout(client)
    with app.app_context():
        user = db.session.scalar(select(User))
        user.password_hash = generate_password_hash("correct horse", method="pbkdf2:sha256")
        db.session.commit()
    assert login(client, "alice").status_code == 302
    with app.app_context():
        assert db.session.scalar(select(User.password_hash)).startswith("$argon2id$")


def test_hall_shows_the_top_ten_and_my_rank(client, app):
    from gobang.models import User

    register(client, "alice")
    with app.app_context():
        db.session.add_all(User(username=f"p{i}", username_key=f"p{i}", password_hash="x",
                                score=1100 + i, games=5) for i in range(12))
        user = db.session.scalar(select(User).where(User.username == "alice"))
        user.score, user.games = 1105, 6
        db.session.commit()
    page = client.get("/hall").get_data(as_text=True)
    assert page.count('data-testid="top10-row"') == 10
    assert "Your rank: <strong>7</strong>" in page


def test_room_page_links_to_the_replay(client, app):
    from gobang.models import Game

    register(client, "alice")
    with app.app_context():
        db.session.add(Game(black_id=1, white_id=1, status="finished"))
        db.session.commit()
    assert 'href="/game/1/replay"' in client.get("/game/1").get_data(as_text=True)
