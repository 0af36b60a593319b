"""The engine's speed on positions from real games, with the clock stopped: each search ends
at its level's node cap or depth, so two versions of the engine that search alike make the
same moves with the same node counts, and only their CPU differs.

    python -m bench.engine_speed --out bench/ai_results-level9-share9.jsonl --ruleset freestyle

Prints the CPU, the nodes and a digest of the moves chosen: run it in a worktree of each
version and compare (docs/engines.md, "A faster board"). The positions are every `--every`th
of each game of the ruleset in a match file (bench/ai_match.py), from the 12th stone on,
the first `--positions` of them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from collections.abc import Sequence
from pathlib import Path

from bench.ai_match import read_results
from gobang.ai.levels import level
from gobang.ai.position import Position
from gobang.ai.search import Engine
from gobang.rules import SIZE

FIRST_STONES = 12


def positions(path: str, ruleset: str, count: int, every: int) -> list[list[int]]:
    found: list[list[int]] = []
    for game in read_results(Path(path)):
        if game["ruleset"] != ruleset:
            continue
        points = [y * SIZE + x for x, y in game["record"]]
        found += [points[:stones] for stones in range(FIRST_STONES, len(points) - 2, every)]
        if len(found) >= count:
            break
    return found[:count]


def measure(stones: Sequence[Sequence[int]], ruleset: str, number: int) -> dict:
    cpu, nodes, moves = 0.0, 0, []
    for played in stones:
        pos = Position(ruleset)
        for point in played:
            pos.play(point)
        engine = Engine(level(number), random.Random(1), clock=lambda: 0.0)  # never runs out
        started = time.process_time()
        moves.append(engine.choose(pos))
        cpu += time.process_time() - started
        nodes += engine.last_nodes
    digest = hashlib.sha256(json.dumps(moves).encode()).hexdigest()[:16]
    return {"positions": len(stones), "cpu_s": round(cpu, 2), "nodes": nodes, "moves": digest}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="a match file of bench/ai_match.py")
    parser.add_argument("--ruleset", default="freestyle")
    parser.add_argument("--level", type=int, default=9)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--every", type=int, default=7)
    args = parser.parse_args(argv)
    stones = positions(args.out, args.ruleset, args.positions, args.every)
    print(json.dumps({"ruleset": args.ruleset, "level": args.level,
                      **measure(stones, args.ruleset, args.level)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
