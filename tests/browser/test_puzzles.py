"""The puzzles page in Chromium against a live server: a puzzle solved by clicking its forced
line, and one failed with a wrong move, its solution shown."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from gobang.factory import create_app
from tests.conftest import make_config
from tests.support.puzzles import FAR, VCF_LINE, VCF_MISSED_AT, VCF_POSITION, analysed_game

pytestmark = [pytest.mark.live, pytest.mark.browser]


@pytest.fixture
def puzzle_page(live_server, browser_player):
    """A puzzle harvested from a stored analysis in the live server's database, and a new
    player (of no game of it) on /puzzles with its position shown."""
    app = create_app(make_config(live_server.database_url, TICKER_ENABLED=False))
    _, _, game_id = analysed_game(app, VCF_POSITION, VCF_MISSED_AT)
    with app.app_context():
        from gobang.extensions import db

        db.session.remove()
        db.engine.dispose()
    page = browser_player("solver")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{live_server.url}/puzzles")
    expect(page.get_by_test_id("puzzle-task")).to_have_text(
        "Find the forced win: you play black")
    expect(page.locator("#board .point[data-stone]")).to_have_count(len(VCF_POSITION))
    yield page, game_id
    assert errors == []


def point(page, row: int, col: int):
    return page.locator(f"#board .point[data-row='{row}'][data-col='{col}']")


def test_a_puzzle_solved_by_clicking_its_forced_line(puzzle_page):
    page, game_id = puzzle_page
    stones = len(VCF_POSITION)
    for row, col in (VCF_LINE[0], VCF_LINE[2]):
        point(page, row, col).click()
        stones += 2  # the move and the defence's reply
        expect(page.locator("#board .point[data-stone]")).to_have_count(stones)
    # The reply blocked one end of the open four on column 8: the other end makes five.
    five = (3, 8) if point(page, 8, 8).get_attribute("data-stone") else (8, 8)
    point(page, *five).click()
    expect(page.get_by_test_id("puzzle-result")).to_have_text("Solved")
    expect(page.locator("#puzzle-solved")).to_have_text("1")
    expect(page.get_by_test_id("puzzle-next")).to_be_visible()
    expect(page.get_by_test_id("puzzle-replay")).to_have_attribute(
        "href", f"/game/{game_id}/replay?move={VCF_MISSED_AT - 1}")


def test_a_wrong_move_fails_and_shows_the_solution(puzzle_page):
    page, _ = puzzle_page
    point(page, *FAR).click()
    expect(page.get_by_test_id("puzzle-result")).to_have_text("Failed")
    expect(page.get_by_test_id("puzzle-solution")).to_have_text(
        "The forced win: i8 j8 i11")
    expect(page.locator("#puzzle-failed")).to_have_text("1")
    expect(page.get_by_test_id("puzzle-replay")).to_be_visible()
