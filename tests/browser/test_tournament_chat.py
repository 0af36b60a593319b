"""A player creates an event from the page where the host allows it, another player opens
it, and the two talk in its chat, each seeing the other's line within 2 seconds (the page's
poll of GET /api/tournaments/<id>), as text."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_hall_chat import line_texts
from tests.support.browser import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.live]


@pytest.fixture
def live_env() -> dict[str, str]:
    return {"GOBANG_PLAYER_TOURNAMENTS": "1"}


def say(page, text: str) -> None:
    page.get_by_test_id("event-chat-input").fill(text)
    page.get_by_test_id("event-chat-send").click()


def test_a_player_s_event_and_its_chat(browser_player, live_server):
    ann = browser_player("ann")
    ann.goto(f"{live_server.url}/tournaments")
    ann.get_by_test_id("create-tournament-link").click()
    ann.fill("input[name=name]", "Ann's evening arena")
    ann.fill("input[name=starts_in]", "30")
    ann.get_by_test_id("create-tournament").click()
    ann.wait_for_url(re.compile(rf"{re.escape(live_server.url)}/tournaments/\d+"))
    expect(ann.get_by_test_id("tournament-creator")).to_have_text("ann")
    expect(ann.get_by_test_id("tournament-cancel")).to_be_visible()
    ben = browser_player("ben")
    ben.goto(ann.url)
    expect(ben.get_by_test_id("tournament-name")).to_have_text("Ann's evening arena")
    expect(ben.get_by_test_id("tournament-cancel")).to_have_count(0)

    say(ann, "good luck <b>all</b>")
    ben_log = ben.get_by_test_id("event-chat-log").locator("li")
    expect(ben_log).to_have_count(1, timeout=2_000)
    assert line_texts(ben_log) == ["ann: good luck <b>all</b>"]
    expect(ben_log.locator("b")).to_have_count(0)  # text, never markup
    expect(ben_log.get_by_test_id("chat-report")).to_have_count(1)

    say(ben, "thanks, you too")
    ann_log = ann.get_by_test_id("event-chat-log").locator("li")
    expect(ann_log).to_have_count(2, timeout=2_000)
    assert line_texts(ann_log) == ["ann: good luck <b>all</b>", "ben: thanks, you too"]
    expect(ben_log).to_have_count(2)  # ben's own line once, not again from the poll
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "tournament-chat.png"), full_page=True)
