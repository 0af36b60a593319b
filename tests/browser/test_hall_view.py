"""The hall view in Chromium with three players: who is online, a live game appearing and
leaving the list, and finding a player the bounded list leaves out to challenge them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.live]


@pytest.mark.parametrize(("choice", "label"), [(None, "10+5"), ("180+2", "3+2")])
def test_a_live_game_shows_its_players_ratings_and_its_clock(browser_player, live_server,
                                                             choice, label):
    ann, ben, cat = (browser_player(name) for name in ("ann", "ben", "cat"))
    for page in (ben, cat):
        if choice:
            page.get_by_test_id("clock-choice").select_option(choice)
        page.get_by_test_id("match-button").click()
    for page in (ben, cat):
        page.wait_for_url(re.compile(r".*/game/\d+"))
    games = ann.get_by_test_id("games-list")
    expect(games.locator("li")).to_have_count(1)
    expect(games.locator("li")).to_have_text(re.compile(
        rf"^(ben|cat) \(1500\) vs (cat|ben) \(1500\) · 0 moves · freestyle · {re.escape(label)}"))


def test_players_and_a_live_game_come_and_go_in_the_view(browser_player, live_server):
    ann, ben, cat = (browser_player(name) for name in ("ann", "ben", "cat"))
    online = ann.get_by_test_id("online-list")
    for name in ("ann", "ben", "cat"):
        expect(online).to_contain_text(name)
    expect(ann.get_by_test_id("hall-counts")).to_contain_text("3 online")
    for page in (ben, cat):
        page.get_by_test_id("match-button").click()
    for page in (ben, cat):
        page.wait_for_url(re.compile(r".*/game/\d+"))
    game_id = ben.url.rsplit("/", 1)[-1]
    games = ann.get_by_test_id("games-list")
    expect(games.locator("li")).to_have_count(1)
    # each player with their rating in the game's category: newcomers there, 1500
    expect(games).to_contain_text(re.compile(r"(ben|cat) \(1500\) vs (cat|ben) \(1500\)"))
    expect(games.get_by_test_id("watch-link")).to_have_attribute("href", f"/game/{game_id}")
    # The players left the hall for the game's page: they stay listed, playing, to be watched.
    listed = online.locator("li", has_text="ben")
    expect(listed.locator(".badge")).to_have_text("playing")
    expect(listed.get_by_test_id("watch-link")).to_have_attribute("href", f"/game/{game_id}")
    expect(ann.get_by_test_id("hall-counts")).to_contain_text("3 online · 2 playing")
    expect(ben.get_by_test_id("status")).to_have_text(re.compile("Your turn|Opponent's turn"))
    ben.get_by_test_id("resign-button").click()
    ben.get_by_test_id("resign-confirm").click()
    expect(games.locator("li")).to_have_count(0)
    expect(ann.locator("#games-empty")).to_be_visible()
    # The game is over: ben, still on its page, is online and idle (a challenge reaches him).
    expect(listed.locator(".badge")).to_have_text("idle")
    expect(ann.get_by_test_id("hall-counts")).to_contain_text("3 online · 0 playing")
    ben.goto(f"{live_server.url}/hall")
    expect(online.locator("li", has_text="ben").locator(".badge")).to_have_text("idle")
    expect(ann.get_by_test_id("hall-counts")).to_contain_text("3 online · 0 playing")
    ben.close()
    expect(online.locator("li", has_text="ben")).to_have_count(0)


def test_an_update_that_leaves_a_game_as_it_was_keeps_its_watch_link_under_the_pointer(
        browser_player, live_server):
    ann, ben, cat = (browser_player(name) for name in ("ann", "ben", "cat"))
    for page in (ben, cat):
        page.get_by_test_id("match-button").click()
    for page in (ben, cat):
        page.wait_for_url(re.compile(r".*/game/\d+"))
    watch = ann.get_by_test_id("games-list").get_by_test_id("watch-link")
    expect(watch).to_have_count(1)
    # The button is pressed; an update about someone else comes before it is released.
    watch.scroll_into_view_if_needed()
    box = watch.bounding_box()
    ann.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ann.mouse.down()
    browser_player("dan")
    expect(ann.get_by_test_id("hall-counts")).to_contain_text("4 online")
    ann.mouse.up()
    ann.wait_for_url(re.compile(r".*/game/\d+"))


@pytest.mark.parametrize("live_env", [{"GOBANG_HALL_LIST_SIZE": "1"}])
def test_a_player_left_out_of_the_list_is_found_and_challenged(browser_player, live_server):
    _ann, ben, cat = (browser_player(name) for name in ("ann", "ben", "cat"))
    # All three score 1000: the list of one holds the lowest id, ann.
    expect(cat.get_by_test_id("hall-counts")).to_contain_text("3 online")
    expect(cat.locator("#online-list li")).to_have_count(1)
    expect(cat.get_by_test_id("online-more")).to_contain_text("Showing 1 of 3")
    cat.get_by_test_id("find-input").fill("BE")
    cat.get_by_test_id("find-button").click()
    found = cat.get_by_test_id("find-results").locator("li")
    expect(found).to_have_count(1)
    expect(found).to_contain_text("ben")
    found.get_by_test_id("challenge-button").click()
    cat.get_by_test_id("challenge-send").click()
    expect(cat.get_by_test_id("challenges")).to_contain_text("ben")
    ben.get_by_test_id("challenge-accept").click()
    for page in (ben, cat):
        page.wait_for_url(re.compile(r".*/game/\d+"))
    cat.goto(f"{live_server.url}/hall")
    cat.get_by_test_id("find-input").fill("zz")
    cat.get_by_test_id("find-button").click()
    expect(cat.get_by_test_id("find-results")).to_contain_text(
        "No one online has a name starting like that.")


VIEW = {"seq": 5, "counts": {"online": 1, "playing": 0, "waiting": {}},
        "players": [{"id": 1, "username": "ann", "score": 1000, "status": "idle"}], "games": []}
EMPTY = {"players": {"set": [], "removed": []}, "games": {"set": [], "removed": []}}


@pytest.mark.parametrize(("hello_first", "seq", "applied", "seq_after"), [
    (False, 9, True, None),   # before hello: skipped, hello's view follows it
    (True, 6, True, 6),       # the next one: applied
    (True, 5, True, 5),       # already in the view: skipped
    (True, 7, False, 5),      # one missed: refused, so the page asks for the whole view
])
def test_the_page_applies_updates_in_sequence_only(browser_player, hello_first, seq, applied,
                                                   seq_after):
    page = browser_player("ann")
    result = page.evaluate("""async ([view, update, helloFirst]) => {
        const {HallViewModel} = await import('/static/js/hall_view.js');
        const model = new HallViewModel();
        if (helloFirst) model.reset(view);
        return [model.apply(update), model.seq];
    }""", [VIEW, {"seq": seq, **EMPTY}, hello_first])
    assert result == [applied, seq_after]
