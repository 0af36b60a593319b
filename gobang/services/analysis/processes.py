"""An analysis worker: one process per game analysed, started with `subprocess`.

Not `multiprocessing`: its spawn and forkserver starts run the parent's main module again in
the child, and `app.py` builds a whole app at import (migrations included) when it is not
`__main__`; a fork copies a process that eventlet has patched, with its hub and threads, into
the child. A plain `python -m gobang.services.analysis.worker` imports only the engine, like
the computer's engines (gobang/services/computer/engines.py), and is niced as they are.

Its output is read by a thread of its own (a green thread once eventlet has patched
`threading`) into a list the queue drains on its ticks, so a tick never blocks on it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gobang.ai.pipes import send

# Where `python -m gobang...` finds the package, whatever the server's own directory.
PROJECT_ROOT = str(Path(__file__).resolve().parents[3])


@dataclass(frozen=True)
class Job:
    """What a worker is asked: one game's moves and how hard to look at each position."""

    game_id: int
    ruleset: str
    moves: tuple[tuple[int, int], ...]
    seconds: float
    nodes: int

    def as_json(self) -> str:
        return json.dumps({"ruleset": self.ruleset, "moves": [list(m) for m in self.moves],
                           "seconds": self.seconds, "nodes": self.nodes})


class Worker:
    """A running analysis: its messages so far, and whether its process has ended."""

    def __init__(self, job: Job, nice: int, news: threading.Event) -> None:
        program = shutil.which("nice")
        argv = [sys.executable, "-m", "gobang.services.analysis.worker"]
        if program and nice > 0:
            argv = [program, "-n", str(nice), *argv]  # exec'd: the pid stays the worker's
        self._process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, cwd=PROJECT_ROOT)
        self._lock = threading.Lock()
        self._messages: list[dict[str, Any]] = []
        self._ended = False
        self._news = news
        self._reader = threading.Thread(target=self._read, args=(job,), daemon=True,
                                        name=f"analysis-{job.game_id}")
        self._reader.start()

    @property
    def pid(self) -> int:
        return self._process.pid

    def _read(self, job: Job) -> None:
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        try:
            send(process.stdin, (job.as_json() + "\n").encode())
        except OSError:
            pass  # killed before it read its job: its output ends at once, seen below
        process.stdin.close()
        try:
            for line in process.stdout:
                try:
                    message = json.loads(line)
                except ValueError:
                    continue  # not ours: the result line is what counts
                with self._lock:
                    self._messages.append(message)
                self._news.set()
        finally:
            process.stdout.close()
            process.wait()
            with self._lock:
                self._ended = True
            self._news.set()

    def take(self) -> tuple[list[dict[str, Any]], bool]:
        """The messages since the last call, and whether the process has ended (all of its
        output read)."""
        with self._lock:
            found, self._messages = self._messages, []
            return found, self._ended

    def kill(self) -> None:
        if self._process.poll() is None:
            self._process.kill()

    def join(self, timeout: float) -> None:
        """Wait for the reader to see the process's end (it closes the pipe then)."""
        self._reader.join(timeout)


Start = Callable[[Job], Worker]
