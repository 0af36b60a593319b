"""Usernames: letters of any script, but no name that looks like another one or like nothing.

Existing names in these tests: "admin", "ace" and "paypal"."""

from __future__ import annotations

import pytest
from flask_migrate import upgrade
from sqlalchemy import select, text

from gobang.extensions import db
from gobang.models import User
from tests.host.test_migrations import fill_first_revision, migration_app  # noqa: F401
from tests.support.forms import login, logout, post_form, register

EXISTING = ("admin", "ace", "paypal")
MIXED = "Username may not mix look-alike letters of different scripts."
INVISIBLE = "Username may not contain invisible or blank characters."
TAKEN = "That username is taken."
LOOKALIKE = "That username looks too much like an existing one."


@pytest.fixture
def existing(app, client) -> None:
    for name in EXISTING:
        assert register(client, name).status_code == 302
        logout(client)


@pytest.mark.parametrize(("name", "message"), [
    ("ａｄｍｉｎ", TAKEN),  # full-width letters
    ("𝐚𝐝𝐦𝐢𝐧", TAKEN),  # mathematical bold
    ("ADMIN", TAKEN),
    ("\u0430dmin", MIXED),  # Cyrillic а among Latin letters
    ("p\u0430yp\u0430l", MIXED),
    ("Ivan\u0438\u0432\u0430\u043d", MIXED),
    ("\u0430\u0441\u0435", LOOKALIKE),  # all Cyrillic, drawn as "ace"
    ("paypa1", LOOKALIKE),
    ("rnodern", None),  # nobody is called "modern"...
    ("ad\u200bmin", INVISIBLE),  # zero-width space
    ("adm\u00adin", INVISIBLE),  # soft hyphen
    ("admin\u2060", INVISIBLE),  # word joiner
    ("\u3164\u3164\u3164", INVISIBLE),  # Hangul filler
    ("bob\u3164", INVISIBLE),
    ("\u115fbob", INVISIBLE),  # Hangul choseong filler
    ("bob\u1160", INVISIBLE),  # Hangul jungseong filler
    ("bob\uffa0", INVISIBLE),  # half-width Hangul filler
    ("bob\u202eevil", INVISIBLE),  # right-to-left override
])
def test_look_alike_and_invisible_names_are_refused(app, client, existing, name, message):
    response = register(client, name)
    if message is None:
        assert response.status_code == 302
        return
    assert response.status_code == 200
    assert message in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(User).where(User.username == name)) is None


@pytest.mark.parametrize("name", [
    "李小龍", "игрок", "さくら太郎", "김민준", "Ünal_99", "ab-c", "τεστ", "Ελένη", "Jürgen",
    "ace_2",
])
def test_honest_names_of_any_script_are_accepted(client, existing, name):
    assert register(client, name).status_code == 302


def test_full_width_letters_are_stored_as_the_plain_ones(client):
    register(client, "ｂｏｂ")
    assert client.get("/api/me").get_json()["username"] == "bob"
    logout(client)
    assert login(client, "bob").status_code == 302


def test_a_deleted_account_frees_its_look_alikes(app, client):
    register(client, "ace")
    post_form(client, "/settings/delete", {"password": "correct horse"}, page="/settings")
    assert register(client, "\u0430\u0441\u0435").status_code == 302


def test_names_taken_before_the_upgrade_get_their_skeleton(migration_app):  # noqa: F811
    upgrade(revision="12a4aabe5dc9")
    fill_first_revision()  # "ann" and "bo"
    upgrade()
    rows = db.session.execute(text("SELECT username, username_skeleton FROM users")).all()
    assert sorted(tuple(row) for row in rows) == [("ann", "ann"), ("bo", "bo")]


def test_a_capital_i_cannot_pass_for_a_small_l(client):
    assert register(client, "lance708").status_code == 302
    logout(client)
    response = register(client, "Iance708")
    assert response.status_code == 200
    assert LOOKALIKE in response.get_data(as_text=True)


def test_names_taken_before_the_capital_i_was_seen_get_the_new_skeleton(
        migration_app):  # noqa: F811
    upgrade(revision="e1f2a3b4c5d6")
    fill_first_revision()  # "ann" and "bo"
    db.session.execute(text(  # as the old skeleton had it, capital I folded to i
        "UPDATE users SET username = 'Iance708', username_key = 'iance708',"
        " username_skeleton = 'iance7o8' WHERE id = 1"))
    db.session.commit()
    upgrade()
    rows = db.session.execute(text("SELECT username, username_skeleton FROM users")).all()
    assert sorted(tuple(row) for row in rows) == [("Iance708", "lance7o8"), ("bo", "bo")]


def test_the_refusal_is_in_the_reader_s_language(client):
    client.set_cookie("lang", "zh_Hans")
    page = register(client, "bob\u3164").get_data(as_text=True)
    assert "用户名不能包含不可见字符或空白字符。" in page
