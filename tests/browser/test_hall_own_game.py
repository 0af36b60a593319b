"""Leaving one's own game in play (issue 13, bug 1): the room asks first; the hall then says
how long is left to go back, and, once that has run out, that the game was lost and what it
cost. Chromium against a live server with a short grace period."""

from __future__ import annotations

import os
import re
import shutil

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import click_point, match
from tests.browser.test_room_features import SCREENSHOTS
from tests.support.browser import ARTIFACTS
from tests.support.ratings import first_game_ratings

pytestmark = [pytest.mark.browser, pytest.mark.live]

SHORT_GRACE = {"GOBANG_FORFEIT_GRACE_SECONDS": "6"}


def leave_for_the_hall(page, base_url: str) -> None:
    page.get_by_test_id("back-to-hall").click()
    page.get_by_test_id("leave-confirm").click()
    page.wait_for_url(f"{base_url}/hall")


def test_back_to_hall_during_your_own_game_asks_first(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    black.get_by_test_id("back-to-hall").click()
    expect(black.get_by_test_id("leave-confirm-box")).to_be_visible()
    expect(black.get_by_test_id("leave-confirm-box")).to_contain_text("within 30 seconds")
    screenshot(black, "room-leave-confirm.png")
    assert re.search(r"/game/\d+$", black.url)
    black.get_by_test_id("leave-cancel").click()
    expect(black.get_by_test_id("leave-confirm-box")).to_be_hidden()
    click_point(black, "h8")
    expect(white.get_by_test_id("status")).to_have_text("Your turn")
    expect(white.get_by_test_id("away-notice")).to_be_hidden()
    leave_for_the_hall(black, live_server.url)
    expect(white.get_by_test_id("away-notice")).to_be_visible()


def test_back_to_hall_after_the_game_or_as_a_spectator_just_goes(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    watcher = browser_player("cat")
    watcher.get_by_test_id("watch-link").first.click()
    expect(watcher.get_by_test_id("status")).to_have_text(re.compile("to move"))
    watcher.get_by_test_id("back-to-hall").click()
    watcher.wait_for_url(f"{live_server.url}/hall")
    white.get_by_test_id("resign-button").click()
    white.get_by_test_id("resign-confirm").click()
    expect(white.get_by_test_id("status")).to_have_text("You lost")
    white.get_by_test_id("back-to-hall").click()
    white.wait_for_url(f"{live_server.url}/hall")


@pytest.mark.parametrize("live_env", [SHORT_GRACE])
def test_the_hall_counts_down_then_says_the_game_was_lost_and_what_it_cost(
        browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    game_path = re.search(r"/game/\d+$", black.url).group(0)
    click_point(black, "h8")
    expect(white.get_by_test_id("status")).to_have_text("Your turn")
    leave_for_the_hall(black, live_server.url)
    notice = black.get_by_test_id("current-game-notice")
    expect(notice).to_be_visible()
    expect(black.get_by_test_id("back-to-game")).to_have_text("Return to your game")
    expect(black.get_by_test_id("back-to-game")).to_have_attribute("href", game_path)
    countdown = black.get_by_test_id("away-countdown")
    expect(countdown).to_contain_text(re.compile(r"lost in 0:0[1-6]"))
    first = countdown.inner_text()
    expect(countdown).not_to_have_text(first)  # it counts down
    screenshot(black, "hall-return-to-your-game.png")
    told = black.get_by_test_id("game-result-notice")
    expect(told).to_be_visible(timeout=15_000)
    expect(told).to_contain_text("you lost, you left the game")
    # The rating of the game's category (freestyle 10+5: rapid), a newcomer's first loss.
    lost = first_game_ratings("freestyle:rapid", "white")["black"]
    change = str(lost["after"] - 1500).replace("-", "−")
    expect(black.get_by_test_id("game-result-score")).to_have_text(
        f"Rating 1500 → {lost['after']}? ({change})")
    expect(black.get_by_test_id("game-result-link")).to_have_attribute("href", game_path)
    opponent = white.get_by_test_id("nav-username").inner_text()
    expect(black.get_by_test_id("game-result-link")).to_contain_text(f"against {opponent}")
    expect(notice).to_be_hidden()
    expect(black.get_by_test_id("me-losses")).to_have_text("1")
    screenshot(black, "hall-game-lost.png")


@pytest.mark.parametrize("live_env", [SHORT_GRACE])
def test_return_to_your_game_resumes_it(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    leave_for_the_hall(white, live_server.url)
    expect(white.get_by_test_id("away-countdown")).to_be_visible()
    white.get_by_test_id("back-to-game").click()
    expect(white.get_by_test_id("status")).to_have_text("Opponent's turn")
    click_point(black, "h8")
    expect(white.get_by_test_id("status")).to_have_text("Your turn")


def test_the_hall_in_chinese_says_return_to_your_game(browser_player, live_server):
    chinese = browser_player("ann", locale="zh-CN")
    black, white = match(browser_player("ben"), chinese, live_server.url)
    zh = chinese
    zh.get_by_test_id("back-to-hall").click()
    expect(zh.get_by_test_id("leave-confirm-box")).to_contain_text("30")
    zh.get_by_test_id("leave-confirm").click()
    expect(zh.get_by_test_id("back-to-game")).to_have_text("回到你的对局")
    expect(zh.get_by_test_id("away-countdown")).to_contain_text("0:")


def screenshot(page, name: str) -> None:
    """test-artifacts/, and docs/screenshots/ when GOBANG_UPDATE_SCREENSHOTS=1."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    if os.environ.get("GOBANG_UPDATE_SCREENSHOTS") == "1":
        shutil.copy(path, SCREENSHOTS / name)
