"""A database that refuses (locked, disk full) gives a page that says so, never a 500."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError

from gobang.extensions import db
from gobang.models import User
from tests.support.forms import csrf_token, register


@pytest.fixture
def refusing_commit(app, monkeypatch):
    def refuse() -> None:
        raise OperationalError("INSERT INTO users", {}, Exception("database or disk is full"))

    with app.app_context():
        monkeypatch.setattr(db.session, "commit", refuse)
        yield


def test_registering_on_a_full_disk_gives_the_form_back_with_a_reason(client, app,
                                                                       refusing_commit):
    token = csrf_token(client, "/register")
    answer = client.post("/register", data={
        "username": "hopeful", "password": "correct horse", "confirm": "correct horse",
        "csrf_token": token})
    assert answer.status_code == 503
    page = answer.get_data(as_text=True)
    assert "could not save that just now" in page
    assert 'value="hopeful"' in page
    with app.app_context():
        users = db.session.scalar(select(func.count()).select_from(User))
    assert users == 0


def test_other_pages_say_to_try_again(client, app, monkeypatch):
    assert register(client, "someone").status_code == 302

    def refuse(*_args, **_kwargs):
        raise OperationalError("SELECT", {}, Exception("database is locked"))

    monkeypatch.setattr("gobang.play.routes.hall_summary", refuse)
    answer = client.get("/hall")
    assert answer.status_code == 503
    assert "Try again in a moment" in answer.get_data(as_text=True)
