"""A move's round trip on each async mode, measured in the same run, in turns.

    .venv/bin/python bench/async_modes.py [--modes eventlet,threading] [--rounds 6]
                                          [--turn 5] [--json FILE]

One `python app.py` per mode (`--async-mode`, gobang/transport/threaded.py), each with its
own temporary SQLite database, started together; one closed-loop game on each, as
bench/load.py's single scenario plays it (one bench process, python-socketio clients). The
games play in turns of --turn seconds, the order reversed every round (A B B A A B ...), so
that every mode meets the machine's same minutes: each game waits while the other plays.
The round trip is from the mover's emit of `place_stone` to the opponent's receipt of
`stone_placed` (docs/performance.md, "Running it"). Prints one JSON report: per mode the
median, p95 and p99 over all its turns, each turn's median, its moves a second and the
server's CPU; with the machine's load averages before and after.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import (  # noqa: E402
    DRAIN_SECONDS,
    FAST_HASH,
    GAME_ENV,
    TURN_GAP_SECONDS,
    Job,
    Server,
    _cpu_in_turns,
    _join,
    _launch,
    _ms,
    _reap,
    _turn_slots,
    _wait_all,
    emit,
)
from bench.players import percentile  # noqa: E402


def measure(modes: list[str], rounds: int, turn: float) -> dict[str, Any]:
    servers = [Server("app", {**FAST_HASH, **GAME_ENV, "GOBANG_LOG_LEVEL": "WARNING",
                              "GOBANG_ASYNC_MODE": mode}) for mode in modes]
    fleets = []
    try:
        for server in servers:
            server.start()
        for server in servers:
            jobs = [Job("app", server.url, 0, 1)]
            fleets.append((jobs, *_launch(jobs)))
        for jobs, results, _commands, _processes in fleets:
            _wait_all(results, len(jobs), "ready", timeout=120)
        slots = _turn_slots(len(servers), time.monotonic() + 1.0, turn, rounds)
        windows = [[(a, b) for i, a, b in slots if i == n] for n in range(len(servers))]
        for n, (_jobs, _results, commands, _processes) in enumerate(fleets):
            for queue in commands:
                queue.put({"start": windows[n][0][0], "deadline": windows[n][-1][1],
                           "windows": windows[n]})
        cpu = _cpu_in_turns(servers, slots)
        out: dict[str, Any] = {}
        for n, (jobs, results, _commands, _processes) in enumerate(fleets):
            reports = _wait_all(results, len(jobs), "result", timeout=DRAIN_SECONDS + 120
                                + windows[n][-1][1] - time.monotonic())
            out[modes[n]] = _report(reports, windows[n], cpu[n],
                                    servers[n].log().count("Traceback"))
    finally:
        for fleet in fleets:
            _reap(fleet[3])
        for server in servers:
            server.stop()
    return out


def _report(reports: list[dict], windows: list[tuple[float, float]], cpu: float,
            tracebacks: int) -> dict[str, Any]:
    joined = _join(reports, windows)
    trips = joined["_trips"]
    playing = sum(b - a for a, b in windows)
    return {
        "turns": len(windows), "turn_s": round(windows[0][1] - windows[0][0], 2),
        "moves_delivered": joined["moves_delivered"], "errors": joined["errors"],
        "error_samples": joined["error_samples"], "moves_per_s": joined["moves_per_s"],
        "rtt_ms": {"p50": _ms(percentile(trips, 0.5)), "p95": _ms(percentile(trips, 0.95)),
                   "p99": _ms(percentile(trips, 0.99)), "max": _ms(max(trips, default=None))},
        "rtt_p50_ms_by_turn": [_ms(percentile(_join(reports, [w])["_trips"], 0.5))
                               for w in windows],
        "server_cpu_pct": round(100 * cpu / (playing + TURN_GAP_SECONDS * len(windows)), 1),
        "server_cpu_ms_per_move": round(1000 * cpu / max(1, joined["moves_delivered"]), 3),
        "server_log_tracebacks": tracebacks,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modes", default="eventlet,threading",
                        help="app.py's --async-mode values, comma-separated")
    parser.add_argument("--rounds", type=int, default=6, help="turns each mode plays")
    parser.add_argument("--turn", type=float, default=5.0, help="seconds of play per turn")
    parser.add_argument("--json", type=Path, help="append the report as one JSON line")
    args = parser.parse_args(argv)
    before = [round(load, 2) for load in os.getloadavg()]
    figures = measure(args.modes.split(","), args.rounds, args.turn)
    # Other work on the machine competes for its cores: the 1, 5 and 15 minute load averages.
    figures["loadavg_before"] = before
    figures["loadavg_after"] = [round(load, 2) for load in os.getloadavg()]
    return emit("bench/async_modes.py", "async-modes", argv, args.json, figures)


if __name__ == "__main__":
    main()
