"""Tactical suite: positions with a forced win, each with its winning line, checked by the
rules engine; and how many of them each level solves.

    python -m bench.ai_tactics --levels 1-8

A position is solved when the level, playing the attacker, wins the game from it against
a defending level (``--defender``, default 5) within the line's length plus a few moves.
Every position also comes in its eight board symmetries.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from gobang.ai import BuiltinPlayer, position_of
from gobang.ai.budget import Budget, OutOfBudget
from gobang.ai.position import FOUR_OPEN, Position
from gobang.ai.threats import ThreatSearch
from gobang.rules import SIZE, Board, Game, opponent, outcome_after

ROWS_EMPTY = "." * SIZE


@dataclass(frozen=True)
class Tactic:
    """``stones`` as (row, col, "X"|"O"); ``line`` the winning line from the position, the
    attacker's moves and the defender's forced replies alternating, ending on a five."""

    name: str
    kind: str  # "vcf", "vct" or "forbidden"
    ruleset: str
    stones: tuple[tuple[int, int, str], ...]
    line: tuple[tuple[int, int], ...]

    @property
    def attacker(self) -> str:
        blacks = sum(1 for *_, s in self.stones if s == "X")
        return "black" if blacks == len(self.stones) - blacks else "white"

    def rows(self) -> list[str]:
        grid = [list(ROWS_EMPTY) for _ in range(SIZE)]
        for row, col, stone in self.stones:
            grid[row][col] = stone
        return ["".join(r) for r in grid]

    def game(self) -> Game:
        """The position as a rules-engine game: stones alternate black, white in the listed
        order (the order is arbitrary; only the position matters to the engines)."""
        blacks = [(r, c) for r, c, s in self.stones if s == "X"]
        whites = [(r, c) for r, c, s in self.stones if s == "O"]
        moves = [blacks[k // 2] if k % 2 == 0 else whites[k // 2] for k in range(len(self.stones))]
        return Game.replay(moves, self.ruleset)


def _t(name: str, kind: str, ruleset: str, black: str, white: str, line: str) -> Tactic:
    def points(text: str) -> list[tuple[int, int]]:
        return [tuple(int(v) for v in p.split(",")) for p in text.split()]  # type: ignore[misc]

    stones = [(r, c, "X") for r, c in points(black)] + [(r, c, "O") for r, c in points(white)]
    return Tactic(name, kind, ruleset, tuple(stones), tuple(points(line)))


BASE = [
    # Two fours in a row, the second also an open three: a four-three.
    _t(
        "four-then-four-three",
        "vcf",
        "freestyle",
        black="7,4 7,5 7,6 6,4 6,5 6,6 5,7",
        white="7,3 6,3 1,1 1,13 13,1 13,13 8,4",
        line="6,7 6,8 7,7 7,8 8,7 4,7 9,7",
    ),
    _t(
        "four-then-four-three (renju black)",
        "vcf",
        "renju",
        black="7,4 7,5 7,6 6,4 6,5 6,6 5,7",
        white="7,3 6,3 1,1 1,13 13,1 13,13 8,4",
        line="6,7 6,8 7,7 7,8 8,7 4,7 9,7",
    ),
    # A diagonal four lays the stone that turns a point into a double four.
    _t(
        "four-then-double-four",
        "vcf",
        "freestyle",
        black="7,4 7,5 7,6 4,7 6,7 2,4 3,5 4,6",
        white="7,3 3,7 1,3 10,10 11,12 12,10 0,14 14,0",
        line="5,7 6,8 7,7 7,8 8,7",
    ),
    # White on move, exactly five to win: a four, then a four-three.
    _t(
        "white-four-three",
        "vcf",
        "standard",
        black="2,2 2,12 12,2 12,12 0,0 1,7 7,3",
        white="7,4 7,5 7,6 5,7 6,7 6,2",
        line="7,7 7,8 8,7 4,7 9,7",
    ),
    # Two open twos meeting at one point: a double three (no four on the board).
    _t(
        "double-three",
        "vct",
        "freestyle",
        black="7,6 7,7 5,8 6,8",
        white="0,0 0,14 14,0 14,14",
        line="7,8 7,9 8,8 4,8 9,8",
    ),
    # Open threes on two lines through one corner of stones: threes first, no four on hand.
    _t(
        "threes-on-two-lines",
        "vct",
        "freestyle",
        black="7,6 7,7 4,9 5,9 9,5",
        white="0,0 0,14 14,0 14,14 1,7",
        line="6,9 8,9 7,8 3,9 7,9 7,5 7,10",
    ),
    # White fours; the only block is a double three for black, so black cannot play it.
    _t(
        "block-is-double-three",
        "forbidden",
        "renju",
        black="2,2 8,8 7,5 7,6 5,7 6,7",
        white="4,4 5,5 6,6 12,12 12,10",
        line="3,3 1,1 7,7",
    ),
    # ... and here the only block would give black six in a row.
    _t(
        "block-is-overline",
        "forbidden",
        "renju",
        black="2,4 8,4 7,1 7,2 7,3 7,5 7,6",
        white="4,4 5,4 6,4 12,12 12,10 10,12",
        line="3,4 10,10 7,4",
    ),
    # The only block would be a double four for black.
    _t(
        "block-is-double-four",
        "forbidden",
        "renju",
        black="7,4 7,5 7,6 4,7 5,7 6,7 2,2 8,8",
        white="7,3 3,7 4,4 5,5 6,6 12,12 12,10",
        line="3,3 1,1 7,7",
    ),
]


def _transform(point: tuple[int, int], k: int) -> tuple[int, int]:
    r, c = point
    n = SIZE - 1
    for _ in range(k % 4):
        r, c = c, n - r
    return (r, n - c) if k >= 4 else (r, c)


def symmetric(tactic: Tactic, k: int) -> Tactic:
    """The position turned by ``k`` quarter turns (k 4..7: also mirrored)."""
    stones = tuple((*_transform((r, c), k), s) for r, c, s in tactic.stones)
    line = tuple(_transform(p, k) for p in tactic.line)
    return Tactic(f"{tactic.name} #{k}", tactic.kind, tactic.ruleset, stones, line)


GENERATED = Path(__file__).with_name("ai_tactics.jsonl")


def load_generated() -> list[Tactic]:
    """Positions found by `generate` and stored beside this file."""
    if not GENERATED.exists():
        return []
    tactics = []
    for text in GENERATED.read_text().splitlines():
        data = json.loads(text)
        stones = tuple((r, c, s) for r, c, s in data["stones"])
        line = tuple((r, c) for r, c in data["line"])
        tactics.append(Tactic(data["name"], data["kind"], data["ruleset"], stones, line))
    return tactics


def suite(symmetries: int = 8) -> list[Tactic]:
    return [symmetric(t, k) for t in BASE for k in range(symmetries)] + load_generated()


def _oracle_move(pos: Position, attacker: int, threes: bool) -> int | None:
    budget = Budget(200_000, time.monotonic() + 30, time.monotonic)
    depth = 6 if threes else 16
    try:
        return ThreatSearch(pos, budget).winning_move(attacker, depth, threes)
    except OutOfBudget:
        return None


def _principal_line(game: Game, threes: bool) -> list[tuple[int, int]] | None:
    """Play a found win out: the attacker's winning moves, the defender's forced block or
    (after a three) the reply the attacker's patterns rate highest."""
    pos = position_of(game)
    attacker = pos.to_move
    line: list[tuple[int, int]] = []
    while not game.is_over and len(line) < 40:
        if pos.to_move == attacker:
            move = _oracle_move(pos, attacker, threes)
            if move is None:
                return None
        else:
            blocks = pos.fives(attacker)
            legal = [i for i in pos.candidates() if not pos.is_forbidden(i, pos.to_move)]
            choices = [i for i in blocks if i in legal] or legal
            move = max(choices, key=lambda i: (pos.scores[attacker][i], -i))
        pos.play(move)
        game.place(*divmod(move, SIZE))
        line.append(divmod(move, SIZE))
    return (
        line if game.outcome and game.outcome.winner == ("black", "white")[attacker - 1] else None
    )


def generate(count: int, seed: int) -> Iterator[Tactic]:
    """Positions from games between mid levels where the side to move has a forced win
    (VCF, else VCT) that starts with a move the pattern scores do not rank first and that
    does not already make an open four. Yields each as it is found."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        ruleset = rng.choice(["freestyle", "renju"])
        game = Game(ruleset)
        players = [BuiltinPlayer(rng.choice([2, 3]), random.Random(rng.random())) for _ in "bw"]
        for r, c in _random_opening(rng):
            game.place(r, c)
        while not game.is_over:
            tactic = _tactic_at(game, f"generated {seed}-{found}")
            if tactic is not None:
                verify(tactic)
                found += 1
                yield tactic
                break
            game.place(*players[len(game.moves) % 2](game))


def _random_opening(rng: random.Random) -> list[tuple[int, int]]:
    moves = [(7, 7)]
    while len(moves) < 3:
        point = (7 + rng.randint(-2, 2), 7 + rng.randint(-2, 2))
        if point not in moves:
            moves.append(point)
    return moves


def _tactic_at(game: Game, name: str) -> Tactic | None:
    pos = position_of(game)
    side = pos.to_move
    if pos.fives(side) or pos.fives(3 - side):
        return None
    if any(pos.best[side][i] >= FOUR_OPEN for i in pos.threats[side]):
        return None
    for kind, threes in (("vcf", False), ("vct", True)):
        move = _oracle_move(pos, side, threes)
        if move is None:
            continue
        top = max(pos.candidates(), key=lambda i: pos.scores[side][i])
        if move == top:
            return None
        line = _principal_line(Game.replay(game.moves, game.ruleset), threes)
        if line is None or len(line) < 5:
            return None
        stones = tuple((r, c, "X" if n % 2 == 0 else "O") for n, (r, c) in enumerate(game.moves))
        return Tactic(name, kind, game.ruleset, stones, tuple(line))
    return None


def five_points(board: Board, color: str, ruleset: str) -> list[tuple[int, int]]:
    """Empty points where ``color`` would win at once (renju black: never on forbidden points;
    `outcome_after` reports those as no win)."""
    wins = "black_win" if color == "black" else "white_win"
    return [
        (r, c)
        for r in range(SIZE)
        for c in range(SIZE)
        if board.is_empty(r, c) and outcome_after(board, r, c, color, ruleset) == wins
    ]


def verify(tactic: Tactic) -> None:
    """Play the winning line with the rules engine; AssertionError if it is not a win or
    (for "vcf" and "forbidden") if a defender's reply was not forced."""
    game = tactic.game()
    attacker = tactic.attacker
    assert game.to_move == attacker, f"{tactic.name}: {attacker} should be to move"
    assert not five_points(game.board, attacker, tactic.ruleset), f"{tactic.name}: a five already"
    for number, (row, col) in enumerate(tactic.line):
        mover = game.to_move
        if mover != attacker and tactic.kind != "vct":
            threats = five_points(game.board, attacker, tactic.ruleset)
            assert threats, f"{tactic.name}: move {number} answers no four"
            assert not five_points(game.board, mover, tactic.ruleset), f"{tactic.name}: counter"
        game.place(row, col)
    assert game.outcome is not None and game.outcome.winner == attacker, tactic.name


def solves(
    tactic: Tactic,
    level: int,
    defender: int,
    seed: int = 0,
    clock: Callable[[], float] = time.monotonic,
) -> bool:
    """Whether ``level`` wins from the position against ``defender`` in time. A clock that
    stands still leaves only the levels' node caps, so the answer does not depend on how
    busy the machine is."""
    game = tactic.game()
    players = {
        tactic.attacker: BuiltinPlayer(level, random.Random(seed), clock),
        opponent(tactic.attacker): BuiltinPlayer(defender, random.Random(seed + 1), clock),
    }
    for _ in range(len(tactic.line) + 6):
        if game.is_over:
            break
        game.place(*players[game.to_move](game))
    return game.outcome is not None and game.outcome.winner == tactic.attacker


def _levels(text: str) -> Iterator[int]:
    lo, _, hi = text.partition("-")
    return iter(range(int(lo), int(hi or lo) + 1))


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--levels", default="1-8")
    parser.add_argument("--defender", type=int, default=5)
    parser.add_argument("--symmetries", type=int, default=8, help="variants per position")
    parser.add_argument(
        "--no-backstop",
        action="store_true",
        help="node caps only: a clock that stands still, for figures a busy machine cannot skew",
    )
    parser.add_argument("--generate", type=int, default=0, help="find N positions, append them")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.generate:
        for tactic in generate(args.generate, args.seed):
            with GENERATED.open("a") as out:
                data = {
                    k: getattr(tactic, k) for k in ("name", "kind", "ruleset", "stones", "line")
                }
                out.write(json.dumps(data) + "\n")
        return {}
    tactics = suite(args.symmetries)
    for tactic in tactics:
        verify(tactic)
    clock = (lambda: 0.0) if args.no_backstop else time.monotonic
    report: dict[str, dict[str, float]] = {}
    for level in _levels(args.levels):
        started = time.process_time()
        by_kind: dict[str, list[bool]] = {}
        for tactic in tactics:
            won = solves(tactic, level, args.defender, clock=clock)
            by_kind.setdefault(tactic.kind, []).append(won)
        row = {kind: sum(v) / len(v) for kind, v in by_kind.items()}
        row["cpu_s"] = round(time.process_time() - started, 1)
        report[str(level)] = row
        print(json.dumps({"level": level, **row}), flush=True)
    return report


if __name__ == "__main__":
    main()
