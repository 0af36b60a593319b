"""What a rate-limit check costs: the in-process limiter (gobang/services/ratelimit.py) beside
the `limits` library's memory storage, the same moving window. Every move passes one check
(MOVES_PER_SECOND), so this is part of a move's cost.

    .venv/bin/python bench/ratelimit.py

Two cases, each the best of five rounds: a key under its limit (keys taken in turn from
5,000, limit 10 a second) and a key over it (one key, limit 10 a second, hit back to back).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gobang.services.ratelimit import RateLimiter  # noqa: E402

LIMIT = 10
KEYS = 5_000


def ours() -> dict[str, Callable[[], object]]:
    under, over = RateLimiter(LIMIT, 1.0), RateLimiter(LIMIT, 1.0)
    keys = itertools.cycle(range(KEYS))
    return {"under": lambda: under.hit(next(keys)), "over": lambda: over.hit(7)}


def library() -> dict[str, Callable[[], object]]:
    item = RateLimitItemPerSecond(LIMIT, 1, namespace="moves")
    under = MovingWindowRateLimiter(MemoryStorage())
    over = MovingWindowRateLimiter(MemoryStorage())
    keys = itertools.cycle(str(k) for k in range(KEYS))
    return {"under": lambda: under.hit(item, next(keys)), "over": lambda: over.hit(item, "7")}


def microseconds(check: Callable[[], object], number: int) -> float:
    return min(timeit.repeat(check, number=number, repeat=5)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20_000, help="checks per round")
    args = parser.parse_args()
    for name, checks in (("gobang RateLimiter", ours()), ("limits MemoryStorage", library())):
        for case, check in checks.items():
            print(f"{name:22} {case:5} {microseconds(check, args.number):6.2f} us a check")


if __name__ == "__main__":
    main()
