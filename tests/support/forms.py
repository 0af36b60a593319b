"""Helpers for driving the HTML forms with the Flask test client."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

_TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def csrf_token(client: FlaskClient, path: str) -> str:
    page = client.get(path).get_data(as_text=True)
    match = _TOKEN.search(page)
    assert match, f"no CSRF token on {path}"
    return match.group(1)


def post_form(client: FlaskClient, path: str, data: dict, page: str | None = None, **kw):
    fields = {"csrf_token": csrf_token(client, page or path), **data}
    return client.post(path, data=fields, **kw)


def register(client: FlaskClient, username: str, password: str = "correct horse", **kw):
    return post_form(
        client,
        "/register",
        {"username": username, "password": password, "confirm": password},
        **kw,
    )


def login(client: FlaskClient, username: str, password: str = "correct horse", **kw):
    return post_form(client, "/login", {"username": username, "password": password}, **kw)


def logout(client: FlaskClient):
    return post_form(client, "/logout", {}, page="/hall")
