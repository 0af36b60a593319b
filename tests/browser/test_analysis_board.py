"""The analysis board (/analysis) in Chromium against a live server: variations as a tree,
the address carrying the line, renju's forbidden points, the engine, the .psq export, and a
finished game's position."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.live.test_play import BLACK_FIVE, matched_pair, play

pytestmark = [pytest.mark.live, pytest.mark.browser]

# Black g8, h8 and i10, i9 with white in the corners: black's i8 would make two open threes.
RENJU_DOUBLE_THREE = "g8,a15,h8,o1,i10,o15,i9,a1"


@pytest.fixture
def board_page(live_server, new_page):
    """A visitor's page; no script error may happen on it."""
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    assert errors == []


def open_board(page, base_url: str, query: str = "") -> None:
    page.goto(f"{base_url}/analysis{query}")
    expect(page.get_by_test_id("analysis-status")).to_have_text(re.compile("to move|wins|draw"))


def click(page, point: str) -> None:
    """Plays at `point` once the board has the position (it takes no click before)."""
    expect(page.locator("#board.interactive")).to_be_attached()
    page.get_by_role("button", name=point, exact=True).click()


def expect_stones(page, count: int) -> None:
    expect(page.locator("#board .point[data-stone]")).to_have_count(count)


def line_in_address(page) -> str:
    return parse_qs(urlsplit(page.url).query).get("moves", [""])[0]


def test_the_tree_module_branches_goes_back_and_deletes(board_page, live_server):
    board_page.goto(f"{live_server.url}/analysis")
    found = board_page.evaluate("""async () => {
        const {VariationTree} = await import('/static/js/analysis/tree.js');
        const tree = VariationTree.fromLine([[7, 7], [8, 8]]);
        tree.back();
        tree.play([6, 6]);            // a new branch beside [8, 8]
        const line = tree.line();
        tree.back();
        const two = tree.variations();
        tree.play([8, 8]);            // the existing branch again: no third one
        tree.back();
        const still = tree.variations().length;
        tree.remove(0);
        const left = tree.variations();
        tree.forward();
        const after = tree.line();
        tree.toStart();
        const start = tree.depth;
        tree.addLine([[7, 7], [1, 1]]);  // along [7, 7], then a new branch; the cursor stays
        const stays = tree.depth;
        tree.forward();
        return {line, two, still, left, after, start, stays, added: tree.variations()};
    }""")
    assert found == {"line": [[7, 7], [6, 6]], "two": [[8, 8], [6, 6]], "still": 2,
                     "left": [[6, 6]], "after": [[7, 7], [6, 6]], "start": 0, "stays": 0,
                     "added": [[6, 6], [1, 1]]}


def test_a_move_played_after_going_back_makes_a_second_branch(board_page, live_server):
    open_board(board_page, live_server.url)
    for point in ("h8", "i9"):
        click(board_page, point)
    board_page.get_by_test_id("analysis-back").click()
    click(board_page, "j10")
    expect_stones(board_page, 2)
    board_page.get_by_test_id("analysis-back").click()
    expect(board_page.get_by_test_id("variation-choose")).to_have_text(["i9 (main line)", "j10"])


def test_deleting_a_branch_leaves_the_others(board_page, live_server):
    open_board(board_page, live_server.url)
    for point in ("h8", "i9"):
        click(board_page, point)
    board_page.get_by_test_id("analysis-back").click()
    click(board_page, "j10")
    board_page.get_by_test_id("analysis-back").click()
    board_page.get_by_test_id("variation-delete").first.click()
    expect(board_page.get_by_test_id("variation-choose")).to_have_text(["j10 (main line)"])
    board_page.get_by_test_id("analysis-forward").click()
    expect(board_page.get_by_role("button", name="j10", exact=True)).to_have_attribute(
        "data-stone", "white")


def test_choosing_a_branch_shows_its_position(board_page, live_server):
    open_board(board_page, live_server.url, "?moves=h8,i9")
    board_page.get_by_test_id("analysis-back").click()
    click(board_page, "j10")
    board_page.get_by_test_id("analysis-back").click()
    board_page.get_by_test_id("variation-choose").filter(has_text="i9").click()
    expect(board_page.get_by_role("button", name="i9", exact=True)).to_have_attribute(
        "data-stone", "white")
    expect(board_page.get_by_role("button", name="j10", exact=True)).not_to_have_attribute(
        "data-stone", "white")


def test_the_address_carries_the_line_and_reopening_it_restores_the_position(
        board_page, live_server):
    open_board(board_page, live_server.url, "?ruleset=freestyle")
    for point in ("h8", "i9", "j10"):
        click(board_page, point)
    board_page.get_by_test_id("analysis-back").click()
    expect(board_page).to_have_url(re.compile(r"moves=h8%2Ci9$|moves=h8,i9$"))
    address = board_page.url
    assert line_in_address(board_page) == "h8,i9"
    board_page.goto("about:blank")
    board_page.goto(address)
    expect_stones(board_page, 2)
    expect(board_page.get_by_role("button", name="i9", exact=True)).to_have_attribute(
        "data-stone", "white")
    expect(board_page.get_by_test_id("analysis-status")).to_have_text("Black to move")


def test_arrow_keys_step_back_and_forward_along_the_line(board_page, live_server):
    open_board(board_page, live_server.url, "?moves=h8,i9,j10")
    board_page.get_by_test_id("analysis-status").click()  # focus off the board
    board_page.keyboard.press("ArrowLeft")
    expect_stones(board_page, 2)
    board_page.keyboard.press("ArrowRight")
    expect_stones(board_page, 3)


def test_a_renju_forbidden_point_is_marked_and_refused_for_black(board_page, live_server):
    open_board(board_page, live_server.url, f"?ruleset=renju&moves={RENJU_DOUBLE_THREE}")
    forbidden = board_page.get_by_role("button", name="i8", exact=True)
    expect(forbidden).to_have_class(re.compile(r"\bmarked\b"))
    forbidden.click()
    expect(board_page.get_by_test_id("analysis-status")).to_have_text(
        "i8 is forbidden for black.")
    expect_stones(board_page, 8)


def test_a_five_ends_the_line(board_page, live_server):
    open_board(board_page, live_server.url, "?moves=d8,a15,e8,b15,f8,c15,g8,d15,h8")
    expect(board_page.get_by_test_id("analysis-status")).to_have_text(
        "Black wins: five in a row.")
    expect(board_page.locator("#board .point.win")).to_have_count(5)
    # The board takes no click (its points say so: aria-disabled); a click all the same.
    board_page.get_by_role("button", name="h1", exact=True).click(force=True)
    expect_stones(board_page, 9)
    assert line_in_address(board_page) == "d8,a15,e8,b15,f8,c15,g8,d15,h8"


def test_the_engine_button_shows_a_win_chance_and_a_best_move(browser_player, live_server):
    page = browser_player("ann")
    open_board(page, live_server.url, "?moves=h8,i9,h9")
    page.get_by_test_id("analysis-engine").click()
    expect(page.get_by_test_id("analysis-chance")).to_have_text(
        re.compile(r"^Black \d+% · White \d+%$"))
    expect(page.get_by_test_id("analysis-best")).to_have_text(
        re.compile(r"^Best move: [a-o]\d{1,2}\. Line: "))
    expect(page.locator("#board .point.best:not([data-stone])")).to_have_count(1)


def test_the_engine_s_line_can_be_added_as_a_variation(browser_player, live_server):
    page = browser_player("ann")
    open_board(page, live_server.url, "?moves=h8,i9,h9")
    page.get_by_test_id("analysis-engine").click()
    expect(page.get_by_test_id("analysis-best")).to_have_text(re.compile("^Best move: "))
    best = re.match(r"Best move: ([a-o]\d{1,2})\.",
                    page.get_by_test_id("analysis-best").text_content()).group(1)
    page.get_by_test_id("analysis-add-line").click()
    expect(page.get_by_test_id("variation-choose")).to_have_text([f"{best} (main line)"])
    page.get_by_test_id("analysis-forward").click()
    expect(page.get_by_role("button", name=best, exact=True)).to_have_attribute(
        "data-stone", "white")


# Live servers run without rate limits unless told (tests/support/live.py).
@pytest.mark.parametrize("live_env", [{"GOBANG_RATELIMIT_ENABLED": "1",
                                       "GOBANG_ANALYSIS_BOARD_ASKS_PER_MINUTE": "1"}])
def test_an_engine_refusal_is_shown_with_its_reason(browser_player, live_server):
    page = browser_player("ann")
    open_board(page, live_server.url, "?moves=h8")
    page.get_by_test_id("analysis-engine").click()
    expect(page.get_by_test_id("analysis-chance")).not_to_be_empty()
    page.get_by_test_id("analysis-back").click()
    page.get_by_test_id("analysis-engine").click()
    expect(page.get_by_test_id("analysis-engine-status")).to_have_text(
        "You asked the engine often in a short time. Wait a minute and try again.")
    expect(page.get_by_test_id("analysis-engine-answer")).to_be_hidden()


def test_a_visitor_is_told_to_log_in_to_ask_the_engine(board_page, live_server):
    open_board(board_page, live_server.url)
    expect(board_page.get_by_test_id("analysis-engine")).to_have_count(0)
    expect(board_page.get_by_test_id("analysis-engine-login")).to_contain_text("Log in")


def test_the_psq_link_downloads_the_line(board_page, live_server):
    open_board(board_page, live_server.url)
    for point in ("h8", "i9"):
        click(board_page, point)
    expect(board_page.get_by_test_id("line-move")).to_have_count(2)
    with board_page.expect_download() as download:
        board_page.get_by_test_id("analysis-psq").click()
    text = Path(download.value.path()).read_text()
    assert text.splitlines()[:3] == ["Piskvorky 15x15, 0:0, 0", "8,8,0", "9,7,0"]


def test_a_finished_game_opens_at_the_move_asked(board_page, live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, BLACK_FIVE)
    white[2].wait_for("game_over")
    open_board(board_page, live_server.url, f"?game={game_id}&move=4")
    expect_stones(board_page, 4)
    assert line_in_address(board_page) == "d8,a15,e8,b15"
    expect(board_page.get_by_role("button", name="e8", exact=True)).to_have_attribute(
        "data-stone", "black")


def test_a_game_in_play_is_refused_with_a_message(board_page, live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, BLACK_FIVE[:3])
    board_page.goto(f"{live_server.url}/analysis?game={game_id}&move=2")
    expect(board_page.get_by_test_id("analysis-refusal")).to_contain_text("still being played")
    expect(board_page.locator("#board .point")).to_have_count(0)
