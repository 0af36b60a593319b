"""The language switcher and the page scripts' words, in Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import BLACK_POINTS, WHITE_POINTS, click_point, match
from tests.support.browser import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_switching_to_chinese_shows_the_hall_in_chinese_and_is_remembered(
        browser_player, live_server):
    page = browser_player("ann")
    expect(page.get_by_test_id("match-button")).to_have_text("Match")
    page.get_by_test_id("lang-zh_Hans").click()
    page.wait_for_url(f"{live_server.url}/hall")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.get_by_test_id("match-button")).to_have_text("匹配")
    # Drawn by hall.js from the page's JSON catalogue:
    expect(page.locator("#online-list .badge")).to_have_text("空闲")
    expect(page.get_by_test_id("ruleset-description")).to_have_text("五子或更多连成一线即胜")
    page.screenshot(path=str(ARTIFACTS / "hall-zh.png"), full_page=True)

    page.get_by_test_id("nav-leaderboard").click()
    expect(page.locator("h1")).to_have_text("排行榜")
    page.get_by_test_id("lang-en").click()
    page.wait_for_url(f"{live_server.url}/leaderboard")
    expect(page.locator("h1")).to_have_text("Leaderboard")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_a_chinese_browser_plays_in_chinese_against_an_english_one(browser_player, live_server):
    english = browser_player("ben")
    chinese = browser_player("ann", locale="zh-CN")
    expect(chinese.get_by_test_id("match-button")).to_have_text("匹配")
    black, white = match(english, chinese, live_server.url)
    me, other = (black, white) if chinese is black else (white, black)
    expect(me.get_by_test_id("status")).to_have_text(re.compile("轮到你了|轮到对手"))
    for index, point in enumerate(BLACK_POINTS):
        click_point(black, point)
        expect(white.locator(f'[aria-label="{point}"]')).to_have_attribute("data-stone", "black")
        if index < len(WHITE_POINTS):
            click_point(white, WHITE_POINTS[index])
            expect(black.locator(f'[aria-label="{WHITE_POINTS[index]}"]')).to_have_attribute(
                "data-stone", "white")
    expect(me.get_by_test_id("status")).to_have_text("你赢了！" if me is black else "你输了")
    expect(other.get_by_test_id("status")).to_have_text(
        "You won!" if other is black else "You lost")
    expect(me.get_by_test_id("result-reason")).to_have_text("五子连珠")
    expect(other.get_by_test_id("result-reason")).to_have_text("five in a row")
    expect(me.get_by_test_id("move-announcer")).to_have_text("黑方 h8")
    expect(other.get_by_test_id("move-announcer")).to_have_text("black h8")
    expect(me.get_by_test_id("rematch-button")).to_have_text("再来一局")
    me.screenshot(path=str(ARTIFACTS / "game-zh.png"), full_page=True)

    me.get_by_test_id("replay-link").click()
    expect(me.get_by_test_id("replay-result")).to_have_text("黑方胜")
    expect(me.get_by_test_id("replay-reason")).to_have_text("五子连珠")
    expect(me.get_by_test_id("move-counter")).to_have_text("第 9 手，共 9 手")
    me.get_by_test_id("replay-back").click()
    expect(me.get_by_test_id("move-counter")).to_have_text("第 8 手，共 9 手")  # from replay.js
    me.screenshot(path=str(ARTIFACTS / "replay-zh.png"), full_page=True)

    me.get_by_test_id("nav-profile").click()
    expect(me.get_by_test_id("game-result")).to_have_text("胜" if me is black else "负")
    expect(me.get_by_test_id("game-reason")).to_have_text("五子连珠")
    me.screenshot(path=str(ARTIFACTS / "profile-zh.png"), full_page=True)
