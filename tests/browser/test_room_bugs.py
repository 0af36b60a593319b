"""The room's surprises of an evening of play (issue 13), each reproduced in Chromium: chat
after a reload, the clock after a flag fall, a paused game, an aborted game, edge labels, the
spectator count, and a stale Rematch button."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import click_point, match
from tests.browser.test_hall_chat import line_texts

pytestmark = [pytest.mark.browser, pytest.mark.live]


def say(page, text: str) -> None:
    page.get_by_test_id("room-chat-input").fill(text)
    page.get_by_test_id("room-chat-send").click()


def chat_lines(page) -> list[str]:
    return line_texts(page.locator("[data-testid=room-chat-log] li"))


def test_room_chat_history_is_shown_after_a_reload_in_order_and_once(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    say(black, "good luck")
    say(white, "have fun")
    expect(black.get_by_test_id("room-chat-log").locator("li")).to_have_count(2)
    black.reload()
    log = black.get_by_test_id("room-chat-log").locator("li")
    expect(log).to_have_count(2)
    assert [line.split(": ", 1)[1] for line in chat_lines(black)] == ["good luck", "have fun"]
    say(white, "welcome back")
    expect(log).to_have_count(3)
    black.context.set_offline(True)
    expect(black.get_by_test_id("connection-notice")).to_be_visible(timeout=30_000)
    black.context.set_offline(False)
    expect(black.get_by_test_id("connection-notice")).to_be_hidden(timeout=30_000)
    expect(black.get_by_test_id("status")).to_have_text("Your turn")
    black.wait_for_timeout(300)
    assert [line.split(": ", 1)[1] for line in chat_lines(black)] == [
        "good luck", "have fun", "welcome back"]


def test_a_room_chat_line_is_named_by_who_said_what_not_by_its_time(browser_player,
                                                                    live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    say(black, "good luck")
    line = white.get_by_test_id("room-chat-log").get_by_role("listitem")
    expect(line).to_have_accessible_name(re.compile(r"^(ann|ben) \(black\): good luck$"))


def test_chat_role_tags_are_badges_without_brackets(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    say(black, "hi")
    tag = white.locator("[data-testid=room-chat-log] .role-tag")
    expect(tag).to_have_text("black")
    assert tag.evaluate("node => getComputedStyle(node).borderRadius") != "0px"


@pytest.mark.parametrize("live_env", [{"GOBANG_CLOCK_INITIAL_SECONDS": "3",
                                       "GOBANG_CLOCK_INCREMENT_SECONDS": "0"}])
def test_a_fallen_flag_reads_00_00(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    click_point(black, "h8")
    for page in (black, white):
        expect(page.get_by_test_id("result-reason")).to_have_text("out of time", timeout=15_000)
        expect(page.get_by_test_id("clock-white")).to_have_text("00:00")
        expect(page.get_by_test_id("clock-black")).to_have_text("00:03.0")


# (milliseconds left, what the clock reads): tenths under ten seconds, time rounded up.
CLOCK_TEXTS = [(300_000, "05:00"), (61_001, "01:02"), (10_000, "00:10"), (9_999, "00:09.9"),
               (9_401, "00:09.5"), (9_400, "00:09.4"), (1, "00:00.1"), (0, "00:00")]


def test_a_clock_under_ten_seconds_shows_tenths(browser_player):
    page = browser_player("ann")
    texts = page.evaluate("""async (readings) => {
        const {formatClock} = await import('/static/js/room/clock.js');
        return readings.map(formatClock);
    }""", [ms for ms, _text in CLOCK_TEXTS])
    assert texts == [text for _ms, text in CLOCK_TEXTS]


def paused_game(browser_player, url: str):
    """ann (black) and ben (white), one stone played, the game paused by both."""
    black, white = match(browser_player("ann"), browser_player("ben"), url)
    click_point(black, "h8")
    expect(white.get_by_test_id("status")).to_have_text("Your turn")
    black.get_by_test_id("pause-button").click()
    white.get_by_test_id("pause-accept").click()
    for page in (black, white):
        expect(page.get_by_test_id("status")).to_have_text("Paused")
    return black, white


def test_a_paused_game_looks_paused(browser_player, live_server):
    black, white = paused_game(browser_player, live_server.url)
    for page in (black, white):
        expect(page.get_by_test_id("player-white")).not_to_have_class(re.compile(r"\bturn\b"))
        expect(page.get_by_test_id("player-black")).not_to_have_class(re.compile(r"\bturn\b"))
        expect(page.get_by_test_id("draw-button")).to_be_disabled()
        expect(page.get_by_test_id("undo-button")).to_be_disabled()
    frozen = white.get_by_test_id("clock-white").inner_text()
    white.get_by_role("button", name="h9", exact=True).click(force=True)  # no move while paused
    white.wait_for_timeout(1500)
    expect(white.get_by_test_id("clock-white")).to_have_text(frozen)
    expect(white.locator('[aria-label="h9"]')).not_to_have_attribute("data-stone", "white")
    for page in (black, white):
        page.get_by_test_id("pause-button").click()
    expect(white.get_by_test_id("player-white")).to_have_class(re.compile(r"\bturn\b"))
    expect(white.get_by_test_id("status")).to_have_text("Your turn")
    expect(black.get_by_test_id("undo-button")).to_be_enabled()
    click_point(white, "h9")
    expect(black.locator('[aria-label="h9"]')).to_have_attribute("data-stone", "white")


# Long enough for both pages to show the game begun on a loaded machine (3 s was not).
@pytest.mark.parametrize("live_env", [{"GOBANG_ABORT_SECONDS": "6"}])
def test_an_aborted_game_says_why_with_no_score_line_and_no_empty_replay(
    browser_player, live_server
):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    game_url = black.url
    for page in (black, white):
        expect(page.get_by_test_id("status")).to_have_text("Aborted", timeout=15_000)
        expect(page.get_by_test_id("result-reason")).to_have_text("Black did not move in 6 s.")
        expect(page.get_by_test_id("score-change-black")).to_be_hidden()
        expect(page.get_by_test_id("score-change-white")).to_be_hidden()
        # the rating in the game's category as it began: a newcomer's
        expect(page.get_by_test_id("score-black")).to_have_text("1500")
        expect(page.get_by_test_id("replay-link")).to_be_hidden()  # no moves to replay
        expect(page.get_by_test_id("analyse-link")).to_be_hidden()  # nor to analyse
    black.reload()
    expect(black.get_by_test_id("status")).to_have_text("Aborted")
    expect(black.get_by_test_id("result-reason")).to_have_text("Black did not move in 6 s.")
    expect(black.get_by_test_id("score-change-black")).to_be_hidden()
    expect(black.get_by_test_id("replay-link")).to_be_hidden()
    black.goto(f"{game_url}/replay")
    expect(black.get_by_test_id("replay-result")).to_have_text("Aborted")
    expect(black.get_by_test_id("replay-reason")).to_have_text("Black did not move in 6 s.")
    expect(black.get_by_test_id("replay-no-moves")).to_have_text(
        "No moves were played in this game.")
    black.get_by_test_id("nav-profile").click()
    expect(black.get_by_test_id("game-result")).to_have_text("aborted")


def test_the_side_to_move_sees_the_abort_countdown_for_each_first_move(
    browser_player, live_server
):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    countdown = re.compile(r"Move within 0:[0-3]\d or the game is aborted\.")
    expect(black.get_by_test_id("abort-notice")).to_have_text(countdown)
    expect(white.get_by_test_id("abort-notice")).to_contain_text("aborted unless a move")
    click_point(black, "h8")
    expect(white.get_by_test_id("abort-notice")).to_have_text(countdown)
    expect(black.get_by_test_id("abort-notice")).to_contain_text("aborted unless a move")
    click_point(white, "h9")
    for page in (black, white):
        expect(page.get_by_test_id("abort-notice")).to_be_hidden()


def test_the_abort_countdown_in_chinese(browser_player, live_server):
    english = browser_player("ben")
    chinese = browser_player("ann", locale="zh-CN")
    black, _white = match(english, chinese, live_server.url)
    text = r"请在 0:[0-3]\d 内落子" if chinese is black else r"若 0:[0-3]\d 内无人落子"
    expect(chinese.get_by_test_id("abort-notice")).to_have_text(re.compile(text))


# Stones on every edge and corner next to the labels: a15, c15, o15, a3, o1, h1, a8, o8.
EDGE_POINTS = ["a15", "c15", "o15", "a3", "o1", "h1", "a8", "o8"]

LABELS_COVERED = """() => {
  const points = document.querySelectorAll("[data-testid=board] .point[data-stone]");
  const stones = [...points].map((p) => {
    const r = p.getBoundingClientRect();
    // The stone is drawn 5% inside its point (site.css, .point::before).
    const inset = r.width * 0.05;
    return {left: r.left + inset, right: r.right - inset,
            top: r.top + inset, bottom: r.bottom - inset};
  });
  const covered = [];
  for (const label of document.querySelectorAll("[data-testid=board] .board-labels text")) {
    const l = label.getBoundingClientRect();
    for (const s of stones) {
      if (l.left < s.right && s.left < l.right && l.top < s.bottom && s.top < l.bottom) {
        covered.push(label.textContent);
      }
    }
  }
  return covered;
}"""


def test_edge_stones_never_cover_the_coordinate_labels(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    for index, point in enumerate(EDGE_POINTS):
        mover = black if index % 2 == 0 else white
        expect(mover.get_by_test_id("status")).to_have_text("Your turn")
        click_point(mover, point)
        expect(mover.locator(f'[aria-label="{point}"]')).to_have_attribute(
            "data-stone", re.compile("."))
    # The last stone is white's: black's page draws it when the move reaches it, so wait.
    expect(black.locator("[data-testid=board] [data-stone]")).to_have_count(len(EDGE_POINTS))
    assert black.evaluate(LABELS_COVERED) == []


def test_the_spectator_count_survives_a_reload_and_follows_into_the_rematch(
    browser_player, live_server
):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    watcher = browser_player("cat")
    watcher.get_by_test_id("watch-link").first.click()
    expect(black.get_by_test_id("spectators")).to_have_text("1 watching")
    black.reload()
    expect(black.get_by_test_id("status")).to_have_text("Your turn")
    expect(black.get_by_test_id("spectators")).to_have_text("1 watching")
    white.get_by_test_id("resign-button").click()
    white.get_by_test_id("resign-confirm").click()
    old_url = black.url
    for page in (black, white):
        page.get_by_test_id("rematch-button").click()
    for page in (black, white, watcher):
        page.wait_for_url(lambda url: url != old_url and "/game/" in url)
    for page in (black, white):
        expect(page.get_by_test_id("spectators")).to_have_text("1 watching")


def test_a_stale_rematch_button_links_to_the_rematch(browser_player, live_server):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    white.get_by_test_id("resign-button").click()
    white.get_by_test_id("resign-confirm").click()
    old_url = black.url
    for page in (black, white):
        page.get_by_test_id("rematch-button").click()
    for page in (black, white):
        page.wait_for_url(lambda url: url != old_url and "/game/" in url)
    new_url = black.url
    black.goto(old_url)
    link = black.get_by_test_id("rematch-link")
    expect(link).to_be_visible()
    expect(link).to_have_text("Go to the rematch")
    expect(black.get_by_test_id("rematch-button")).to_be_hidden()
    link.click()
    black.wait_for_url(new_url)


def test_a_rematch_offer_is_withdrawn_when_the_opponent_goes_back_to_the_hall(
    browser_player, live_server
):
    black, white = match(browser_player("ann"), browser_player("ben"), live_server.url)
    white.get_by_test_id("resign-button").click()
    white.get_by_test_id("resign-confirm").click()
    button, status = black.get_by_test_id("rematch-button"), black.get_by_test_id("rematch-status")
    button.click()
    expect(status).to_have_text("Rematch offered; waiting for your opponent.")
    white.get_by_test_id("back-to-hall").click()
    white.wait_for_url(f"{live_server.url}/hall")
    expect(status).to_have_text("Your opponent left, so the rematch offer is withdrawn.")
    expect(button).to_be_disabled()
    black.reload()
    expect(black.get_by_test_id("status")).to_have_text("You won!")
    expect(status).to_have_text("Your opponent left the game.")
    expect(button).to_be_disabled()
    white.go_back()
    expect(white.get_by_test_id("status")).to_have_text("You lost")
    expect(button).to_be_enabled()
    expect(status).to_have_text("")


PHONE = {"width": 390, "height": 844}
TOUCH = {"has_touch": True, "is_mobile": True}

BOXES = """(selector) => [...document.querySelectorAll(selector)]
    .filter((el) => el.getClientRects().length)
    .map((el) => {
      const r = el.getBoundingClientRect();
      return {text: el.textContent.trim(), top: r.top, width: r.width};
    })"""


def boxes(page, selector: str) -> list[dict]:
    page.wait_for_load_state("load")  # the stylesheet has applied
    return page.evaluate(BOXES, selector)


def assert_one_row(found: list[dict], count: int) -> None:
    """`count` controls, all on one row: their tops within a few pixels."""
    assert len(found) == count, found
    tops = [box["top"] for box in found]
    assert max(tops) - min(tops) <= 3, found


def test_resign_stays_on_the_row_of_the_controls_while_paused(browser_player, live_server):
    black, white = paused_game(browser_player, live_server.url)
    white.get_by_test_id("pause-button").click()  # white's vote: "Waiting to resume"
    expect(white.get_by_test_id("pause-button")).to_have_text("Waiting to resume")
    for page in (black, white):
        assert_one_row(boxes(page, "#play-controls > button"), 4)


def test_a_take_back_request_keeps_the_controls_on_one_row_on_a_phone(browser_player,
                                                                      live_server):
    black, white = match(browser_player("ann", PHONE, **TOUCH),
                         browser_player("ben", PHONE, **TOUCH), live_server.url)
    click_point(black, "h8")
    expect(white.get_by_test_id("status")).to_have_text("Your turn")
    click_point(white, "h9")
    expect(black.get_by_test_id("status")).to_have_text("Your turn")
    black.get_by_test_id("undo-button").click()
    expect(black.get_by_test_id("undo-button")).to_have_text("Take-back requested")
    assert_one_row(boxes(black, "#play-controls > button"), 4)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_choices_after_a_game_are_one_row_of_equal_buttons(browser_player, live_server,
                                                               device):
    options = {"viewport": PHONE, **TOUCH} if device == "phone" else {}
    black, white = match(browser_player("ann", **options), browser_player("ben", **options),
                         live_server.url)
    white.get_by_test_id("resign-button").click()
    white.get_by_test_id("resign-confirm").click()
    expect(black.get_by_test_id("rematch-button")).to_be_visible()
    found = boxes(black, "#rematch-button, #new-opponent-link, #challenge-opponent-link")
    assert [box["text"][:9] for box in found] == ["Rematch", "New oppon", "Challenge"]
    assert_one_row(found, 3)
    widths = [box["width"] for box in found]
    assert max(widths) - min(widths) <= 1, found
