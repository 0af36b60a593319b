"""The queue of analysis requests: first come, first served, one pending request per player,
at most `at_most` pending in all, worked through by at most `workers` processes at once.

A worker that dies (killed, out of memory) or overruns its time loses only its own attempt:
the request goes back to the head of the queue, up to `retries` times, then it has failed.
A result is stored whole by `save` (one transaction) or not at all.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext

from gobang.services.analysis.processes import Job, Worker
from gobang.services.clock import Clock
from gobang.services.notices import ActionError, Notice

log = logging.getLogger("gobang.analysis")

QUEUED, RUNNING, FAILED = "queued", "running", "failed"
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
class Pending:
    job: Job
    user_id: int
    attempts: int = 0
    worker: Worker | None = None
    done: int = 0
    total: int = 0
    due: float = 0.0


@dataclass(frozen=True)
class QueueState:
    """Where a game's analysis stands in this queue."""

    status: str  # queued, running or failed; "none" when the queue holds nothing for it
    position: int | None = None
    progress: dict[str, int] | None = None


NOTHING = QueueState("none")


@dataclass
class _Book:
    """What the queue holds, under its lock."""

    waiting: list[Pending] = field(default_factory=list)
    running: dict[int, Pending] = field(default_factory=dict)
    failed: set[int] = field(default_factory=set)


class AnalysisQueue:
    def __init__(self, settings: QueueSettings, clock: Clock,
                 save: Callable[[int, dict[str, Any]], None],
                 start: Callable[[Job, int, threading.Event], Worker] = Worker) -> None:
        self.settings = settings
        self._clock = clock
        self._start = start
        self._save = save
        self._lock = threading.Lock()
        self._book = _Book()
        # Set by a worker's reader when it has news: what `wait` waits on.
        self._news = threading.Event()

    # --- requests -----------------------------------------------------------------------

    def request(self, game_id: int, user_id: int, ruleset: str,
                moves: tuple[tuple[int, int], ...]) -> QueueState:
        """Queue the game's analysis for `user_id`. A game already pending keeps its place
        (whoever asked); ActionError `conflict` when the player has another one pending,
        `unavailable` when the queue is full."""
        with self._lock:
            book = self._book
            if self._find(game_id) is None:
                pending = [*book.waiting, *book.running.values()]
                if any(p.user_id == user_id for p in pending):
                    raise ActionError("conflict", gettext(
                        "You already have a game waiting for analysis. Ask again once it "
                        "is done."))
                if len(pending) >= self.settings.at_most:
                    raise ActionError("unavailable", gettext(
                        "The analysis queue is full. Please try again later."))
                book.failed.discard(game_id)
                job = Job(game_id, ruleset, tuple(moves), self.settings.seconds_per_position,
                          self.settings.nodes_per_position)
                book.waiting.append(Pending(job, user_id))
            return self._state(game_id)

    def state(self, game_id: int) -> QueueState:
        with self._lock:
            return self._state(game_id)

    def pending_for(self, user_id: int) -> bool:
        with self._lock:
            book = self._book
            return any(p.user_id == user_id for p in [*book.waiting, *book.running.values()])

    def worker_pid(self, game_id: int) -> int | None:
        """The process analysing the game, if one is (for logs, and for tests to kill)."""
        with self._lock:
            running = self._book.running.get(game_id)
            return running.worker.pid if running and running.worker else None

    def _find(self, game_id: int) -> Pending | None:
        book = self._book
        found = book.running.get(game_id)
        return found or next((p for p in book.waiting if p.job.game_id == game_id), None)

    def _state(self, game_id: int) -> QueueState:
        book = self._book
        running = book.running.get(game_id)
        if running is not None:
            total = running.total or len(running.job.moves) + 1
            return QueueState(RUNNING, None, {"done": running.done, "total": total})
        for place, pending in enumerate(book.waiting, start=1):
            if pending.job.game_id == game_id:
                return QueueState(QUEUED, place)
        return QueueState(FAILED) if game_id in book.failed else NOTHING

    # --- the work -----------------------------------------------------------------------

    def tick(self) -> list[Notice]:
        """Read the workers' news, store what finished, retry what died, start the next
        requests on free workers. Nothing to tell anyone live: readers poll the API."""
        self._news.clear()
        finished = self._collect()
        for game_id, result in finished:
            self._store(game_id, result)
        self._dispatch()
        return []

    def wait(self, timeout: float) -> bool:
        """Block until a worker has news (or `timeout` seconds): for callers that drive the
        ticks themselves, a bench or a test, instead of sleeping."""
        return self._news.wait(timeout)

    def close(self) -> None:
        """Kill the running workers; their requests are forgotten with this process."""
        with self._lock:
            running, self._book.running = list(self._book.running.values()), {}
            self._book.waiting.clear()
        workers = [p.worker for p in running if p.worker is not None]
        for worker in workers:
            worker.kill()
        for worker in workers:
            worker.join(5.0)

    def _collect(self) -> list[tuple[int, dict[str, Any]]]:
        finished = []
        now = self._clock()
        with self._lock:
            for game_id, pending in list(self._book.running.items()):
                worker = pending.worker
                assert worker is not None
                messages, ended = worker.take()
                result = self._read(pending, messages)
                if result is not None:
                    del self._book.running[game_id]
                    if "error" in result:
                        self._fail(pending, str(result["error"]))
                    else:
                        finished.append((game_id, result["result"]))
                elif ended:
                    del self._book.running[game_id]
                    self._retry(pending, "the worker ended without a result")
                elif now > pending.due:
                    worker.kill()  # its reader sees the end; the next tick retries it
                    pending.due = float("inf")
        return finished

    @staticmethod
    def _read(pending: Pending, messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Note the progress; the final message (a result or an error), if it came."""
        for message in messages:
            if "result" in message or "error" in message:
                return message
            if "done" in message:
                pending.done, pending.total = int(message["done"]), int(message["total"])
        return None

    def _retry(self, pending: Pending, problem: str) -> None:
        """Back to the head of the queue (it was first), unless out of attempts. Under the
        lock."""
        pending.attempts += 1
        log.warning("analysis worker lost", extra={"fields": {
            "game_id": pending.job.game_id, "attempt": pending.attempts, "problem": problem}})
        if pending.attempts > self.settings.retries:
            self._fail(pending, problem)
            return
        pending.worker, pending.done, pending.total = None, 0, 0
        self._book.waiting.insert(0, pending)

    def _fail(self, pending: Pending, problem: str) -> None:
        log.warning("analysis failed", extra={"fields": {
            "game_id": pending.job.game_id, "problem": problem[:200]}})
        self._book.failed.add(pending.job.game_id)

    def _store(self, game_id: int, result: dict[str, Any]) -> None:
        try:
            self._save(game_id, result)
        except Exception:  # the database refused: the analysis is lost, not half-kept
            log.exception("analysis not stored", extra={"fields": {"game_id": game_id}})
            with self._lock:
                self._book.failed.add(game_id)

    def _dispatch(self) -> None:
        with self._lock:
            book = self._book
            while book.waiting and len(book.running) < self.settings.workers:
                pending = book.waiting.pop(0)
                job = pending.job
                pending.worker = self._start(job, self.settings.nice, self._news)
                positions = len(job.moves) + 1
                pending.due = self._clock() + positions * job.seconds + SLACK_SECONDS
                book.running[job.game_id] = pending
