"""The analysis queue with real worker processes and a real database: one pending request per
player, the host's capacity, first come first served, and a worker killed at work."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select

from gobang.extensions import db
from gobang.models import AnalysisRequest, GameAnalysis
from gobang.services.analysis.processes import Job, Worker
from gobang.services.analysis.queue import AnalysisQueue, QueueSettings
from gobang.services.analysis.requests import LEASE_SECONDS, RequestBook
from gobang.services.analysis.service import Viewer
from gobang.services.analysis.stored import save_analysis
from gobang.services.notices import ActionError
from tests.support.analysis import FORTY_MOVES
from tests.support.games import add_user, finish_game, start_game

WAIT_SECONDS = 60.0
NOW = datetime(2026, 12, 5, 8, 0)


def drive(env, until: Callable[[], bool]) -> None:
    """Run the services' ticks (which drive the queue, as the ticker does) until `until()`
    holds, woken by the workers' news, within a deadline."""
    end = time.monotonic() + WAIT_SECONDS
    while not until():
        assert time.monotonic() < end, "the analysis did not get there in time"
        env.analysis.queue.wait(0.5)
        for _ in env.tick():
            pass


@pytest.fixture
def analysis(env):
    yield env.analysis
    env.analysis.queue.close()


@pytest.fixture
def game_of(app):
    """A finished game of forty moves between two new players; their ids and the game's."""
    made = 0

    def make(moves=FORTY_MOVES) -> tuple[int, int, int]:
        nonlocal made
        made += 1
        black = add_user(app, f"black{made}")
        white = add_user(app, f"white{made}")
        return black, white, finish_game(app, black, white, "black", "resign", moves=moves)

    return make


def stored_rows(game_id: int) -> int:
    return db.session.scalar(
        select(func.count()).select_from(GameAnalysis).where(GameAnalysis.game_id == game_id))


def test_a_request_is_queued_first_in_line(analysis, game_of):
    black, _, game_id = game_of()
    found, queued = analysis.request(game_id, Viewer(black))
    assert queued
    assert (found["status"], found["position"], found["progress"]) == ("queued", 1, None)
    assert found["can_request"] is False


def test_a_second_request_of_the_same_player_is_a_conflict(analysis, game_of, app):
    black, white, first = game_of()
    second = finish_game(app, black, white, "black", "resign", moves=FORTY_MOVES[:10])
    analysis.request(first, Viewer(black))
    with pytest.raises(ActionError) as refused:
        analysis.request(second, Viewer(black))
    assert refused.value.code == "conflict"
    assert analysis.view(second, Viewer(black))["status"] == "none"


def test_the_other_player_asking_for_the_same_game_keeps_its_place(analysis, game_of):
    black, white, game_id = game_of()
    analysis.request(game_id, Viewer(black))
    found, _ = analysis.request(game_id, Viewer(white))
    assert (found["status"], found["position"]) == ("queued", 1)


@pytest.mark.parametrize("app_overrides", [{"ANALYSIS_QUEUE_AT_MOST": 2}])
def test_a_full_queue_refuses_as_unavailable(analysis, game_of):
    games = [game_of() for _ in range(3)]
    for black, _, game_id in games[:2]:
        analysis.request(game_id, Viewer(black))
    black, _, game_id = games[2]
    with pytest.raises(ActionError) as refused:
        analysis.request(game_id, Viewer(black))
    assert refused.value.code == "unavailable"


def test_requests_wait_in_the_order_they_came(analysis, game_of):
    games = [game_of() for _ in range(3)]
    for black, _, game_id in games:
        analysis.request(game_id, Viewer(black))
    assert [analysis.view(g, Viewer(None))["position"] for _, _, g in games] == [1, 2, 3]
    analysis.queue.tick()  # one worker: the first starts, the others move up
    states = [analysis.view(g, Viewer(None)) for _, _, g in games]
    assert [s["status"] for s in states] == ["running", "queued", "queued"]
    assert [s["position"] for s in states] == [None, 1, 2]
    assert states[0]["progress"] == {"done": 0, "total": len(FORTY_MOVES) + 1}


def test_a_finished_analysis_is_stored_and_shown(env, analysis, game_of):
    black, _, game_id = game_of(FORTY_MOVES[:12])
    analysis.request(game_id, Viewer(black))
    drive(env, lambda: analysis.view(game_id, Viewer(None))["status"] == "done")
    found = analysis.view(game_id, Viewer(None))
    assert [m["number"] for m in found["analysis"]["moves"]] == list(range(1, 13))
    assert set(found["analysis"]["players"]) == {"black", "white"}
    assert stored_rows(game_id) == 1


def test_a_worker_killed_at_work_is_retried_and_stored_once(env, analysis, game_of):
    black, _, game_id = game_of()
    queue = analysis.queue
    analysis.request(game_id, Viewer(black))
    queue.tick()
    first = queue.worker_pid(game_id)
    drive(env, lambda: (queue.state(game_id).progress or {}).get("done", 0) >= 1)
    assert stored_rows(game_id) == 0  # part done, nothing stored
    os.kill(first, signal.SIGKILL)
    drive(env, lambda: queue.worker_pid(game_id) not in (None, first))
    assert stored_rows(game_id) == 0  # the killed attempt left nothing behind
    drive(env, lambda: analysis.view(game_id, Viewer(None))["status"] == "done")
    assert stored_rows(game_id) == 1
    stored = analysis.view(game_id, Viewer(None))["analysis"]
    assert len(stored["moves"]) == len(FORTY_MOVES)


def test_a_worker_past_its_time_is_ended_and_retried(env, analysis, game_of, clock):
    black, _, game_id = game_of()
    queue = analysis.queue
    analysis.request(game_id, Viewer(black))
    queue.tick()
    first = queue.worker_pid(game_id)
    clock.advance((len(FORTY_MOVES) + 1) * 1.0 + 31)  # its backstops and the slack, passed
    queue.tick()
    drive(env, lambda: queue.worker_pid(game_id) not in (None, first))
    with pytest.raises(ProcessLookupError):  # the stuck one was killed, not left running
        os.kill(first, 0)


@pytest.mark.parametrize("app_overrides", [{"ANALYSIS_RETRIES": 1}])
def test_a_worker_killed_every_time_fails_the_request_with_nothing_stored(
        env, analysis, game_of):
    black, _, game_id = game_of()
    queue = analysis.queue
    analysis.request(game_id, Viewer(black))
    killed: set[int] = set()
    for _ in range(2):  # the first attempt and its one retry
        drive(env, lambda: queue.worker_pid(game_id) not in (None, *killed))
        pid = queue.worker_pid(game_id)
        os.kill(pid, signal.SIGKILL)
        killed.add(pid)
    drive(env, lambda: queue.state(game_id).status == "failed")
    assert stored_rows(game_id) == 0
    found = analysis.view(game_id, Viewer(black))
    assert (found["status"], found["can_request"]) == ("failed", True)


def test_a_game_in_play_is_refused(analysis, app):
    black, white = add_user(app, "ann"), add_user(app, "bo")
    game_id = start_game(app, black, white, FORTY_MOVES[:6])
    with pytest.raises(ActionError) as refused:
        analysis.request(game_id, Viewer(black))
    assert refused.value.code == "bad_request"


@pytest.mark.parametrize(("viewer", "code"), [
    (Viewer(None), "unauthorized"),
    (Viewer(1, guest=True), "unauthorized"),
])
def test_visitors_and_guests_may_not_ask(analysis, game_of, viewer, code):
    _, _, game_id = game_of()
    with pytest.raises(ActionError) as refused:
        analysis.request(game_id, viewer)
    assert refused.value.code == code


def test_a_spectator_may_not_ask_by_default(analysis, game_of, app):
    _, _, game_id = game_of()
    spectator = add_user(app, "carl")
    with pytest.raises(ActionError) as refused:
        analysis.request(game_id, Viewer(spectator))
    assert refused.value.code == "forbidden"


@pytest.mark.parametrize("app_overrides", [{"ANALYSIS_BY_SPECTATORS": True}])
def test_a_spectator_may_ask_when_the_host_allows_it(analysis, game_of, app):
    _, _, game_id = game_of()
    found, queued = analysis.request(game_id, Viewer(add_user(app, "carl")))
    assert queued and found["status"] == "queued"


def test_an_unknown_game_is_not_found(analysis, app):
    with pytest.raises(ActionError) as refused:
        analysis.view(999_999, Viewer(None))
    assert refused.value.code == "not_found"


def test_a_move_list_that_is_not_a_game_fails_at_once_without_retries(env, game_of, clock):
    """The worker's answer to moves the rules refuse: retrying could not help."""
    black, _, game_id = game_of()
    started: list[int] = []
    saved: list[int] = []

    def start(job: Job, nice: int, news: threading.Event) -> Worker:
        started.append(job.game_id)
        return Worker(job, nice, news)

    def refused_moves(game: int) -> Job:
        return Job(game, "freestyle", ((7, 7), (7, 7)), 1.0, 6000)

    book = RequestBook(lambda: NOW, "tester", retries=2)
    queue = AnalysisQueue(QueueSettings(retries=2), clock, book,
                          lambda game, result: saved.append(game), refused_moves, start)
    queue.request(game_id, black)
    queue.tick()
    end = time.monotonic() + WAIT_SECONDS
    while queue.state(game_id).status != "failed":
        assert time.monotonic() < end, "no answer from the worker in time"
        queue.wait(0.5)
        queue.tick()
    assert (started, saved) == ([game_id], [])


class Wall:
    """The database's wall clock for the request book, moved by hand."""

    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


def process_queue(name: str, wall: Wall, clock) -> AnalysisQueue:
    """A server process's share of the queue: another process, or this one started again."""
    return AnalysisQueue(QueueSettings(), clock, RequestBook(wall, name, retries=2),
                         save_analysis)


def run_until_stored(queue: AnalysisQueue, game_id: int) -> None:
    end = time.monotonic() + WAIT_SECONDS
    while stored_rows(game_id) == 0:
        assert time.monotonic() < end, "the analysis was not stored in time"
        queue.wait(0.5)
        queue.tick()


@pytest.mark.parametrize("under_way", [False, True])
def test_a_request_left_by_a_stopped_process_is_analysed_once_by_the_next(env, game_of, clock,
                                                                          under_way):
    black, _, game_id = game_of(FORTY_MOVES[:10])
    wall = Wall()
    first = process_queue("first", wall, clock)
    first.request(game_id, black)
    if under_way:
        first.tick()
        assert first.state(game_id).status == "running"
    first.close()
    assert first.state(game_id).status == "queued"
    after = process_queue("after", wall, clock)
    run_until_stored(after, game_id)
    assert (stored_rows(game_id), after.state(game_id).status) == (1, "none")


def test_a_crashed_processs_analysis_is_taken_up_once_its_lease_runs_out(env, game_of,
                                                                         clock):
    black, _, game_id = game_of(FORTY_MOVES[:10])
    wall = Wall()
    crashed = process_queue("crashed", wall, clock)
    crashed.request(game_id, black)
    crashed.tick()
    os.kill(crashed.worker_pid(game_id), signal.SIGKILL)  # and the process is gone: no ticks
    other = process_queue("other", wall, clock)
    other.tick()
    assert (other.state(game_id).status, other.worker_pid(game_id)) == ("running", None)
    wall.now += timedelta(seconds=LEASE_SECONDS + 1)
    run_until_stored(other, game_id)
    assert db.session.scalar(select(func.count()).select_from(AnalysisRequest)) == 0


def test_one_pending_request_per_player_holds_across_processes(env, game_of, app, clock):
    black, white, first_game = game_of()
    second_game = finish_game(app, black, white, "black", "resign", moves=FORTY_MOVES[:10])
    wall = Wall()
    process_queue("one", wall, clock).request(first_game, black)
    with pytest.raises(ActionError) as refused:
        process_queue("two", wall, clock).request(second_game, black)
    assert refused.value.code == "conflict"
