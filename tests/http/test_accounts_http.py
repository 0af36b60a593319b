"""Registration, login, logout and account settings over HTTP."""

from __future__ import annotations

import pytest
from markupsafe import escape
from sqlalchemy import func, select

from gobang.extensions import db
from gobang.models import User
from gobang.services.accounts.passwords import Passwords
from tests.support.forms import csrf_token, login, logout, post_form, register


def user_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(User.id)))


def test_register_creates_user_logs_in_and_redirects_to_hall(client, app):
    response = register(client, "alice")
    assert response.status_code == 302
    assert response.headers["Location"] == "/hall"
    me = client.get("/api/me").get_json()
    assert me == {"id": me["id"], "username": "alice", "score": 1000, "games": 0, "wins": 0,
                  "losses": 0, "draws": 0, "ratings": {}, "guest": False}
    assert user_count(app) == 1


def test_password_is_stored_as_argon2id_hash(client, app):
    register(client, "alice", "correct horse")
    with app.app_context():
        stored = db.session.scalar(select(User.password_hash))
    assert stored.startswith("$argon2id$")
    assert "correct horse" not in stored


@pytest.mark.parametrize(
    ("username", "password", "confirm", "message"),
    [
        ("", "correct horse", "correct horse", "Choose a username."),
        ("bob", "", "", "Choose a password."),
        ("ab", "correct horse", "correct horse", "Username must be 3 to 20 characters long."),
        ("a" * 21, "correct horse", "correct horse", "Username must be 3 to 20 characters long."),
        ("bob smith", "correct horse", "correct horse", "may contain only letters"),
        ("bob<b>", "correct horse", "correct horse", "may contain only letters"),
        ("bob", "short", "short", "Password must be at least 8 characters long."),
        ("bob", "correct horse", "correct horsf", "The two passwords do not match."),
        ("bob", "x" * 1025, "x" * 1025, "Password must be at most 1024 characters long."),
    ],
)
def test_register_rejects_bad_input_with_message_and_creates_nothing(
    client, app, username, password, confirm, message
):
    response = post_form(
        client, "/register", {"username": username, "password": password, "confirm": confirm}
    )
    assert response.status_code == 200
    assert message in response.get_data(as_text=True)
    assert user_count(app) == 0


@pytest.mark.parametrize("taken", ["ALICE", "Alice", "alice"])
def test_register_refuses_a_name_taken_in_another_case(client, app, taken):
    register(client, "alice")
    logout(client)
    response = register(client, taken)
    assert response.status_code == 200
    assert "That username is taken." in response.get_data(as_text=True)
    assert user_count(app) == 1


@pytest.mark.parametrize("name", ["李小龍", "Ünal_99", "ab-c", "игрок"])
def test_register_accepts_letters_of_any_script(client, name):
    assert register(client, name).status_code == 302


@pytest.mark.parametrize("path", ["/register", "/login"])
def test_form_without_csrf_token_gets_clear_message_and_changes_nothing(client, app, path):
    data = {"username": "alice", "password": "correct horse", "confirm": "correct horse"}
    response = client.post(path, data=data)
    assert response.status_code == 200
    assert "security token" in response.get_data(as_text=True)
    assert user_count(app) == 0


def test_logout_without_csrf_token_is_refused(client):
    register(client, "alice")
    response = client.post("/logout")
    assert response.status_code == 400
    assert client.get("/api/me").status_code == 200


def test_login_with_right_password_redirects_to_hall(client):
    register(client, "alice")
    logout(client)
    response = login(client, "Alice")
    assert response.status_code == 302
    assert response.headers["Location"] == "/hall"


@pytest.mark.parametrize(("username", "password"), [("alice", "wrong password"),
                                                    ("nobody", "correct horse")])
def test_login_failure_has_one_generic_message(client, username, password):
    register(client, "alice")
    logout(client)
    response = login(client, username, password)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Wrong username or password." in page
    assert client.get("/api/me").status_code == 401


@pytest.mark.parametrize(
    ("next_param", "location"),
    [
        ("/game/7", "/game/7"),
        ("/hall?x=1", "/hall?x=1"),
        ("https://evil.example/", "/hall"),
        ("//evil.example/", "/hall"),
        ("/\\evil.example", "/hall"),
        ("javascript:alert(1)", "/hall"),
        ("hall", "/hall"),
    ],
)
def test_login_next_only_redirects_within_the_site(client, next_param, location):
    register(client, "alice")
    logout(client)
    response = post_form(
        client, "/login", {"username": "alice", "password": "correct horse"},
        page="/login", query_string={"next": next_param},
    )
    assert response.headers["Location"] == location


def test_logout_ends_session_and_redirects_to_login(client):
    register(client, "alice")
    response = logout(client)
    assert response.status_code == 302
    assert response.headers["Location"] == "/login"
    assert client.get("/api/me").status_code == 401


def test_login_starts_a_fresh_session(client):
    client.get("/login")
    with client.session_transaction() as before:
        before["planted"] = "by an attacker"
    register(client, "alice")
    with client.session_transaction() as after:
        assert "planted" not in after


def test_session_cookie_is_httponly_and_samesite_lax(client):
    response = register(client, "alice")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Secure" not in cookie


@pytest.mark.parametrize("app_overrides", [{"SESSION_COOKIE_SECURE": True}])
def test_session_cookie_is_secure_when_configured(client):
    cookie = register(client, "alice").headers["Set-Cookie"]
    assert "Secure" in cookie


@pytest.mark.parametrize("app_overrides", [{"AUTH_ATTEMPTS_PER_MINUTE": 3}])
def test_login_attempts_are_rate_limited_per_address(client):
    token = csrf_token(client, "/login")
    data = {"csrf_token": token, "username": "x", "password": "y"}
    codes = [client.post("/login", data=data).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert "Too many attempts" in client.post("/login", data=data).get_data(as_text=True)
    other = client.post("/login", data=data, environ_base={"REMOTE_ADDR": "10.9.9.9"})
    assert other.status_code == 200


@pytest.mark.parametrize("app_overrides", [{"AUTH_ATTEMPTS_PER_MINUTE": 1,
                                            "RATELIMIT_ENABLED": False}])
def test_rate_limit_can_be_turned_off(client):
    token = csrf_token(client, "/login")
    data = {"csrf_token": token, "username": "x", "password": "y"}
    assert [client.post("/login", data=data).status_code for _ in range(3)] == [200] * 3


@pytest.mark.parametrize("app_overrides", [{"INITIAL_SCORE": 1500}])
def test_new_players_start_at_the_configured_score(client):
    register(client, "alice")
    assert client.get("/api/me").get_json()["score"] == 1500


SHORT_NAME = "Username must be 3 to 20 characters long."
BAD_CHARS = "Username may contain only letters, digits, '_' and '-'."
SHORT_PASSWORD = "Password must be at least 8 characters long."
MISMATCH = "The two passwords do not match."
TAKEN = "That username is taken."


@pytest.mark.parametrize(
    ("username", "password", "confirm", "messages"),
    [
        ("ab", "short", "shorx", [SHORT_NAME, SHORT_PASSWORD, MISMATCH]),
        ("", "short", "", ["Choose a username.", SHORT_PASSWORD, "Repeat the password."]),
        ("bob smith", "", "", [BAD_CHARS, "Choose a password.", "Repeat the password."]),
        ("ab", "correct horse", "correct horsf", [SHORT_NAME, MISMATCH]),
        ("alice", "short", "short", [TAKEN, SHORT_PASSWORD]),
        ("ALICE", "correct horse", "other horse", [TAKEN, MISMATCH]),
    ],
)
def test_register_shows_every_problem_at_once(client, app, username, password, confirm,
                                              messages):
    register(client, "alice")
    logout(client)
    response = post_form(
        client, "/register", {"username": username, "password": password, "confirm": confirm}
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert [m for m in messages if escape(m) not in page] == []
    assert user_count(app) == 1


def test_password_change_shows_every_problem_with_the_new_password(client):
    register(client, "alice")
    response = post_form(client, "/settings/password",
                         {"old": "correct horse", "new": "short", "confirm": "shorx"},
                         page="/settings")
    page = response.get_data(as_text=True)
    assert SHORT_PASSWORD in page
    assert MISMATCH in page


WRONG_CURRENT_PASSWORD = {
    "/settings/password": {"old": "wrong password", "new": "battery staple",
                           "confirm": "battery staple"},
    "/settings/delete": {"password": "wrong password"},
}


@pytest.fixture
def verifications(monkeypatch) -> list[str]:
    """Every password verification the server makes."""
    made: list[str] = []
    verify = Passwords.verify

    def counting(self, stored: str, password: str) -> bool:
        made.append(password)
        return verify(self, stored, password)

    monkeypatch.setattr(Passwords, "verify", counting)
    return made


def from_address(number: int) -> dict:
    return {"environ_base": {"REMOTE_ADDR": f"10.0.0.{number}"}}


@pytest.mark.parametrize("app_overrides", [{"AUTH_ATTEMPTS_PER_MINUTE": 3}])
@pytest.mark.parametrize("path", WRONG_CURRENT_PASSWORD)
def test_wrong_current_passwords_are_limited_per_user(client, verifications, path):
    register(client, "alice")
    data = WRONG_CURRENT_PASSWORD[path]
    codes = [post_form(client, path, data, page="/settings", **from_address(n)).status_code
             for n in range(1, 4)]
    assert codes == [200, 200, 200]
    verified = len(verifications)
    refused = post_form(client, path, data, page="/settings", **from_address(4))
    assert refused.status_code == 429
    assert len(verifications) == verified  # refused before any argon2 work


@pytest.mark.parametrize("app_overrides", [{"AUTH_ATTEMPTS_PER_MINUTE": 3}])
@pytest.mark.parametrize("path", WRONG_CURRENT_PASSWORD)
def test_wrong_current_passwords_are_limited_per_address(app, verifications, path):
    guesses = []
    for name in ("alice", "bob"):
        browser = app.test_client()
        register(browser, name, **from_address(9))
        guesses.append(browser)
    data = WRONG_CURRENT_PASSWORD[path]
    codes = [post_form(guesses[n % 2], path, data, page="/settings", **from_address(1))
             .status_code for n in range(4)]
    assert codes == [200, 200, 200, 429]


@pytest.mark.parametrize("app_overrides", [{"AUTH_ATTEMPTS_PER_MINUTE": 3}])
def test_the_limit_holds_for_the_right_password_too(client):
    register(client, "alice")
    data = WRONG_CURRENT_PASSWORD["/settings/delete"]
    for n in range(1, 4):
        post_form(client, "/settings/delete", data, page="/settings", **from_address(n))
    right = post_form(client, "/settings/delete", {"password": "correct horse"},
                      page="/settings", **from_address(4))
    assert right.status_code == 429
    assert client.get("/api/me").status_code == 200
