"""Which responses renew the session cookie: pages do, files and JSON answers do not, so that
one asked for before a form's POST cannot put back the cookie from before it (and with it
lose the POST's flash message) when it arrives after the POST's answer."""

from __future__ import annotations

import pytest

from tests.support.forms import csrf_token, register


@pytest.mark.parametrize(("path", "renewed"), [
    ("/hall", True),
    ("/u/alice", True),
    ("/static/css/site.css", False),
    ("/static/favicon.svg", False),
    ("/api/me", False),
    ("/healthz", False),
])
def test_only_pages_renew_an_unchanged_session_cookie(client, path, renewed):
    register(client, "alice")
    with client.get(path) as response:
        assert response.status_code == 200
        assert ("Set-Cookie" in response.headers) == renewed


def test_a_json_answer_that_read_the_session_still_varies_by_cookie(client):
    register(client, "alice")
    response = client.get("/api/me")
    assert response.json["username"] == "alice"
    assert "Cookie" in response.vary


def test_a_flash_survives_a_file_asked_for_before_the_post(app, client):
    register(client, "alice")
    register(app.test_client(), "bob")
    token = csrf_token(client, "/report?username=bob")
    before = client.get_cookie("session").value
    # A script of the form's page, asked for with the cookie from before the POST...
    late = app.test_client()
    late.set_cookie("session", before)
    posted = client.post("/report", data={"csrf_token": token, "username": "bob",
                                          "reason": "abuse"})
    assert posted.status_code == 302
    # ...answers after it: were it to renew the cookie, the browser would keep that one.
    with late.get("/static/js/site.js") as script:
        assert "Set-Cookie" not in script.headers
    assert b"a moderator will look at your report" in client.get("/u/alice").data
