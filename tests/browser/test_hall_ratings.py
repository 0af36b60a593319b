"""The hall's online list shows each player's rating in the category of the Play card's
ruleset and clock, provisional ones as `1500?` (docs/protocol.md, HallPlayer `ratings`)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

pytestmark = [pytest.mark.browser, pytest.mark.live]


def rate(database_url: str, username: str, category: str, rating: float, deviation: float):
    engine = create_engine(database_url, poolclass=NullPool)
    with engine.begin() as connection:
        user_id = connection.execute(text("SELECT id FROM users WHERE username = :name"),
                                     {"name": username}).scalar_one()
        connection.execute(text(
            "INSERT INTO ratings (user_id, category, rating, deviation, volatility, games,"
            " rated_at) VALUES (:user_id, :category, :rating, :deviation, 0.06, 20,"
            " CURRENT_TIMESTAMP)"),
            {"user_id": user_id, "category": category, "rating": rating,
             "deviation": deviation})
    engine.dispose()


def test_the_online_list_shows_the_rating_of_the_play_cards_category(browser_player,
                                                                     live_server):
    ann = browser_player("ann")
    rate(live_server.database_url, "ann", "freestyle:rapid", 1712.3, 60.0)
    rate(live_server.database_url, "ann", "freestyle:blitz", 1432.0, 200.0)
    ann.reload()  # the hall reads a player's ratings as they arrive
    ben = browser_player("ben")
    listed = ben.get_by_test_id("online-list").locator("li", has_text="ann")
    rating = listed.get_by_test_id("player-rating")
    expect(rating).to_have_text("1712")  # freestyle 10+5: rapid
    ben.get_by_test_id("clock-choice").select_option("180+2")
    expect(rating).to_have_text("1432?")  # blitz, provisional
    ben.get_by_test_id("ruleset").select_option("renju")
    expect(rating).to_have_text("1500?")  # never played renju blitz
    mine = ben.get_by_test_id("online-list").locator("li", has_text="ben")
    expect(mine.get_by_test_id("player-rating")).to_have_text("1500?")
