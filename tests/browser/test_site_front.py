"""The front page in Chromium: a visitor sees the site, who is on it and what was played, follows
the links, and signs up from it; a player who opens `/` goes on to the hall."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.live.test_play import BLACK_FIVE, matched_pair, play
from tests.support.browser import ARTIFACTS
from tests.support.live import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.live]

WORDS = {
    "en-US": {"title": "Gomoku: five in a row, live", "online": "4 players online",
              "playing": "1 game in play", "register": "Sign up", "heading": "Create an account"},
    "zh-CN": {"title": "五子棋：实时对弈，五子连珠", "online": "4 位玩家在线",
              "playing": "1 局对弈中", "register": "注册", "heading": "创建账号"},
}


@pytest.fixture
def evening(live_server) -> dict:
    """ann and ben have finished a game (and are still in its room); cat and dan are playing."""
    black, white, finished = matched_pair(live_server)
    play(black, white, finished, BLACK_FIVE)
    white[2].wait_for("game_over")
    matched_pair(live_server, names=("cat", "dan"))
    me = black[0].get(f"{live_server.url}/api/me", timeout=10).json()
    return {"finished": finished, "winner": me["username"]}


@pytest.mark.parametrize("locale", list(WORDS))
def test_visitor_sees_the_site_and_signs_up_from_the_front_page(
        live_server, new_page, evening, locale):
    words = WORDS[locale]
    page = new_page(locale=locale)
    page.goto(f"{live_server.url}/")
    expect(page.get_by_test_id("front-title")).to_have_text(words["title"])
    expect(page.get_by_test_id("front-online")).to_have_text(words["online"])
    expect(page.get_by_test_id("front-playing")).to_have_text(words["playing"])
    expect(page.get_by_test_id("front-game")).to_have_count(1)
    expect(page.locator("input[type=password]")).to_have_count(0)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"front-{locale}.png"), full_page=True)

    page.get_by_test_id("front-replay-link").click()
    page.wait_for_url(f"{live_server.url}/game/{evening['finished']}/replay")
    expect(page.locator("#board .point[data-stone]")).to_have_count(9)
    page.go_back()
    page.get_by_test_id("front-game-black").click()
    page.wait_for_url(f"{live_server.url}/u/{evening['winner']}")
    page.go_back()

    expect(page.get_by_test_id("front-register")).to_have_text(words["register"])
    page.get_by_test_id("front-register").click()
    expect(page.locator("h1")).to_have_text(words["heading"])
    page.fill("#username", "eve")
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/hall")
    page.goto(f"{live_server.url}/")
    page.wait_for_url(f"{live_server.url}/hall")


def test_front_page_log_in_button_leads_to_the_hall(live_server, new_page):
    live_server.user("ann")
    page = new_page()
    page.goto(f"{live_server.url}/")
    page.get_by_test_id("front-login").click()
    page.wait_for_url(re.compile(rf"{re.escape(live_server.url)}/login"))
    page.fill("#username", "ann")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/hall")
