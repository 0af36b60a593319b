"""Preferences kept with the account: the form on /settings, the JSON endpoint the page scripts
use, what every page carries on <body>, and the refusals."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from sqlalchemy import select

from gobang.auth.preferences import DEFAULTS, stored
from gobang.extensions import db
from gobang.models import User
from gobang.services.play.room_chat import wants_spectator_chat
from tests.support.forms import csrf_token, post_form, register
from tests.support.html import by_testid

SAVED_FORM = {"sound": "", "numbers": "y", "confirm": "on", "forbidden": "y", "theme": "plain",
              "spectator_chat": "y"}
SAVED = {"sound": False, "numbers": True, "confirm": True, "forbidden": True, "theme": "plain",
         "spectator_chat": True}
UPDATE = "/settings/preferences/update"


def body_attrs(client, path: str) -> dict[str, str]:
    page = client.get(path).get_data(as_text=True)
    found = _BodyAttrs()
    found.feed(page)
    return found.attrs


class _BodyAttrs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.attrs: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":
            self.attrs = {k: v or "" for k, v in attrs}


def body_preferences(client, path: str = "/settings") -> dict | None:
    raw = body_attrs(client, path).get("data-preferences")
    return None if raw is None else json.loads(raw)


def body_class(client, path: str) -> str:
    return body_attrs(client, path)["class"]


def saved_row(app, name: str = "alice") -> dict | None:
    with app.app_context():
        return db.session.scalar(select(User.preferences).where(User.username == name))


def update(client, changes, token: str | None = "page"):
    headers = {"X-CSRFToken": csrf_token(client, "/settings")} if token == "page" else {}
    return client.post(UPDATE, json=changes, headers=headers)


@pytest.fixture
def alice(client):
    register(client, "alice")
    return client


def test_new_account_has_the_defaults_on_every_page(alice):
    assert body_preferences(alice) == DEFAULTS.as_json()
    assert DEFAULTS.as_json() == {"sound": True, "numbers": False, "confirm": None,
                                  "forbidden": False, "theme": "wood", "spectator_chat": False}
    assert body_class(alice, "/hall") == "theme-wood"


def test_visitor_pages_carry_no_preferences(client):
    assert body_preferences(client, "/leaderboard") is None


def test_settings_form_saves_every_preference(app, alice):
    response = post_form(alice, "/settings/preferences", SAVED_FORM, page="/settings")
    assert (response.status_code, response.headers["Location"]) == (302, "/settings")
    assert saved_row(app) == SAVED
    assert body_preferences(alice, "/hall") == SAVED
    assert body_class(alice, "/hall") == "theme-plain"


def test_settings_form_shows_the_saved_values(alice):
    post_form(alice, "/settings/preferences", SAVED_FORM, page="/settings")
    page = alice.get("/settings").get_data(as_text=True)
    assert "checked" in by_testid(page, "pref-numbers")[0].attrs
    assert "checked" not in by_testid(page, "pref-sound")[0].attrs
    assert "checked" in by_testid(page, "pref-theme-plain")[0].attrs
    assert "checked" in by_testid(page, "pref-spectator_chat")[0].attrs
    assert '<option selected value="on">' in page


@pytest.mark.parametrize(("field", "value"), [("theme", "neon"), ("confirm", "sometimes")])
def test_settings_form_refuses_values_it_does_not_offer(app, alice, field, value):
    response = post_form(alice, "/settings/preferences", {**SAVED_FORM, field: value},
                         page="/settings")
    assert response.status_code == 200
    assert 'class="flash error"' in response.get_data(as_text=True)
    assert saved_row(app) is None  # nothing half-saved


def test_settings_form_needs_the_csrf_token(app, alice):
    response = alice.post("/settings/preferences", data=SAVED_FORM)
    assert response.status_code == 400
    assert saved_row(app) is None


def test_settings_need_login(client):
    assert client.post(UPDATE, json={"sound": False}).status_code in (302, 400)
    assert client.get("/settings").headers["Location"] == "/login?next=/settings"


def test_update_changes_only_the_keys_sent(app, alice):
    response = update(alice, {"sound": False})
    assert response.status_code == 200
    assert response.get_json() == {**DEFAULTS.as_json(), "sound": False}
    response = update(alice, {"forbidden": True, "confirm": None})
    assert response.get_json() == {**DEFAULTS.as_json(), "sound": False, "forbidden": True}
    assert saved_row(app) == response.get_json()


@pytest.mark.parametrize(("changes", "problems"), [
    ({"sound": "yes"}, 1),
    ({"spectator_chat": "on"}, 1),
    ({"confirm": 1}, 1),
    ({"theme": "neon"}, 1),
    ({"colour": "red"}, 1),
    ({"sound": 0, "theme": None, "numbers": True}, 2),
    ({}, 1),
    ([True], 1),
    ("sound", 1),
])
def test_update_refuses_bad_changes_and_saves_nothing(app, alice, changes, problems):
    response = update(alice, changes)
    assert response.status_code == 400
    body = response.get_json()
    assert body["error"] == "bad_request" and len(body["problems"]) == problems
    assert saved_row(app) is None


def test_update_needs_the_csrf_token(app, alice):
    assert update(alice, {"sound": False}, token=None).status_code == 400
    assert saved_row(app) is None


def test_update_refuses_a_body_that_is_not_json(app, alice):
    response = alice.post(UPDATE, data="sound=0",
                          headers={"X-CSRFToken": csrf_token(alice, "/settings")})
    assert response.status_code == 400
    assert saved_row(app) is None


@pytest.mark.parametrize(("raw", "expected"), [
    (None, DEFAULTS.as_json()),
    ("wood", DEFAULTS.as_json()),
    ({"theme": "neon", "sound": "no", "old": 1}, DEFAULTS.as_json()),
    ({"theme": "plain", "confirm": False}, {**DEFAULTS.as_json(), "theme": "plain",
                                            "confirm": False}),
])
def test_stored_preferences_are_read_leniently(raw, expected):
    assert stored(raw).as_json() == expected


@pytest.mark.parametrize("raw", [None, "spectator_chat", {}, {"spectator_chat": True},
                                 {"spectator_chat": False}, {"spectator_chat": "yes"},
                                 {"spectator_chat": 1}])
def test_the_room_chat_reads_the_spectators_chat_preference_as_the_settings_do(raw):
    """The room's chat (a service) reads the stored JSON itself: it must agree with this
    module's lenient reading, key and default."""
    assert wants_spectator_chat(User(preferences=raw)) is stored(raw).spectator_chat


def test_settings_page_in_chinese(alice):
    alice.set_cookie("lang", "zh_Hans")
    page = alice.get("/settings").get_data(as_text=True)
    assert "偏好设置" in page
    assert "棋盘风格" in page
