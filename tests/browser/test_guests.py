"""Visitors and guests in Chromium, on a desktop and a phone, in English and Chinese: a visitor
watches a live game from the front page; a visitor plays the computer as a guest, then
registers and finds that game on the new account's profile."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import click_point, match
from tests.support.live import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.live]

DESKTOP = ({"width": 1280, "height": 900}, {}, "en")
PHONE_CHINESE = ({"width": 390, "height": 844},
                 {"has_touch": True, "is_mobile": True, "locale": "zh-CN"}, "zh-Hans")
SCREENS = pytest.mark.parametrize(("viewport", "options", "lang"), [DESKTOP, PHONE_CHINESE],
                                  ids=["desktop-en", "phone-zh"])
GAME_PAGE = re.compile(r"/game/(\d+)$")


def listed_live_game(page, base_url: str) -> bool:
    """The front page lists games as the hall last saw them (once a second): look again."""
    page.goto(base_url)
    return page.get_by_test_id("front-watch-link").count() > 0


@SCREENS
def test_a_visitor_watches_a_live_game_from_the_front_page(browser_player, new_page,
                                                           live_server, viewport, options,
                                                           lang):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    visitor = new_page(viewport, **options)
    assert wait_until(lambda: listed_live_game(visitor, live_server.url), timeout=10)
    expect(visitor.locator("html")).to_have_attribute("lang", lang)
    visitor.get_by_test_id("front-watch-link").click()
    visitor.wait_for_url(GAME_PAGE)
    expect(visitor.get_by_test_id("name-black")).to_have_text(re.compile("ann|ben"))
    expect(black.get_by_test_id("spectators")).to_contain_text("1")
    expect(visitor.get_by_test_id("controls")).to_be_hidden()
    expect(visitor.get_by_test_id("room-chat-closed")).to_be_visible()
    expect(visitor.get_by_test_id("room-chat-input")).to_be_hidden()
    click_point(black, "h8")
    expect(visitor.locator('[aria-label="h8"]')).to_have_attribute("data-stone", "black")
    expect(visitor.get_by_test_id("room-error")).to_be_hidden()
    visitor.get_by_test_id("back-to-hall").click()
    visitor.wait_for_url(f"{live_server.url}/")


@SCREENS
def test_a_guest_plays_the_computer_then_registers_and_keeps_the_game(
        new_page, live_server, viewport, options, lang):
    page = new_page(viewport, **options)
    page.goto(live_server.url)
    page.get_by_test_id("front-guest-play").click()
    page.wait_for_url(f"{live_server.url}/computer")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.get_by_test_id("guest-intro")).to_contain_text("Guest ")
    page.get_by_test_id("computer-level").select_option("1")
    page.get_by_test_id("computer-color").select_option("black")
    page.get_by_test_id("computer-button").click()
    page.wait_for_url(GAME_PAGE)
    game_id = GAME_PAGE.search(page.url).group(1)
    expect(page.get_by_test_id("room-chat-closed")).to_be_visible()
    expect(page.get_by_test_id("resign-button")).to_be_enabled()
    click_point(page, "h8")
    expect(page.locator('[aria-label="h8"]')).to_have_attribute("data-stone", "black")
    expect(page.locator("[data-stone=white]")).to_have_count(1, timeout=30_000)  # its reply
    page.get_by_test_id("resign-button").click()
    page.get_by_test_id("resign-confirm").click()
    expect(page.get_by_test_id("result-reason")).to_be_visible()
    expect(page.get_by_test_id("new-opponent-link")).to_have_attribute(
        "href", re.compile(r"^/computer\?computer=1&"))

    page.get_by_test_id("nav-register").click()
    page.wait_for_url(f"{live_server.url}/register")
    expect(page.get_by_test_id("register-guest")).to_be_visible()
    page.fill("#username", "cleo")
    page.fill("#password", "correct horse")
    page.fill("#confirm", "correct horse")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{live_server.url}/hall")
    page.get_by_test_id("nav-profile").click()
    page.wait_for_url(f"{live_server.url}/u/cleo")
    expect(page.locator(f'[data-testid=computer-game-row][data-game-id="{game_id}"]')
           ).to_be_visible()
