"""The replay's computer analysis in Chromium, on the real server: asked for from the page (or
from the room's game-over panel), waited for in the queue and a worker process of the live
server, then shown: the evaluation graph, the verdicts, the best move and the summary."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect

from tests.browser.test_replay import log_in
from tests.live.test_play import matched_pair, play
from tests.support.analysis import FORTY_MOVES, MISSED_VCF
from tests.support.browser import ARTIFACTS
from tests.support.live import LiveServer, wait_until

pytestmark = [pytest.mark.live, pytest.mark.browser]

# A worker starts in a fraction of a second and a short game takes a second or two of CPU,
# at low priority on a machine that runs other tests too.
DONE_MS = 60_000
DONE_SECONDS = DONE_MS / 1000
WORKER_MODULE = b"gobang.services.analysis.worker"
# MISSED_VCF's move 11: black plays n15 with a four-three to make at i8 (docs/engines.md:
# before 1.0, a forced win; after well under 0.7, so a drop of 0.3 or more, a blunder).
BLUNDER = 11
BLUNDER_POINT, BEST_POINT, VCF_LINE = "n15", "i8", "i8 j8 i11"


def finished(live_server: LiveServer, moves, names=("ann", "ben")) -> tuple[int, str]:
    """A game of `names` with `moves` played, then resigned by the side to move (no five is
    made); returns its id and its black player's name."""
    black, white, game_id = matched_pair(live_server, names)
    play(black, white, game_id, moves)
    mover = black if len(moves) % 2 == 0 else white
    assert mover[2].ask("resign", {"game_id": game_id})["ok"] is True
    for _http, hall, room in (black, white):
        hall.disconnect()
        room.disconnect()
    record = requests.get(f"{live_server.url}/api/games/{game_id}", timeout=10).json()
    return game_id, record["black"]["username"]


def ask_over_http(live_server: LiveServer, username: str, game_id: int) -> None:
    http = live_server.user(username, register=False)
    page = http.get(f"{live_server.url}/hall", timeout=10).text
    token = re.search(r'data-csrf-token="([^"]+)"', page).group(1)
    asked = http.post(f"{live_server.url}/api/games/{game_id}/analysis",
                      headers={"X-CSRFToken": token}, timeout=10)
    assert asked.status_code == 202, asked.text


def state(live_server: LiveServer, game_id: int) -> dict:
    return requests.get(f"{live_server.url}/api/games/{game_id}/analysis", timeout=10).json()


def analysed(live_server: LiveServer, username: str, game_id: int) -> dict:
    """The game's analysis, asked for by `username` over HTTP and waited for."""
    ask_over_http(live_server, username, game_id)
    assert wait_until(lambda: state(live_server, game_id)["status"] == "done",
                      timeout=DONE_SECONDS), state(live_server, game_id)
    return state(live_server, game_id)["analysis"]


def workers(live_server: LiveServer) -> set[int]:
    """The live server's analysis workers now: its children running the worker module."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue  # ended meanwhile
        if parent == live_server.process.pid and WORKER_MODULE in command:
            found.add(int(entry.name))
    return found


@contextmanager
def stopped_worker(live_server: LiveServer, besides: frozenset[int] = frozenset()
                   ) -> Iterator[int]:
    """The next worker the server starts (not one of `besides`), stopped with SIGSTOP as a
    starved machine would leave it, and let go on leaving the block."""
    found: set[int] = set()
    assert wait_until(lambda: found.update(workers(live_server) - besides) or found,
                      timeout=DONE_SECONDS), "no analysis worker started"
    pid = found.pop()
    os.kill(pid, signal.SIGSTOP)
    try:
        yield pid
    finally:
        with suppress(ProcessLookupError):  # a test may have killed it
            os.kill(pid, signal.SIGCONT)


@pytest.fixture
def replay_errors():
    """Pages whose script errors fail the test that made them."""
    errors: list[str] = []

    def watch(page):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        return page

    yield watch
    assert errors == []


@pytest.fixture
def blunder_game(live_server) -> tuple[int, str]:
    return finished(live_server, MISSED_VCF)


def expect_analysis_shown(page, moves: int) -> None:
    expect(page.get_by_test_id("evaluation-chart")).to_be_visible(timeout=DONE_MS)
    expect(page.locator("#evaluation-graph a.graph-link")).to_have_count(moves + 1)
    expect(page.get_by_test_id("graph-zero")).to_be_attached()
    expect(page.get_by_role("group", name="Black's chances, move by move")).to_be_visible()


def test_a_player_requests_the_analysis_and_sees_it_queued_then_running_then_done(
        live_server, new_page, replay_errors):
    """The worker of a game asked for first is held stopped, so ann's waits in the queue;
    then ann's own worker is held, so the page shows it running; let go, it ends drawn."""
    first, _black = finished(live_server, FORTY_MOVES, names=("cat", "dan"))
    game_id, _black = finished(live_server, FORTY_MOVES)
    page = replay_errors(new_page())
    log_in(page, live_server.url, "ann", f"/game/{game_id}/replay")
    request = page.get_by_test_id("analysis-request")
    expect(request).to_have_text("Request computer analysis")
    expect(page.get_by_test_id("evaluation-graph")).to_be_hidden()

    ask_over_http(live_server, "cat", first)
    with stopped_worker(live_server) as ahead:
        request.click()
        expect(page.get_by_test_id("analysis-status")).to_have_text("Queued: position 1")
        expect(request).to_be_hidden()
    with stopped_worker(live_server, besides=frozenset({ahead})):
        assert state(live_server, first)["status"] == "done"
        expect(page.get_by_test_id("analysis-status")).to_have_text(
            re.compile(r"^Analysing(: \d+ of 41 positions|…)$"))
    expect_analysis_shown(page, len(FORTY_MOVES))
    expect(page.get_by_test_id("analysis-status")).to_have_text("")
    expect(page.get_by_test_id("analysis-summary")).to_be_visible()
    found = state(live_server, game_id)["analysis"]
    labelled = [move for move in found["moves"] if move["label"]]
    assert labelled, "the engine's own game has no labelled move: pick another game"
    expect(page.locator("#move-list .move-mark")).to_have_count(len(labelled))


@pytest.mark.parametrize("live_env", [{"GOBANG_ANALYSIS_RETRIES": "0"}])
def test_a_failed_analysis_is_said_and_may_be_asked_for_again(live_server, new_page,
                                                               replay_errors):
    """The worker killed as the kernel's out-of-memory killer would, with no retries left."""
    game_id, _black = finished(live_server, FORTY_MOVES)
    page = replay_errors(new_page())
    log_in(page, live_server.url, "ann", f"/game/{game_id}/replay")
    request = page.get_by_test_id("analysis-request")
    request.click()
    with stopped_worker(live_server) as pid:
        expect(page.get_by_test_id("analysis-status")).to_have_text(re.compile("^Analysing"))
        os.kill(pid, signal.SIGKILL)
    expect(page.get_by_test_id("analysis-status")).to_have_text("The analysis failed.")
    expect(request).to_be_visible()
    assert state(live_server, game_id)["status"] == "failed"
    request.click()  # asked again: this time the worker is let be
    expect_analysis_shown(page, len(FORTY_MOVES))


def test_a_visitor_sees_the_stored_analysis_without_requesting(live_server, new_page,
                                                                blunder_game, replay_errors):
    game_id, black = blunder_game
    found = analysed(live_server, black, game_id)
    page = replay_errors(new_page())
    page.goto(f"{live_server.url}/game/{game_id}/replay")
    expect_analysis_shown(page, len(MISSED_VCF))
    expect(page.get_by_test_id("analysis-request")).to_be_hidden()
    expect(page.get_by_test_id("analysis-why-not")).to_be_hidden()
    for color in ("black", "white"):
        counts = found["players"][color]
        for field in ("inaccuracy", "mistake", "blunder"):
            expect(page.get_by_test_id(f"summary-{color}-{field}")).to_have_text(
                str(counts[field]))
        expect(page.get_by_test_id(f"summary-{color}-accuracy")).to_have_text(
            f"{counts['accuracy']:.1f}%")
    expect(page.get_by_test_id("analysis-engine")).to_have_text(found["engine"])


def test_a_visitor_is_told_to_log_in_to_request_one(live_server, new_page, blunder_game,
                                                   replay_errors):
    game_id, _black = blunder_game
    page = replay_errors(new_page())
    page.goto(f"{live_server.url}/game/{game_id}/replay")
    why_not = page.get_by_test_id("analysis-why-not")
    expect(why_not).to_have_text("Log in to request an analysis")
    expect(why_not.get_by_role("link")).to_have_attribute("href", re.compile(
        rf"/login\?next=.*{game_id}.*replay"))
    expect(page.get_by_test_id("analysis-request")).to_be_hidden()
    assert state(live_server, game_id)["status"] == "none"


def test_a_guest_is_told_to_register_to_request_one(live_server, new_page, blunder_game,
                                                   replay_errors):
    game_id, _black = blunder_game
    page = replay_errors(new_page())
    page.goto(live_server.url)
    page.get_by_test_id("front-guest-play").click()
    page.wait_for_url(f"{live_server.url}/computer")
    page.goto(f"{live_server.url}/game/{game_id}/replay")
    expect(page.get_by_test_id("analysis-why-not")).to_have_text(
        "Register to request an analysis")
    expect(page.get_by_test_id("analysis-request")).to_be_hidden()


def test_a_spectator_who_may_not_ask_is_offered_nothing(live_server, browser_player,
                                                        blunder_game, replay_errors):
    """The host lets only the game's players ask (ANALYSIS_BY_SPECTATORS is off)."""
    game_id, _black = blunder_game
    page = replay_errors(browser_player("cat"))
    page.goto(f"{live_server.url}/game/{game_id}/replay")
    box = page.get_by_test_id("analysis")
    expect(box).to_have_attribute("data-status", "none")  # the state was read and shown
    expect(box).to_be_hidden()
    expect(page.get_by_test_id("analysis-request")).to_be_hidden()


def test_a_missed_vcf_is_labelled_a_blunder_and_its_line_drawn(live_server, new_page,
                                                               blunder_game, replay_errors):
    game_id, black = blunder_game
    found = analysed(live_server, black, game_id)
    assert found["moves"][BLUNDER - 1]["label"] == "blunder"
    page = replay_errors(new_page())
    page.goto(f"{live_server.url}/game/{game_id}/replay")
    mark = page.get_by_test_id(f"mark-{BLUNDER}")
    expect(mark).to_have_text("??Blunder")  # the sign, and the word for screen readers
    expect(mark).to_have_class("move-mark blunder")
    page.get_by_test_id(f"move-{BLUNDER}").click()
    expect(page.get_by_test_id("analysis-verdict")).to_have_text(
        f"Move {BLUNDER}, {BLUNDER_POINT}: Blunder (??)")
    expect(page.get_by_test_id("analysis-missed")).to_have_text(f"Missed a VCF: {VCF_LINE}")
    expect(page.get_by_test_id("summary-black-blunder")).to_have_text(
        str(found["players"]["black"]["blunder"]))
    # The line on the board: numbered ghost stones from black's, the mover's, colour.
    ghosts = page.locator("#board .point.line")
    expect(ghosts).to_have_count(len(VCF_LINE.split()))
    drawn = {(ghost.get_attribute("aria-label"), ghost.text_content(),
              ghost.get_attribute("data-line"), ghost.get_attribute("aria-description"))
             for ghost in ghosts.all()}
    colours = ("black", "white")
    assert drawn == {
        (f"{point}, the engine's best move" if point == BEST_POINT else point, str(n),
         colours[(n - 1) % 2], f"move {n} of the missed win")
        for n, point in enumerate(VCF_LINE.split(), start=1)}
    page.get_by_test_id(f"move-{BLUNDER + 1}").click()  # a move without a missed win
    expect(ghosts).to_have_count(0)


def test_clicking_a_graph_point_goes_to_that_move_and_draws_the_best_move(
        live_server, new_page, blunder_game, replay_errors):
    game_id, black = blunder_game
    analysed(live_server, black, game_id)
    page = replay_errors(new_page())
    page.goto(f"{live_server.url}/game/{game_id}/replay")
    expect_analysis_shown(page, len(MISSED_VCF))
    best = page.get_by_role("button", name=f"{BEST_POINT}, the engine's best move")
    expect(best).to_have_count(0)  # the final move's best is another point
    page.get_by_test_id(f"graph-point-{BLUNDER}").click()
    expect(page.get_by_test_id("move-counter")).to_have_text(
        f"Move {BLUNDER} of {len(MISSED_VCF)}")
    expect(page).to_have_url(re.compile(rf"/game/{game_id}/replay\?move={BLUNDER}$"))
    expect(page.get_by_test_id(f"graph-point-{BLUNDER}")).to_have_attribute(
        "aria-current", "step")
    expect(best).to_have_class(re.compile(r"\bbest\b"))
    expect(page.locator("#board .point.best")).to_have_count(1)
    expect(page.get_by_test_id("analysis-best")).to_have_text(
        f"The engine's best move was {BEST_POINT}.")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "replay-analysis.png"), full_page=True)
    page.get_by_test_id("replay-first").click()  # the empty board: no move, no best move
    expect(page.locator("#board .point.best")).to_have_count(0)


def test_the_game_over_panels_link_requests_the_analysis(live_server, new_page, blunder_game,
                                                         replay_errors):
    game_id, _black = blunder_game
    page = replay_errors(new_page())
    log_in(page, live_server.url, "ann", f"/game/{game_id}")
    link = page.get_by_test_id("analyse-link")
    expect(link).to_have_text("Request analysis")
    assert state(live_server, game_id)["status"] == "none"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "room-request-analysis.png"), full_page=True)
    link.click()
    page.wait_for_url(re.compile(rf"/game/{game_id}/replay$"))  # the flag is spent
    expect_analysis_shown(page, len(MISSED_VCF))
    assert state(live_server, game_id)["status"] == "done"
    page.reload()  # no second request: the page shows the stored one
    expect_analysis_shown(page, len(MISSED_VCF))
