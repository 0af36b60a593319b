"""One game's analysis in a process of its own: `python -m gobang.services.analysis.worker`.

Reads one job as a JSON line on standard input, {"ruleset", "moves", "seconds", "nodes"},
and writes JSON lines to standard output: {"done", "total"} after each position, then
{"result": analysis} or {"error": text} for a move list that is not a game. Imports only
the engine (gobang.ai) and the standard library, so it starts in a fraction of a second.
"""

from __future__ import annotations

import json
import sys
import time
from typing import IO, Any

from gobang.ai.evaluation import analyse_game


def run(job: dict[str, Any], out: IO[str]) -> None:
    def say(message: dict[str, Any]) -> None:
        out.write(json.dumps(message) + "\n")
        out.flush()

    try:
        found = analyse_game(str(job["ruleset"]), job["moves"], float(job["seconds"]),
                             time.monotonic, progress=lambda done, total: say(
                                 {"done": done, "total": total}),
                             nodes=int(job["nodes"]))
    except (ValueError, KeyError, TypeError) as exc:  # not a game: retrying cannot help
        say({"error": str(exc)[:200] or type(exc).__name__})
        return
    say({"result": found.as_dict()})


def main() -> None:
    line = sys.stdin.readline()
    try:
        job = json.loads(line)
    except ValueError:
        sys.stdout.write(json.dumps({"error": "the job is not JSON"}) + "\n")
        return
    run(job, sys.stdout)


if __name__ == "__main__":
    main()
