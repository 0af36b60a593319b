"""Playing the computer in Chromium: start from the hall, play to the end in the room."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from gobang.ai import BuiltinPlayer
from gobang.rules import SIZE
from gobang.rules import Game as RulesGame
from tests.browser.test_game import click_point

pytestmark = [pytest.mark.browser, pytest.mark.live]

REPLY_MS = 60_000
TURN_OR_END = re.compile("Your turn|You won!|You lost|Draw")


def notation(row: int, col: int) -> str:
    return f"{chr(ord('a') + col)}{SIZE - row}"


def point_of(label: str) -> tuple[int, int]:
    return SIZE - int(label[1:]), ord(label[0]) - ord("a")


def stones(page) -> dict[tuple[int, int], str]:
    found = page.eval_on_selector_all(
        "[data-stone]", "els => els.map((e) => [e.getAttribute('aria-label'), e.dataset.stone])")
    return {point_of(label): color for label, color in found if color in ("black", "white")}


def start_computer_game(page, base_url: str, color: str) -> None:
    page.get_by_test_id("computer-level").select_option("1")
    page.get_by_test_id("computer-color").select_option(color)
    page.get_by_test_id("computer-button").click()
    page.wait_for_url(re.compile(rf"{re.escape(base_url)}/game/\d+"), timeout=10_000)


def test_a_game_against_the_computer_is_started_in_the_hall_and_played_to_the_end(
        browser_player, live_server):
    page = browser_player("ann")
    start_computer_game(page, live_server.url, "black")
    expect(page.get_by_test_id("name-white")).to_have_text("Computer · level 1")
    expect(page.get_by_test_id("status")).to_have_text("Your turn")
    expect(page.get_by_test_id("draw-button")).to_be_hidden()
    expect(page.get_by_test_id("clock-black")).to_be_hidden()  # untimed by default
    expect(page.get_by_test_id("ruleset-name")).to_have_text(re.compile(r" · Unrated$"))

    rules, chooser = RulesGame("freestyle"), BuiltinPlayer(4)
    while True:
        expect(page.get_by_test_id("status")).to_have_text(TURN_OR_END, timeout=REPLY_MS)
        for point in set(stones(page)) - set(rules.moves):  # the computer's reply
            rules.place(*point, "white")
        if page.get_by_test_id("status").inner_text() != "Your turn":
            break
        row, col = chooser(rules)
        click_point(page, notation(row, col))
        expect(page.locator(f'[aria-label="{notation(row, col)}"]')).to_have_attribute(
            "data-stone", "black")
        rules.place(row, col, "black")
    expect(page.get_by_test_id("thinking-white")).to_be_hidden()
    expect(page.get_by_test_id("result-reason")).to_be_visible()
    page.goto(f"{live_server.url}/hall")
    expect(page.get_by_test_id("me-games")).to_have_text("0")  # unrated, not counted


def test_a_take_back_against_the_computer_is_instant(browser_player, live_server):
    page = browser_player("ann")
    start_computer_game(page, live_server.url, "black")
    expect(page.get_by_test_id("status")).to_have_text("Your turn")
    click_point(page, "h8")
    # The computer's reply (the status read "Your turn" before the click too).
    expect(page.locator("[data-stone=white]")).to_have_count(1, timeout=REPLY_MS)
    expect(page.get_by_test_id("status")).to_have_text("Your turn")
    assert len(stones(page)) == 2
    page.get_by_test_id("undo-button").click()
    expect(page.locator("[data-stone=black], [data-stone=white]")).to_have_count(0)
    expect(page.get_by_test_id("status")).to_have_text("Your turn")


def test_the_computer_is_shown_thinking_while_it_is_to_move(browser_player, live_server):
    page = browser_player("ann")
    start_computer_game(page, live_server.url, "white")
    expect(page.get_by_test_id("name-black")).to_have_text("Computer · level 1")
    # The page draws the indicator from the state alone: ask it about a position where the
    # computer is to move, so the check does not race the engine.
    thinking = page.evaluate("""async () => {
        const {RoomGame} = await import('/static/js/room/state.js');
        const game = new RoomGame();
        game.apply({status: 'playing', you: 'white', to_move: 'black', moves: [],
                    black: {id: 1, username: 'Computer · level 1', score: 1000, computer: 1},
                    white: {id: 2, username: 'ann', score: 1000}});
        const before = game.computerThinking();
        game.addMove({move: 1, row: 7, col: 7, to_move: 'white'});
        return [before, game.computerThinking()];
    }""")
    assert thinking == [True, False]
    expect(page.get_by_test_id("status")).to_have_text("Your turn", timeout=REPLY_MS)
    expect(page.get_by_test_id("thinking-black")).to_be_hidden()


def test_new_opponent_after_a_computer_game_starts_a_new_one_at_the_same_level(
        browser_player, live_server):
    page = browser_player("ann")
    start_computer_game(page, live_server.url, "white")
    first = page.url
    expect(page.get_by_test_id("resign-button")).to_be_enabled()
    page.get_by_test_id("resign-button").click()
    page.get_by_test_id("resign-confirm").click()
    link = page.get_by_test_id("new-opponent-link")
    expect(link).to_have_attribute(
        "href", "/hall?computer=1&ruleset=freestyle&clock=none&color=white")
    link.click()
    page.wait_for_url(re.compile(rf"{re.escape(live_server.url)}/game/\d+"))
    assert page.url != first
    expect(page.get_by_test_id("name-black")).to_have_text("Computer · level 1")
    expect(page.get_by_test_id("ruleset-name")).to_have_text(re.compile(r" · Unrated$"))


def test_the_panel_offers_the_openings_of_the_chosen_ruleset(browser_player):
    page = browser_player("ann")
    offered = "els => els.filter((e) => !e.disabled).map((e) => e.value)"
    options = page.locator("#computer-opening option")
    page.get_by_test_id("computer-ruleset").select_option("renju")
    assert options.evaluate_all(offered) == ["none", "taraguchi-10"]
    page.get_by_test_id("computer-ruleset").select_option("freestyle")
    assert options.evaluate_all(offered) == ["none", "swap", "swap2"]


def test_a_game_with_an_opening_and_its_new_opponent_keep_the_opening(browser_player,
                                                                      live_server):
    """As white in swap the computer places the first three stones; after the game "New
    opponent" asks for the same opening, and for placing the first stone as before."""
    page = browser_player("ann")
    page.get_by_test_id("computer-opening").select_option("swap")
    start_computer_game(page, live_server.url, "white")
    expect(page.locator("[data-testid=board] [data-stone]")).to_have_count(3, timeout=REPLY_MS)
    first = page.url
    page.get_by_test_id("resign-button").click()
    page.get_by_test_id("resign-confirm").click()
    link = page.get_by_test_id("new-opponent-link")
    expect(link).to_have_attribute(
        "href", "/hall?computer=1&ruleset=freestyle&clock=none&color=white&opening=swap")
    link.click()
    page.wait_for_url(re.compile(rf"{re.escape(live_server.url)}/game/\d+"))
    assert page.url != first
    expect(page.get_by_test_id("opening")).to_be_visible()
    expect(page.locator("[data-testid=board] [data-stone]")).to_have_count(3, timeout=REPLY_MS)
