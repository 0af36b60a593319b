"""Where a test run's time goes: reads the lines of `pytest --durations=0` (from a file or
standard input) and sums them by folder and by phase (setup, call, teardown).

    .venv/bin/python -m pytest --durations=0 -q > run.log
    .venv/bin/python bench/durations.py run.log

With pytest-xdist the times are each worker's own, so their sum is more than the run's wall
time: it is the work that the workers share.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from collections.abc import Iterable

LINE = re.compile(r"^\s*(?P<seconds>[\d.]+)s (?P<phase>setup|call|teardown)\s+(?P<test>\S+)")


def parse(lines: Iterable[str]) -> list[tuple[float, str, str]]:
    """(seconds, phase, test node id) of each duration line."""
    found = []
    for line in lines:
        match = LINE.match(line)
        if match:
            found.append((float(match["seconds"]), match["phase"], match["test"]))
    return found


def folder(test: str) -> str:
    path = test.split("::", 1)[0]
    parts = path.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else path


def table(durations: list[tuple[float, str, str]]) -> list[tuple[str, int, dict[str, float]]]:
    """Per folder: its number of tests and its seconds per phase, the costliest first."""
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    tests: dict[str, set[str]] = defaultdict(set)
    for seconds, phase, test in durations:
        sums[folder(test)][phase] += seconds
        tests[folder(test)].add(test)
    rows = [(name, len(tests[name]), dict(phases)) for name, phases in sums.items()]
    return sorted(rows, key=lambda row: -sum(row[2].values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", nargs="?", help="a pytest log (default: standard input)")
    args = parser.parse_args()
    with open(args.log) if args.log else sys.stdin as source:
        rows = table(parse(source))
    print("| folder | tests | setup s | call s | teardown s | total s |")
    print("|---|---|---|---|---|---|")
    for name, count, phases in rows:
        cells = [phases.get(p, 0.0) for p in ("setup", "call", "teardown")]
        print(f"| {name} | {count} | " + " | ".join(f"{c:.0f}" for c in cells)
              + f" | {sum(cells):.0f} |")


if __name__ == "__main__":
    main()
