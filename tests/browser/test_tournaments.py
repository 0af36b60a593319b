"""Two players in a running arena, in Chromium: joined from its page, paired and taken to
their game by the server's tick, and the page's standings show the winner's 2 points within
2 seconds of the five."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import play_to_five
from tests.support.arenas import running_arena

pytestmark = [pytest.mark.browser, pytest.mark.live]


def join(page, address: str) -> None:
    page.goto(address)
    page.get_by_test_id("tournament-join").click()


def test_two_players_are_paired_and_the_winner_s_points_show_at_once(
        browser_player, new_page, live_server):
    address = f"{live_server.url}/tournaments/{running_arena(live_server.database_url)}"
    watcher = new_page()
    watcher.goto(address)
    ann, ben = browser_player("ann"), browser_player("ben")
    join(ann, address)
    join(ben, address)
    for page in (ann, ben):
        page.wait_for_url(re.compile(rf"{re.escape(live_server.url)}/game/\d+"))
    expect(ann.get_by_test_id("status")).to_have_text(re.compile("Your turn|Opponent's turn"))
    black, white = (ann, ben) if "Your turn" in ann.get_by_test_id("status").inner_text() else (
        ben, ann)
    winner = "ann" if black is ann else "ben"
    expect(watcher.locator("#tournament-games li")).to_have_count(1)
    play_to_five(black, white)
    expect(black.get_by_test_id("status")).to_have_text("You won!")
    row = watcher.locator(f'[data-testid=standing][data-player="{winner}"]')
    expect(row.get_by_test_id("standing-points")).to_have_text("2", timeout=2_000)
    expect(watcher.locator("#tournament-games li")).to_have_count(0)


def test_a_player_goes_berserk_before_their_first_stone_and_their_clock_shows_half(
        browser_player, live_server):
    address = f"{live_server.url}/tournaments/{running_arena(live_server.database_url)}"
    ann, ben = browser_player("ann"), browser_player("ben")
    join(ann, address)
    join(ben, address)
    for page in (ann, ben):
        page.wait_for_url(re.compile(rf"{re.escape(live_server.url)}/game/\d+"))
    expect(ann.get_by_test_id("status")).to_have_text(re.compile("Your turn|Opponent's turn"))
    colour = "black" if "Your turn" in ann.get_by_test_id("status").inner_text() else "white"
    expect(ann.get_by_test_id(f"clock-{colour}")).to_have_text("05:00")
    ann.get_by_test_id("berserk").click()
    expect(ann.get_by_test_id(f"clock-{colour}")).to_have_text("02:30")
    expect(ann.get_by_test_id("berserk")).to_have_count(0)
