"""Preferences in Chromium: chosen on /settings, they hold in a game (sound, move numbers, board
theme), a switch flipped in the room is saved to the account and follows the player to another
device; confirm-moves starts on for touch screens."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import login_in_browser
from tests.browser.test_game import click_point, match
from tests.browser.test_replay import finished_game, log_in  # noqa: F401  (a fixture)
from tests.support.browser import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.live]

WORDS = {
    "en-US": {"saved": "Your preferences have been saved.", "title": "Preferences"},
    "zh-CN": {"saved": "偏好设置已保存。", "title": "偏好设置"},
}
PLAIN_FACE = "rgb(244, 244, 241)"  # --board-face of the "plain" theme in site.css


def open_settings(page) -> None:
    page.get_by_test_id("nav-settings").click()
    expect(page.get_by_test_id("preferences-form")).to_be_visible()


def save_from_the_room(page, testid: str):
    """Clicks a room switch and waits for the account to have saved it."""
    with page.expect_response(lambda r: r.url.endswith("/settings/preferences/update")) as saved:
        page.get_by_test_id(testid).click()
    assert saved.value.ok
    return saved.value.json()


@pytest.mark.parametrize("locale", list(WORDS))
def test_preferences_chosen_in_settings_hold_in_a_game_and_follow_the_player(
        browser_player, live_server, new_page, locale):
    words = WORDS[locale]
    ann = browser_player("ann", locale=locale)
    open_settings(ann)
    expect(ann.locator("#preferences-title")).to_have_text(words["title"])
    ann.get_by_test_id("pref-sound").uncheck()
    ann.get_by_test_id("pref-numbers").check()
    ann.get_by_test_id("pref-theme-plain").check()
    ann.get_by_test_id("save-preferences").click()
    expect(ann.locator(".flash.info")).to_have_text(words["saved"])
    expect(ann.get_by_test_id("pref-numbers")).to_be_checked()
    expect(ann.get_by_test_id("pref-sound")).not_to_be_checked()
    ann.screenshot(path=str(ARTIFACTS / f"settings-{locale}.png"), full_page=True)

    ann.get_by_test_id("nav-hall").click()
    black, _white = match(browser_player("ben"), ann, live_server.url)  # match reads English
    expect(ann.locator("body")).to_have_class("theme-plain")
    expect(ann.get_by_test_id("mute-toggle")).to_have_attribute("aria-pressed", "true")
    expect(ann.get_by_test_id("numbers-toggle")).to_be_checked()
    expect(ann.get_by_test_id("board")).to_have_class(re.compile(r"\bnumbers\b"))
    face = ann.get_by_test_id("board").evaluate("el => getComputedStyle(el).backgroundColor")
    assert face == PLAIN_FACE
    click_point(black, "h8")  # a stone to see the theme with
    # With move numbers on, a stone's point is named by its notation and its number.
    expect(ann.locator('[aria-label="h8 1"]')).to_have_attribute("data-stone", "black")
    ann.screenshot(path=str(ARTIFACTS / f"room-plain-{locale}.png"), full_page=True)

    assert save_from_the_room(ann, "mute-toggle")["sound"] is True
    assert save_from_the_room(ann, "numbers-toggle")["numbers"] is False

    elsewhere = new_page(locale=locale)  # another device: the account's choices, not this one's
    login_in_browser(elsewhere, live_server.url, "ann")
    expect(elsewhere.locator("body")).to_have_class("theme-plain")
    open_settings(elsewhere)
    expect(elsewhere.get_by_test_id("pref-sound")).to_be_checked()
    expect(elsewhere.get_by_test_id("pref-numbers")).not_to_be_checked()


def test_confirm_moves_is_on_by_default_for_touch_screens_only(browser_player, live_server):
    phone = browser_player("ann", {"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    desktop = browser_player("ben")
    match(phone, desktop, live_server.url)
    expect(phone.get_by_test_id("confirm-toggle")).to_be_checked()
    expect(desktop.get_by_test_id("confirm-toggle")).not_to_be_checked()
    assert save_from_the_room(phone, "confirm-toggle")["confirm"] is False
    phone.reload()  # now the player's own choice, not the device's default
    expect(phone.get_by_test_id("confirm-toggle")).not_to_be_checked()


def test_replay_shows_move_numbers_for_a_player_who_chose_them(
        live_server, new_page, finished_game):  # noqa: F811
    page = new_page()
    log_in(page, live_server.url, "ann", "/settings")
    page.get_by_test_id("pref-numbers").check()
    page.get_by_test_id("save-preferences").click()
    page.goto(f"{live_server.url}/game/{finished_game}/replay")
    expect(page.get_by_test_id("numbers-toggle")).to_be_checked()
    expect(page.locator("#board .point[data-row='7'][data-col='3']")).to_have_text("1")


def test_show_forbidden_points_is_one_setting_in_settings_and_in_the_room(browser_player):
    """Settings promises the choice "on every device": the room reads the account's
    preference, and a tick in the room is saved back to it."""
    ann = browser_player("ann")
    open_settings(ann)
    ann.get_by_test_id("pref-forbidden").check()
    ann.get_by_test_id("save-preferences").click()
    expect(ann.get_by_test_id("pref-forbidden")).to_be_checked()
    ann.get_by_test_id("nav-hall").click()
    ann.get_by_test_id("computer-ruleset").select_option("renju")
    ann.get_by_test_id("computer-color").select_option("black")
    ann.get_by_test_id("computer-button").click()
    toggle = ann.get_by_test_id("forbidden-toggle")
    expect(toggle).to_be_visible()
    expect(toggle).to_be_checked()
    assert save_from_the_room(ann, "forbidden-toggle")["forbidden"] is False
    open_settings(ann)
    expect(ann.get_by_test_id("pref-forbidden")).not_to_be_checked()


def test_the_computer_is_played_from_the_hall_when_pressed_before_its_script_runs(
        browser_player, live_server):
    """A press before the hall's script has taken the form over posts it to /computer: the
    game starts as chosen (it was a GET of /hall that dropped the choices: a CI run's test
    above, on a busy machine, found no forbidden-points switch in the room)."""
    ann = browser_player("ann")
    held = []
    # The hall's script never arrives: the route is held, not answered.
    ann.route(lambda url: "/static/js/hall.js" in url, lambda route: held.append(route))
    ann.goto(f"{live_server.url}/hall", wait_until="commit")
    ann.get_by_test_id("computer-ruleset").select_option("renju")
    ann.get_by_test_id("computer-color").select_option("black")
    ann.get_by_test_id("computer-button").click()
    ann.wait_for_url(re.compile(r".*/game/\d+$"))
    expect(ann.get_by_test_id("forbidden-toggle")).to_be_visible()
