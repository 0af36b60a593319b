"""A game in Chromium through nginx in front of two processes: the pages follow the game to
its process, and when that process is killed they find it again on the other by themselves."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from gobang import create_app
from gobang.extensions import db
from tests.browser.conftest import register_in_browser
from tests.browser.test_game import BLACK_POINTS, WHITE_POINTS, click_point
from tests.conftest import make_config
from tests.support.cluster import owner_of
from tests.support.games import start_game

pytestmark = [pytest.mark.browser, pytest.mark.live]


def player_page(new_page, cluster, name):
    page = new_page()
    register_in_browser(page, cluster.url, name)
    return page, page.request.get(cluster.url + "/api/me").json()["id"]


def move(mover, waiter, point, color):
    expect(mover.get_by_test_id("status")).to_have_text("Your turn", timeout=15_000)
    click_point(mover, point)
    for page in (mover, waiter):
        expect(page.locator(f'[aria-label="{point}"]')).to_have_attribute(
            "data-stone", color, timeout=15_000)


def test_pages_follow_their_game_when_its_process_is_killed(cluster, new_page):
    (black, black_id), (white, white_id) = (player_page(new_page, cluster, "ann"),
                                            player_page(new_page, cluster, "ben"))
    app = create_app(make_config(cluster.database_url))
    game_id = start_game(app, black_id, white_id)
    with app.app_context():
        db.engine.dispose()
    for page in (black, white):
        page.goto(f"{cluster.url}/game/{game_id}")
    move(black, white, BLACK_POINTS[0], "black")
    move(white, black, WHITE_POINTS[0], "white")
    owner = owner_of(cluster.redis, game_id)
    cluster.kill(owner)
    for index in range(1, 5):
        move(black, white, BLACK_POINTS[index], "black")
        if index < len(WHITE_POINTS):
            move(white, black, WHITE_POINTS[index], "white")
    expect(black.get_by_test_id("status")).to_have_text("You won!")
    assert owner_of(cluster.redis, game_id) is None  # finished: nobody holds it
    record = black.request.get(f"{cluster.url}/api/games/{game_id}").json()
    assert (record["status"], len(record["moves"])) == ("finished", 9)


def test_the_hall_page_opened_while_redis_is_down_gets_in_once_it_is_back(cluster, new_page):
    page, _ = player_page(new_page, cluster, "ann")
    page.goto(cluster.url + "/")  # away from the hall: its connection closes
    cluster.redis.stop()
    try:
        page.goto(cluster.url + "/hall")
        # Refused `unavailable`: the page says it is retrying, and does not give up.
        expect(page.get_by_test_id("connection-notice")).to_contain_text(
            "retrying", timeout=15_000)
    finally:
        cluster.redis.start()
    expect(page.get_by_test_id("connection-notice")).to_be_hidden(timeout=30_000)
    expect(page.get_by_test_id("online-list")).to_contain_text("ann")
    expect(page.get_by_test_id("hall-error")).to_be_hidden()
