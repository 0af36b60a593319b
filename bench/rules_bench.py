"""Micro-benchmarks for gobang.rules.

Run: .venv/bin/python bench/rules_bench.py

1. Freestyle "place a move plus outcome check": random games replayed through
   Game.place; reports microseconds per move (target < 20 us).
2. Renju forbidden check for one point on a crowded board: forbidden_kind on every
   empty point near the stones of six 60-100 stone positions from (crudely) played
   renju games (target < 1 ms), plus an unrealistically dense stress set for reference.
"""

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gobang.rules import Board, ForbiddenMove, Game, forbidden_kind  # noqa: E402

PLACE_TARGET_US = 20.0
FORBIDDEN_TARGET_US = 1000.0


def random_games(count: int, rng: random.Random) -> list[list[tuple[int, int]]]:
    """Move lists of finished freestyle games played in random order."""
    games = []
    for _ in range(count):
        points = [(r, c) for r in range(15) for c in range(15)]
        rng.shuffle(points)
        game = Game("freestyle")
        for point in points:
            if game.place(*point) is not None:
                break
        games.append(game.moves)
    return games


def bench_place(rounds: int = 5, games: int = 300) -> float:
    sequences = random_games(games, random.Random(1))
    moves = sum(len(s) for s in sequences)
    timings = []
    for _ in range(rounds):
        start = time.perf_counter()
        for sequence in sequences:
            game = Game("freestyle")
            place = game.place
            for row, col in sequence:
                place(row, col)
        timings.append((time.perf_counter() - start) / moves * 1e6)
    print(
        f"  {games} games, {moves} moves, {rounds} rounds; per-round us/move: "
        + ", ".join(f"{t:.2f}" for t in timings)
    )
    return statistics.median(timings)


def crowded_position(stones: int, rng: random.Random) -> Board:
    """A renju game played by a crude player that answers near existing stones, skipping
    forbidden points and winning moves so the board fills up without ending."""
    game = Game("renju")
    game.place(7, 7)
    while len(game.moves) < stones:
        near = {
            (r + dr, c + dc)
            for r, c in game.moves
            for dr in (-2, -1, 0, 1, 2)
            for dc in (-2, -1, 0, 1, 2)
            if 0 <= r + dr < 15 and 0 <= c + dc < 15 and game.board.is_empty(r + dr, c + dc)
        }
        candidates = sorted(near)
        rng.shuffle(candidates)
        for point in candidates:
            try:
                outcome = game.place(*point)
            except ForbiddenMove:
                continue
            if outcome is None:
                break
            game.undo()
        else:
            break
    return game.board


def time_point(board: Board, point: tuple[int, int], reps: int, repeats: int) -> float:
    """Microseconds per forbidden_kind call: best of ``repeats`` batches of ``reps`` calls
    (the minimum filters out scheduler and GC noise on a shared machine)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(reps):
            forbidden_kind(board, *point)
        best = min(best, time.perf_counter() - start)
    return best / reps * 1e6


def stress_position(rng: random.Random) -> Board:
    """Not realistic: a 7x7 centre three-quarters full, three black stones to each white,
    so threes, fours and nested completion points are everywhere."""
    rows = [["."] * 15 for _ in range(15)]
    for r in range(4, 11):
        for c in range(4, 11):
            if rng.random() < 0.75:
                rows[r][c] = rng.choice("XXXO")
    return Board.from_rows("".join(row) for row in rows)


def bench_forbidden(
    boards: list[Board], label: str, reps: int = 5, repeats: int = 3
) -> tuple[float, float, float]:
    per_point: list[float] = []
    verdicts: dict[str | None, int] = {}
    for board in boards:
        stones = board.stones()
        rows = [r for r, _ in stones]
        cols = [c for _, c in stones]
        points = [
            (r, c)
            for r in range(max(0, min(rows) - 2), min(15, max(rows) + 3))
            for c in range(max(0, min(cols) - 2), min(15, max(cols) + 3))
            if board.is_empty(r, c)
        ]
        for point in points:
            kind = forbidden_kind(board, *point)
            verdicts[kind] = verdicts.get(kind, 0) + 1
            per_point.append(time_point(board, point, reps, repeats))
    counts = sorted(b.stone_count for b in boards)
    print(
        f"  {label}: {len(boards)} positions of {counts[0]}-{counts[-1]} stones, "
        f"{len(per_point)} empty points near the stones; verdicts {verdicts}"
    )
    per_point.sort()
    p99 = per_point[max(0, int(len(per_point) * 0.99) - 1)]
    return statistics.mean(per_point), p99, per_point[-1]


def verdict(value: float, target: float) -> str:
    return "MEETS target" if value < target else "MISSES target"


def main() -> None:
    print("1) freestyle Game.place + outcome check")
    place_us = bench_place()
    print(
        f"   median: {place_us:.2f} us/move (target < {PLACE_TARGET_US:.0f} us): "
        f"{verdict(place_us, PLACE_TARGET_US)}"
    )
    print("2) renju forbidden_kind, one point on a crowded board")
    rng = random.Random(7)
    realistic = [crowded_position(60 + 8 * k, rng) for k in range(6)]
    mean_us, p99_us, worst_us = bench_forbidden(realistic, "realistic games")
    print(
        f"   mean: {mean_us:.1f} us/point, p99: {p99_us:.1f} us, worst: {worst_us:.1f} us "
        f"(target < {FORBIDDEN_TARGET_US:.0f} us): mean {verdict(mean_us, FORBIDDEN_TARGET_US)}"
        f", worst {verdict(worst_us, FORBIDDEN_TARGET_US)}"
    )
    stress = [stress_position(rng) for _ in range(20)]
    mean_us, p99_us, worst_us = bench_forbidden(stress, "stress (dense black-heavy centre)")
    print(
        f"   mean: {mean_us:.1f} us/point, p99: {p99_us:.1f} us, worst: {worst_us:.1f} us "
        f"(for information)"
    )


if __name__ == "__main__":
    main()
