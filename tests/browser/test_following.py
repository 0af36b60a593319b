"""Following in Chromium: follow a player from their profile, see them in the hall's Following
card while online, and challenge them from it through the challenge dialog."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_a_followed_player_is_listed_in_the_hall_and_challenged_from_it(browser_player,
                                                                         live_server):
    ben = browser_player("ben")
    ann = browser_player("ann")
    expect(ann.get_by_test_id("following-empty")).to_be_visible()
    ann.goto(f"{live_server.url}/u/ben")
    ann.get_by_test_id("profile-follow").click()
    expect(ann.get_by_test_id("profile-unfollow")).to_be_visible()
    ann.goto(f"{live_server.url}/hall")
    entry = ann.get_by_test_id("following-list").get_by_test_id("followed-player")
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text("ben")
    expect(entry.locator(".badge")).to_have_text("idle")
    expect(ann.get_by_test_id("following-empty")).to_be_hidden()
    entry.get_by_role("button", name="Challenge ben").click()
    dialog = ann.get_by_test_id("challenge-dialog")
    expect(dialog.get_by_test_id("challenge-dialog-title")).to_have_text("Challenge ben")
    dialog.get_by_test_id("challenge-send").click()
    expect(ann.get_by_test_id("challenge-sent")).to_contain_text("ben")
    ben.get_by_test_id("challenge").get_by_test_id("challenge-accept").click()
    for page in (ann, ben):
        page.wait_for_url(re.compile(rf"{re.escape(live_server.url)}/game/\d+"))
