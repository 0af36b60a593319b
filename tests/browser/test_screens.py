"""Phones and keyboards: the pages fit a phone's screen, touch play with an optional confirm
step, arrow keys and Enter on the board, and moves read out in a live region. Screenshots of
every page at both sizes go to test-artifacts/ for a person to look at."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import BLACK_POINTS, WHITE_POINTS, match
from tests.support.browser import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# (viewport, context options, the share of the viewport's width the board must fill)
DEVICES = {
    "phone": (PHONE, {"has_touch": True, "is_mobile": True}, 0.9),
    "desktop": (DESKTOP, {}, 0.0),
}


def point(page, notation: str):
    return page.get_by_role("button", name=notation, exact=True)


def pick(page, notation: str) -> None:
    """A tap on a touch screen, a click elsewhere."""
    target = point(page, notation)
    if page.context.pages and page.evaluate("navigator.maxTouchPoints > 0"):
        target.tap()
    else:
        target.click()


def expect_stone(page, notation: str, color: str) -> None:
    expect(page.locator(f'[aria-label="{notation}"]')).to_have_attribute("data-stone", color)


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def assert_no_sideways_scroll(page) -> None:
    """Nothing sticks out sideways. A mobile browser widens its layout viewport (innerWidth) to
    fit content that does, so both are held to the device's width. Measured after the page's
    load event: a link's navigation returns once the new page's markup is in, and until
    site.css arrives the unstyled profile is 466 px wide (a CI run measured it so)."""
    page.wait_for_load_state("load")
    widths = page.evaluate(
        "({scroll: document.scrollingElement.scrollWidth, inner: window.innerWidth})")
    device = page.viewport_size["width"]
    assert widths == {"scroll": widths["scroll"], "inner": device}, widths
    assert widths["scroll"] <= device, widths


def assert_board_fits(page, share: float) -> None:
    box = page.get_by_test_id("board").bounding_box()
    assert abs(box["width"] - box["height"]) <= 1, box  # square
    assert box["width"] >= share * page.viewport_size["width"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"], box


def place(page, notation: str) -> None:
    """Plays a stone: a second pick where moves are confirmed (touch screens, by default)."""
    pick(page, notation)
    if page.get_by_test_id("confirm-toggle").is_checked():
        pick(page, notation)


def play_moves(black, white, black_points, white_points) -> None:
    for index, black_point in enumerate(black_points):
        place(black, black_point)
        expect_stone(white, black_point, "black")
        if index < len(white_points):
            place(white, white_points[index])
            expect_stone(black, white_points[index], "white")


@pytest.mark.parametrize("device", list(DEVICES))
def test_every_page_fits_the_screen(browser_player, live_server, device):
    viewport, options, share = DEVICES[device]
    mine = browser_player("ann", viewport, **options)
    theirs = browser_player("ben")
    expect(mine.locator("#online-list li")).to_have_count(2)
    assert_no_sideways_scroll(mine)
    screenshot(mine, f"{device}-hall")

    black, white = match(theirs, mine, live_server.url)
    play_moves(black, white, BLACK_POINTS[:3], WHITE_POINTS[:3])
    expect(mine.get_by_test_id("status")).to_have_text("Your turn" if mine is black else
                                                       "Opponent's turn")
    assert_board_fits(mine, share)
    assert_no_sideways_scroll(mine)
    screenshot(mine, f"{device}-game")

    play_moves(black, white, BLACK_POINTS[3:], WHITE_POINTS[3:])
    expect(mine.get_by_test_id("status")).to_have_text("You won!" if mine is black else "You lost")
    mine.get_by_test_id("replay-link").click()
    expect(mine.get_by_test_id("move-counter")).to_have_text("Move 9 of 9")
    assert_board_fits(mine, share)
    assert_no_sideways_scroll(mine)
    screenshot(mine, f"{device}-replay")

    mine.get_by_test_id("nav-profile").click()
    expect(mine.get_by_test_id("game-row")).to_have_count(1)
    assert_no_sideways_scroll(mine)
    screenshot(mine, f"{device}-profile")

    mine.get_by_test_id("profile-following-link").click()
    expect(mine.get_by_test_id("no-followed")).to_be_visible()
    assert_no_sideways_scroll(mine)


def test_confirm_moves_previews_on_the_first_tap_and_places_on_the_second(
        browser_player, live_server):
    viewport, options, _share = DEVICES["phone"]
    phone = browser_player("ann", viewport, **options)
    desktop = browser_player("ben")
    black, white = match(desktop, phone, live_server.url)
    if phone is white:
        pick(black, "h8")
        expect_stone(phone, "h8", "black")
    expect(phone.get_by_test_id("confirm-toggle")).to_be_checked()  # a touch screen's default

    pick(phone, "g7")
    expect(point(phone, "g7")).to_have_class("point pending")
    # A chat message sent after the preview reaches the other page: had the preview sent a
    # move on the same connection, it would have arrived first.
    phone.get_by_test_id("room-chat-input").fill("previewing")
    phone.get_by_test_id("room-chat-send").tap()
    expect(desktop.get_by_test_id("room-chat-log")).to_contain_text("previewing")
    assert phone.locator("#board [data-stone]").count() == (1 if phone is white else 0)
    assert desktop.locator('[aria-label="g7"][data-stone]').count() == 0

    pick(phone, "j10")  # another point moves the preview
    expect(point(phone, "j10")).to_have_class("point pending")
    expect(point(phone, "g7")).to_have_class("point")
    screenshot(phone, "phone-confirm-preview")

    pick(phone, "j10")
    color = "white" if phone is white else "black"
    expect_stone(phone, "j10", color)
    expect_stone(desktop, "j10", color)
    expect(phone.locator("#board .pending")).to_have_count(0)

    phone.reload()  # the setting is remembered
    expect(phone.get_by_test_id("confirm-toggle")).to_be_checked()


def test_arrow_keys_and_enter_play_and_the_move_is_announced(browser_player, live_server):
    english = browser_player("ben")
    chinese = browser_player("ann", locale="zh-CN")
    black, white = match(english, chinese, live_server.url)
    expect(black.get_by_test_id("board")).to_have_class("board interactive")
    point(black, "h8").focus()
    for key in ("ArrowRight", "ArrowRight", "ArrowUp", "ArrowLeft"):
        black.keyboard.press(key)
    assert black.evaluate("document.activeElement.getAttribute('aria-label')") == "i9"
    black.keyboard.press("Enter")
    expect_stone(white, "i9", "black")
    announcer = {english: "black i9", chinese: "黑方 i9"}
    for page in (black, white):
        expect(page.get_by_test_id("move-announcer")).to_have_text(announcer[page])
        expect(page.get_by_test_id("move-announcer")).to_have_attribute("aria-live", "polite")
