"""Drive one Gomocup protocol engine process for one side of games on our board.

The adapter owns the process: it starts it, tells it the rules and time limit, hands it
each position and reads its answer with a deadline. One process can play many games one
after another: a position that does not continue its last answer goes as a whole `BOARD`,
and the rules, the turn limit and other `INFO` settings can change from one move to the next
(only the changed ones are sent). Whatever goes wrong on the engine's
side (no answer in time, a crash, ``ERROR``, garbage, an occupied, off-board or forbidden
point) the adapter restarts the engine for the next move and lets the fallback (the
built-in top level) play this one, so a game never stalls on a broken engine.

`swap2` asks the engine for its part of a swap2 opening with the Gomocup ``SWAP2BOARD``
extension and turns the answer into the opening rules' actions. There is no fallback there:
an engine that does not take part (``UNKNOWN``, ``ERROR``) or answers anything unusable
raises, after which the engine is restarted as for a failed move and the caller decides the
step some other way (`gobang.ai.openings.decide`).

Pipes are read with `selectors` against a deadline in whatever thread calls `move`, so a
green thread can call it once eventlet has patched the standard library; they are written
through `gobang.ai.pipes.send`, which raises where eventlet's own write would spin.
"""

import logging
import os
import selectors
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gobang.rules import BLACK, SIZE, WHITE, Game, IllegalMove, forbidden_kind
from gobang.rules.openings import FIRST, SECOND, Action, Choose, Opening, Place, Point

from .brain import RULE_NAMES
from .pipes import send

log = logging.getLogger(__name__)

RULE_BITS = {name: bits for bits, name in RULE_NAMES.items()}
# Grace on top of the turn limit for pipes and a busy machine.
GRACE_SECONDS = 1.0


def builtin_argv(number: int, seed: int | None = None) -> list[str]:
    """Command line of the built-in engine at level ``number``."""
    argv = [sys.executable, "-m", "gobang.ai.brain", "--level", str(number)]
    if seed is not None:
        argv += ["--seed", str(seed)]
    return argv


class EngineFailure(Exception):
    """The engine did not give a usable answer; the message says how."""


class Swap2Refused(EngineFailure):
    """The engine does not take part in swap2: it answered ``SWAP2BOARD`` with ``UNKNOWN``
    or ``ERROR``."""


@dataclass(frozen=True, slots=True)
class Swap2Answer:
    """An engine's part of a swap2 opening: ``actions`` for the opening's step and the ones
    after it that are the same player's (three stones; a colour; ``place_two`` and two
    stones), in order; ``move`` the first stone in play, (row, col), when the engine took
    white there (the fourth or sixth stone)."""

    actions: tuple[Action, ...]
    move: Point | None = None


# SWAP2BOARD's three cases: (stones so far, who answers, the step's kind).
SWAP2_CASES = {0: (FIRST, "place"), 3: (SECOND, "choose"), 5: (FIRST, "choose")}


@dataclass(frozen=True, slots=True)
class EngineMove:
    """A move for the side to move: ``by_engine`` False when the fallback played it,
    ``problem`` then saying what went wrong with the engine."""

    row: int
    col: int
    by_engine: bool
    problem: str | None = None
    debug: tuple[str, ...] = ()


class EngineAdapter:
    """One protocol engine process playing the moves of any games, one move at a time.

    ``fallback`` plays a move (``Game`` -> ``(row, col)``) whenever the engine fails.
    ``turn_seconds`` goes to the engine as ``INFO timeout_turn``; an answer is awaited that
    long plus `GRACE_SECONDS`. ``info`` adds per-engine ``INFO`` settings. ``cwd`` is the
    directory the process starts in (the built-in engine needs one where `gobang` imports).
    ``turn_seconds``, ``info`` and ``fallback`` are defaults: `move` can give others for one
    move. Each move is played under its game's ruleset (``ruleset`` is the one the games
    usually have; the engine is told by ``INFO rule`` whenever it changes).
    """

    def __init__(
        self,
        argv: Sequence[str],
        ruleset: str,
        fallback: Callable[[Game], tuple[int, int]],
        turn_seconds: float = 5.0,
        info: dict[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        start_seconds: float = 15.0,
        cwd: str | None = None,
    ) -> None:
        if ruleset not in RULE_BITS:
            raise ValueError(f"unknown ruleset {ruleset!r}")
        self._argv = list(argv)
        self._fallback = fallback
        self._turn_seconds = turn_seconds
        self._info = dict(info or {})
        self._clock = clock
        self._start_seconds = start_seconds
        self._cwd = cwd
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._known: list[tuple[int, int]] = []
        # INFO values the running process was last told; sent again only when they change.
        self._told: dict[str, str] = {}
        self.restarts = 0
        self.failures: list[str] = []

    # --- public -------------------------------------------------------------------------

    def move(
        self,
        game: Game,
        turn_seconds: float | None = None,
        wait_seconds: float | None = None,
        info: dict[str, str] | None = None,
        fallback: Callable[[Game], tuple[int, int]] | None = None,
    ) -> EngineMove:
        """The next move for the side to move in ``game`` (not modified), played under
        ``game.ruleset``. For this move only: ``turn_seconds`` (the engine's turn limit),
        ``wait_seconds`` (how long its answer is awaited; default the turn limit plus
        `GRACE_SECONDS`), more ``info`` and another ``fallback``."""
        if game.is_over:
            raise ValueError("the game is over")
        if game.ruleset not in RULE_BITS:
            raise ValueError(f"unknown ruleset {game.ruleset!r}")
        turn = self._turn_seconds if turn_seconds is None else turn_seconds
        settings = {"rule": str(RULE_BITS[game.ruleset]),
                    "timeout_turn": str(int(turn * 1000)), **self._info, **(info or {})}
        try:
            row, col, debug = self._ask(game, settings, turn + GRACE_SECONDS
                                        if wait_seconds is None else wait_seconds)
            self._check(game, row, col)
        except EngineFailure as failure:
            problem = str(failure)
            log.warning("engine %s failed: %s; fallback plays", self._argv[0], problem)
            self.failures.append(problem)
            # Killed, not asked to END: a late engine may search on for seconds before it
            # reads END, and the fallback's move is due now.
            self._stop(at_once=True)
            row, col = (fallback or self._fallback)(game)
            return EngineMove(row, col, by_engine=False, problem=problem)
        self._known = game.moves + [(row, col)]
        return EngineMove(row, col, by_engine=True, debug=debug)

    def swap2(
        self,
        opening: Opening,
        ruleset: str,
        turn_seconds: float | None = None,
        wait_seconds: float | None = None,
        info: dict[str, str] | None = None,
    ) -> Swap2Answer:
        """The engine's decision at ``opening``'s step (a swap2 opening played under
        ``ruleset``): the first three stones, the second player's choice after three, or the
        first player's after five; the timings and ``info`` as for `move`.

        Raises ValueError when the step is none of those, `Swap2Refused` when the engine
        does not take part, and `EngineFailure` when it answers nothing usable in time
        (garbage, an occupied or off-board point, a crash); the engine is then restarted for
        its next request."""
        stones = opening.stones
        case = SWAP2_CASES.get(len(stones))
        step = opening.step
        if (opening.rule != "swap2" or ruleset not in ("freestyle", "standard")
                or step is None or case != (step.actor, step.kind)):
            raise ValueError("SWAP2BOARD asks for the first three stones or a choice of colour "
                             "in a freestyle or standard swap2 opening")
        turn = self._turn_seconds if turn_seconds is None else turn_seconds
        settings = {"rule": str(RULE_BITS[ruleset]),
                    "timeout_turn": str(int(turn * 1000)), **self._info, **(info or {})}
        try:
            line = self._ask_swap2(stones, settings, turn + GRACE_SECONDS
                                   if wait_seconds is None else wait_seconds)
            return _swap2_answer(opening, line)
        except EngineFailure as failure:
            log.warning("engine %s failed at swap2: %s", self._argv[0], failure)
            self.failures.append(str(failure))
            self._stop(at_once=True)
            raise

    def warm(self) -> bool:
        """Start the process now unless it runs; False when it cannot be started (the next
        `move` tries again, and its fallback plays if that fails too)."""
        if self._proc is not None:
            return True
        try:
            self._launch()
        except EngineFailure as failure:
            log.warning("engine %s failed to start: %s", self._argv[0], failure)
            self.failures.append(str(failure))
            self._stop()
            return False
        return True

    @property
    def running(self) -> bool:
        """The process has been started and has not failed since."""
        return self._proc is not None

    def close(self) -> None:
        """Say END and make sure the process is gone."""
        self._stop()

    def __enter__(self) -> "EngineAdapter":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # --- talking ------------------------------------------------------------------------

    def _ask(self, game: Game, settings: dict[str, str],
             wait: float) -> tuple[int, int, tuple[str, ...]]:
        if self._proc is None:
            self._launch()
        if settings["rule"] != self._told.get("rule"):
            self._known = []  # the engine's last position was under other rules
        for key, value in settings.items():
            if self._told.get(key) != value:
                self._send(f"INFO {key} {value}")
                self._told[key] = value
        moves = game.moves
        if moves and moves[:-1] == self._known:
            row, col = moves[-1]
            self._send(f"TURN {col},{row}")
        elif not moves:
            if self._known:
                self._send("RESTART")
                self._expect_ok(wait)
            self._send("BEGIN")
        else:
            self._send_board(game)
        self._known = []  # unknown until a good answer arrives
        return self._read_move(wait)

    def _ask_swap2(self, stones: list[Point], settings: dict[str, str], wait: float) -> str:
        if self._proc is None:
            self._launch()
        for key, value in settings.items():
            if self._told.get(key) != value:
                self._send(f"INFO {key} {value}")
                self._told[key] = value
        self._known = []  # the engine's own game is its business now: the next move is a BOARD
        self._send("\n".join(["SWAP2BOARD", *(f"{col},{row}" for row, col in stones), "DONE"]))
        line, _debug = self._read_answer(wait)
        word = line.split(" ", 1)[0].upper()
        if word in ("UNKNOWN", "ERROR"):
            raise Swap2Refused(f"engine does not play swap2: {line[:200]}")
        return line

    def _send_board(self, game: Game) -> None:
        own = len(game.moves) % 2  # 0: the side to move is black, who played the even moves
        lines = ["BOARD"]
        for number, (row, col) in enumerate(game.moves):
            lines.append(f"{col},{row},{1 if number % 2 == own else 2}")
        lines.append("DONE")
        self._send("\n".join(lines))

    def _launch(self) -> None:
        if self.failures:
            self.restarts += 1
        try:
            self._proc = subprocess.Popen(
                self._argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                cwd=self._cwd,
            )
        except OSError as error:
            raise EngineFailure(f"cannot start: {error}") from None
        self._buffer = b""
        self._known = []
        self._told = {}
        self._send(f"START {SIZE}")
        self._expect_ok(self._start_seconds)

    def _send(self, text: str) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            send(self._proc.stdin, (text + "\n").encode(), clock=self._clock)
        except TimeoutError:
            raise EngineFailure("the engine reads nothing") from None
        except OSError:
            raise EngineFailure("the engine closed its input (crashed?)") from None

    def _expect_ok(self, seconds: float) -> None:
        line, _debug = self._read_answer(seconds)
        if line.upper() != "OK":
            raise EngineFailure(f"expected OK, got {line[:80]!r}")

    def _read_move(self, wait: float) -> tuple[int, int, tuple[str, ...]]:
        line, debug = self._read_answer(wait)
        if line.upper().startswith("ERROR"):
            raise EngineFailure(f"engine error: {line[:200]}")
        try:
            x_text, y_text = line.split(",")
            col, row = int(x_text), int(y_text)
        except ValueError:
            raise EngineFailure(f"not a move: {line[:80]!r}") from None
        return row, col, debug

    def _read_answer(self, seconds: float) -> tuple[str, tuple[str, ...]]:
        """The next line that is not DEBUG/MESSAGE, and the DEBUG lines before it, awaited
        ``seconds``."""
        deadline = self._clock() + seconds
        debug: list[str] = []
        while True:
            line = self._read_line(deadline)
            word = line.split(" ", 1)[0].upper()
            if word in ("DEBUG", "MESSAGE"):
                debug.append(line)
            elif line:
                return line, tuple(debug)

    def _read_line(self, deadline: float) -> str:
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - self._clock()
                if left <= 0:
                    raise EngineFailure("no answer in time")
                if not selector.select(left):
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise EngineFailure("the engine exited")
                self._buffer += chunk
                if len(self._buffer) > 1 << 20:
                    raise EngineFailure("the engine floods its output")
        raw, self._buffer = self._buffer.split(b"\n", 1)
        return raw.decode("utf-8", "replace").strip()

    def _check(self, game: Game, row: int, col: int) -> None:
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            raise EngineFailure(f"off the board: {col},{row}")
        if not game.board.is_empty(row, col):
            raise EngineFailure(f"occupied point: {col},{row}")
        if game.ruleset == "renju" and game.to_move == BLACK:
            kind = forbidden_kind(game.board, row, col)
            if kind is not None:
                raise EngineFailure(f"forbidden to black ({kind}): {col},{row}")

    def _stop(self, at_once: bool = False) -> None:
        proc, self._proc = self._proc, None
        self._known = []
        if proc is None:
            return
        assert proc.stdin is not None and proc.stdout is not None
        if at_once and proc.poll() is None:
            proc.kill()
        try:
            if not at_once and proc.poll() is None:
                send(proc.stdin, b"END\n", clock=self._clock)
        except OSError:  # TimeoutError among them
            pass  # the engine died first, or reads nothing: it is killed below
        # Closed even when the engine is gone: a pipe left to the garbage collector is a
        # ResourceWarning. Nothing is left in its buffer (`send` writes past it).
        proc.stdin.close()
        try:
            proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()


def _swap2_answer(opening: Opening, line: str) -> Swap2Answer:
    """The answer ``line`` to SWAP2BOARD at ``opening``'s step as the rules' actions, each
    checked by the rules; EngineFailure when it is not one of the step's answers."""
    actor = opening.step.actor
    if line.upper() == "SWAP":
        if not opening.stones:
            raise EngineFailure("SWAP is no answer to an empty board")
        return Swap2Answer((Choose(BLACK),))
    points = _points(line)
    if not opening.stones:
        actions: tuple[Action, ...] = tuple(Place(point) for point in points)
        move = None
        if len(points) != 3:
            raise EngineFailure(f"expected three stones, got {line[:80]!r}")
    elif len(points) == 1:
        actions, move = (Choose(WHITE),), points[0]
    elif len(points) == 2 and len(opening.stones) == 3:
        actions, move = (Choose("place_two"), *(Place(point) for point in points)), None
    else:
        raise EngineFailure(f"not an answer to SWAP2BOARD here: {line[:80]!r}")
    try:
        for action in actions:
            opening = opening.apply(actor, action)
    except IllegalMove as refused:
        raise EngineFailure(f"refused by the opening rule: {refused}") from None
    if move is not None and (move in opening.stones
                             or not all(0 <= v < SIZE for v in move)):
        raise EngineFailure(f"occupied or off-board point: {move[1]},{move[0]}")
    return Swap2Answer(actions, move)


def _points(line: str) -> list[Point]:
    """(row, col) points of an answer of ``x,y`` points separated by spaces."""
    points = []
    for part in line.split():
        try:
            x_text, y_text = part.split(",")
            points.append((int(y_text), int(x_text)))
        except ValueError:
            raise EngineFailure(f"not a SWAP2BOARD answer: {line[:80]!r}") from None
    if not points:
        raise EngineFailure(f"not a SWAP2BOARD answer: {line[:80]!r}")
    return points
