"""Openings in Chromium (docs/protocol.md, "Openings"): swap2 with two more stones and a colour
choice that swaps the seats, taraguchi-10 through an offer of ten fifth stones and the pick, a
stone outside the step's square refused, a reload in the middle of an opening, and the replay
of a game played with one. The game is made by a challenge that names the opening; ann
challenges as black, so she places the first stone."""

from __future__ import annotations

import os
import re
import shutil

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import click_point
from tests.browser.test_replay import log_in
from tests.browser.test_room_features import SCREENSHOTS
from tests.support.browser import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.live]

# Taraguchi's first four stones, each within its square: h8 (1x1), i9 (3x3), j10 (5x5), g7
# (7x7). Ten fifth stones that no symmetry of that position maps onto each other.
TARAGUCHI_STONES = ["h8", "i9", "j10", "g7"]
TEN_FIFTHS = ["d12", "e12", "f12", "g12", "h12", "d4", "e4", "f4", "g4", "h4"]


def challenge_game(live_server, ruleset: str, opening: str) -> int:
    """ann challenges ben as black to a game with `opening`; ben accepts. The game's id."""
    halls = {}
    for name in ("ann", "ben"):
        halls[name] = live_server.connect(live_server.user(name), "/hall")
        halls[name].wait_for("hello")
    sent = halls["ann"].ask("challenge", {"username": "ben", "ruleset": ruleset,
                                          "opening": opening, "color": "black"})
    assert sent["ok"], sent
    halls["ben"].wait_for("challenge_received")
    assert halls["ben"].ask("answer_challenge", {"challenge_id": sent["challenge_id"],
                                                 "accept": True})["ok"]
    game_id = halls["ann"].wait_for("match_found")["game_id"]
    for hall in halls.values():
        hall.disconnect()
    return game_id


def opening_game(live_server, new_page, ruleset: str, opening: str, ben_locale: str | None = None):
    """ann (black, who places the first stone) and ben in a game with `opening`; returns their
    pages in the room and the game's id."""
    game_id = challenge_game(live_server, ruleset, opening)
    ann = new_page()
    ben = new_page(locale=ben_locale) if ben_locale else new_page()
    for page, name in ((ann, "ann"), (ben, "ben")):
        log_in(page, live_server.url, name, f"/game/{game_id}")
    expect(ann.get_by_test_id("opening")).to_be_visible()
    return ann, ben, game_id


def screenshot(page, name: str) -> None:
    """Into test-artifacts/, and docs/screenshots/ when GOBANG_UPDATE_SCREENSHOTS=1."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)
    if os.environ.get("GOBANG_UPDATE_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ARTIFACTS / name, SCREENSHOTS / name)


def step(page):
    return page.get_by_test_id("opening-step")


def place(page, other, point: str, color: str) -> None:
    """`page` places a stone of `color` at `point`; `other` sees it."""
    click_point(page, point)
    expect(other.locator(f'[aria-label="{point}"]')).to_have_attribute("data-stone", color)


def test_swap2_with_two_more_stones_and_a_colour_choice_swaps_the_seats(live_server, new_page):
    ann, ben, _game_id = opening_game(live_server, new_page, "freestyle", "swap2")
    expect(ann.get_by_test_id("opening-rule")).to_have_text("Opening: Swap2")
    expect(ann.get_by_test_id("name-black")).to_have_text("ann")
    expect(ann.get_by_test_id("status")).to_have_text("Your turn")
    expect(step(ben)).to_have_text("ann places stone 1 of 3 (black).")
    place(ann, ben, "h8", "black")
    expect(step(ben)).to_have_text("ann places stone 2 of 3 (white).")
    expect(ann.get_by_test_id("status")).to_have_text("Your turn")  # still ann: her three stones
    place(ann, ben, "h9", "white")
    place(ann, ben, "i8", "black")

    expect(step(ann)).to_have_text("ben chooses: play black, play white, or place two more stones.")
    expect(ann.get_by_test_id("opening-choices")).to_be_hidden()
    expect(ben.get_by_test_id("opening-choose-black")).to_be_visible()
    expect(ben.get_by_test_id("opening-choose-white")).to_be_visible()
    ben.get_by_test_id("opening-choose-place-two").click()
    expect(ben.get_by_test_id("opening-choices")).to_be_hidden()
    expect(step(ann)).to_have_text("ben places stone 1 of 2 (white).")
    expect(ben.get_by_test_id("status")).to_have_text("Your turn")
    expect(ann.get_by_test_id("status")).to_have_text("Opponent's turn")
    place(ben, ann, "i9", "white")
    place(ben, ann, "j7", "black")

    expect(step(ben)).to_have_text("ann chooses a colour: play black or play white.")
    expect(ann.get_by_test_id("opening-choose-place-two")).to_be_hidden()
    choose_white = ann.get_by_test_id("opening-choose-white")
    choose_white.focus()
    ann.keyboard.press("Enter")  # the choices are real buttons

    # ann took white: the seats swap on both pages, and white (ann) plays the sixth stone.
    for page in (ann, ben):
        expect(page.get_by_test_id("name-black")).to_have_text("ben")
        expect(page.get_by_test_id("name-white")).to_have_text("ann")
        expect(step(page)).to_have_text("The opening is over: ben plays black, ann plays white.")
    expect(ann.locator("#player-white .you-tag")).to_be_visible()
    expect(ann.locator("#player-black .you-tag")).to_be_hidden()
    expect(ben.locator("#player-black .you-tag")).to_be_visible()
    expect(ann.get_by_test_id("player-white")).to_have_class(re.compile(r"\bturn\b"))
    expect(ann.get_by_test_id("status")).to_have_text("Your turn")
    expect(ben.get_by_test_id("status")).to_have_text("Opponent's turn")
    expect(ben.get_by_test_id("room-notice")).to_have_text("ann chose to play white.")
    expect(ben.get_by_test_id("opening-log")).to_contain_text(
        "After stone 3, ben chose to place two more stones.")
    expect(ben.get_by_test_id("opening-log")).to_contain_text(
        "After stone 5, ann chose to play white.")
    place(ann, ben, "g10", "white")
    expect(ben.get_by_test_id("status")).to_have_text("Your turn")


def test_taraguchi_ten_fifth_stones_offered_and_one_picked(live_server, new_page):
    ann, ben, game_id = opening_game(live_server, new_page, "renju", "taraguchi-10")
    live_server.user("cat")
    watcher = new_page()
    log_in(watcher, live_server.url, "cat", f"/game/{game_id}")
    expect(ann.get_by_test_id("opening-rule")).to_have_text("Opening: Taraguchi-10")
    placers = [(ann, ben), (ben, ann), (ann, ben), (ben, ann)]
    keep = {ann: "opening-choose-black", ben: "opening-choose-white"}
    for index, ((placer, other), point) in enumerate(zip(placers, TARAGUCHI_STONES, strict=True)):
        side = 2 * index + 1
        expect(placer.get_by_test_id("board")).to_have_attribute("data-area", str(side))
        expect(placer.get_by_test_id("board-area")).to_be_visible()
        place(placer, other, point, "black" if index % 2 == 0 else "white")
        # After each stone the other player may swap; each keeps their colour here.
        expect(other.get_by_test_id("opening-choices")).to_be_visible()
        expect(placer.get_by_test_id("opening-choices")).to_be_hidden()
        other.get_by_test_id(keep[other]).click()

    expect(step(watcher)).to_have_text("ann places the fifth stone within the central 9×9, "
                                       "or offers 10 fifth stones to choose from.")
    expect(ben.get_by_test_id("opening-fifth")).to_be_hidden()
    mode = ann.get_by_test_id("opening-offer-mode")
    expect(mode).to_have_text("Offer 10 fifth stones")
    mode.click()
    expect(mode).to_have_attribute("aria-pressed", "true")
    send = ann.get_by_test_id("opening-offer-send")
    for point in TEN_FIFTHS[:3]:
        ann.get_by_role("button", name=point, exact=True).click()
    ann.get_by_role("button", name=TEN_FIFTHS[2], exact=True).click()  # unmarked again
    expect(ann.get_by_test_id("opening-offer-count")).to_contain_text("2 of 10 marked")
    expect(send).to_be_disabled()
    for point in TEN_FIFTHS[2:]:
        ann.get_by_role("button", name=point, exact=True).click()
    expect(ann.get_by_test_id("opening-offer-count")).to_contain_text("10 of 10 marked")
    expect(ann.locator("[data-testid=board] .point.chosen")).to_have_count(10)
    expect(ben.locator("[data-testid=board] .point.chosen")).to_have_count(0)
    expect(ann.locator("[data-testid=board] [data-stone]")).to_have_count(4)  # marks, no stones
    send.click()

    for page in (ann, ben, watcher):
        expect(page.locator("[data-testid=board] .point.offered")).to_have_count(10)
        expect(step(page)).to_have_text("ben picks one of the 10 offered fifth stones.")
    expect(watcher.get_by_test_id("opening-log")).to_contain_text(
        "ann offered 10 fifth stones: d12, e12, f12, g12, h12, d4, e4, f4, g4, h4.")
    expect(ann.get_by_test_id("opening-fifth")).to_be_hidden()
    expect(ben.locator('[aria-label="e12"]')).to_have_attribute(
        "aria-description", "offered fifth stone")
    screenshot(ben, "room-opening.png")
    place(ben, ann, "e12", "black")

    for page in (ann, ben, watcher):
        expect(page.locator("[data-testid=board] .point.offered")).to_have_count(0)
        expect(step(page)).to_have_text("The opening is over: ann plays black, ben plays white.")
    expect(watcher.get_by_test_id("opening-log")).to_contain_text(
        "ben picked the fifth stone at e12.")
    expect(ben.get_by_test_id("status")).to_have_text("Your turn")  # white plays the sixth stone
    expect(ann.get_by_test_id("status")).to_have_text("Opponent's turn")
    place(ben, ann, "k11", "white")


def test_a_stone_outside_the_square_is_refused(live_server, new_page):
    ann, ben, _game_id = opening_game(live_server, new_page, "renju", "taraguchi-10")
    expect(step(ann)).to_have_text("ann places stone 1 (black) within the central 1×1.")
    click_point(ann, "i9")
    expect(ann.get_by_test_id("room-error")).to_be_visible()
    expect(ann.get_by_test_id("room-error")).not_to_be_empty()
    expect(ann.locator("[data-testid=board] [data-stone]")).to_have_count(0)
    place(ann, ben, "h8", "black")
    expect(ann.get_by_test_id("room-error")).to_be_hidden()


def test_a_reload_in_the_middle_of_the_opening_shows_the_same_step(live_server, new_page):
    ann, ben, _game_id = opening_game(live_server, new_page, "standard", "swap2",
                                      ben_locale="zh-CN")
    place(ann, ben, "h8", "black")
    place(ann, ben, "h9", "white")
    expect(step(ben)).to_have_text("ann 落第 3 子（共 3 子，黑子）。")
    ann.reload()
    expect(step(ann)).to_have_text("ann places stone 3 of 3 (black).")
    expect(ann.get_by_test_id("status")).to_have_text("Your turn")
    place(ann, ben, "i8", "black")
    expect(ben.get_by_test_id("opening-choose-place-two")).to_have_text("再落两子")
    ben.reload()
    expect(ben.get_by_test_id("opening-rule")).to_have_text("开局规则：二次交换")
    expect(step(ben)).to_have_text("ben 选择：执黑、执白，或再落两子。")
    expect(ben.get_by_test_id("opening-choose-black")).to_be_visible()
    expect(ben.locator("[data-testid=board] [data-stone]")).to_have_count(3)
    ben.get_by_test_id("opening-choose-black").click()
    # ben took black: ann, now white, plays the fourth stone.
    expect(ann.get_by_test_id("status")).to_have_text("Your turn")
    expect(ann.get_by_test_id("name-white")).to_have_text("ann")


def test_the_replay_shows_the_opening(live_server, new_page):
    ann, ben, game_id = opening_game(live_server, new_page, "freestyle", "swap2")
    place(ann, ben, "h8", "black")
    place(ann, ben, "h9", "white")
    place(ann, ben, "i8", "black")
    ben.get_by_test_id("opening-choose-white").click()
    expect(step(ann)).to_have_text("The opening is over: ann plays black, ben plays white.")
    place(ben, ann, "i9", "white")
    ann.get_by_test_id("resign-button").click()
    ann.get_by_test_id("resign-confirm").click()
    expect(ann.get_by_test_id("status")).to_have_text("You lost")
    ann.get_by_test_id("replay-link").click()
    ann.wait_for_url(f"{live_server.url}/game/{game_id}/replay")
    card = ann.get_by_test_id("replay-opening")
    expect(card.get_by_test_id("opening-rule")).to_have_text("Opening: Swap2")
    expect(card.get_by_test_id("opening-first")).to_have_text("ann placed the first stone.")
    expect(card.get_by_test_id("opening-log")).to_have_text(
        "After stone 3, ben chose to play white.")
    expect(card.get_by_test_id("opening-outcome")).to_have_text(
        "After the opening, ann played black and ben played white.")
    expect(ann.locator("#board [data-stone]")).to_have_count(4)


def test_against_the_computer_a_colour_taken_moves_the_players_seat(live_server, new_page):
    """The computer places swap's three stones; ann takes black, so the seats swap and the
    computer, now white, plays the fourth stone."""
    hall = live_server.connect(live_server.user("ann"), "/hall")
    hall.wait_for("hello")
    started = hall.ask("play_computer", {"level": 1, "color": "white", "ruleset": "freestyle",
                                         "opening": "swap"})
    assert started["ok"], started
    hall.disconnect()
    ann = new_page()
    log_in(ann, live_server.url, "ann", f"/game/{started['game_id']}")
    expect(step(ann)).to_have_text("ann chooses a colour: play black or play white.")
    expect(ann.locator("[data-testid=board] [data-stone]")).to_have_count(3)
    expect(ann.get_by_test_id("name-black")).to_have_text("Computer · level 1")
    ann.get_by_test_id("opening-choose-black").click()
    expect(ann.get_by_test_id("name-black")).to_have_text("ann")
    expect(ann.locator("#player-black .you-tag")).to_be_visible()
    expect(ann.locator("[data-testid=board] [data-stone]")).to_have_count(4)
    expect(ann.get_by_test_id("status")).to_have_text("Your turn")
    expect(step(ann)).to_have_text("The opening is over: ann plays black, "
                                   "Computer · level 1 plays white.")
