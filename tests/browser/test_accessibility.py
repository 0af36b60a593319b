"""Every page of the site through axe-core in Chromium: as a visitor, and as a player with a game
in play who is also a moderator, in each board theme and in English and Chinese. A violation
of impact "serious" or "critical" fails the page, and so does one of ALSO_FAILING.

axe-core is vendored (static/vendor/axe.min.js, `make vendor`) for this test alone: the test
adds it to each page, no template loads it. Every HTML page of the blueprints is a row of
VISITOR_SCREENS or PLAYER_SCREENS (the downloads, /api, /metrics and /healthz are not pages),
some in more than one state; a new page is one more row. One server for the module, with an
evening behind it (ranked players, finished and live games, chat, a report, a moderator's
action), and one browser context per look, keep the whole file within about a minute."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, text

from tests.browser.conftest import PASSWORD, login_in_browser
from tests.live.test_play import BLACK_FIVE, play
from tests.support.live import LiveServer, async_mode_env, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.live]

AXE = "/static/vendor/axe.min.js"
FAILING_IMPACTS = ("serious", "critical")
# Rules of a lower impact that fail a page all the same: a page's level-one heading is how a
# screen reader's user finds where its content starts.
ALSO_FAILING = ("page-has-heading-one",)
DESKTOP = {"width": 1280, "height": 900}
LANGUAGES = {"en": "en-GB", "zh": "zh-CN"}
# A player's pages in each board theme and each language, not every pairing: the theme
# changes the board's colours and the language the words, neither depending on the other.
LOOKS = [("wood", "en"), ("plain", "zh")]
# ann, who looks at the pages, is a moderator with a game in play against ben; cal and dee
# play a game ann watches; eve waits in the hall, to be challenged.
VIEWER = "ann"


@dataclass(frozen=True)
class Screen:
    """A page in one state: `path` (with {finished}, {playing}, {watched} for the evening's
    games), a selector that is there once the page's scripts have drawn it, and what a person
    does on it first, if anything."""

    name: str
    path: str
    ready: str = "main"
    act: Callable[[Page], None] | None = None


def refused_login(page: Page) -> None:
    page.fill("#username", VIEWER)
    page.fill("#password", "not the password")
    page.click("button[type=submit]")
    expect(page.locator(".flash.error")).to_be_visible()


def refused_registration(page: Page) -> None:
    page.fill("#username", "x")
    page.fill("#password", PASSWORD)
    page.fill("#confirm", "another password")
    page.click("button[type=submit]")
    expect(page.locator(".flash.error").first).to_be_visible()


def saved_preferences(page: Page) -> None:
    page.get_by_test_id("save-preferences").click()
    expect(page.locator(".flash.info")).to_be_visible()


def challenge_dialog(page: Page) -> None:
    entry = page.get_by_test_id("online-list").locator("li", has_text="eve")
    entry.get_by_test_id("challenge-button").click()
    expect(page.get_by_test_id("challenge-dialog")).to_be_visible()


def numbers_on(page: Page) -> None:
    """The move numbers on the stones (kept for the rest of the visitor's pages)."""
    page.get_by_test_id("numbers-toggle").check()
    expect(page.locator("#board .point.last")).to_have_text("9")


def best_move_shown(page: Page) -> None:
    """An analysed game at its third move, picked on the graph: the engine's best move drawn."""
    page.get_by_test_id("graph-point-3").click()
    expect(page.get_by_test_id("analysis-verdict")).to_contain_text("3")


def resign_asked(page: Page) -> None:
    page.get_by_test_id("resign-button").click()
    expect(page.get_by_test_id("resign-confirm-box")).to_be_visible()


def analysis_engine_asked(page: Page) -> None:
    """A move back (the variations listed), then the engine's answer there."""
    page.get_by_test_id("analysis-back").click()
    expect(page.get_by_test_id("variation-choose")).to_have_count(1)
    page.get_by_test_id("analysis-engine").click()
    expect(page.get_by_test_id("analysis-chance")).not_to_be_empty()


# Black's i8 is forbidden (a double three): the page marks it.
ANALYSIS_RENJU = "/analysis?ruleset=renju&moves=g8,a15,h8,o1,i10,o15,i9,a1"

VISITOR_SCREENS = [
    Screen("front", "/", ".front-hero"),
    Screen("login", "/login"),
    Screen("login-refused", "/login", act=refused_login),
    Screen("register", "/register"),
    Screen("register-refused", "/register", act=refused_registration),
    Screen("leaderboard", "/leaderboard", ".leaderboard-table"),
    Screen("category-board", "/leaderboard/freestyle:rapid"),
    Screen("profile", "/u/ben", ".games-table"),
    Screen("replay", "/game/{finished}/replay", "#board .point.win"),
    Screen("replay-numbers", "/game/{finished}/replay", "#board .point.win", act=numbers_on),
    Screen("replay-in-play", "/game/{watched}/replay"),
    Screen("replay-analysed", "/game/{analysed}/replay", "#evaluation-graph svg"),
    Screen("replay-analysed-move", "/game/{analysed}/replay", "#evaluation-graph svg",
           act=best_move_shown),
    Screen("not-found", "/u/nobody"),
    Screen("room-as-visitor", "/game/{watched}", "#room-chat-log li"),
    Screen("analysis", ANALYSIS_RENJU, "#board.interactive .point.marked"),
    Screen("analysis-from-game", "/analysis?game={finished}&move=4", "#board.interactive"),
    Screen("analysis-game-in-play", "/analysis?game={watched}", "[data-testid=analysis-refusal]"),
]

PLAYER_SCREENS = [
    Screen("hall", "/hall", "#online-list li[data-status=idle]"),
    Screen("hall-challenge-dialog", "/hall", "#online-list li[data-status=idle]",
           act=challenge_dialog),
    Screen("settings", "/settings"),
    Screen("settings-saved", "/settings", act=saved_preferences),
    Screen("own-profile", f"/u/{VIEWER}", ".games-table"),
    Screen("profile", "/u/ben", ".games-table"),
    Screen("leaderboard", "/leaderboard", ".leaderboard-table tr.me"),
    Screen("category-board", "/leaderboard/freestyle:rapid"),
    Screen("room-draw-offered", "/game/{playing}", "#draw-prompt:not(.hidden)"),
    Screen("room-resign-asked", "/game/{playing}", "#controls:not(.hidden)", act=resign_asked),
    Screen("room-watching-paused", "/game/{watched}", "#room.paused #room-chat-log li"),
    Screen("room-finished", "/game/{finished}", "#end-controls:not(.hidden)"),
    Screen("replay", "/game/{finished}/replay", "#analysis-request:not([hidden])"),
    Screen("replay-analysed", "/game/{analysed}/replay", "#evaluation-graph svg"),
    Screen("following", "/following"),
    Screen("computer", "/computer"),
    Screen("report", "/report?username=ben"),
    Screen("report-chat-line", "/report?username=cal&chat_text=good+game"),
    Screen("moderation", "/moderation"),
    Screen("moderation-player", "/moderation/players/dee"),
    Screen("moderation-log", "/moderation/log"),
    Screen("analysis-engine", "/analysis?moves=h8,i9,j10", "#board.interactive",
           act=analysis_engine_asked),
]


def axe_violations(page: Page, base_url: str) -> list[dict]:
    """axe-core's violations of the page as it is now, each with the nodes that fail."""
    page.add_script_tag(url=base_url + AXE)
    return page.evaluate("""async () => {
        const results = await axe.run(document, {resultTypes: ["violations"]});
        return results.violations.map((rule) => ({
            id: rule.id, impact: rule.impact, help: rule.help,
            nodes: rule.nodes.map((node) => ({
                target: node.target.join(" "),
                summary: (node.failureSummary || "").split("\\n").slice(1).join(" ").trim(),
            })),
        }));
    }""")


def failing(violations: list[dict]) -> str:
    """What a failing page says: each rule, its impact and the elements that break it."""
    lines = []
    for rule in violations:
        lines.append(f"{rule['id']} ({rule['impact']}): {rule['help']}")
        lines += [f"    {node['target']}: {node['summary']}" for node in rule["nodes"]]
    return "\n".join(lines)


def show(page: Page, server: LiveServer, screen: Screen, ids: dict[str, int]) -> None:
    page.goto(server.url + screen.path.format(**ids))
    page.wait_for_load_state("load")
    expect(page.locator(screen.ready).first).to_be_attached()
    if screen.act is not None:
        screen.act(page)


def assert_no_serious_violations(page: Page, server: LiveServer) -> None:
    found = [rule for rule in axe_violations(page, server.url)
             if rule["impact"] in FAILING_IMPACTS or rule["id"] in ALSO_FAILING]
    if found:
        pytest.fail(f"{page.url}\n{failing(found)}", pytrace=False)


# ---------- the evening: players, games and reports behind the pages ----------

def start_game(server: LiveServer, first, second, second_name: str):
    """`first` challenges `second` (logged-in sessions) and both join the room; returns the
    game's id and its seats by colour, each (http, hall, room)."""
    halls = [server.connect(http, "/hall") for http in (first, second)]
    for hall in halls:
        hall.wait_for("hello")
    challenge = halls[0].ask("challenge", {"username": second_name})
    assert halls[1].ask("answer_challenge", {"challenge_id": challenge["challenge_id"],
                                             "accept": True}) == {"ok": True}
    found = [hall.wait_for("match_found") for hall in halls]
    seats = {}
    for http, hall, match in zip((first, second), halls, found, strict=True):
        room = server.connect(http, "/room")
        assert room.ask("join_game", {"game_id": match["game_id"]})["ok"]
        seats[match["color"]] = (http, hall, room)
    return found[0]["game_id"], seats


def post_form(server: LiveServer, http, path: str, form_page: str, data: dict) -> None:
    """A form sent as its page would, with the page's CSRF token."""
    page = http.get(server.url + form_page, timeout=10).text
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    response = http.post(server.url + path, data={"csrf_token": token, **data},
                         allow_redirects=False, timeout=10)
    assert response.status_code == 302, response.text


def make_moderator(server: LiveServer, username: str) -> None:
    """What the host's `flask moderator grant` does, without its process's start-up."""
    engine = create_engine(server.database_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE users SET moderator = :yes WHERE username = :name"),
                           {"yes": True, "name": username})
    engine.dispose()


def evening(server: LiveServer) -> dict[str, int]:
    """Five finished games of ann and ben (both ranked), ann's game in play against ben, cal's
    against dee, chat in the hall and the rooms, a report and a mute; eve idle in the hall.
    The first finished game is analysed. Returns the games' ids."""
    users = {name: server.user(name) for name in (VIEWER, "ben", "cal", "dee", "eve")}
    games = []
    for _ in range(5):
        finished, seats = start_game(server, users[VIEWER], users["ben"], "ben")
        games.append(finished)
        play(seats["black"], seats["white"], finished, BLACK_FIVE)
        seats["white"][2].wait_for("game_over")
        for _http, hall, room in seats.values():
            hall.disconnect()
            room.disconnect()
    playing, seats = start_game(server, users[VIEWER], users["ben"], "ben")
    play(seats["black"], seats["white"], playing, BLACK_FIVE[:4])
    ben = next(seat for seat in seats.values() if seat[0] is users["ben"])
    ben[2].ask("chat", {"game_id": playing, "text": "Good luck!"})
    ben[1].ask("chat", {"text": "Anyone for renju later?"})
    assert ben[2].ask("offer_draw", {"game_id": playing}) == {"ok": True}
    watched, seats = start_game(server, users["cal"], users["dee"], "dee")
    play(seats["black"], seats["white"], watched, BLACK_FIVE[:3])
    seats["black"][2].ask("chat", {"game_id": watched, "text": "Nice opening."})
    assert seats["black"][2].ask("request_pause", {"game_id": watched}) == {"ok": True}
    assert seats["white"][2].ask("answer_pause", {"game_id": watched, "accept": True}) == {
        "ok": True}
    server.connect(users["eve"], "/hall").wait_for("hello")

    analyse(server, users[VIEWER], games[0])
    make_moderator(server, VIEWER)
    post_form(server, users["ben"], "/report", "/report",
              {"username": "cal", "reason": "abuse", "note": "Rude in chat."})
    post_form(server, users[VIEWER], "/moderation/players/dee/mute", "/moderation/players/dee",
              {"minutes": "60", "reason": "Spam in the hall."})
    return {"finished": finished, "playing": playing, "watched": watched, "analysed": games[0]}


def analyse(server: LiveServer, http, game_id: int) -> None:
    """The game's analysis, asked for as the replay's button does, and waited for."""
    page = http.get(server.url + "/hall", timeout=10).text
    token = re.search(r'data-csrf-token="([^"]+)"', page).group(1)
    url = f"{server.url}/api/games/{game_id}/analysis"
    assert http.post(url, headers={"X-CSRFToken": token}, timeout=10).status_code == 202
    assert wait_until(lambda: http.get(url, timeout=10).json()["status"] == "done", timeout=60)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, databases) -> Iterator[
        tuple[LiveServer, dict[str, int]]]:
    """One server for the module: the pages only read what the evening left."""
    workdir = tmp_path_factory.mktemp("accessibility")
    database_url = databases.fresh(workdir)
    # Long enough that nobody forfeits by leaving a room while the pages are looked at.
    env = {**async_mode_env(), "GOBANG_FORFEIT_GRACE_SECONDS": "3600"}
    server = LiveServer(workdir, env, database_url)
    server.start()
    try:
        yield server, evening(server)
    finally:
        server.stop()
        databases.drop(database_url)
    assert "Traceback" not in server.log(), server.log()


@pytest.fixture(scope="module", params=list(LANGUAGES))
def visitor(request, browser) -> Iterator[Page]:
    context = browser.new_context(viewport=DESKTOP, locale=LANGUAGES[request.param])
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


@pytest.fixture(scope="module", params=LOOKS, ids="-".join)
def player(request, browser, site) -> Iterator[Page]:
    """ann, logged in, in a board theme and a language."""
    server, _ids = site
    theme, language = request.param
    context = browser.new_context(viewport=DESKTOP, locale=LANGUAGES[language])
    context.set_default_timeout(10_000)
    page = context.new_page()
    login_in_browser(page, server.url, VIEWER)
    page.goto(f"{server.url}/settings")
    page.get_by_test_id(f"pref-theme-{theme}").check()
    page.get_by_test_id("save-preferences").click()
    expect(page.locator("body")).to_have_class(f"theme-{theme}")
    yield page
    context.close()


@pytest.mark.parametrize("screen", VISITOR_SCREENS, ids=lambda screen: screen.name)
def test_a_visitor_s_pages_have_no_serious_accessibility_violations(site, visitor, screen):
    server, ids = site
    show(visitor, server, screen, ids)
    assert_no_serious_violations(visitor, server)


@pytest.mark.parametrize("screen", PLAYER_SCREENS, ids=lambda screen: screen.name)
def test_a_player_s_pages_have_no_serious_accessibility_violations(site, player, screen):
    server, ids = site
    show(player, server, screen, ids)
    assert_no_serious_violations(player, server)


def test_the_check_finds_a_violation(site, visitor):
    """The check can fail: grey on white, far below 4.5:1."""
    server, _ids = site
    visitor.goto(f"{server.url}/login")
    visitor.evaluate("document.querySelector('h1').style.color = '#ccc'")
    found = [rule["id"] for rule in axe_violations(visitor, server.url)
             if rule["impact"] in FAILING_IMPACTS]
    assert found == ["color-contrast"]

