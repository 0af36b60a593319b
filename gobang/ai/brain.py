"""The built-in engine as a Gomocup protocol program (the protocol Piskvork and the Gomocup
manager speak), one command per line on stdin, answers on stdout:

    python -m gobang.ai.brain --level 5 --seed 7

Coordinates are ``x,y``: x the column, y the row, from 0. In ``BOARD`` lines field 1 is the
engine's own stone and 2 the opponent's. ``INFO rule`` 0 is freestyle, 1 standard (exactly
five), 4 renju; ``INFO timeout_turn``/``time_left`` (milliseconds) can only shorten the
level's own time backstop.

``SWAP2BOARD`` (the Gomocup extension for the swap2 opening, freestyle and standard) lists the
stones placed so far, one ``x,y`` a line in the order placed, up to ``DONE``. With none the
brain answers its three opening stones (black, white, black) on one line; with three (it is
the second player) ``SWAP`` to take black, one point to take white and play the fourth stone,
or two points (white, black) to place two more; with five (the first player) ``SWAP`` to take
black or one point to take white and play the sixth stone.
"""

import argparse
import logging
import random
import sys
import time
from collections.abc import Callable
from typing import TextIO

from gobang.rules import BLACK, SIZE, IllegalMove
from gobang.rules.openings import FIRST, SECOND, Choose, Opening, Place

from .levels import LEVELS, TOP_LEVEL, level
from .openings import PLACE_TWO, decide
from .position import Position
from .search import Engine, NoLegalMove

ABOUT = 'name="gobang", version="1.0", author="Gobang project", country="-"'
RULE_NAMES = {0: "freestyle", 1: "standard", 4: "renju"}
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.monotonic, "cpu": time.process_time}


class ProtocolError(ValueError):
    """A command the brain cannot act on; answered with ``ERROR <message>``."""


def rule_name(value: str) -> str:
    """Ruleset from an ``INFO rule`` bit mask: 4 renju, else 1 exactly five, else freestyle."""
    bits = int(value)
    if bits & 4:
        return "renju"
    return "standard" if bits & 1 else "freestyle"


def parse_point(text: str) -> int:
    try:
        x_text, y_text = text.split(",")
        x, y = int(x_text), int(y_text)
    except ValueError:
        raise ProtocolError(f"expected x,y, got {text!r}") from None
    if not (0 <= x < SIZE and 0 <= y < SIZE):
        raise ProtocolError(f"{x},{y} is off the {SIZE}x{SIZE} board")
    return y * SIZE + x


def format_point(index: int) -> str:
    y, x = divmod(index, SIZE)
    return f"{x},{y}"


class Brain:
    """One engine session: reads commands with `handle`, writes answers to ``out``."""

    def __init__(
        self,
        number: int,
        rng: random.Random,
        out: TextIO,
        clock: Callable[[], float] = time.monotonic,
        stats: bool = False,
    ) -> None:
        self._engine = Engine(level(number), rng, clock)
        self._number = number
        self._rng = rng
        self._clock = clock
        self._out = out
        self._stats = stats
        self._ruleset = "freestyle"
        self._pos: Position | None = None
        self._info: dict[str, int] = {}
        # Lines of a BOARD or SWAP2BOARD block being read, and what to do with them at DONE.
        self._board_lines: list[str] | None = None
        self._board_done: Callable[[list[str]], None] = self._answer_board

    def handle(self, line: str) -> bool:
        """Act on one input line; False once the session should end (``END``)."""
        line = line.strip()
        command, _, rest = line.partition(" ")
        command = command.upper()
        if command == "END" and self._board_lines is None:
            return False
        try:
            if self._board_lines is not None:
                self._collect_board(line)
            elif command in self._handlers():
                self._handlers()[command](rest.strip())
            elif line:
                self._say(f"UNKNOWN command {command}")
        except ProtocolError as error:
            self._say(f"ERROR {error}")
        return True

    def _handlers(self) -> dict[str, Callable[[str], None]]:
        return {
            "START": self._start,
            "RESTART": self._restart,
            "INFO": self._info_command,
            "BEGIN": self._begin,
            "TURN": self._turn,
            "TAKEBACK": self._takeback,
            "BOARD": self._board,
            "SWAP2BOARD": self._swap2board,
            "ABOUT": lambda _rest: self._say(ABOUT),
        }

    def _say(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()

    def _game(self) -> Position:
        if self._pos is None:
            raise ProtocolError("no game: send START first")
        return self._pos

    def _start(self, rest: str) -> None:
        if rest != str(SIZE):
            raise ProtocolError(f"unsupported size {rest!r}: only {SIZE} is supported")
        self._pos = Position(self._ruleset)
        self._say("OK")

    def _restart(self, _rest: str) -> None:
        self._game()
        self._pos = Position(self._ruleset)
        self._say("OK")

    def _info_command(self, rest: str) -> None:
        key, _, value = rest.partition(" ")
        key = key.lower()
        try:
            number = int(value)
        except ValueError:
            return  # INFO gets no answer; keys such as "folder" are not numbers
        self._info[key] = number
        if key == "rule":
            self._set_ruleset(rule_name(value))
        elif key == "level":
            self._set_level(number)

    def _set_ruleset(self, ruleset: str) -> None:
        self._ruleset = ruleset
        if self._pos is not None and self._pos.ruleset != ruleset:
            moves = list(self._pos.history)
            self._pos = Position(ruleset)
            for index in moves:
                self._pos.play(index)

    def _set_level(self, number: int) -> None:
        # INFO is never answered, not even with ERROR: an unknown level is ignored.
        if number not in LEVELS:
            return
        settings = level(number)
        if settings is not self._engine.level:
            self._engine = Engine(settings, self._rng, self._clock)
        self._number = number

    def _begin(self, _rest: str) -> None:
        pos = self._game()
        if pos.history:
            raise ProtocolError("BEGIN is only for an empty board")
        self._move()

    def _turn(self, rest: str) -> None:
        pos = self._game()
        index = parse_point(rest)
        if pos.cells[index]:
            raise ProtocolError(f"{rest} is occupied")
        pos.play(index)
        self._move()

    def _takeback(self, rest: str) -> None:
        pos = self._game()
        index = parse_point(rest)
        if not pos.history or pos.history[-1] != index:
            raise ProtocolError(f"{rest} is not the last move")
        pos.undo()
        self._say("OK")

    def _board(self, _rest: str) -> None:
        self._game()
        self._board_lines = []
        self._board_done = self._answer_board

    def _swap2board(self, _rest: str) -> None:
        self._game()
        self._board_lines = []
        self._board_done = self._answer_swap2

    def _collect_board(self, line: str) -> None:
        if line.upper() != "DONE":
            self._board_lines.append(line)
            return
        lines, self._board_lines = self._board_lines, None
        self._board_done(lines)

    def _answer_board(self, lines: list[str]) -> None:
        self._pos = self._position_from(lines)
        self._move()

    def _answer_swap2(self, lines: list[str]) -> None:
        """Answers a SWAP2BOARD block (see the module's docstring); afterwards the brain's
        game holds the stones and any it played, so TURN can follow."""
        if self._ruleset not in ("freestyle", "standard"):
            raise ProtocolError(f"swap2 is not played under {self._ruleset}")
        stones = [divmod(parse_point(line), SIZE) for line in lines]
        opening = self._swap2_opening(stones)
        if not stones:
            self._say(" ".join(self._swap2_places(opening, 3)))
            return
        choice = decide(opening, self._ruleset, self._number, self._rng)
        self._pos = self._position_of(stones)
        if choice == Choose(PLACE_TWO):
            placed = self._swap2_places(opening.apply(SECOND, choice), 2)
            self._say(" ".join(placed))
        elif choice == Choose(BLACK):
            self._say("SWAP")
        else:
            self._move()  # white: the fourth or sixth stone is the brain's move

    def _swap2_opening(self, stones: list[tuple[int, int]]) -> Opening:
        if len(stones) not in (0, 3, 5):
            raise ProtocolError(f"SWAP2BOARD takes 0, 3 or 5 stones, not {len(stones)}")
        log = [(FIRST, Place(point)) for point in stones[:3]]
        if len(stones) == 5:
            log += [(SECOND, Choose(PLACE_TWO))] + [(SECOND, Place(p)) for p in stones[3:]]
        try:
            return Opening("swap2", log)
        except (ValueError, IllegalMove) as error:
            raise ProtocolError(f"impossible swap2 stones: {error}") from None

    def _swap2_places(self, opening: Opening, count: int) -> list[str]:
        """``count`` stones decided in turn by whoever the opening asks to place them; the
        brain's game then holds every stone."""
        for _ in range(count):
            opening = opening.apply(opening.step.actor,
                                    decide(opening, self._ruleset, self._number, self._rng))
        self._pos = self._position_of(opening.stones)
        return [format_point(index) for index in self._pos.history[-count:]]

    def _position_of(self, stones: list[tuple[int, int]]) -> Position:
        pos = Position(self._ruleset)
        for row, col in stones:
            pos.play(row * SIZE + col)
        return pos

    def _position_from(self, lines: list[str]) -> Position:
        """A position from ``x,y,field`` lines. Stones alternate by colour in the order
        given; black is whoever has not fewer stones, the brain being to move."""
        own: list[int] = []
        theirs: list[int] = []
        seen: set[int] = set()
        for line in lines:
            point, _, field = line.rpartition(",")
            index = parse_point(point)
            if index in seen:
                raise ProtocolError(f"{point} given twice")
            seen.add(index)
            if field.strip() == "1":
                own.append(index)
            elif field.strip() == "2":
                theirs.append(index)
            else:
                raise ProtocolError(f"unsupported field in {line!r}: use 1 or 2")
        if len(own) == len(theirs):
            black, white = own, theirs
        elif len(own) + 1 == len(theirs):
            black, white = theirs, own
        else:
            raise ProtocolError(f"impossible position: {len(own)} own and {len(theirs)} stones")
        pos = Position(self._ruleset)
        for k in range(len(black) + len(white)):
            pos.play(black[k // 2] if k % 2 == 0 else white[k // 2])
        return pos

    def _time_limit(self) -> float | None:
        limits = []
        if self._info.get("timeout_turn", 0) > 0:
            limits.append(self._info["timeout_turn"] / 1000 * self._engine.level.turn_share)
        if self._info.get("time_left", 0) > 0:
            limits.append(self._info["time_left"] / 1000 / 10)
        return min(limits) if limits else None

    def _move(self) -> None:
        pos = self._game()
        if all(pos.cells):
            raise ProtocolError("the board is full")
        started = time.process_time()
        try:
            index = self._engine.choose(pos, self._time_limit())
        except NoLegalMove as error:
            raise ProtocolError(str(error)) from None
        if self._stats:
            cpu_ms = (time.process_time() - started) * 1000
            self._say(f"DEBUG cpu_ms={cpu_ms:.2f} nodes={self._engine.last_nodes}")
        pos.play(index)
        self._say(format_point(index))


def run(brain: Brain, lines: TextIO) -> None:
    """Feed ``lines`` to ``brain`` until END or end of input."""
    for line in lines:
        if not brain.handle(line):
            return


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gobang.ai.brain", description=__doc__)
    parser.add_argument("--level", type=int, default=TOP_LEVEL, choices=range(1, TOP_LEVEL + 1))
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    parser.add_argument("--stats", action="store_true", help="DEBUG cpu_ms/nodes per move")
    parser.add_argument(
        "--clock",
        choices=CLOCKS,
        default="wall",
        help="what the time backstop counts: wall time, or this process's CPU time "
        "(for benchmarks on a shared machine, where wall time measures the neighbours)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    rng = random.Random(args.seed)
    brain = Brain(args.level, rng, sys.stdout, clock=CLOCKS[args.clock], stats=args.stats)
    run(brain, sys.stdin)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
