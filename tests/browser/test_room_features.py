"""What the room gives a player beyond the game itself (issue 13), in Chromium: the move list,
New opponent, renju's forbidden points; English and Chinese; and the room's screenshots for the
docs. Resign behind a quiet flag is in test_page_scripts.py with the room's other offers."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import click_point, match
from tests.support.browser import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.live]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
# g8 i8 h9 h7 for black around h8 (a double-three there under renju); white far away on rank 15.
DOUBLE_THREE_AT_H8 = ["g8", "a15", "i8", "c15", "h9", "e15", "h7", "g15"]


def play(black, white, points: list[str]) -> None:
    for index, point in enumerate(points):
        mover, other = (black, white) if index % 2 == 0 else (white, black)
        expect(mover.get_by_test_id("status")).to_have_text(re.compile("Your turn|轮到你了"))
        click_point(mover, point)
        expect(other.locator(f'[aria-label="{point}"]')).to_have_attribute(
            "data-stone", re.compile("."))


def stones(page):
    return page.locator("[data-testid=board] [data-stone]")


def test_the_move_list_follows_the_game_live_in_notation(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    play(black, white, ["h8", "h9", "i8"])
    items = white.get_by_test_id("move-item")
    expect(items).to_have_count(3)
    expect(items).to_have_text(["1.h8", "2.h9", "3.i8"])
    expect(items.nth(1)).to_have_accessible_name("2. white h9")
    expect(items.nth(2)).to_have_attribute("aria-current", "step")


def test_clicking_a_move_shows_that_position_and_the_live_button_returns(browser_player,
                                                                        live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    play(black, white, ["h8", "h9", "i8"])
    black.get_by_test_id("move-item").first.click()
    expect(stones(black)).to_have_count(1)
    live = black.get_by_test_id("live-button")
    expect(live).to_have_text("Back to the live position")
    black.get_by_test_id("room-chat-input").fill("nice")  # other news leaves the view be
    black.get_by_test_id("room-chat-send").click()
    expect(white.get_by_test_id("room-chat-log")).to_contain_text("nice")
    expect(stones(black)).to_have_count(1)
    live.click()
    expect(live).to_be_hidden()
    expect(stones(black)).to_have_count(3)


def test_looking_back_gives_way_to_the_live_position_when_it_becomes_your_turn(
        browser_player, live_server):
    """"Your turn" is always a board that takes the move: the opponent's move while the
    player looks back brings the live position back."""
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    play(black, white, ["h8", "h9", "i8"])
    black.get_by_test_id("move-item").first.click()
    expect(stones(black)).to_have_count(1)
    click_point(white, "j9")
    expect(black.get_by_test_id("status")).to_have_text("Your turn")
    expect(stones(black)).to_have_count(4)
    expect(black.get_by_test_id("live-button")).to_be_hidden()
    expect(black.get_by_test_id("move-item").last).to_have_attribute("aria-current", "step")
    click_point(black, "k8")
    expect(white.locator('[aria-label="k8"]')).to_have_attribute("data-stone", "black")


def test_the_move_list_in_chinese(browser_player, live_server):
    english = browser_player("ben")
    chinese = browser_player("ann", locale="zh-CN")
    black, white = match(english, chinese, live_server.url)
    play(black, white, ["h8", "h9"])
    expect(chinese.locator("#moves-title")).to_have_text("棋谱")
    chinese.get_by_test_id("move-item").first.click()
    expect(chinese.get_by_test_id("live-button")).to_have_text("回到当前局面")
    expect(chinese.get_by_test_id("move-item").first).to_have_accessible_name("1. 黑方 h8")


@pytest.mark.parametrize(("locale", "text"), [(None, "New opponent"), ("zh-CN", "换个对手")])
def test_new_opponent_goes_back_to_matching_with_the_same_ruleset(
    browser_player, live_server, locale, text
):
    options = {"locale": locale} if locale else {}
    first, second = browser_player("ann", **options), browser_player("ben")
    for page in (first, second):
        page.get_by_test_id("ruleset").select_option("standard")
    black, white = match(second, first, live_server.url)
    white.get_by_test_id("resign-button").click()
    white.get_by_test_id("resign-confirm").click()
    link = first.get_by_test_id("new-opponent-link")
    expect(link).to_have_text(text)
    expect(link).to_have_attribute("href", "/hall?match=standard&clock=600%2B5")
    link.click()
    # The hall starts matching in that pool at once, and forgets the query.
    expect(first.get_by_test_id("match-button")).to_have_attribute("aria-pressed", "true")
    expect(first.get_by_test_id("pool-600+5")).to_have_attribute("aria-pressed", "true")
    expect(first.get_by_test_id("ruleset")).to_have_value("standard")
    first.wait_for_url(f"{live_server.url}/hall")


def renju_game(browser_player, live_server, **options):
    first, second = browser_player("ann", **options), browser_player("ben")
    for page in (first, second):
        page.get_by_test_id("ruleset").select_option("renju")
    black, white = match(second, first, live_server.url)
    return first, black, white


def test_forbidden_points_are_marked_for_black_to_move_when_asked(browser_player, live_server):
    _first, black, white = renju_game(browser_player, live_server)
    toggle = black.get_by_test_id("forbidden-toggle")
    expect(toggle).to_be_visible()
    expect(toggle).not_to_be_checked()
    play(black, white, DOUBLE_THREE_AT_H8)
    h8 = black.locator('[aria-label="h8"]')
    expect(h8).not_to_have_class(re.compile(r"\bmarked\b"))
    toggle.check()
    expect(h8).to_have_class(re.compile(r"\bmarked\b"))
    expect(h8).to_have_attribute("aria-description", "forbidden for black")
    black.reload()  # the toggle is remembered
    expect(black.get_by_test_id("forbidden-toggle")).to_be_checked()
    expect(h8).to_have_class(re.compile(r"\bmarked\b"))
    click_point(black, "n2")
    expect(h8).not_to_have_class(re.compile(r"\bmarked\b"))  # white to move: nothing forbidden
    expect(black.locator("[data-testid=board] .marked")).to_have_count(0)


def test_the_forbidden_points_toggle_in_chinese(browser_player, live_server):
    chinese, _black, _white = renju_game(browser_player, live_server, locale="zh-CN")
    expect(chinese.locator("#forbidden-option")).to_have_text("显示禁手点")


def test_the_forbidden_points_toggle_is_only_for_renju(browser_player, live_server):
    black, _white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    expect(black.get_by_test_id("status")).to_have_text("Your turn")
    expect(black.get_by_test_id("forbidden-toggle")).to_be_hidden()


GAME = ["h8", "i9", "h9", "h10", "i8", "g8", "j7", "k6", "g10", "j8", "i7", "f11"]


def test_room_screenshots_on_desktop_and_phone_with_the_move_list(browser_player, live_server):
    """Writes docs/screenshots/room-*.png when GOBANG_UPDATE_SCREENSHOTS=1, test-artifacts/
    otherwise; a phone must not scroll sideways."""
    desktop = browser_player("ann")
    phone = browser_player("ben", viewport={"width": 390, "height": 844}, is_mobile=True,
                           has_touch=True)
    black, white = match(desktop, phone, live_server.url)
    play(black, white, GAME)
    black.get_by_test_id("room-chat-input").fill("good game so far")
    black.get_by_test_id("room-chat-send").click()
    expect(phone.get_by_test_id("room-chat-log")).to_contain_text("good game so far")
    expect(phone.get_by_test_id("move-item")).to_have_count(len(GAME))
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    ARTIFACTS.mkdir(exist_ok=True)
    shots = {"room-desktop.png": desktop, "room-phone.png": phone}
    for name, page in shots.items():
        page.mouse.move(0, 0)
        page.screenshot(path=str(ARTIFACTS / name), full_page=True)
    if os.environ.get("GOBANG_UPDATE_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for name in shots:
            shutil.copyfile(ARTIFACTS / name, SCREENSHOTS / name)
