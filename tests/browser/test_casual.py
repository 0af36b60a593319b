"""A casual game from the hall: the challenge says so in the toast, and the room says so in
its title (docs/protocol.md, Casual games)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_site_challenges import challenge_from_hall

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_a_casual_challenge_is_casual_in_the_toast_and_the_room(browser_player, live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    ben.goto(f"{live_server.url}/leaderboard")
    ann.get_by_test_id("casual-choice").check()
    challenge_from_hall(ann, "ben")
    expect(ann.get_by_test_id("challenge-sent")).to_contain_text("Casual")
    toast = ben.get_by_test_id("challenge-toast")
    expect(toast).to_contain_text("Casual")
    toast.get_by_test_id("challenge-accept").click()
    for page in (ann, ben):
        page.wait_for_url(re.compile(rf"{re.escape(live_server.url)}/game/\d+"))
        expect(page.get_by_test_id("ruleset-name")).to_have_text(re.compile(r" · Casual$"))
