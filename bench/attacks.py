"""The transport attacks of docs/security.md against a live server, with their figures.

    .venv/bin/python bench/attacks.py SCENARIO [--root DIR]

SCENARIO: flood, pong_flood, ping_flood, fragment, fragment_anonymous, malformed, binary,
memory.

--root: another checkout's top directory (e.g. `git archive <commit> | tar -x -C DIR`), for
before/after figures. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import psutil
import requests
import websocket

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tests.support.live as live  # noqa: E402
from tests.live.test_flood import Flooder, timed_moves  # noqa: E402
from tests.live.test_play import matched_pair  # noqa: E402
from tests.live.test_raw_frames import (  # noqa: E402
    PING,
    PONG,
    ControlFlooder,
    HealthPoller,
    anonymous_websocket,
    closed_by_server,
    endless_fragment,
    paced_moves,
)

CLOSED = (websocket.WebSocketException, OSError)


def started_server(workdir: Path, env: dict[str, str]) -> live.LiveServer:
    # Rate limits on, as in production (LiveServer turns them off), but moves' own limit is
    # raised so that the flood scenario's game plays as fast as the server answers.
    env = {"GOBANG_LOG_LEVEL": "INFO", "GOBANG_RATELIMIT_ENABLED": "1",
           "GOBANG_MOVES_PER_SECOND": "1000", "GOBANG_AUTH_ATTEMPTS_PER_MINUTE": "1000", **env}
    server = live.LiveServer(workdir, env,
                             f"sqlite:///{workdir / 'gobang.sqlite3'}")
    server.start()
    return server


def flood(server: live.LiveServer) -> dict:
    black, white, game_id = matched_pair(server)
    flooder = Flooder(server.port)
    flooder.start()
    time.sleep(1)
    started = time.monotonic()
    try:
        healthz = requests.get(server.url + "/healthz", timeout=60).status_code
    except requests.RequestException as exc:
        healthz = type(exc).__name__
    healthz_seconds = time.monotonic() - started
    try:
        took = sorted(timed_moves(black, white, game_id, 60))
        moves = {"p50_ms": round(took[29] * 1000, 1), "p99_ms": round(took[58] * 1000, 1),
                 "max_ms": round(took[-1] * 1000, 1)}
    except Exception as exc:  # noqa: BLE001 - a stalled server fails moves in many ways
        moves = {"error": f"{type(exc).__name__}: {str(exc)[:80]}"}
    flooder.stop.set()
    flooder.join(timeout=30)
    return {"healthz": healthz, "healthz_seconds": round(healthz_seconds, 2), "moves": moves,
            "players_connected": black[2].connected and white[2].connected,
            "flooder_closed": flooder.closed_by_server.is_set(), "frames_sent": flooder.sent}


def percentile(samples: list[float], share: float) -> float | str:
    ordered = sorted(samples)
    value = ordered[max(0, int(len(ordered) * share) - 1)]
    return round(value * 1000, 1) if value != float("inf") else "unanswered"


def control_flood(server: live.LiveServer, frame: bytes) -> dict:
    """An anonymous attacker writing empty control frames in 8,192-frame writes, reconnecting
    each time it is closed, for 8 s, while a game is played (20 moves a second) and /healthz
    polled."""
    black, white, game_id = matched_pair(server)
    process = psutil.Process(server.process.pid)
    before = process.memory_info().rss
    flooder = ControlFlooder(server.port, frame)
    poller = HealthPoller(server.url)
    flooder.start()
    poller.start()
    moves = paced_moves(black, white, game_id, until=flooder)
    flooder.join(timeout=60)
    poller.stop.set()
    poller.join(timeout=60)
    return {"healthz_p99_ms": percentile(poller.took, 0.99),
            "healthz_max_ms": percentile(poller.took, 1), "healthz_polls": len(poller.took),
            "moves": {"count": len(moves), "p50_ms": percentile(moves, 0.5),
                      "p99_ms": percentile(moves, 0.99), "max_ms": percentile(moves, 1),
                      "unanswered": moves.count(float("inf"))},
            "players_connected": black[2].connected and white[2].connected,
            "attacker_connections": flooder.connections,
            "closed_by_server": flooder.closed_by_server, "attacker_error": flooder.error,
            "rss_growth_mb": round((process.memory_info().rss - before) / 2**20, 1)}


def pong_flood(server: live.LiveServer) -> dict:
    return control_flood(server, PONG)


def ping_flood(server: live.LiveServer) -> dict:
    return control_flood(server, PING)


def fragment(server: live.LiveServer, logged_in: bool = True) -> dict:
    """A text frame with FIN unset, then 16,000-byte continuation frames for up to 10 s (or
    512 MB) on a logged-in /room socket."""
    if logged_in:
        ws = server.raw_socket(server.user("frag"), "/room")
    else:
        ws = anonymous_websocket(server.port)
    process = psutil.Process(server.process.pid)
    before = process.memory_info().rss
    started = time.monotonic()
    sent = endless_fragment(ws.sock)
    seconds = time.monotonic() - started
    closed = closed_by_server(ws.sock)
    grown = process.memory_info().rss - before
    ws.sock.close()
    return {"sent_mb": round(sent / 2**20), "seconds": round(seconds, 1),
            "connection_closed": closed, "rss_growth_mb": round(grown / 2**20, 1),
            "refusals": [line[-80:] for line in server.log().splitlines() if "refused" in line]}


def fragment_anonymous(server: live.LiveServer) -> dict:
    return fragment(server, logged_in=False)


def malformed(server: live.LiveServer, per_second: int = 1_000, seconds: float = 10) -> dict:
    ws = server.raw_socket(server.user("mal"), "/room")
    log_before = len(server.log().encode())
    sent, started, closed = 0, time.monotonic(), False
    try:
        while time.monotonic() - started < seconds:
            ws.send("42/room,{}")
            sent += 1
            time.sleep(max(0.0, started + sent / per_second - time.monotonic()))
    except CLOSED:
        closed = True
    time.sleep(1)
    return {"sent": sent, "connection_closed": closed,
            "log_bytes": len(server.log().encode()) - log_before,
            "tracebacks": server.log().count("Traceback")}


def binary(server: live.LiveServer, limit_mb: int = 192) -> dict:
    ws = server.raw_socket(server.user("bin"), "/room")
    process = psutil.Process(server.process.pid)
    before = process.memory_info().rss
    ws.send('4599999-/room,["chat",{"_placeholder":true,"num":0}]')
    frame, sent, closed = b"\x00" * 16 * 1024, 0, False
    try:
        while sent < limit_mb * 2**20:
            ws.send_binary(frame)
            sent += len(frame)
    except CLOSED:
        closed = True
    time.sleep(1)
    return {"sent_mb": round(sent / 2**20), "connection_closed": closed,
            "rss_growth_mb": round((process.memory_info().rss - before) / 2**20, 1)}


def memory(server: live.LiveServer, rounds: int = 4, connections: int = 2_000) -> dict:
    """Rounds of connections that join /room (one user may hold many there, one only in the
    hall) and are then dropped without a goodbye."""
    http = server.user("crowd")
    process = psutil.Process(server.process.pid)
    time.sleep(1)
    rss = [round(process.memory_info().rss / 2**20)]
    for _ in range(rounds):
        sockets = [server.raw_socket(http, "/room") for _ in range(connections)]
        for ws in sockets:
            ws.shutdown()
        time.sleep(30)  # the server notices every close, the closing settles, its collector runs
        rss.append(round(process.memory_info().rss / 2**20))
    return {"connections_per_round": connections, "rss_mb_after_each_round": rss}


SCENARIOS = {"flood": flood, "pong_flood": pong_flood, "ping_flood": ping_flood,
             "fragment": fragment, "fragment_anonymous": fragment_anonymous,
             "malformed": malformed, "binary": binary, "memory": memory}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--root", type=Path, default=live.ROOT)
    args = parser.parse_args()
    live.ROOT = args.root.resolve()  # LiveServer runs app.py from here
    with tempfile.TemporaryDirectory(prefix="gobang-attacks-") as workdir:
        # The crowd of the memory rounds comes from one address.
        server = started_server(Path(workdir), {"GOBANG_MAX_CONNECTIONS_PER_ADDRESS": "0"})
        try:
            result = SCENARIOS[args.scenario](server)
        finally:
            server.stop()
    print(json.dumps({"scenario": args.scenario, "root": str(live.ROOT), **result}))


if __name__ == "__main__":
    main()
