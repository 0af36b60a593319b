"""What a puzzle's checks cost, and what they do to the event loop.

    python -m bench.puzzle_checks

Times `verify` (a harvested position) and `judge` (a solver's move, the reply included) at the
default budgets over positions of a forty-move engine game, each candidate move judged as in
a VCT puzzle (the dearer kind). Then, under eventlet as the server runs, the event loop's
worst lag (a green thread asking to wake every millisecond) while the dearest of those judges
runs inline on the loop, and while it runs through the server's offload (a niced native
thread, gobang/transport/offload.py). Prints one JSON line.
"""

from __future__ import annotations

import eventlet

eventlet.monkey_patch()

import json  # noqa: E402
import time  # noqa: E402

from eventlet import tpool  # noqa: E402

from gobang.services.puzzles.judge import Budgets, judge, verify  # noqa: E402
from gobang.transport.offload import background_offload  # noqa: E402
from tests.support.analysis import FORTY_MOVES  # noqa: E402

Point = tuple[int, int]


def neighbours(position: list[Point]) -> list[Point]:
    taken = set(position)
    found: list[Point] = []
    for row, col in position[-3:]:
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                point = (row + dr, col + dc)
                if 0 <= point[0] < 15 and 0 <= point[1] < 15 and point not in taken:
                    found.append(point)
    return list(dict.fromkeys(found))[:4]


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def worst_lag(work) -> float:
    """The loop's worst lateness (ms) on 1 ms sleeps while `work()` runs in a green thread."""
    lags: list[float] = []
    done = []

    def ticker() -> None:
        while not done:
            before = time.perf_counter()
            eventlet.sleep(0.001)
            lags.append((time.perf_counter() - before) * 1000 - 1)

    watcher = eventlet.spawn(ticker)
    eventlet.sleep(0.01)
    eventlet.spawn(work).wait()
    done.append(True)
    watcher.wait()
    return max(lags)


def main() -> None:
    budgets = Budgets()
    verifies, judges = [], []
    for k in range(10, 40):
        position = [tuple(m) for m in FORTY_MOVES[:k]]
        verifies.append(timed(lambda p=position: verify("freestyle", p, budgets, time.monotonic)))
        for move in neighbours(position):
            judges.append((timed(lambda p=position, m=move: judge(
                "freestyle", p, m, budgets, time.monotonic, True)), position, move))
    _, position, move = max(judges)
    args = ("freestyle", position, move, budgets, time.monotonic, True)
    offload = background_offload(tpool.execute)
    inline_lag = worst_lag(lambda: judge(*args))
    offloaded_lag = worst_lag(lambda: offload(judge, *args))
    times = sorted(t for t, _, _ in judges)
    print(json.dumps({
        "verify_ms": {"median": round(sorted(verifies)[len(verifies) // 2], 1),
                      "worst": round(max(verifies), 1), "count": len(verifies)},
        "judge_ms": {"median": round(times[len(times) // 2], 1), "worst": round(times[-1], 1),
                     "count": len(times)},
        "loop_worst_lag_ms": {"inline": round(inline_lag, 1),
                              "offloaded": round(offloaded_lag, 1)},
        "budgets": {"verify": budgets.verify, "judge": budgets.judge,
                    "seconds": budgets.seconds},
    }))


if __name__ == "__main__":
    main()
