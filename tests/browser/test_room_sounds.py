"""The room's sounds: the game's start, each stone, your own clock passing ten seconds, and the
end; all off with the sound button. The page writes the last sound it asked for on the button
(data-sound), since a headless browser has nobody to hear it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import match
from tests.browser.test_room_features import click_point

pytestmark = [pytest.mark.browser, pytest.mark.live]


def sound_of(page):
    return page.get_by_test_id("mute-toggle")


@pytest.mark.parametrize("live_env", [{"GOBANG_CLOCK_INITIAL_SECONDS": "12",
                                       "GOBANG_CLOCK_INCREMENT_SECONDS": "0"}])
def test_start_stone_low_time_and_end_each_have_a_sound(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    for page in (black, white):
        expect(sound_of(page)).to_have_attribute("data-sound", "start")
    click_point(black, "h8")  # black's first move is not timed: white's 12 s start now
    expect(sound_of(black)).to_have_attribute("data-sound", "stone")
    expect(sound_of(white)).to_have_attribute("data-sound", "low", timeout=5_000)
    expect(sound_of(black)).to_have_attribute("data-sound", "stone")  # not black's clock
    white.get_by_test_id("resign-button").click()
    white.get_by_test_id("resign-confirm").click()
    for page in (black, white):
        expect(sound_of(page)).to_have_attribute("data-sound", "end")


def test_the_sound_button_silences_every_sound(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    sound_of(white).click()
    expect(sound_of(white)).to_have_attribute("aria-pressed", "true")
    click_point(black, "h8")
    expect(sound_of(white)).to_have_attribute("data-sound", "muted")
    white.get_by_test_id("resign-button").click()
    white.get_by_test_id("resign-confirm").click()
    expect(sound_of(black)).to_have_attribute("data-sound", "end")
    expect(sound_of(white)).to_have_attribute("data-sound", "muted")
