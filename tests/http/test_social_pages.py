"""Following and blocking from the pages: the profile's buttons (POST forms with CSRF) and
/following, over HTTP."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from gobang.extensions import db
from gobang.models import Block, Follow
from tests.support.forms import csrf_token, post_form, register
from tests.support.games import add_user
from tests.support.html import by_testid, texts


@pytest.fixture
def alice(client, app):
    """alice logged in, and bob, a player she can follow."""
    register(client, "alice")
    add_user(app, "bob")
    return client


def rows(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def act(client, action: str, name: str = "bob", **data):
    return post_form(client, f"/u/{name}/{action}", data, page=f"/u/{name}")


def flashes(client, path: str = "/u/bob") -> list[str]:
    return re.findall(r'<li class="flash \w+">(.*?)</li>', client.get(path).get_data(as_text=True))


def buttons(client, path: str = "/u/bob") -> list[str]:
    page = client.get(path).get_data(as_text=True)
    return [testid for testid in ("profile-follow", "profile-unfollow", "profile-block",
                                  "profile-unblock") if by_testid(page, testid)]


def test_another_player_s_profile_offers_follow_and_block(alice):
    assert buttons(alice) == ["profile-follow", "profile-block"]


def test_a_visitor_and_the_player_themself_get_no_such_buttons(alice, app):
    own = alice.get("/u/alice").get_data(as_text=True)
    assert not by_testid(own, "relation-actions")
    assert texts(own, "profile-following-link") == ["Players you follow and block"]
    visitor = app.test_client().get("/u/bob").get_data(as_text=True)
    assert not by_testid(visitor, "relation-actions")


@pytest.mark.parametrize(("steps", "shown", "followed", "blocked"), [
    (["follow"], ["profile-unfollow", "profile-block"], 1, 0),
    (["follow", "unfollow"], ["profile-follow", "profile-block"], 0, 0),
    (["block"], ["profile-follow", "profile-unblock"], 0, 1),
    (["follow", "block"], ["profile-follow", "profile-unblock"], 0, 1),
    (["block", "unblock"], ["profile-follow", "profile-block"], 0, 0),
])
def test_each_button_does_what_it_says_and_the_profile_shows_the_other(alice, app, steps, shown,
                                                                        followed, blocked):
    for action in steps:
        response = act(alice, action)
        assert response.status_code == 302
        assert response.headers["Location"] == "/u/bob"
    assert buttons(alice) == shown
    assert (rows(app, Follow), rows(app, Block)) == (followed, blocked)


def test_following_a_player_you_block_is_greyed_out(alice):
    act(alice, "block")
    page = alice.get("/u/bob").get_data(as_text=True)
    assert "disabled" in by_testid(page, "profile-follow")[0].attrs


@pytest.mark.parametrize(("action", "message"), [
    ("follow", "You follow bob: the hall shows you when they are online."),
    ("block", "You block bob: their challenges and chat no longer reach you, and you are"
              " never paired with them. They are not told.")])
def test_the_page_says_what_was_done(alice, action, message):
    act(alice, action)
    assert flashes(alice) == [message]


@pytest.mark.parametrize("action", ["follow", "unfollow", "block", "unblock"])
def test_a_form_without_its_csrf_token_is_refused_and_changes_nothing(alice, app, action):
    if action.startswith("un"):
        act(alice, action[2:])
    before = (rows(app, Follow), rows(app, Block))
    response = alice.post(f"/u/bob/{action}", data={})
    assert response.status_code == 400
    assert (rows(app, Follow), rows(app, Block)) == before


@pytest.mark.parametrize("path", ["/u/nobody/follow", "/u/nobody/block", "/u/bob/befriend"])
def test_a_player_or_an_action_that_does_not_exist_is_not_found(alice, app, path):
    response = alice.post(path, data={"csrf_token": csrf_token(alice, "/u/bob")})
    assert response.status_code == 404
    assert (rows(app, Follow), rows(app, Block)) == (0, 0)


@pytest.mark.parametrize(("action", "message"), [
    ("follow", "You cannot follow yourself."), ("block", "You cannot block yourself.")])
def test_following_or_blocking_oneself_is_refused_with_a_message(alice, app, action, message):
    response = act(alice, action, name="alice")
    assert response.headers["Location"] == "/u/alice"
    assert flashes(alice, "/u/alice") == [message]
    assert (rows(app, Follow), rows(app, Block)) == (0, 0)


@pytest.mark.parametrize("app_overrides", [{"FOLLOWS_AT_MOST": 1, "BLOCKS_AT_MOST": 1}])
@pytest.mark.parametrize(("action", "message"), [
    ("follow", "You follow 1 player, as many as one can: unfollow someone first."),
    ("block", "You block 1 player, as many as one can: unblock someone first.")])
def test_past_the_limit_the_page_says_so_and_nothing_changes(alice, app, action, message):
    add_user(app, "carol")
    act(alice, action, name="carol")
    act(alice, action)
    assert flashes(alice) == [message]
    assert rows(app, Follow) + rows(app, Block) == 1


def test_a_visitor_s_form_goes_to_the_login_page_and_changes_nothing(alice, app):
    visitor = app.test_client()
    response = visitor.post("/u/bob/follow", data={"csrf_token": csrf_token(visitor, "/login")})
    assert response.status_code == 302 and "/login" in response.headers["Location"]
    assert rows(app, Follow) == 0


def test_the_following_page_lists_both_in_name_order_and_undoes_each(alice, app):
    for name in ("Zoe", "carol"):
        add_user(app, name)
    for name in ("Zoe", "carol", "bob"):
        act(alice, "follow", name=name)
    act(alice, "block", name="bob")
    page = alice.get("/following").get_data(as_text=True)
    assert [e.attrs["data-username"] for e in by_testid(page, "followed")] == ["carol", "Zoe"]
    assert [e.attrs["data-username"] for e in by_testid(page, "blocked")] == ["bob"]
    response = post_form(alice, "/u/bob/unblock", {"back": "following"}, page="/following")
    assert response.headers["Location"] == "/following"
    assert texts(alice.get("/following").get_data(as_text=True), "no-blocked") == [
        "You block nobody."]


def test_the_following_page_is_for_players_only(app):
    response = app.test_client().get("/following")
    assert response.status_code == 302 and "/login" in response.headers["Location"]


def test_settings_link_to_the_following_page(alice):
    page = alice.get("/settings").get_data(as_text=True)
    assert by_testid(page, "settings-following-link")[0].attrs["href"] == "/following"
