"""The page scripts in Chromium: ES modules that leave nothing on window but the vendor's io, the
shell the hall and the room share (a second tab), and the room's offers (take-back, draw,
resign, rematch) as a player clicks them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import click_point, match

pytestmark = [pytest.mark.browser, pytest.mark.live]

# What the page scripts defined on window before they were modules.
OLD_GLOBALS = ["t", "GobangBoard", "GobangAck", "GobangChat"]


def script_errors(page) -> list[str]:
    """Collects uncaught errors and console errors from now on."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def page_globals(page) -> list[str]:
    return page.evaluate("names => names.filter((name) => name in window)", OLD_GLOBALS)


def start_game(browser_player, live_server):
    """ann and ben in a game, black has played h8 and white h9: it is black's turn."""
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    click_point(black, "h8")
    expect(white.get_by_test_id("status")).to_have_text("Your turn")
    click_point(white, "h9")
    expect(black.get_by_test_id("status")).to_have_text("Your turn")
    return black, white


def test_hall_and_room_scripts_are_modules_that_leave_only_io_on_window(
        browser_player, live_server):
    first, second = browser_player("ann"), browser_player("ben")
    expect(first.locator("#online-list li")).to_have_count(2)
    assert page_globals(first) == []
    errors = [script_errors(page) for page in (first, second)]
    black, _white = match(first, second, live_server.url)
    assert page_globals(black) == []
    assert black.evaluate("typeof io") == "function"
    # The room's module, and the one every page but the hall has for challenges.
    modules = black.locator("script[type=module]").evaluate_all("nodes => nodes.map(n => n.src)")
    assert [src.rsplit("/", 1)[-1] for src in modules] == ["room.js", "site.js"]
    assert errors == [[], []]


@pytest.mark.parametrize(
    ("place", "message", "control"),
    [
        ("hall", "This hall is open in another tab.", "match-button"),
        ("room", "This game is open in another tab.", "resign-button"),
    ],
)
def test_a_second_tab_stops_the_first_until_it_takes_over_again(
        browser_player, live_server, place, message, control):
    if place == "hall":
        first = browser_player("ann")
        expect(first.get_by_test_id(control)).to_be_enabled()
    else:
        first, _white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    second = first.context.new_page()
    second.goto(first.url)
    expect(first.get_by_test_id("connection-notice")).to_contain_text(message)
    expect(first.get_by_test_id(control)).to_be_disabled()
    first.get_by_test_id("use-this-tab").click()
    expect(second.get_by_test_id("connection-notice")).to_contain_text(message)
    expect(first.get_by_test_id(control)).to_be_enabled()
    expect(first.get_by_test_id("connection-notice")).to_be_hidden()


def test_an_accepted_take_back_clears_both_moves_on_both_boards(browser_player, live_server):
    black, white = start_game(browser_player, live_server)
    black.get_by_test_id("undo-button").click()
    expect(black.get_by_test_id("undo-button")).to_have_text("Take-back requested")
    white.get_by_test_id("undo-accept").click()
    for page in (black, white):
        expect(page.locator("#board .point[data-stone]")).to_have_count(0)
    expect(black.get_by_test_id("room-notice")).to_have_text("A move was taken back.")
    expect(black.get_by_test_id("status")).to_have_text("Your turn")
    expect(white.get_by_test_id("undo-prompt")).to_be_hidden()


def test_a_declined_draw_offer_is_told_to_the_offerer(browser_player, live_server):
    black, white = start_game(browser_player, live_server)
    black.get_by_test_id("draw-button").click()
    expect(black.get_by_test_id("draw-button")).to_have_text("Draw offered")
    expect(black.get_by_test_id("draw-button")).to_be_disabled()
    white.get_by_test_id("draw-decline").click()
    expect(black.get_by_test_id("room-notice")).to_have_text("The draw offer was declined.")
    expect(black.get_by_test_id("draw-button")).to_have_text("Offer draw")
    expect(black.get_by_test_id("draw-button")).to_be_enabled()
    expect(white.get_by_test_id("draw-prompt")).to_be_hidden()


def test_an_accepted_draw_ends_the_game_for_both(browser_player, live_server):
    black, white = start_game(browser_player, live_server)
    black.get_by_test_id("draw-button").click()
    white.get_by_test_id("draw-accept").click()
    for page in (black, white):
        expect(page.get_by_test_id("status")).to_have_text("Draw")
        expect(page.get_by_test_id("result-reason")).to_have_text("draw agreed")


def test_resigning_asks_first_and_no_keeps_playing(browser_player, live_server):
    black, _white = start_game(browser_player, live_server)
    flag = black.get_by_role("button", name="Resign", exact=True)  # a quiet flag
    expect(flag).to_have_text("⚑")
    expect(flag).not_to_have_class(re.compile(r"\b(danger|primary)\b"))
    flag.click()
    expect(black.get_by_test_id("resign-confirm-box")).to_be_visible()
    expect(black.get_by_test_id("resign-cancel")).to_be_focused()
    black.get_by_test_id("resign-cancel").click()
    expect(black.get_by_test_id("resign-confirm-box")).to_be_hidden()
    expect(black.get_by_test_id("resign-button")).to_be_visible()
    expect(black.get_by_test_id("status")).to_have_text("Your turn")


def test_a_rematch_takes_both_players_to_a_new_game_with_colours_swapped(
        browser_player, live_server):
    black, white = start_game(browser_player, live_server)
    black.get_by_test_id("resign-button").click()
    black.get_by_test_id("resign-confirm").click()
    expect(black.get_by_test_id("status")).to_have_text("You lost")
    expect(white.get_by_test_id("status")).to_have_text("You won!")
    expect(white.get_by_test_id("result-reason")).to_have_text("resignation")
    old_url = black.url
    black.get_by_test_id("rematch-button").click()
    expect(black.get_by_test_id("rematch-status")).to_have_text(
        "Rematch offered; waiting for your opponent.")
    expect(black.get_by_test_id("rematch-button")).to_be_disabled()
    expect(white.get_by_test_id("rematch-button")).to_have_text("Accept rematch")
    white.get_by_test_id("rematch-button").click()
    for page in (black, white):
        expect(page).not_to_have_url(old_url)
        expect(page).to_have_url(re.compile(r"/game/\d+$"))
    expect(white.get_by_test_id("status")).to_have_text("Your turn")
    expect(black.get_by_test_id("status")).to_have_text("Opponent's turn")
