"""Two people play a whole game in Chromium; a spectator watches it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.live]

# Black: h8 i8 j8 k8 l8 (row 7); white replies on row 0.
BLACK_POINTS = ["d8", "e8", "f8", "g8", "h8"]
WHITE_POINTS = ["a15", "b15", "c15", "d15"]


def match(first, second, base_url: str):
    """Both press Match; returns the pages as (black, white) once both are in the room."""
    for page in (first, second):
        page.get_by_test_id("match-button").click()
    for page in (first, second):
        page.wait_for_url(re.compile(rf"{re.escape(base_url)}/game/\d+"), timeout=10_000)
    # Wait for the game itself: before it, the status also reads "Connecting…".
    expect(first.get_by_test_id("status")).to_have_text(re.compile("Your turn|Opponent's turn"))
    first_is_black = "Your turn" in first.get_by_test_id("status").inner_text()
    return (first, second) if first_is_black else (second, first)


def click_point(page, notation: str) -> None:
    """Plays a stone: a second click where moves are confirmed (touch screens, by default)."""
    point = page.get_by_role("button", name=notation, exact=True)
    point.click()
    confirm = page.get_by_test_id("confirm-toggle")
    if confirm.count() and confirm.is_checked():
        point.click()


def play_to_five(black, white) -> None:
    for index, point in enumerate(BLACK_POINTS):
        expect(black.get_by_test_id("status")).to_have_text("Your turn")
        click_point(black, point)
        expect(black.locator(f'[aria-label="{point}"]')).to_have_attribute("data-stone", "black")
        if index < len(WHITE_POINTS):
            expect(white.get_by_test_id("status")).to_have_text("Your turn")
            click_point(white, WHITE_POINTS[index])
            expect(white.locator(f'[aria-label="{WHITE_POINTS[index]}"]')).to_have_attribute(
                "data-stone", "white")


def test_two_players_match_and_play_until_five(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    expect(white.get_by_test_id("status")).to_have_text("Opponent's turn")
    play_to_five(black, white)
    expect(black.get_by_test_id("status")).to_have_text("You won!")
    expect(white.get_by_test_id("status")).to_have_text("You lost")
    expect(black.get_by_test_id("result-reason")).to_contain_text("five in a row")
    expect(black.locator("[data-testid=board] .win")).to_have_count(5)
    assert live_server_score(live_server, black) == 1030


def live_server_score(live_server, page) -> int:
    response = page.request.get(f"{live_server.url}/api/me")
    return response.json()["score"]


def test_spectator_watches_and_sees_chat_and_result(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    watcher = browser_player("cat")
    watcher.get_by_test_id("watch-link").first.click()
    expect(watcher.get_by_test_id("status")).to_have_text(re.compile("(Black|White) to move"))
    expect(black.get_by_test_id("spectators")).to_contain_text("1")
    expect(watcher.get_by_test_id("controls")).to_be_hidden()
    black.get_by_test_id("room-chat-input").fill("good luck")
    black.get_by_test_id("room-chat-send").click()
    expect(watcher.get_by_test_id("room-chat-log")).to_contain_text("good luck")
    expect(watcher.get_by_test_id("room-chat-log")).to_contain_text("black")
    play_to_five(black, white)
    expect(watcher.get_by_test_id("status")).to_have_text("Black won")
    expect(watcher.locator("[data-testid=board] [data-stone]")).to_have_count(9)


def test_chat_markup_is_shown_as_text_and_never_runs(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    dialogs = []
    for page in (black, white):
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    attack = "<img src=x onerror=alert(1)>"
    black.get_by_test_id("room-chat-input").fill(attack)
    black.get_by_test_id("room-chat-send").click()
    expect(white.get_by_test_id("room-chat-log")).to_contain_text(attack)
    assert white.locator("[data-testid=room-chat-log] img").count() == 0
    # A later message shown on both pages: the attack's markup has had every chance to run.
    black.get_by_test_id("room-chat-input").fill("after")
    black.get_by_test_id("room-chat-send").click()
    for page in (black, white):
        expect(page.get_by_test_id("room-chat-log")).to_contain_text("after")
    assert dialogs == []


