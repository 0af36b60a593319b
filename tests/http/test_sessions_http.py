"""Ending sessions over HTTP: a copy of a session cookie stops working once the session's
user logs out, changes their password, deletes the account or is banned."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.forms import login, logout, post_form, register

PASSWORD = "correct horse"
NEW_PASSWORD = "battery staple"


def copy_session(app: Flask, client: FlaskClient) -> FlaskClient:
    """Another browser holding the same session cookie, as a thief who copied it would."""
    thief = app.test_client()
    thief.set_cookie("session", client.get_cookie("session").value)
    return thief


def change_password(client: FlaskClient):
    return post_form(client, "/settings/password",
                     {"old": PASSWORD, "new": NEW_PASSWORD, "confirm": NEW_PASSWORD},
                     page="/settings")


def delete_account(client: FlaskClient):
    return post_form(client, "/settings/delete", {"password": PASSWORD}, page="/settings")


def host(app: Flask, *args: str, stdin: str | None = None) -> None:
    if args[0] in ("ban", "reset-password"):
        args = (*args, "--wait", "0")  # no running server polls in these tests
    result = app.test_cli_runner().invoke(args=list(args), input=stdin)
    assert result.exit_code == 0, result.output


def ban_and_unban(app: Flask, _client: FlaskClient) -> None:
    host(app, "ban", "alice")
    host(app, "unban", "alice")


def reset_password(app: Flask, _client: FlaskClient) -> None:
    host(app, "reset-password", "alice", stdin=f"{NEW_PASSWORD}\n" * 2)


ENDINGS: dict[str, Callable[[Flask, FlaskClient], object]] = {
    "logout": lambda _app, client: logout(client),
    "password change": lambda _app, client: change_password(client),
    "account deletion": lambda _app, client: delete_account(client),
    "ban, even once lifted": ban_and_unban,
    "password reset by the host": reset_password,
}


def test_a_copied_cookie_works_while_the_session_lasts(app, client):
    register(client, "alice")
    assert copy_session(app, client).get("/api/me").status_code == 200


@pytest.mark.parametrize("ending", ENDINGS)
def test_a_cookie_copied_before_the_session_ended_no_longer_logs_in(app, client, ending):
    register(client, "alice")
    thief = copy_session(app, client)
    ENDINGS[ending](app, client)
    assert thief.get("/api/me").status_code == 401
    page = thief.get("/hall")
    assert page.status_code == 302
    assert page.headers["Location"].startswith("/login")


@pytest.mark.parametrize("ending", ENDINGS)
def test_the_sessions_of_other_browsers_end_too(app, client, ending):
    register(client, "alice")
    laptop = app.test_client()
    login(laptop, "alice")
    ENDINGS[ending](app, client)
    assert laptop.get("/api/me").status_code == 401


def test_password_change_keeps_the_session_that_made_it(client):
    register(client, "alice")
    response = change_password(client)
    assert response.status_code == 302
    assert client.get("/api/me").status_code == 200


def test_after_a_password_change_the_new_password_logs_in_elsewhere(app, client):
    register(client, "alice")
    change_password(client)
    assert login(app.test_client(), "alice", NEW_PASSWORD).status_code == 302


def test_a_refused_password_change_ends_nothing(app, client):
    register(client, "alice")
    thief = copy_session(app, client)
    post_form(client, "/settings/password",
              {"old": "wrong password", "new": NEW_PASSWORD, "confirm": NEW_PASSWORD},
              page="/settings")
    assert thief.get("/api/me").status_code == 200


def test_a_session_from_before_generations_logs_nobody_in(app, client):
    """Cookies issued before sessions had a generation: one more login, then as usual."""
    register(client, "alice")
    with client.session_transaction() as session:
        del session["generation"]
    assert client.get("/api/me").status_code == 401
