"""Two players in a running arena, in Chromium: joined from its page, paired and taken to
their game by the server's tick, and the page's standings show the winner's 2 points within
2 seconds of the five. And a 1-round Swiss event played to its final table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import play_to_five
from tests.support.arenas import running_arena, scheduled_swiss, start_now
from tests.support.browser import ARTIFACTS

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


def test_two_players_play_a_one_round_swiss_and_see_the_final_table(
        browser_player, new_page, live_server):
    tournament_id = scheduled_swiss(live_server.database_url, rounds=1)
    address = f"{live_server.url}/tournaments/{tournament_id}"
    ann, ben = browser_player("ann"), browser_player("ben")
    join(ann, address)
    join(ben, address)
    start_now(live_server.database_url, tournament_id)
    for page in (ann, ben):
        page.wait_for_url(re.compile(rf"{re.escape(live_server.url)}/game/\d+"))
    expect(ann.get_by_test_id("status")).to_have_text(re.compile("Your turn|Opponent's turn"))
    black, white = (ann, ben) if "Your turn" in ann.get_by_test_id("status").inner_text() else (
        ben, ann)
    winner, loser = ("ann", "ben") if black is ann else ("ben", "ann")
    play_to_five(black, white)
    expect(black.get_by_test_id("status")).to_have_text("You won!")
    black.goto(address)
    expect(black.get_by_test_id("tournament-status")).to_have_text("Finished")
    expect(black.get_by_test_id("tournament-round")).to_have_text("1 of 1")
    expect(black.get_by_test_id("countdown-box")).to_be_hidden()  # nothing left to count down
    expect(black.locator("#podium li").first).to_have_text(f"{winner} · 1")
    for name, points in ((winner, "1"), (loser, "0")):
        row = black.locator(f'[data-testid=standing][data-player="{name}"]')
        expect(row.get_by_test_id("standing-points")).to_have_text(points)
    expect(black.get_by_test_id("tournament-board")).to_contain_text("1-0")
    ARTIFACTS.mkdir(exist_ok=True)
    black.screenshot(path=str(ARTIFACTS / "swiss-finished.png"), full_page=True)
