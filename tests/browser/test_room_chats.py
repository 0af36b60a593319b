"""The room's two chats in Chromium (docs/protocol.md, "Two chats"), on a phone and on a
desktop, and the Report link beside another player's chat line, in the room and in the hall."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import match

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def say(page, text: str) -> None:
    page.get_by_test_id("room-chat-input").fill(text)
    page.get_by_test_id("room-chat-send").click()


def watch(page) -> None:
    """From the hall, the first live game's Watch link, until the game is shown."""
    page.get_by_test_id("watch-link").first.click()
    expect(page.get_by_test_id("status")).to_have_text(re.compile("(Black|White) to move"))


def test_a_spectators_line_shows_in_their_tab_and_not_on_the_players_pages(browser_player,
                                                                           live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    phone = browser_player("cat", **PHONE)
    watch(phone)
    # A spectator writes in, and is shown, the spectators' tab.
    expect(phone.get_by_test_id("room-chat-tab-spectators")).to_have_attribute(
        "aria-selected", "true")
    say(phone, "nice block!")
    expect(phone.get_by_test_id("room-spectator-chat-log")).to_contain_text("nice block!")
    # A players' line said after it reaches the players' pages: had the spectator's line been
    # sent to them, it would have come first.
    say(black, "thanks")
    for page in (black, white):
        expect(page.get_by_test_id("room-chat-log")).to_contain_text("thanks")
        expect(page.get_by_test_id("room-chat-tabs")).to_be_hidden()
        expect(page.locator("#room")).not_to_contain_text("nice block!")
    # The spectator reads the players' tab, where only the players write.
    expect(phone.get_by_test_id("room-chat-unread-players")).to_have_text("1")
    phone.get_by_test_id("room-chat-tab-players").tap()
    expect(phone.get_by_test_id("room-chat-log")).to_contain_text("thanks")
    expect(phone.get_by_test_id("room-chat-read-only")).to_have_text(
        "Only the players write here.")
    expect(phone.get_by_test_id("room-chat-input")).to_be_hidden()
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # After the end both are open to the players.
    white.get_by_test_id("resign-button").click()
    white.get_by_test_id("resign-confirm").click()
    for page in (black, white):
        page.get_by_test_id("room-chat-tab-spectators").click()
        expect(page.get_by_test_id("room-spectator-chat-log")).to_contain_text("nice block!")
        expect(page.get_by_test_id("room-chat-read-only")).to_be_visible()
    black.reload()
    black.get_by_test_id("room-chat-tab-spectators").click()
    expect(black.get_by_test_id("room-spectator-chat-log")).to_contain_text("nice block!")


def test_a_player_who_turns_on_the_setting_reads_the_spectators_chat(browser_player,
                                                                     live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    watcher = browser_player("cat")
    watch(watcher)
    say(watcher, "early bird")
    black.get_by_test_id("spectator-chat-toggle").check()
    expect(black.get_by_test_id("room-spectator-chat-log")).to_contain_text("early bird")
    say(watcher, "what a fight")
    expect(black.get_by_test_id("room-spectator-chat-log")).to_contain_text("what a fight")
    expect(black.get_by_test_id("room-chat-read-only")).to_have_text(
        "The spectators write here; you can read along.")
    say(white, "barrier")
    expect(white.get_by_test_id("room-chat-log")).to_contain_text("barrier")
    expect(white.locator("#room")).not_to_contain_text("what a fight")
    # Kept with the account: the next page starts from it.
    black.reload()
    expect(black.get_by_test_id("spectator-chat-toggle")).to_be_checked()
    expect(black.get_by_test_id("room-spectator-chat-log")).to_contain_text("what a fight")


def test_a_room_chat_line_is_reported_from_its_report_link(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    name = black.get_by_test_id("name-black").inner_text()
    say(black, "you play like a potato")
    line = white.get_by_test_id("room-chat-log").locator("li").last
    expect(line).to_contain_text("you play like a potato")
    expect(black.get_by_test_id("room-chat-log").get_by_test_id("chat-report")).to_have_count(0)
    with white.context.expect_page() as opened:
        line.get_by_role("link", name=f"Report {name}'s message").click()
    form = opened.value
    expect(form.get_by_test_id("report-chat")).to_have_text("you play like a potato")
    expect(form.locator("#report-username")).to_have_value(name)
    game_id = re.search(r"/game/(\d+)", white.url).group(1)
    expect(form.locator("input[name=game_id]")).to_have_value(game_id)
    form.select_option("#report-reason", "abuse")
    form.get_by_role("button", name="Send the report").click()
    expect(form.locator(".flash.info")).to_contain_text("a moderator will look at your report")
    # The game's page stayed open, and in play.
    expect(white.get_by_test_id("status")).to_have_text("Opponent's turn")


def test_a_hall_chat_line_is_reported_from_its_report_link(browser_player, live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    ann.get_by_test_id("hall-chat-input").fill("buy cheap moves at example.com")
    ann.get_by_test_id("hall-chat-send").click()
    line = ben.get_by_test_id("hall-chat-log").locator("li").last
    expect(line).to_contain_text("buy cheap moves")
    with ben.context.expect_page() as opened:
        line.get_by_test_id("chat-report").click()
    form = opened.value
    expect(form.get_by_test_id("report-chat")).to_have_text("buy cheap moves at example.com")
    expect(form.locator("#report-username")).to_have_value("ann")
    expect(form.locator("input[name=game_id]")).to_have_count(0)
