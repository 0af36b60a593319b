"""The challenge dialog: a Challenge button names its player and asks the terms (ruleset,
clock, the challenger's colour, rated or casual); the receiver's toast shows them, and the
game is played on them (docs/protocol.md, Casual games)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import match

pytestmark = [pytest.mark.browser, pytest.mark.live]


def open_dialog(challenger, username: str):
    entry = challenger.get_by_test_id("online-list").locator("li", has_text=username)
    expect(entry.locator(".badge")).to_have_text("idle")
    entry.get_by_role("button", name=f"Challenge {username}").click()
    dialog = challenger.get_by_test_id("challenge-dialog")
    expect(dialog).to_be_visible()
    return dialog


def test_a_casual_challenge_as_white_is_played_on_those_terms(browser_player, live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    ben.goto(f"{live_server.url}/leaderboard")
    dialog = open_dialog(ann, "ben")
    expect(dialog.get_by_test_id("challenge-dialog-title")).to_have_text("Challenge ben")
    dialog.get_by_test_id("challenge-ruleset").select_option("renju")
    dialog.get_by_test_id("challenge-clock").select_option("none")
    dialog.get_by_test_id("challenge-color").select_option("white")
    dialog.get_by_test_id("challenge-casual").check()
    dialog.get_by_test_id("challenge-send").click()
    expect(dialog).to_be_hidden()
    expect(ann.get_by_test_id("challenge-sent")).to_contain_text("Casual")
    toast = ben.get_by_test_id("challenge-toast")
    expect(toast).to_contain_text("Casual")
    expect(toast).to_contain_text("you play black")
    toast.get_by_test_id("challenge-accept").click()
    for page in (ann, ben):
        page.wait_for_url(re.compile(rf"{re.escape(live_server.url)}/game/\d+"))
        expect(page.get_by_test_id("ruleset-name")).to_have_text(
            re.compile(r"^renju · .* · Casual$"))
    expect(ben.get_by_test_id("status")).to_have_text("Your turn")  # ben has black
    expect(ann.get_by_test_id("status")).to_have_text("Opponent's turn")


def test_cancelling_the_dialog_sends_nothing(browser_player, live_server):
    ann, _ben = browser_player("ann"), browser_player("ben")
    dialog = open_dialog(ann, "ben")
    ann.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(ann.get_by_test_id("challenge-sent")).to_have_count(0)


def test_a_finished_games_opponent_is_challenged_from_the_room(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    white.get_by_test_id("resign-button").click()
    white.get_by_test_id("resign-confirm").click()
    link = black.get_by_test_id("challenge-opponent-link")
    opponent = "ben" if link.text_content() == "Challenge ben" else "ann"
    expect(link).to_have_text(f"Challenge {opponent}")
    link.click()
    dialog = black.get_by_test_id("challenge-dialog")
    expect(dialog.get_by_test_id("challenge-dialog-title")).to_have_text(f"Challenge {opponent}")
    dialog.get_by_test_id("challenge-send").click()
    expect(white.get_by_test_id("challenge-toast")).to_contain_text("challenges you")
    assert black.url == f"{live_server.url}/hall"  # the query is gone: a reload asks nothing


def test_the_opening_choice_follows_the_ruleset_and_the_toast_names_it(browser_player,
                                                                       live_server):
    ann, ben = browser_player("ann"), browser_player("ben")
    ben.goto(f"{live_server.url}/leaderboard")
    dialog = open_dialog(ann, "ben")
    opening = dialog.get_by_test_id("challenge-opening")
    offered = opening.locator("option:enabled")
    dialog.get_by_test_id("challenge-ruleset").select_option("freestyle")
    expect(offered).to_have_text(["No opening rule", "Swap", "Swap2"])
    opening.select_option("swap2")
    dialog.get_by_test_id("challenge-ruleset").select_option("renju")
    expect(opening).to_have_value("none")  # renju has no swap2
    expect(offered).to_have_text(["No opening rule", "Taraguchi-10"])
    opening.select_option("taraguchi-10")
    dialog.get_by_test_id("challenge-send").click()
    expect(ann.get_by_test_id("challenge-sent")).to_contain_text("renju · 10+5 · Taraguchi-10")
    expect(ben.get_by_test_id("challenge-toast")).to_contain_text("renju · 10+5 · Taraguchi-10")
