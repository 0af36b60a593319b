"""The analysis board's engine, a process of its own:
`python -m gobang.services.analysis_board.engine`.

Kept running between asks (starting one costs a fraction of a second). Reads one JSON line
per ask, {"ruleset", "moves": [[row, col]...], "seconds", "nodes"}, a position the server has
already checked with the rules, and answers one line: {"win_chance", "best", "line"} or
{"error"}. Imports only the engine (gobang.ai) and the standard library, as the analysis
worker does (gobang/services/analysis/worker.py); ends when its standard input closes.
"""

from __future__ import annotations

import json
import sys
import time
from typing import IO, Any

from gobang.ai.evaluation import evaluate
from gobang.ai.position import Position
from gobang.rules import SIZE


def answer(job: dict[str, Any]) -> dict[str, Any]:
    pos = Position(str(job["ruleset"]))
    for row, col in job["moves"]:
        pos.play(int(row) * SIZE + int(col))
    found = evaluate(pos, float(job["seconds"]), time.monotonic, int(job["nodes"]))
    return {"win_chance": round(found.win_chance, 4),
            "best": list(divmod(found.best, SIZE)) if found.best is not None else None,
            "line": [list(divmod(point, SIZE)) for point in found.line]}


def serve(source: IO[str], out: IO[str]) -> None:
    for line in source:
        try:
            reply = answer(json.loads(line))
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            reply = {"error": str(exc)[:200] or type(exc).__name__}
        out.write(json.dumps(reply) + "\n")
        out.flush()


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
