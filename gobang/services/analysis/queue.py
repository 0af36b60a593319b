"""The analysis queue: first come, first served, one pending request per player, at most
`at_most` pending in all, worked through by at most `workers` processes at once on each
server process.

The requests live in the database (requests.py), so every server process works through the
same queue and a restart loses none; this object runs this process's share of them, each in a
worker process of its own. A worker that dies (killed, out of memory) or overruns its time
loses only its own attempt: the request goes back to the head of the queue, up to `retries`
times, then it has failed. A result is stored whole by `save` (one transaction, which also
removes the request) or not at all.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from gobang.extensions import db
from gobang.models import Game
from gobang.services.analysis.processes import Job, Worker
from gobang.services.analysis.requests import (
    FAILED,
    NOTHING,
    QUEUED,
    RUNNING,
    QueueState,
    RequestBook,
)
from gobang.services.clock import Clock
from gobang.services.notices import Notice

log = logging.getLogger("gobang.analysis")

__all__ = ["FAILED", "NOTHING", "QUEUED", "RUNNING", "AnalysisQueue", "QueueSettings",
           "QueueState"]

# A worker is given this much more than its positions' backstops before it counts as stuck.
SLACK_SECONDS = 30.0


@dataclass(frozen=True)
class QueueSettings:
    workers: int = 1
    at_most: int = 20
    # Attempts after the first when a worker dies.
    retries: int = 2
    seconds_per_position: float = 1.0
    nodes_per_position: int = 6000
    nice: int = 10


@dataclass
class Running:
    """One of this process's workers at work: its progress and when it is overdue."""

    job: Job
    worker: Worker
    due: float
    done: int = 0
    total: int = 0


class AnalysisQueue:
    def __init__(self, settings: QueueSettings, clock: Clock, book: RequestBook,
                 save: Callable[[int, dict[str, Any]], None],
                 jobs: Callable[[int], Job | None] | None = None,
                 start: Callable[[Job, int, threading.Event], Worker] = Worker) -> None:
        self.settings = settings
        self.book = book
        self._clock = clock
        self._save = save
        self._jobs = jobs or self._job_of
        self._start = start
        self._lock = threading.Lock()
        self._running: dict[int, Running] = {}
        # Set by a worker's reader when it has news: what `wait` waits on.
        self._news = threading.Event()

    # --- requests -----------------------------------------------------------------------

    def request(self, game_id: int, user_id: int) -> QueueState:
        """Queue the game's analysis for `user_id` (see RequestBook.add for the refusals)."""
        self.book.add(game_id, user_id, self.settings.at_most)
        return self.book.state(game_id)

    def state(self, game_id: int) -> QueueState:
        return self.book.state(game_id)

    def pending_for(self, user_id: int) -> bool:
        return self.book.pending_for(user_id)

    def worker_pid(self, game_id: int) -> int | None:
        """The process analysing the game here, if one is (for logs, and for tests to kill)."""
        with self._lock:
            running = self._running.get(game_id)
            return running.worker.pid if running else None

    # --- the work -----------------------------------------------------------------------

    def tick(self) -> list[Notice]:
        """Read the workers' news, store what finished, retry what died, start the next
        requests on free workers, and renew this process's leases with their progress.
        Nothing to tell anyone live: readers poll the API."""
        self._news.clear()
        finished, lost, refused = self._collect()
        for game_id, result in finished:
            self._store(game_id, result)
        for game_id, problem in lost:
            self._retry(game_id, problem)
        for game_id, problem in refused:
            log.warning("analysis failed", extra={"fields": {
                "game_id": game_id, "problem": problem[:200]}})
            self.book.fail(game_id)
        self._dispatch()
        with self._lock:
            progress = {g: (r.done, r.total) for g, r in self._running.items()}
        self.book.renew(progress)
        return []

    def wait(self, timeout: float) -> bool:
        """Block until a worker has news (or `timeout` seconds): for callers that drive the
        ticks themselves, a bench or a test, instead of sleeping."""
        return self._news.wait(timeout)

    def close(self) -> None:
        """Stop this process's workers and hand their requests back to the queue, where the
        next process to tick (or this one, started again) takes them up."""
        with self._lock:
            running, self._running = list(self._running.values()), {}
        for each in running:
            each.worker.kill()
        for each in running:
            each.worker.join(5.0)
        self.book.hand_back()

    def _collect(self) -> tuple[list[tuple[int, dict[str, Any]]], list[tuple[int, str]],
                                list[tuple[int, str]]]:
        """(finished results, attempts lost, requests refused by the worker)."""
        finished, lost, refused = [], [], []
        now = self._clock()
        with self._lock:
            for game_id, running in list(self._running.items()):
                messages, ended = running.worker.take()
                result = self._read(running, messages)
                if result is not None:
                    del self._running[game_id]
                    if "error" in result:
                        refused.append((game_id, str(result["error"])))
                    else:
                        finished.append((game_id, result["result"]))
                elif ended:
                    del self._running[game_id]
                    lost.append((game_id, "the worker ended without a result"))
                elif now > running.due:
                    running.worker.kill()  # its reader sees the end; the next tick retries it
                    running.due = float("inf")
        return finished, lost, refused

    @staticmethod
    def _read(running: Running, messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Note the progress; the final message (a result or an error), if it came."""
        for message in messages:
            if "result" in message or "error" in message:
                return message
            if "done" in message:
                running.done, running.total = int(message["done"]), int(message["total"])
        return None

    def _retry(self, game_id: int, problem: str) -> None:
        again = self.book.lost(game_id)
        log.warning("analysis worker lost", extra={"fields": {
            "game_id": game_id, "problem": problem, "tried_again": again}})

    def _store(self, game_id: int, result: dict[str, Any]) -> None:
        try:
            self._save(game_id, result)
        except Exception:  # the database refused: the analysis is lost, not half-kept
            db.session.rollback()
            log.exception("analysis not stored", extra={"fields": {"game_id": game_id}})
            self.book.fail(game_id)

    def _dispatch(self) -> None:
        while len(self._running) < self.settings.workers:
            game_id = self.book.claim()
            if game_id is None:
                return
            job = self._jobs(game_id)
            if job is None:  # the game is gone (its players' accounts removed)
                self.book.fail(game_id)
                continue
            worker = self._start(job, self.settings.nice, self._news)
            positions = len(job.moves) + 1
            due = self._clock() + positions * job.seconds + SLACK_SECONDS
            with self._lock:
                self._running[game_id] = Running(job, worker, due, 0, positions)

    def _job_of(self, game_id: int) -> Job | None:
        game = db.session.scalar(select(Game).where(Game.id == game_id))
        if game is None:
            return None
        moves = tuple((m.row, m.col) for m in game.moves)
        return Job(game_id, game.ruleset, moves, self.settings.seconds_per_position,
                   self.settings.nodes_per_position)
