"""The README's screenshots of the front page, the hall and the settings, taken on a server with
an evening's games behind it. They go to test-artifacts/; with GOBANG_UPDATE_SCREENSHOTS=1 they
also replace docs/screenshots/ (look at them before committing)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import register_in_browser
from tests.live.test_play import BLACK_FIVE, matched_pair, play
from tests.support.browser import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.live]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}


def play_a_game(live_server, first, second, second_name: str) -> None:
    """`first` challenges `second` (logged-in sessions) in the hall, and black makes five. A
    challenge, not the queue: the queue pairs by rating, and the same two players' ratings
    part after a few games."""
    halls = [live_server.connect(http, "/hall") for http in (first, second)]
    for hall in halls:
        hall.wait_for("hello")
    challenge = halls[0].ask("challenge", {"username": second_name})
    assert halls[1].ask("answer_challenge", {"challenge_id": challenge["challenge_id"],
                                             "accept": True}) == {"ok": True}
    found = [hall.wait_for("match_found", timeout=5) for hall in halls]
    seats = {}
    for http, hall, match in zip((first, second), halls, found, strict=True):
        room = live_server.connect(http, "/room")
        assert room.ask("join_game", {"game_id": match["game_id"]})["ok"]
        seats[match["color"]] = (http, hall, room)
    play(seats["black"], seats["white"], found[0]["game_id"], BLACK_FIVE)
    seats["white"][2].wait_for("game_over")
    for client in (*halls, seats["black"][2], seats["white"][2]):
        client.disconnect()


@pytest.fixture
def evening(live_server) -> None:
    """Four ranked players (five games each) and a game in play."""
    sessions = {name: live_server.user(name) for name in ("mei", "tom", "lin", "sam")}
    for first, second in [("mei", "tom"), ("lin", "sam")] * 5:
        play_a_game(live_server, sessions[first], sessions[second], second)
    black, white, game_id = matched_pair(live_server, names=("kai", "zoe"))
    play(black, white, game_id, BLACK_FIVE[:5])


def keep(page, name: str) -> None:
    """The top of the page, as a visitor first sees it."""
    page.evaluate("window.scrollTo(0, 0)")
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"screenshot-{name}.png"
    page.screenshot(path=str(path))
    if os.environ.get("GOBANG_UPDATE_SCREENSHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, DOCS / f"{name}.png")


def test_screenshots_of_the_front_page_hall_and_settings(live_server, new_page, evening):
    visitor = new_page(DESKTOP)
    visitor.goto(f"{live_server.url}/")
    expect(visitor.get_by_test_id("top10-row")).to_have_count(4)
    expect(visitor.get_by_test_id("front-playing")).to_have_attribute("data-count", "1")
    keep(visitor, "front")

    # Two players wait in different pools, so that the quick-pairing grid shows counts.
    for name, clock in (("rin", [300, 3]), ("ivy", None)):
        hall = live_server.connect(live_server.user(name), "/hall")
        hall.wait_for("hello")
        assert hall.ask("start_match", {"clock": clock}) == {"ok": True}
    player = new_page(DESKTOP)
    register_in_browser(player, live_server.url, "ann")
    expect(player.locator("#games-list li")).to_have_count(1)
    expect(player.get_by_test_id("pool-300+3").get_by_test_id("pool-count")).to_have_text(
        "1 waiting")
    player.get_by_test_id("hall-chat-input").fill("Anyone for a game of renju?")
    player.get_by_test_id("hall-chat-send").click()
    expect(player.get_by_test_id("hall-chat-log")).to_contain_text("renju")
    keep(player, "hall")

    player.get_by_test_id("nav-settings").click()
    player.get_by_test_id("pref-theme-plain").check()
    keep(player, "settings")
