"""The replay page in Chromium: a game played on the real server, stepped through."""

from __future__ import annotations

import re
import time

import pytest
import requests
from playwright.sync_api import expect

from tests.live.test_play import BLACK_FIVE, matched_pair, play
from tests.support.browser import ARTIFACTS
from tests.support.live import PASSWORD

pytestmark = [pytest.mark.live, pytest.mark.browser]


def log_in(page, base_url: str, username: str, next_path: str) -> None:
    page.goto(f"{base_url}/login?next={next_path}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base_url}{next_path}")


@pytest.fixture
def finished_game(live_server) -> int:
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, BLACK_FIVE)
    assert white[2].wait_for("game_over")["result"]["reason"] == "five"
    return game_id


@pytest.fixture
def winner(live_server, finished_game) -> str:
    """The matcher picks the colours: black, who made the five, is ann or ben."""
    record = requests.get(f"{live_server.url}/api/games/{finished_game}", timeout=10).json()
    return record["black"]["username"]


@pytest.fixture
def replay_page(live_server, new_page, finished_game):
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    log_in(page, live_server.url, "ann", f"/game/{finished_game}/replay")
    yield page
    assert errors == []


def stones(page) -> int:
    return page.locator("#board .point[data-stone]").count()


def expect_stones(page, count: int) -> None:
    page.wait_for_function(
        "n => document.querySelectorAll('#board .point[data-stone]').length === n", arg=count)
    assert page.get_by_test_id("move-counter").inner_text() == f"Move {count} of 9"


def test_replay_opens_on_the_final_position_with_the_line(replay_page):
    expect_stones(replay_page, 9)
    assert replay_page.locator("#board .point.win").count() == 5
    assert replay_page.get_by_test_id("replay-result").inner_text() == "Black wins"
    assert replay_page.get_by_test_id("replay-forward").is_disabled()


def test_step_buttons_move_through_the_game(replay_page):
    steps = [("replay-back", 8), ("replay-back", 7), ("replay-first", 0), ("replay-forward", 1),
             ("replay-forward", 2), ("replay-last", 9)]
    for button, count in steps:
        replay_page.get_by_test_id(button).click()
        expect_stones(replay_page, count)
    assert replay_page.locator("#board .point.win").count() == 5


def test_arrow_home_and_end_keys_move_through_the_game(replay_page):
    expect_stones(replay_page, 9)
    steps = [("ArrowLeft", 8), ("ArrowLeft", 7), ("Home", 0), ("ArrowLeft", 0),
             ("ArrowRight", 1), ("End", 9), ("ArrowRight", 9)]
    for key, count in steps:
        replay_page.keyboard.press(key)
        expect_stones(replay_page, count)


def test_move_numbers_checkbox_numbers_the_stones(replay_page):
    first = replay_page.locator("#board .point[data-row='7'][data-col='3']")
    assert first.inner_text() == ""
    replay_page.get_by_test_id("numbers-toggle").check()
    assert first.inner_text() == "1"
    assert replay_page.locator("#board .point[data-row='7'][data-col='7']").inner_text() == "9"
    replay_page.keyboard.press("ArrowLeft")  # the checkbox keeps its own keys
    expect_stones(replay_page, 9)
    replay_page.get_by_test_id("replay-back").click()
    expect_stones(replay_page, 8)
    ARTIFACTS.mkdir(exist_ok=True)
    replay_page.screenshot(path=str(ARTIFACTS / "replay-move-8-numbers.png"), full_page=True)


def test_profile_chart_and_replay_link_lead_to_the_replay(
    live_server, new_page, finished_game, winner
):
    page = new_page()
    log_in(page, live_server.url, "ann", f"/u/{winner}")
    assert page.locator("#score-history svg.score-chart circle.chart-point").count() == 1
    assert page.locator("#rating-history svg.score-chart circle.chart-point").count() == 1
    assert page.get_by_test_id("game-result").inner_text() == "win"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "profile.png"), full_page=True)
    page.get_by_test_id("replay-link").click()
    page.wait_for_url(f"{live_server.url}/game/{finished_game}/replay")
    expect_stones(page, 9)


def test_a_step_clicked_while_the_script_still_loads_is_not_lost(live_server, new_page,
                                                                 finished_game):
    """The step buttons are served disabled and enabled by replay.js once it has wired them:
    a click before that waited instead of doing nothing (the counter stayed on the last move;
    tests/browser/test_i18n.py failed so once in CI)."""
    page = new_page()

    def slowly(route) -> None:
        time.sleep(1.5)  # the script arrives late, as on a busy machine
        route.continue_()

    path = f"/game/{finished_game}/replay"
    log_in(page, live_server.url, "ann", path)
    page.route(lambda url: "/static/js/replay.js" in url, slowly)
    # As after following a link: the page is there, its script not yet run.
    page.goto(live_server.url + path, wait_until="commit")
    page.get_by_test_id("replay-back").click()
    expect_stones(page, 8)


# ---------- the move list, the shared link and the key hints ----------

PHONE = {"width": 390, "height": 844}
TOUCH = {"has_touch": True, "is_mobile": True}


def expect_current_move(page, number: int) -> None:
    """The move list highlights move `number`, and only it."""
    expect(page.locator("#move-list [aria-current]")).to_have_count(1)
    expect(page.get_by_test_id(f"move-{number}")).to_have_attribute("aria-current", "step")


def test_clicking_a_move_in_the_list_shows_that_position(replay_page, finished_game):
    expect_stones(replay_page, 9)
    expect_current_move(replay_page, 9)
    replay_page.get_by_test_id("move-4").click()
    expect_stones(replay_page, 4)
    expect_current_move(replay_page, 4)
    assert replay_page.locator("#board .point.win").count() == 0
    # The last stone on the board is the one the list names for move 4 ("4. white b15").
    point = replay_page.get_by_test_id("move-4").text_content().split()[-1]
    assert replay_page.locator("#board .point.last").get_attribute("aria-label") == point
    # The address and the share box follow, so a reload or a copied link keeps the move.
    expect(replay_page).to_have_url(re.compile(rf"/game/{finished_game}/replay\?move=4$"))
    expect(replay_page.get_by_test_id("share-link")).to_have_value(
        re.compile(rf"^http://127\.0\.0\.1:\d+/game/{finished_game}/replay\?move=4$"))
    expect(replay_page.get_by_test_id("share-image")).to_have_attribute(
        "href", re.compile(rf"/game/{finished_game}/position\.png\?move=4$"))
    # The keys go on from there, with the focus on the clicked link.
    replay_page.keyboard.press("ArrowLeft")
    expect_stones(replay_page, 3)
    expect_current_move(replay_page, 3)
    replay_page.keyboard.press("End")
    expect_stones(replay_page, 9)
    expect(replay_page).to_have_url(re.compile(rf"/game/{finished_game}/replay$"))
    ARTIFACTS.mkdir(exist_ok=True)
    replay_page.screenshot(path=str(ARTIFACTS / "replay-move-list.png"), full_page=True)


def test_the_shared_link_opens_at_its_move(live_server, new_page, finished_game):
    page = new_page()  # a visitor, as someone who was sent the link
    page.goto(f"{live_server.url}/game/{finished_game}/replay?move=5")
    expect_stones(page, 5)
    expect_current_move(page, 5)
    assert page.locator("#board .point.win").count() == 0
    expect(page.get_by_test_id("share-link")).to_have_value(
        f"{live_server.url}/game/{finished_game}/replay?move=5")
    page.reload()  # the address still names the move
    expect_stones(page, 5)
    page.keyboard.press("ArrowRight")
    expect_stones(page, 6)
    expect(page).to_have_url(f"{live_server.url}/game/{finished_game}/replay?move=6")


def test_the_shared_links_picture_is_the_position_it_opens_on(live_server, new_page,
                                                              finished_game):
    page = new_page()
    page.goto(f"{live_server.url}/game/{finished_game}/replay?move=5")
    expect_stones(page, 5)
    image = page.locator('meta[property="og:image"]').get_attribute("content")
    assert image == f"{live_server.url}/game/{finished_game}/position.png?move=5"
    assert page.get_by_test_id("share-image").get_attribute("href") == image
    response = page.request.get(image)
    assert response.status == 200
    assert response.headers["content-type"] == "image/png"
    assert response.body().startswith(b"\x89PNG\r\n\x1a\n")


def test_the_copy_button_puts_the_link_on_the_clipboard(live_server, new_page, finished_game):
    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    page.goto(f"{live_server.url}/game/{finished_game}/replay?move=3")
    expect_stones(page, 3)
    page.get_by_test_id("share-copy").click()
    expect(page.get_by_test_id("share-status")).to_have_text("Link copied.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == f"{live_server.url}/game/{finished_game}/replay?move=3"


def test_without_a_clipboard_the_link_is_selected_to_copy_by_hand(live_server, new_page,
                                                                 finished_game):
    page = new_page()
    # As a browser without the Clipboard API (or a page served without HTTPS).
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    page.goto(f"{live_server.url}/game/{finished_game}/replay?move=3")
    expect_stones(page, 3)
    page.get_by_test_id("share-copy").click()
    expect(page.get_by_test_id("share-status")).to_have_text("Copy the selected link.")
    field = page.get_by_test_id("share-link")
    expect(field).to_be_focused()
    selected = field.evaluate("el => el.value.slice(el.selectionStart, el.selectionEnd)")
    assert selected == f"{live_server.url}/game/{finished_game}/replay?move=3"


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_key_hint_shows_only_where_there_is_a_keyboard(live_server, new_page, finished_game,
                                                           device):
    page = new_page(PHONE, **TOUCH) if device == "phone" else new_page()
    page.goto(f"{live_server.url}/game/{finished_game}/replay")
    expect_stones(page, 9)
    hint = page.get_by_test_id("keyboard-hint")
    if device == "desktop":
        expect(hint).to_be_visible()
        return
    expect(hint).to_be_hidden()
    page.get_by_test_id("move-2").tap()
    expect_stones(page, 2)
    expect(hint).to_be_hidden()  # a tap is no keyboard
    page.keyboard.press("ArrowRight")  # a keyboard after all (a tablet's, say)
    expect_stones(page, 3)
    expect(hint).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "replay-phone.png"), full_page=True)
