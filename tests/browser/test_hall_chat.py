"""Hall chat keeps its history across a reload and a reconnect (issue 13, bug 3)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.live]


def say(page, text: str) -> None:
    page.get_by_test_id("hall-chat-input").fill(text)
    page.get_by_test_id("hall-chat-send").click()


def lines(page) -> list[str]:
    return [line.split(": ", 1)[1] for line in
            line_texts(page.locator("[data-testid=hall-chat-log] li"))]


def line_texts(items) -> list[str]:
    """Each chat line's words, without the Report link that others' lines carry."""
    return items.evaluate_all("""items => items.map((li) => [...li.childNodes]
        .filter((node) => !(node.matches && node.matches(".chat-report")))
        .map((node) => node.textContent).join("").trim())""")


def test_hall_chat_history_is_shown_after_a_reload_in_order_and_once(browser_player,
                                                                     live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    say(ann, "anyone up for renju?")
    say(ben, "me")
    log = ann.get_by_test_id("hall-chat-log").locator("li")
    expect(log).to_have_count(2)
    ann.reload()
    expect(log).to_have_count(2)
    assert lines(ann) == ["anyone up for renju?", "me"]
    late = browser_player("cat")
    expect(late.get_by_test_id("hall-chat-log").locator("li")).to_have_count(2)
    ann.context.set_offline(True)
    expect(ann.get_by_test_id("connection-notice")).to_be_visible(timeout=30_000)
    ann.context.set_offline(False)
    expect(ann.get_by_test_id("connection-notice")).to_be_hidden(timeout=30_000)
    # Said after the reconnect: it is shown once it arrives, and nothing before it twice.
    say(ben, "welcome back")
    expect(log).to_have_count(3)
    assert lines(ann) == ["anyone up for renju?", "me", "welcome back"]


def test_a_chat_line_is_named_by_who_said_what_not_by_its_time(browser_player):
    ann = browser_player("ann")
    say(ann, "anyone up for renju?")
    line = ann.get_by_test_id("hall-chat-log").get_by_role("listitem")
    expect(line).to_have_accessible_name("ann: anyone up for renju?")
