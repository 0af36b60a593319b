"""Challenges reach a player anywhere on the site (issue 13): a toast with Accept and Decline on
their profile or in a game's room, a chime unless sound is off, and the tab's title flashing
until the challenge is settled. Chromium against a live server."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import match
from tests.browser.test_hall_own_game import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.live]


def challenge_from_hall(challenger, username: str) -> None:
    """The challenger finds `username` in the hall's online list and challenges them."""
    entry = challenger.get_by_test_id("online-list").locator("li", has_text=username)
    expect(entry.locator(".badge")).to_have_text("idle")
    entry.get_by_test_id("challenge-button").click()
    challenger.get_by_test_id("challenge-send").click()  # the dialog's terms as they open
    expect(challenger.get_by_test_id("challenge-sent")).to_contain_text(username)


def titles_seen(page, within_ms: int = 2500) -> set[str]:
    """document.title sampled for a while: a flashing title shows more than one."""
    return set(page.evaluate("""(ms) => new Promise((done) => {
        const seen = new Set([document.title]);
        const timer = setInterval(() => seen.add(document.title), 100);
        setTimeout(() => { clearInterval(timer); done([...seen]); }, ms);
    })""", within_ms))


def test_a_challenge_reaches_a_player_on_their_profile_and_accepting_starts_the_game(
        browser_player, live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    ben.goto(f"{live_server.url}/u/ben")
    base_title = ben.title()
    ben.locator("main").click()  # a gesture: the page may make sound from now on
    challenge_from_hall(ann, "ben")
    toast = ben.get_by_test_id("challenge-toast")
    expect(toast).to_be_visible()
    expect(toast).to_contain_text("ann")
    expect(toast).to_contain_text("challenges you")
    expect(toast).to_have_attribute("data-sound", "played")
    assert titles_seen(ben) == {base_title, "Challenge from ann"}
    screenshot(ben, "challenge-toast-profile.png")
    toast.get_by_test_id("challenge-accept").click()
    for page in (ann, ben):
        page.wait_for_url(re.compile(rf"{re.escape(live_server.url)}/game/\d+"))
    assert ann.url == ben.url
    expect(ben.get_by_test_id("status")).to_have_text(re.compile("Your turn|Opponent's turn"))


def test_a_challenge_in_a_game_room_is_a_toast_and_declining_tells_the_challenger(
        browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    white.get_by_test_id("resign-button").click()
    white.get_by_test_id("resign-confirm").click()
    expect(black.get_by_test_id("status")).to_have_text("You won!")
    white.get_by_test_id("mute-toggle").click()  # sound off, kept in the account
    expect(white.get_by_test_id("mute-toggle")).to_have_attribute("aria-pressed", "true")
    cat = browser_player("cat")
    name = white.get_by_test_id("nav-username").inner_text()
    challenge_from_hall(cat, name)
    toast = white.get_by_test_id("challenge-toast")
    expect(toast).to_contain_text("cat")
    expect(toast).to_have_attribute("data-sound", "muted")
    assert "Challenge from cat" in titles_seen(white)
    # Not a modal: the room under the toast still works.
    expect(white.get_by_test_id("rematch-button")).to_be_enabled()
    white.get_by_test_id("room-chat-input").fill("one moment")
    white.get_by_test_id("room-chat-send").click()
    expect(black.get_by_test_id("room-chat-log")).to_contain_text("one moment")
    screenshot(white, "challenge-toast-room.png")
    toast.get_by_test_id("challenge-decline").click()
    expect(toast).to_have_count(0)
    expect(cat.get_by_test_id("challenges")).to_contain_text(f"{name} declined your challenge.")
    assert len(titles_seen(white, 1200)) == 1
    assert "Challenge" not in white.title()


def test_the_title_stops_flashing_when_the_page_gets_focus(browser_player, live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    ben.goto(f"{live_server.url}/leaderboard")
    challenge_from_hall(ann, "ben")
    expect(ben.get_by_test_id("challenge-toast")).to_be_visible()
    assert "Challenge from ann" in titles_seen(ben)
    ben.evaluate("window.dispatchEvent(new Event('focus'))")
    assert len(titles_seen(ben, 1200)) == 1
    expect(ben.get_by_test_id("challenge-toast")).to_be_visible()  # still to be answered


def test_the_hall_flashes_its_title_for_a_challenge_too(browser_player, live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    challenge_from_hall(ann, "ben")
    expect(ben.get_by_test_id("challenge")).to_contain_text("ann")
    assert "Challenge from ann" in titles_seen(ben)
    ben.get_by_test_id("challenge-decline").click()
    expect(ben.get_by_test_id("challenge")).to_have_count(0)
    assert len(titles_seen(ben, 1200)) == 1


def test_a_cancelled_challenge_leaves_the_page(browser_player, live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    ben.goto(f"{live_server.url}/settings")
    challenge_from_hall(ann, "ben")
    expect(ben.get_by_test_id("challenge-toast")).to_be_visible()
    ann.goto(f"{live_server.url}/leaderboard")  # the challenger left the hall
    expect(ben.get_by_test_id("challenge-toast")).to_have_count(0)
    assert "Challenge" not in ben.title()


def test_the_toast_in_chinese_on_a_phone(browser_player, live_server):
    ann = browser_player("ann")
    ben = browser_player("ben", {"width": 390, "height": 844}, locale="zh-CN",
                         has_touch=True, is_mobile=True)
    ben.goto(f"{live_server.url}/leaderboard")
    challenge_from_hall(ann, "ben")
    toast = ben.get_by_test_id("challenge-toast")
    expect(toast.get_by_test_id("challenge-accept")).to_have_text("接受")
    expect(toast.get_by_test_id("challenge-decline")).to_have_text("拒绝")
    assert "ann 向你挑战" in titles_seen(ben)
    box = toast.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    screenshot(ben, "challenge-toast-phone-zh.png")
