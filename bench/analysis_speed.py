"""How long a finished game's analysis takes, as the server runs it: in a worker process of
its own (`python -m gobang.services.analysis.worker`), process start included.

    python -m bench.analysis_speed --games 5 --moves 40

Each game is the built-in engine against itself (level 5, seeded, node budgets only), cut at
`--moves` or at its five. Prints one JSON line per game and a summary with the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from gobang.ai.evaluation import DEFAULT_NODES
from gobang.ai.levels import level
from gobang.ai.position import Position
from gobang.ai.search import Engine
from gobang.rules import SIZE, Game

ROOT = Path(__file__).resolve().parents[1]


def engine_game(seed: int, moves: int) -> list[tuple[int, int]]:
    game, pos = Game("freestyle"), Position("freestyle")
    sides = [Engine(level(5), random.Random(seed + k), clock=lambda: 0.0) for k in (0, 1)]
    while not game.is_over and len(game.moves) < moves:
        point = sides[len(game.moves) % 2].choose(pos)
        pos.play(point)
        game.place(*divmod(point, SIZE))
    return game.moves


def analyse(moves: list[tuple[int, int]], nodes: int, seconds: float) -> tuple[float, dict]:
    job = json.dumps({"ruleset": "freestyle", "moves": moves, "seconds": seconds,
                      "nodes": nodes})
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "gobang.services.analysis.worker"],
                          input=job + "\n", capture_output=True, text=True, cwd=ROOT,
                          check=True)
    spent = time.perf_counter() - started
    last = json.loads(done.stdout.strip().splitlines()[-1])
    return spent, last["result"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    times = []
    load_before = os.getloadavg()
    for number in range(args.games):
        moves = engine_game(100 + 2 * number, args.moves)
        spent, result = analyse(moves, args.nodes, args.seconds)
        times.append(spent)
        print(json.dumps({"game": number, "moves": len(moves), "seconds": round(spent, 2),
                          "labels": sum(1 for m in result["moves"] if m["label"])}))
    print(json.dumps({"summary": True, "games": len(times), "nodes": args.nodes,
                      "mean_seconds": round(sum(times) / len(times), 2),
                      "max_seconds": round(max(times), 2), "cpus": os.cpu_count(),
                      "load_before": [round(x, 2) for x in load_before],
                      "load_after": [round(x, 2) for x in os.getloadavg()],
                      "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}))


if __name__ == "__main__":
    main()
