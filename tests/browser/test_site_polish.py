"""Site-wide polish in Chromium: the header on one line on a phone with a menu for the rest, the
replay page's key hints only with a keyboard and no link to itself, the score chart's start."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import register_in_browser
from tests.browser.test_replay import finished_game, winner  # noqa: F401  (fixtures)
from tests.browser.test_screens import assert_no_sideways_scroll
from tests.support.browser import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 390, "height": 844}
TOUCH = {"has_touch": True, "is_mobile": True}
LEADERBOARD = {"en-US": "Leaderboard", "zh-CN": "排行榜"}


def tops_of_the_bar(page) -> list[float]:
    """The top edge of everything drawn on the header's bar (not inside the open menu), once
    the stylesheet has applied (see assert_no_sideways_scroll)."""
    page.wait_for_load_state("load")
    return page.evaluate("""() => [...document.querySelectorAll(
        '.topbar > .brand, .topbar .topnav > a, .topbar .site-menu > summary')]
        .filter(el => el.getClientRects().length)
        .map(el => Math.round(el.getBoundingClientRect().top))""")


@pytest.mark.parametrize("locale", list(LEADERBOARD))
@pytest.mark.parametrize("who", ["visitor", "player"])
def test_header_fits_one_line_on_a_phone_with_a_menu_for_the_rest(
        live_server, new_page, locale, who):
    page = new_page(PHONE, locale=locale, **TOUCH)
    if who == "player":
        register_in_browser(page, live_server.url, "a_rather_long_name")
    else:
        page.goto(f"{live_server.url}/leaderboard")
    tops = tops_of_the_bar(page)
    assert len(tops) == 4 and max(tops) - min(tops) <= 6, tops  # brand, two links, menu
    assert page.locator("header.topbar").bounding_box()["height"] <= 56
    assert_no_sideways_scroll(page)
    expect(page.get_by_test_id("nav-leaderboard")).to_be_hidden()

    page.get_by_test_id("site-menu-button").tap()
    expect(page.get_by_test_id("language-switcher")).to_be_visible()
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(ARTIFACTS / f"phone-menu-{who}-{locale}.png"))
    page.get_by_test_id("nav-leaderboard").tap()
    expect(page.locator("h1")).to_have_text(LEADERBOARD[locale])


def test_header_shows_everything_on_the_bar_on_a_desktop(browser_player):
    page = browser_player("ann")
    expect(page.get_by_test_id("site-menu-button")).to_be_hidden()
    for testid in ("nav-hall", "nav-profile", "nav-leaderboard", "nav-settings", "nav-username",
                   "logout", "language-switcher"):
        expect(page.get_by_test_id(testid)).to_be_visible()
    tops = page.evaluate("""() => ['nav-hall', 'nav-settings', 'logout', 'lang-zh_Hans']
        .map(id => Math.round(document.querySelector(`[data-testid=${id}]`)
        .getBoundingClientRect().top))""")
    assert max(tops) - min(tops) <= 6, tops


@pytest.mark.parametrize(("device", "shown_at_first"), [("desktop", True), ("phone", False)])
def test_replay_key_hints_show_only_with_a_keyboard(
        live_server, new_page, finished_game, device, shown_at_first):  # noqa: F811
    page = new_page(PHONE, **TOUCH) if device == "phone" else new_page()
    page.goto(f"{live_server.url}/game/{finished_game}/replay")
    expect(page.locator("#board .point[data-stone]")).to_have_count(9)
    hint = page.get_by_test_id("keyboard-hint")
    if shown_at_first:
        expect(hint).to_be_visible()
    else:
        expect(hint).to_be_hidden()
        page.keyboard.press("ArrowLeft")  # a keyboard after all (a tablet's, say)
        expect(page.locator("#board .point[data-stone]")).to_have_count(8)
        expect(hint).to_be_visible()
    expect(page.locator(f'a[href="/game/{finished_game}/replay"]')).to_have_count(0)


def test_score_chart_sets_out_from_the_starting_score(
        live_server, new_page, finished_game, winner):  # noqa: F811
    page = new_page()
    page.goto(f"{live_server.url}/u/{winner}")
    chart = page.get_by_test_id("score-chart")  # not the rating charts below it
    start = chart.get_by_test_id("chart-start")
    expect(start).to_have_attribute("data-score", "1000")
    point = chart.get_by_test_id("chart-point")
    expect(point).to_have_count(1)
    # The winner's line climbs from the start (SVG y grows downwards).
    assert point.bounding_box()["y"] < start.bounding_box()["y"]


ROW_PARTS = """() => [...document.querySelectorAll('[data-testid=front-game]')].map((row) => {
    const box = (el) => { const r = el.getBoundingClientRect();
                          return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
    return {who: box(row.querySelector('.who')), about: box(row.querySelector(':scope > .muted')),
            replay: box(row.querySelector('[data-testid=front-replay-link]'))};
})"""


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_recent_games_keep_the_replay_button_beside_a_computer_game(
        browser_player, live_server, new_page, viewport):
    from tests.browser.test_computer import REPLY_MS, start_computer_game
    from tests.browser.test_game import click_point

    player = browser_player("a_rather_long_name_1")
    start_computer_game(player, live_server.url, "black")
    click_point(player, "h8")
    expect(player.locator("[data-stone=white]")).to_have_count(1, timeout=REPLY_MS)
    player.get_by_test_id("resign-button").click()
    player.get_by_test_id("resign-confirm").click()
    expect(player.get_by_test_id("status")).to_have_text("You lost")

    page = new_page(viewport)
    page.goto(f"{live_server.url}/")
    expect(page.get_by_test_id("front-game")).to_have_count(1)
    expect(page.get_by_test_id("front-game").first).to_contain_text("Computer · level 1")
    page.wait_for_load_state("load")
    for row in page.evaluate(ROW_PARTS):
        # The button sits beside the names and the result, not on a line of its own.
        assert row["replay"]["top"] < row["who"]["bottom"], row
        assert row["replay"]["left"] >= max(row["who"]["right"], row["about"]["right"]) - 1, row
    assert_no_sideways_scroll(page)
