"""Engine processes thinking for the computer's side of live games, never in this process.

Each computer game gets its own engine process (an `EngineAdapter`), started on its first
move and ended with the game: starting one costs about a second of CPU, so it is kept for
the game, not started per move. Engines think in the pool's worker slots: at most `workers`
of them search at once, at a lower scheduling priority (`nice`), so a human game's moves
never wait for the CPU behind a search. Each thought is fed and read by a thread of its own
(a green thread once eventlet has patched `threading`), and its answer waits in `answers`
for the ticker to play it.

When an engine fails, the adapter's fallback plays: the built-in engine in another process
(at the game's level, or the top level behind an external engine), and only if that fails
too a level 1 move in this process, which costs well under a millisecond.
"""

from __future__ import annotations

import logging
import os
import shlex
import shutil
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gobang.ai import BuiltinPlayer, EngineAdapter, EngineMove, builtin_argv
from gobang.ai.levels import TOP_LEVEL, level
from gobang.rules import Game

log = logging.getLogger("gobang.computer")

# Where `python -m gobang.ai.brain` finds the package, whatever the server's own directory.
PROJECT_ROOT = str(Path(__file__).resolve().parents[3])
# A turn limit a little above the level's own backstop: the engine is not cut short, and
# a stuck one is caught within a couple of seconds.
TURN_GRACE_SECONDS = 2.0


def default_workers() -> int:
    """Cores - 1, and at least one: a core stays for the server's event loop."""
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(frozen=True)
class EngineSettings:
    """How the computer's engines run. `command` is the argv of an external Gomocup engine
    (`{level}` in it becomes the level), None for the built-in one; `level_options` maps a
    level to its engine's `INFO` settings (`timeout_turn`, milliseconds, sets the turn
    limit); `nice` is added to the engines' scheduling niceness."""

    workers: int
    games_per_worker: int
    command: tuple[str, ...] | None = None
    level_options: dict[int, dict[str, str]] = field(default_factory=dict)
    nice: int = 10

    @property
    def capacity(self) -> int:
        """Computer games in play at once; one more is refused as `busy`."""
        return self.workers * self.games_per_worker


def parse_command(raw: str | list[str] | None) -> tuple[str, ...] | None:
    if not raw:
        return None
    return tuple(shlex.split(raw) if isinstance(raw, str) else raw)


@dataclass(frozen=True)
class Thought:
    """An engine's answer for `game_id` at the position after `moves`; `move` None when no
    move could be had (`problem` says why)."""

    game_id: int
    moves: tuple[tuple[int, int], ...]
    move: EngineMove | None
    problem: str | None = None


Start = Callable[[Callable[[], None]], None]


def start_thread(work: Callable[[], None]) -> None:
    threading.Thread(target=work, daemon=True, name="computer-move").start()


class EnginePool:
    def __init__(self, settings: EngineSettings, start: Start = start_thread) -> None:
        self.settings = settings
        self._start = start
        self._slots = threading.BoundedSemaphore(settings.workers)
        # Per game: the engine, and the fallback's engine (started only if needed).
        self._adapters: dict[int, tuple[EngineAdapter, EngineAdapter]] = {}
        self._thinking: set[int] = set()
        self._answers: list[Thought] = []
        self._lock = threading.Lock()

    def think(self, game_id: int, number: int, game: Game) -> None:
        """Start thinking about `game` (a copy the pool keeps) for the computer at level
        `number`; the answer comes out of `answers` later."""
        with self._lock:
            if game_id in self._thinking:
                return
            self._thinking.add(game_id)
            if game_id not in self._adapters:
                self._adapters[game_id] = self._engines(number, game.ruleset)
            adapter = self._adapters[game_id][0]
        self._start(lambda: self._run(game_id, adapter, game))

    def thinking(self, game_id: int) -> bool:
        """Thinking about `game_id`, or its answer is waiting to be played."""
        with self._lock:
            return game_id in self._thinking or any(a.game_id == game_id for a in self._answers)

    def searching(self) -> int:
        """Thoughts in flight (waiting for a slot or searching)."""
        with self._lock:
            return len(self._thinking)

    def answers(self) -> list[Thought]:
        with self._lock:
            found, self._answers = self._answers, []
            return found

    def keep_only(self, game_ids: set[int]) -> None:
        """End the engines of games no longer in play (not while one is thinking)."""
        with self._lock:
            gone = [g for g in self._adapters if g not in game_ids and g not in self._thinking]
            engines = [self._adapters.pop(g) for g in gone]
        for pair in engines:
            for adapter in pair:
                adapter.close()

    def close(self) -> None:
        """End every engine that is not thinking (the rest end when their game does)."""
        self.keep_only(set())

    def _run(self, game_id: int, adapter: EngineAdapter, game: Game) -> None:
        moves = tuple(game.moves)
        try:
            with self._slots:
                thought = Thought(game_id, moves, adapter.move(game))
        except Exception as exc:  # NoLegalMove, or a fallback that failed too
            log.warning("no computer move", extra={"fields": {"game_id": game_id,
                                                              "problem": str(exc)[:200]}})
            thought = Thought(game_id, moves, None, str(exc)[:200] or type(exc).__name__)
        with self._lock:
            self._thinking.discard(game_id)
            self._answers.append(thought)

    def _engines(self, number: int, ruleset: str) -> tuple[EngineAdapter, EngineAdapter]:
        options = dict(self.settings.level_options.get(number, {}))
        turn_ms = options.pop("timeout_turn", None)
        turn_seconds = (int(turn_ms) / 1000 if turn_ms is not None
                        else level(number).seconds + TURN_GRACE_SECONDS)
        external = self.settings.command
        fallback_level = number if external is None else TOP_LEVEL
        fallback = EngineAdapter(
            self._niced(builtin_argv(fallback_level)), ruleset, BuiltinPlayer(1),
            turn_seconds=level(fallback_level).seconds + TURN_GRACE_SECONDS, cwd=PROJECT_ROOT)
        argv = ([part.replace("{level}", str(number)) for part in external]
                if external is not None else builtin_argv(number))
        engine = EngineAdapter(self._niced(argv), ruleset, _Fallback(fallback),
                               turn_seconds=turn_seconds, info=options,
                               cwd=PROJECT_ROOT if external is None else None)
        return engine, fallback

    def _niced(self, argv: list[str]) -> list[str]:
        nice = shutil.which("nice")
        if nice is None or self.settings.nice <= 0:
            return argv
        return [nice, "-n", str(self.settings.nice), *argv]


class _Fallback:
    """The adapter's fallback as a plain callable: another engine process's move."""

    def __init__(self, adapter: EngineAdapter) -> None:
        self.adapter = adapter

    def __call__(self, game: Game) -> tuple[int, int]:
        found = self.adapter.move(game)
        return found.row, found.col
