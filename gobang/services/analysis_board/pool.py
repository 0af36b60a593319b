"""The analysis board's engine processes: at most `at_once` asks at a time, each answered
within a bound, never in the server's own process (a search there would hold up every live
game on the event loop).

A process (engine.py) is started when first needed and kept for the next ask; one that is
late or dies is killed and forgotten, and the next ask starts another. Its answers are read
by a thread of its own (a green thread once eventlet has patched `threading`), so waiting
for one blocks only the request that asked, as the analysis workers' readers do
(gobang/services/analysis/processes.py). Not `multiprocessing`, for the reasons given there.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gobang.ai.pipes import send

PROJECT_ROOT = str(Path(__file__).resolve().parents[3])
# How long a freshly started process may take beyond the search: Python's start and the
# engine's imports, a fraction of a second, more on a loaded machine.
START_SECONDS = 3.0
# Beyond the search's own backstop, for the pipes and the scheduler (the processes are niced).
ANSWER_GRACE_SECONDS = 0.5


class EngineBusy(Exception):
    """Every engine process is answering someone else."""


class EngineFailed(Exception):
    """The engine did not answer in time, or its process died."""


@dataclass(frozen=True)
class BoardEngineSettings:
    """`at_once` asks at a time (config ANALYSIS_BOARD_AT_ONCE), each searching `nodes` nodes
    and at most `seconds`; the processes niced by `nice` (config COMPUTER_NICE)."""

    at_once: int
    seconds: float
    nodes: int
    nice: int = 10


class EngineProcess:
    """One running engine.py; `ask` one position at a time."""

    def __init__(self, nice: int) -> None:
        program = shutil.which("nice")
        argv = [sys.executable, "-m", "gobang.services.analysis_board.engine"]
        if program and nice > 0:
            argv = [program, "-n", str(nice), *argv]
        self._process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, cwd=PROJECT_ROOT)
        self.fresh = True
        self._lock = threading.Lock()
        self._answers: list[dict[str, Any]] = []
        self._news = threading.Event()
        threading.Thread(target=self._read, daemon=True, name="analysis-board").start()

    def _read(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        try:
            for line in stdout:
                try:
                    found = json.loads(line)
                except ValueError:
                    continue
                with self._lock:
                    self._answers.append(found)
                self._news.set()
        except (OSError, ValueError):
            pass  # killed: the waiting ask times out or sees the process gone
        finally:
            self._news.set()

    def ask(self, job: dict[str, Any], timeout: float) -> dict[str, Any]:
        """The engine's answer to `job`; EngineFailed when none comes within `timeout`."""
        stdin = self._process.stdin
        assert stdin is not None
        with self._lock:
            self._answers.clear()
            self._news.clear()
        try:
            send(stdin, (json.dumps(job) + "\n").encode())
        except (OSError, ValueError):
            raise EngineFailed("the engine process is gone") from None
        self._news.wait(timeout)
        self.fresh = False
        with self._lock:
            if not self._answers:
                raise EngineFailed("no answer in time")
            found = self._answers.pop(0)
        if "error" in found:
            raise EngineFailed(str(found["error"]))
        return found

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    def stop(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        for pipe in (self._process.stdin, self._process.stdout):
            if pipe is not None:
                try:
                    pipe.close()
                except OSError:
                    pass


class BoardEngines:
    def __init__(self, settings: BoardEngineSettings) -> None:
        self.settings = settings
        self._lock = threading.Lock()
        self._idle: list[EngineProcess] = []
        self._busy = 0
        self._closed = False

    @contextmanager
    def reserve(self) -> Iterator[None]:
        """One of the `at_once` places, for as long as the block runs; EngineBusy at once
        when all are taken (an ask never queues: the page says to try again)."""
        with self._lock:
            if self._busy >= self.settings.at_once:
                raise EngineBusy
            self._busy += 1
        try:
            yield
        finally:
            with self._lock:
                self._busy -= 1

    def ask(self, ruleset: str, moves: Sequence[tuple[int, int]]) -> dict[str, Any]:
        """The engine's {"win_chance", "best", "line"} for a position the rules accepted.
        EngineBusy when every place is taken; EngineFailed when no answer came in time."""
        settings = self.settings
        job = {"ruleset": ruleset, "moves": [list(move) for move in moves],
               "seconds": settings.seconds, "nodes": settings.nodes}
        with self.reserve():
            process = self._take()
            timeout = settings.seconds + ANSWER_GRACE_SECONDS + (
                START_SECONDS if process.fresh else 0.0)
            try:
                found = process.ask(job, timeout)
            except EngineFailed:
                process.stop()  # late or dead: its answer, if any, would answer the next ask
                raise
            self._give_back(process)
            return found

    def _take(self) -> EngineProcess:
        with self._lock:
            while self._idle:
                process = self._idle.pop()
                if process.alive:
                    return process
                process.stop()
        return EngineProcess(self.settings.nice)

    def _give_back(self, process: EngineProcess) -> None:
        with self._lock:
            if not self._closed:
                self._idle.append(process)
                return
        process.stop()

    def idle_pids(self) -> list[int]:
        """The process ids of the engines waiting for an ask (for the host, and tests)."""
        with self._lock:
            return [process.pid for process in self._idle]

    def close(self) -> None:
        """Stop the idle processes (an ask under way stops its own when it ends)."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for process in idle:
            process.stop()
