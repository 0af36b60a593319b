"""Engine processes thinking for the computer's side of live games, never in this process.

At most `workers` engine processes (`EngineAdapter`s) run, shared by all computer games:
each can play any game's move, since a position that does not continue its own last answer
goes to it whole (`BOARD`), with the rules and the level told by `INFO`. Starting one costs
about a second of CPU, so they are started when first needed and kept. They run at a lower
scheduling priority (`nice`), so a human game's moves never wait for the CPU behind a
search. A move to think about waits in a queue (earliest deadline first) for a free engine;
each is fed and read by a thread of its own (a green thread once eventlet has patched
`threading`), and its answer waits in `answers` for the ticker to play it.

**The wall clock.** A computer move is due `level.seconds + reply_seconds` after it became the
computer's turn (`think`), however long it queued: the engine is told the time left as its
turn limit (`INFO timeout_turn`) and its answer awaited no longer; a move with less than
`MIN_ENGINE_SECONDS` left comes from a cheap level in this process instead (a few
milliseconds, each in a thread of its own), whether it is still queued or its engine failed.

**Failures.** When an engine fails, the adapter's fallback plays: the built-in engine in one
more process (at the game's level, or the top level behind an external engine) while there is
time and it is free, else the cheap level.
"""

from __future__ import annotations

import logging
import os
import random
import shlex
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from gobang.ai import EngineAdapter, EngineMove, builtin_argv
from gobang.ai.adapter import SWAP2_CASES, EngineFailure, Swap2Answer
from gobang.ai.levels import TOP_LEVEL, Level, level
from gobang.ai.position import Position
from gobang.ai.search import Engine
from gobang.rules import SIZE, Game
from gobang.rules.openings import Opening

log = logging.getLogger("gobang.computer")

# Where `python -m gobang.ai.brain` finds the package, whatever the server's own directory.
PROJECT_ROOT = str(Path(__file__).resolve().parents[3])
# A turn limit a little above the level's own backstop: the engine is not cut short by it.
TURN_GRACE_SECONDS = 2.0
# Less time than this left, and an engine is not asked: the cheap level plays.
MIN_ENGINE_SECONDS = 0.2
# A computer move is due this long after its level's backstop (the promise)...
REPLY_DUE_SECONDS = 1.0
# ...less what the ticker adds: it notices the turn and plays the answer on its ticks, each
# up to an interval late, plus a little for the tick's own work and the emit.
TICK_SLACK_SECONDS = 0.15
# The cheap level: level 3's pick by pattern score (6 points, noise 0.25), without its
# threat search (docs/engines.md: ~0.2 ms to choose), since it plays on the event loop.
# Level 2 is now a near-random pick among 8 points, weaker than the cheap level should be.
CHEAP_LEVEL = 3


def default_workers() -> int:
    """Cores - 1, and at least one: a core stays for the server's event loop."""
    return max(1, (os.cpu_count() or 2) - 1)


def reply_seconds(tick_seconds: float) -> float:
    """How long after the level's backstop an engine's answer is due, so that the player
    sees it within `REPLY_DUE_SECONDS` of it, the ticker running every `tick_seconds`."""
    return max(MIN_ENGINE_SECONDS, REPLY_DUE_SECONDS - 2 * tick_seconds - TICK_SLACK_SECONDS)


@dataclass(frozen=True)
class EngineSettings:
    """How the computer's engines run. `command` is the argv of an external Gomocup engine
    (`{level}` in it becomes the level), None for the built-in one; `level_options` maps a
    level to its engine's `INFO` settings (`timeout_turn`, milliseconds, sets the turn
    limit); `nice` is added to the engines' scheduling niceness. `think_seconds` is how long
    people are expected to think per move and `games_per_worker` caps the games per worker
    (capacity.py); a computer move is due `reply_seconds` after its level's backstop."""

    workers: int
    games_per_worker: int
    command: tuple[str, ...] | None = None
    level_options: dict[int, dict[str, str]] = field(default_factory=dict)
    nice: int = 10
    # The opening rules an external engine is asked about (only swap2: SWAP2BOARD); the
    # built-in engine's choices are made in the server (gobang.ai.openings).
    openings: frozenset[str] = frozenset()
    think_seconds: float = 8.0
    reply_seconds: float = 1.0

    def plays_opening(self, rule: str) -> bool:
        """Whether games against the computer may be played with the opening `rule`."""
        return self.command is None or rule == "none" or rule in self.openings

    def asks_engine(self, opening: Opening) -> bool:
        """Whether the computer's step at `opening` is asked of the external engine
        (SWAP2BOARD's three cases), rather than chosen in the server."""
        return (self.command is not None and opening.rule in self.openings
                and swap2_case(opening))

    @property
    def capacity(self) -> int:
        """Computer games in play at once, whatever their levels."""
        return self.workers * self.games_per_worker

    def turn_seconds(self, number: int) -> float:
        """The engine's turn limit at level `number` when it has all the time it wants."""
        turn_ms = self.level_options.get(number, {}).get("timeout_turn")
        if turn_ms is not None:
            return int(turn_ms) / 1000
        return level(number).seconds + TURN_GRACE_SECONDS

    def info(self, number: int) -> dict[str, str]:
        """The `INFO` settings of level `number` besides the turn limit."""
        found = {key: value for key, value in self.level_options.get(number, {}).items()
                 if key != "timeout_turn"}
        return found if self.command is not None else {"level": str(number), **found}

    def argv(self, number: int) -> tuple[str, ...]:
        """The engine's command line for level `number`: the built-in engine takes the
        level from `INFO level`, so one process serves every level."""
        if self.command is None:
            return tuple(builtin_argv(TOP_LEVEL))
        return tuple(part.replace("{level}", str(number)) for part in self.command)


def swap2_case(opening: Opening) -> bool:
    """Whether `opening` is at one of SWAP2BOARD's three cases (0, 3 or 5 stones, its step
    the one the engine answers)."""
    step = opening.step
    case = SWAP2_CASES.get(len(opening.stones))
    return (opening.rule == "swap2" and step is not None
            and case == (step.actor, step.kind))


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
    # An answer about the opening (asked with `think_opening`): the engine's swap2 decision,
    # or None when it gave none (`problem`), and the server chooses instead.
    opening: bool = False
    swap2: Swap2Answer | None = None


@dataclass(frozen=True)
class Request:
    """A move to think about: the computer at level `number` in `game` (a copy), due by
    `deadline` on the pool's clock."""

    game_id: int
    number: int
    game: Game
    deadline: float
    # A swap2 step to ask the engine about (SWAP2BOARD), not a move.
    opening: Opening | None = None


@dataclass
class Slot:
    """One engine process; `argv` tells which levels it can play."""

    argv: tuple[str, ...]
    adapter: EngineAdapter


Start = Callable[[Callable[[], None]], None]


def start_thread(work: Callable[[], None]) -> None:
    threading.Thread(target=work, daemon=True, name="computer-move").start()


class EnginePool:
    def __init__(self, settings: EngineSettings, clock: Callable[[], float] = time.monotonic,
                 start: Start = start_thread) -> None:
        self.settings = settings
        self._clock = clock
        self._start = start
        self._lock = threading.Lock()
        self._queue: list[Request] = []
        self._idle: list[Slot] = []
        self._engines = 0  # started or being started, idle or busy
        self._thinking: set[int] = set()
        self._answers: list[Thought] = []
        self._closed = False
        self._cheap = CheapMoves()
        self._fallback = Fallback(
            engine_adapter(tuple(builtin_argv(TOP_LEVEL)), self._cheap, settings.nice,
                           builtin=True),
            self._cheap, clock, start, external=settings.command is not None)

    def prepare(self, games: int, number: int) -> None:
        """Start engines (for level `number`) in the background up to one per game in play
        (`games`) and at most `workers`, and the fallback with the first: a start costs
        about a second, which a move's wall-clock budget cannot spare."""
        argv = self.settings.argv(number)
        with self._lock:
            new = []
            while self._engines < min(games, self.settings.workers) and not self._closed:
                self._engines += 1
                new.append(self._slot(argv))
        for slot in new:
            self._start(lambda s=slot: self._warm(s))
        if new:
            self._fallback.warm_later()

    def running(self) -> int:
        """Engine processes running and free (the fallback's not counted)."""
        with self._lock:
            return sum(1 for slot in self._idle if slot.adapter.running)

    def think(self, game_id: int, number: int, game: Game) -> None:
        """Queue `game` (a copy the pool keeps) for the computer at level `number`, due
        `level.seconds + reply_seconds` from now; the answer comes out of `answers`."""
        due = self._clock() + level(number).seconds + self.settings.reply_seconds
        with self._lock:
            if game_id in self._thinking:
                return
            self._thinking.add(game_id)
            self._queue.append(Request(game_id, number, game, due))
        self._dispatch()

    def think_opening(self, game_id: int, number: int, game: Game, opening: Opening) -> None:
        """Queue the computer's swap2 step at `opening` for the external engine, due as a
        move is; the answer comes out of `answers` as a Thought with `opening` set."""
        due = self._clock() + level(number).seconds + self.settings.reply_seconds
        with self._lock:
            if game_id in self._thinking:
                return
            self._thinking.add(game_id)
            self._queue.append(Request(game_id, number, game, due, opening))
        self._dispatch()

    def thinking(self, game_id: int) -> bool:
        """Thinking about `game_id` (queued or searching), or its answer waits to be played."""
        with self._lock:
            return game_id in self._thinking or any(a.game_id == game_id for a in self._answers)

    def searching(self) -> int:
        """Moves in flight (queued or searching)."""
        with self._lock:
            return len(self._thinking)

    def answers(self) -> list[Thought]:
        """The answers that came in; queued moves whose time has run out are answered first
        (by the cheap level)."""
        self._dispatch()
        with self._lock:
            found, self._answers = self._answers, []
            return found

    def keep_only(self, game_ids: set[int]) -> None:
        """Forget the queued moves of games no longer in play."""
        with self._lock:
            gone = [r for r in self._queue if r.game_id not in game_ids]
            for request in gone:
                self._queue.remove(request)
                self._thinking.discard(request.game_id)
        self._cheap.forget(game_ids)

    def close(self, wait_seconds: float = 30.0) -> None:
        """End every engine: the idle ones now, the busy or starting ones as they finish,
        waited for up to `wait_seconds`."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
            self._engines -= len(idle)
        for slot in idle:
            slot.adapter.close()
        self._fallback.close()
        end = time.monotonic() + wait_seconds
        while self._engines and time.monotonic() < end:
            time.sleep(0.02)

    # --- the queue ----------------------------------------------------------------------

    def _dispatch(self) -> None:
        """Answer the queued moves that are out of time, and hand the others to free
        engines, earliest deadline first."""
        now = self._clock()
        with self._lock:
            late = [r for r in self._queue if r.deadline - now < MIN_ENGINE_SECONDS]
            self._queue = sorted((r for r in self._queue if r not in late),
                                 key=lambda r: r.deadline)
            handed = []
            for request in list(self._queue):
                slot = self._free_slot(self.settings.argv(request.number))
                if slot is None:
                    break
                self._queue.remove(request)
                handed.append((slot, request))
        for request in late:  # each in a thread of its own, not all in this (ticker's) one
            if request.opening is not None:  # the server chooses instead
                self._finish(request, None, "no engine free in time")
                continue
            self._start(lambda r=request: self._settle(
                r, lambda: self._cheap_move(r, "no engine free in time")))
        for slot, request in handed:
            self._start(lambda s=slot, r=request: self._run(s, r))

    def _free_slot(self, argv: tuple[str, ...]) -> Slot | None:
        """An idle engine for `argv`, a new one while there are fewer than `workers`, or
        an idle one for another argv replaced (only external engines with `{level}` in their
        command have more than one). Called under the lock."""
        for slot in self._idle:
            if slot.argv == argv:
                self._idle.remove(slot)
                return slot
        if self._closed:
            return None
        if self._engines < self.settings.workers:
            self._engines += 1
            return self._slot(argv)
        if self._idle:
            old = self._idle.pop(0)
            self._start(old.adapter.close)
            return self._slot(argv)
        return None

    def _warm(self, slot: Slot) -> None:
        slot.adapter.warm()
        self._release(slot)

    def _run(self, slot: Slot, request: Request) -> None:
        if request.opening is not None:
            self._settle_swap2(slot.adapter, request)
        else:
            self._settle(request, lambda: self._play(slot.adapter, request))
        if slot.adapter.running or self._closed:
            self._release(slot)
        else:  # it failed: a fresh process now rather than inside the next move's time
            self._warm(slot)

    def _settle(self, request: Request, play: Callable[[], EngineMove]) -> None:
        """Answer `request` with `play()`'s move, or with none when it raises."""
        try:
            self._finish(request, play())
        except Exception as exc:  # NoLegalMove, or a fallback that failed too
            log.warning("no computer move", extra={"fields": {
                "game_id": request.game_id, "problem": str(exc)[:200]}})
            self._finish(request, None, str(exc)[:200] or type(exc).__name__)

    def _settle_swap2(self, adapter: EngineAdapter, request: Request) -> None:
        """Answer `request` with the engine's swap2 decision, or with none (logged) when it
        refuses, fails or takes too long: then the server chooses (Computer._play)."""
        assert request.opening is not None
        try:
            if not adapter.warm():
                raise EngineFailure(adapter.failures[-1])
            left = max(MIN_ENGINE_SECONDS, request.deadline - self._clock())
            answer = adapter.swap2(
                request.opening, request.game.ruleset,
                turn_seconds=min(self.settings.turn_seconds(request.number), left),
                wait_seconds=left, info=self.settings.info(request.number))
        except Exception as exc:  # Swap2Refused, EngineFailure: the server chooses
            problem = str(exc)[:200] or type(exc).__name__
            log.warning("no swap2 answer from the engine", extra={"fields": {
                "game_id": request.game_id, "problem": problem}})
            self._finish(request, None, problem)
            return
        # Once or twice a game: worth a line, so that a host sees the engine take part.
        log.info("swap2 answer from the engine", extra={"fields": {
            "game_id": request.game_id, "actions": len(answer.actions),
            "move": answer.move is not None}})
        self._finish(request, None, swap2=answer)

    def _release(self, slot: Slot) -> None:
        """Back to the idle engines, and on to the next queued move."""
        with self._lock:
            closing = self._closed
            if closing:
                self._engines -= 1
            else:
                self._idle.append(slot)
        if closing:
            slot.adapter.close()
        else:
            self._dispatch()

    def _play(self, adapter: EngineAdapter, request: Request) -> EngineMove:
        if not adapter.warm():
            return self._fallback.move(request, adapter.failures[-1])
        left = request.deadline - self._clock()
        if left < MIN_ENGINE_SECONDS:  # the engine took the time starting
            return self._cheap_move(request, "no time left after starting the engine")
        number = request.number
        return adapter.move(request.game, turn_seconds=min(self.settings.turn_seconds(number),
                                                           left),
                            wait_seconds=left, info=self.settings.info(number),
                            fallback=self._fallback.cover(request))

    def _finish(self, request: Request, move: EngineMove | None,
                problem: str | None = None, swap2: Swap2Answer | None = None) -> None:
        thought = Thought(request.game_id, tuple(request.game.moves), move, problem,
                          opening=request.opening is not None, swap2=swap2)
        with self._lock:
            self._thinking.discard(request.game_id)
            self._answers.append(thought)

    def _cheap_move(self, request: Request, problem: str) -> EngineMove:
        row, col = self.cheap_move(request.game_id, request.number, request.game, problem)
        return EngineMove(row, col, by_engine=False, problem=problem)

    def cheap_move(self, game_id: int, number: int, game: Game, problem: str) -> tuple[int, int]:
        """The cheap level's move in `game` (not modified), in the calling thread, logged
        with `problem` (why no engine's); NoLegalMove when the side to move has none."""
        log.warning("computer move from the cheap level", extra={"fields": {
            "game_id": game_id, "level": number, "problem": problem}})
        return self._cheap(game, number, game_id)

    def _slot(self, argv: tuple[str, ...]) -> Slot:
        # Its fallback is given with each move (Fallback.cover); this one is never used.
        return Slot(argv, engine_adapter(argv, self._cheap, self.settings.nice,
                                         builtin=self.settings.command is None))


def engine_adapter(argv: tuple[str, ...], fallback: Callable[[Game], tuple[int, int]],
                   nice: int, builtin: bool) -> EngineAdapter:
    """An engine process's adapter, `nice`d; the built-in engine starts where `gobang`
    imports."""
    program = shutil.which("nice")
    niced = [program, "-n", str(nice), *argv] if program and nice > 0 else list(argv)
    return EngineAdapter(niced, "freestyle", fallback, cwd=PROJECT_ROOT if builtin else None)


def _unsearched(settings: Level) -> Level:
    """A level that picks by pattern score alone: a search here would hold the event loop
    (a VCF of 4 took up to 38 ms a move)."""
    return replace(settings, nodes=0, depth=0, vcf=0, vct=0, defend=False)


class CheapMoves:
    """The cheap level, in this process. Choosing costs about 0.2 ms, but setting up the
    engine's view of a game costs about 0.4 ms a stone (12 ms at 30 stones on the
    development machine), so each game's view is kept and brought up to date with the
    stones played since (`forget` drops those of games no longer in play)."""

    def __init__(self) -> None:
        self._engines = {n: Engine(_unsearched(level(n)), random.Random(n))
                         for n in range(1, CHEAP_LEVEL + 1)}
        self._positions: dict[int, Position] = {}
        self._lock = threading.Lock()

    def __call__(self, game: Game, number: int = CHEAP_LEVEL,
                 game_id: int | None = None) -> tuple[int, int]:
        """A move no stronger than level `number`; NoLegalMove when there is none."""
        with self._lock:  # one engine's state, shared by every thread
            pos = self._position(game, game_id)
            return divmod(self._engines[min(number, CHEAP_LEVEL)].choose(pos), SIZE)

    def forget(self, game_ids: set[int]) -> None:
        with self._lock:
            for gone in set(self._positions) - game_ids:
                del self._positions[gone]

    def _position(self, game: Game, game_id: int | None) -> Position:
        moves = [row * SIZE + col for row, col in game.moves]
        pos = self._positions.get(game_id) if game_id is not None else None
        if pos is None or pos.ruleset != game.ruleset:
            pos = Position(game.ruleset)
        while pos.history != moves[:len(pos.history)]:  # taken back meanwhile
            pos.undo()
        for index in moves[len(pos.history):]:
            pos.play(index)
        if game_id is not None:
            self._positions[game_id] = pos
        return pos


class Fallback:
    """The built-in engine in one more process, behind every engine of the pool: it plays
    while its move's deadline leaves time and it is free, else the cheap level does. It is
    started in the background with the first engines, or when first wanted (that move is
    then the cheap level's)."""

    def __init__(self, adapter: EngineAdapter, cheap: CheapMoves,
                 clock: Callable[[], float], start: Start, external: bool) -> None:
        self._adapter = adapter
        # Behind an external engine the built-in one plays its top level, else the game's.
        self._external = external
        self._cheap = cheap
        self._clock = clock
        self._start = start
        self._busy = threading.Lock()
        self._warming = False
        self._closed = False

    def cover(self, request: Request) -> Callable[[Game], tuple[int, int]]:
        """The adapter's fallback for `request`'s move."""
        def play(game: Game) -> tuple[int, int]:
            move = self.move(request, "engine failed")
            return move.row, move.col
        return play

    def move(self, request: Request, problem: str) -> EngineMove:
        game, number = request.game, request.number
        left = request.deadline - self._clock()
        if left >= MIN_ENGINE_SECONDS and self._adapter.running and self._busy.acquire(
                blocking=False):
            try:
                played = TOP_LEVEL if self._external else number
                found = self._adapter.move(game, turn_seconds=left, wait_seconds=left,
                                           info={"level": str(played)},
                                           fallback=lambda g: self._cheap(
                                               g, number, request.game_id))
                return EngineMove(found.row, found.col, by_engine=False,
                                  problem=problem if found.by_engine else found.problem)
            finally:
                self._busy.release()
        self.warm_later()
        row, col = self._cheap(game, number, request.game_id)
        return EngineMove(row, col, by_engine=False, problem=problem)

    def close(self) -> None:
        with self._busy:
            self._closed = True
            self._adapter.close()

    def warm_later(self) -> None:
        """Start the process in the background unless it runs or is being started."""
        if self._adapter.running or self._warming:
            return
        self._warming = True

        def warm() -> None:
            with self._busy:
                if not self._closed:
                    self._adapter.warm()
            self._warming = False
        self._start(warm)
