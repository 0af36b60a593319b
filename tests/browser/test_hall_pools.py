"""Time-control pools in Chromium: the hall's quick-pairing grid, a challenge's clock, and New
opponent after a game going back to the same pool."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import match
from tests.support.pools import CLOCK_LABELS

pytestmark = [pytest.mark.browser, pytest.mark.live]


def in_game(page, base_url: str) -> None:
    page.wait_for_url(re.compile(rf"{re.escape(base_url)}/game/\d+"), timeout=10_000)
    expect(page.get_by_test_id("status")).to_have_text(re.compile("Your turn|Opponent's turn"))


def test_two_players_press_the_same_pool_and_play_with_its_clock(browser_player, live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    ann.get_by_test_id("ruleset").select_option("renju")
    ann.get_by_test_id("pool-180+2").click()
    expect(ann.get_by_test_id("pool-180+2")).to_have_attribute("aria-pressed", "true")
    expect(ann.get_by_test_id("pool-300+3")).to_be_disabled()
    # Ben sees ann waiting in that pool, only once he looks at renju's grid.
    waiting = ben.get_by_test_id("pool-180+2").get_by_test_id("pool-count")
    expect(waiting).to_have_text("0 waiting")
    ben.get_by_test_id("ruleset").select_option("renju")
    expect(waiting).to_have_text("1 waiting")
    ben.get_by_test_id("pool-180+2").click()
    for page in (ann, ben):
        in_game(page, live_server.url)
        for color in ("black", "white"):
            expect(page.get_by_test_id(f"clock-{color}")).to_have_text("03:00")
    expect(ann.get_by_test_id("ruleset-name")).to_have_text("renju · 3+2")
    expect(ann.get_by_test_id("new-opponent-link")).to_have_attribute(
        "href", "/hall?match=renju&clock=180%2B2")


def test_pressing_the_pool_again_leaves_the_queue(browser_player, live_server):
    ann = browser_player("ann")
    pool = ann.get_by_test_id("pool-900+10")
    pool.click()
    expect(ann.get_by_test_id("match-button")).to_have_attribute("aria-pressed", "true")
    pool.click()
    expect(ann.get_by_test_id("match-button")).to_have_attribute("aria-pressed", "false")
    expect(pool).to_have_attribute("aria-pressed", "false")
    expect(ann.get_by_test_id("pool-300+3")).to_be_enabled()


def test_a_game_without_a_clock_shows_no_clocks(browser_player, live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    expect(ann.get_by_test_id("pool-none").locator(".pool-time")).to_have_text("No clock")
    for page in (ann, ben):
        page.get_by_test_id("pool-none").click()
    for page in (ann, ben):
        in_game(page, live_server.url)
        expect(page.get_by_test_id("clock-black")).to_be_hidden()
        expect(page.get_by_test_id("clock-white")).to_be_hidden()
        expect(page.get_by_test_id("ruleset-name")).to_have_text("freestyle · No clock")


def test_a_challenge_is_for_the_chosen_clock(browser_player, live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    ann.get_by_test_id("clock-choice").select_option("300+3")
    ann.get_by_test_id("online-list").locator("li", has_text="ben").get_by_test_id(
        "challenge-button").click()
    expect(ann.get_by_test_id("challenge-clock")).to_have_value("300+3")  # the Play card's
    ann.get_by_test_id("challenge-send").click()
    expect(ann.get_by_test_id("challenges")).to_contain_text("freestyle · 5+3")
    challenge = ben.get_by_test_id("challenge")
    expect(challenge).to_contain_text("challenges you · freestyle · 5+3")
    challenge.get_by_test_id("challenge-accept").click()
    for page in (ann, ben):
        in_game(page, live_server.url)
        expect(page.get_by_test_id("clock-black")).to_have_text("05:00")


def test_new_opponent_after_a_game_matches_in_the_same_pool(browser_player, live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    for page in (ann, ben):
        page.get_by_test_id("clock-choice").select_option("none")
    black, white = match(ann, ben, live_server.url)
    white.get_by_test_id("resign-button").click()
    white.get_by_test_id("resign-confirm").click()
    link = ann.get_by_test_id("new-opponent-link")
    expect(link).to_have_attribute("href", "/hall?match=freestyle&clock=none")
    link.click()
    expect(ann.get_by_test_id("pool-none")).to_have_attribute("aria-pressed", "true")
    expect(ann.get_by_test_id("clock-choice")).to_have_value("none")
    ann.wait_for_url(f"{live_server.url}/hall")


def test_the_old_new_opponent_address_matches_in_the_default_pool(browser_player, live_server):
    ann = browser_player("ann")
    ann.goto(f"{live_server.url}/hall?match=standard")
    expect(ann.get_by_test_id("pool-600+5")).to_have_attribute("aria-pressed", "true")
    expect(ann.get_by_test_id("ruleset")).to_have_value("standard")


def test_the_pool_grid_in_chinese(browser_player, live_server):
    ann = browser_player("ann", locale="zh-CN")
    expect(ann.get_by_test_id("pool-none").locator(".pool-time")).to_have_text("不计时")
    expect(ann.get_by_test_id("pool-300+3").locator(".pool-time")).to_have_text("5+3")
    ann.get_by_test_id("pool-300+3").click()
    expect(ann.get_by_test_id("pool-300+3").get_by_test_id("pool-count")).to_have_text("1 人等待")
    expect(ann.get_by_text("每方分钟数 + 每步加秒数")).to_be_visible()


@pytest.mark.parametrize("live_env", [{"GOBANG_MATCH_POOLS": "[[60, 0], [1800, 20]]"}])
def test_the_grid_offers_the_hosts_pools(browser_player, live_server):
    ann = browser_player("ann")
    times = ann.get_by_test_id("pool-grid").locator(".pool-time")
    expect(times).to_have_text(["1+0", "30+20", "10+5"])



def queue_in_renju_3_2_and_open_another_tab(ann, base_url: str):
    """Ann waits in renju 3+2, then opens the hall in a second tab, which takes the hall
    connection over while she stays queued."""
    ann.get_by_test_id("ruleset").select_option("renju")
    ann.get_by_test_id("pool-180+2").click()
    expect(ann.get_by_test_id("pool-180+2")).to_have_attribute("aria-pressed", "true")
    tab = ann.context.new_page()
    tab.goto(f"{base_url}/hall")
    expect(ann.get_by_test_id("use-this-tab")).to_be_visible()
    return tab


def expect_waiting_in_renju_3_2(page) -> None:
    expect(page.get_by_test_id("pool-180+2")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("match-button")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("ruleset")).to_have_value("renju")
    expect(page.get_by_test_id("clock-choice")).to_have_value("180+2")
    expect(page.get_by_test_id("pool-300+3")).to_be_disabled()


def test_a_second_hall_tab_shows_the_pool_you_wait_in(browser_player, live_server):
    ann = browser_player("ann")
    tab = queue_in_renju_3_2_and_open_another_tab(ann, live_server.url)
    expect_waiting_in_renju_3_2(tab)


def test_after_a_reload_the_pool_you_wait_in_is_pressed_and_pressing_it_cancels(
        browser_player, live_server):
    ann = browser_player("ann")
    tab = queue_in_renju_3_2_and_open_another_tab(ann, live_server.url)
    ann.get_by_test_id("use-this-tab").click()  # reloads the page
    expect(tab.get_by_test_id("use-this-tab")).to_be_visible()
    expect_waiting_in_renju_3_2(ann)
    pool = ann.get_by_test_id("pool-180+2")
    expect(pool.get_by_test_id("pool-count")).to_have_text("1 waiting")
    pool.click()
    expect(ann.get_by_test_id("match-button")).to_have_attribute("aria-pressed", "false")
    expect(pool).to_have_attribute("aria-pressed", "false")
    expect(pool.get_by_test_id("pool-count")).to_have_text("0 waiting")
    expect(ann.get_by_test_id("pool-300+3")).to_be_enabled()


def test_the_pages_name_clocks_as_the_server_does(browser_player):
    page = browser_player("ann")
    labels = page.evaluate("""async (clocks) => {
        const {clockLabel} = await import('/static/js/pools.js');
        return clocks.map(clockLabel);
    }""", [list(clock) for clock, _label in CLOCK_LABELS])
    assert labels == [label for _clock, label in CLOCK_LABELS]


def test_a_pool_with_an_opening_is_a_button_of_its_own(browser_player, live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    swap2 = ann.get_by_test_id("pool-freestyle/600+5/swap2")
    expect(swap2.locator(".pool-time")).to_have_text("Freestyle 10+5 · Swap2")
    swap2.click()
    expect(swap2).to_have_attribute("aria-pressed", "true")
    expect(ann.get_by_test_id("pool-600+5")).to_be_disabled()  # the one without an opening
    waiting = ben.get_by_test_id("pool-freestyle/600+5/swap2").get_by_test_id("pool-count")
    expect(waiting).to_have_text("1 waiting")
    expect(ben.get_by_test_id("pool-600+5").get_by_test_id("pool-count")).to_have_text(
        "0 waiting")
    swap2.click()
    expect(swap2).to_have_attribute("aria-pressed", "false")
    chinese = browser_player("cat", locale="zh-CN")
    expect(chinese.get_by_test_id("pool-renju/600+5/taraguchi-10").locator(".pool-time")
           ).to_have_text("连珠 10+5 · 田口十打")


def test_new_opponent_after_a_game_with_an_opening_matches_in_its_pool(browser_player,
                                                                       live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    for page in (ann, ben):
        page.get_by_test_id("pool-freestyle/600+5/swap2").click()
    for page in (ann, ben):
        page.wait_for_url(re.compile(rf"{re.escape(live_server.url)}/game/\d+"))
    ben.get_by_test_id("resign-button").click()
    ben.get_by_test_id("resign-confirm").click()
    link = ann.get_by_test_id("new-opponent-link")
    expect(link).to_have_attribute("href", "/hall?match=freestyle&clock=600%2B5&opening=swap2")
    link.click()
    expect(ann.get_by_test_id("pool-freestyle/600+5/swap2")).to_have_attribute(
        "aria-pressed", "true")
    ann.wait_for_url(f"{live_server.url}/hall")
