"""The transport attacks of docs/security.md against a live server, with their figures.

    .venv/bin/python bench/attacks.py SCENARIO [--root DIR]

SCENARIO: flood, pong_flood, ping_flood, fragment, fragment_anonymous, malformed, binary,
memory, hall_view.

--root: another checkout's top directory (e.g. `git archive <commit> | tar -x -C DIR`), for
before/after figures. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import select
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import requests
import websocket

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tests.support.live as live  # noqa: E402
from tests.live.test_flood import Flooder, quiet_cells, timed_moves  # noqa: E402
from tests.live.test_play import matched_pair  # noqa: E402
from tests.live.test_raw_frames import (  # noqa: E402
    PING,
    PONG,
    ControlFlooder,
    HealthPoller,
    closed_by_server,
    endless_fragment,
    fragment_socket,
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
    ws = fragment_socket(server, logged_in)
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


def hall_socket(server: live.LiveServer, username: str) -> websocket.WebSocket:
    """A new account's raw connection to /hall (its `hello` comes before the connect's
    acknowledgement, so raw_socket's check does not fit)."""
    http = server.user(username)
    cookie = "; ".join(f"{c.name}={c.value}" for c in http.cookies)
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{server.port}/socket.io/?EIO=4&transport=websocket",
        cookie=cookie, timeout=10)
    assert ws.recv().startswith("0")
    ws.send("40/hall,")
    while not ws.recv().startswith("40/hall,"):
        pass
    return ws


class Pongs(threading.Thread):
    """Keeps raw hall connections alive: answers the server's pings, drops the rest."""

    def __init__(self, sockets: list[websocket.WebSocket]) -> None:
        super().__init__(daemon=True)
        self.sockets = {ws.sock: ws for ws in sockets}
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            readable, _, _ = select.select(list(self.sockets), [], [], 0.5)
            for sock in readable:
                try:
                    if self.sockets[sock].recv() == "2":
                        self.sockets[sock].send("3")
                except CLOSED:
                    del self.sockets[sock]


class ViewAsker(threading.Thread):
    """One account asking `hall_view` at a steady pace once started, whatever the answers: a
    reader thread, from the start, answers pings and counts the answers."""

    def __init__(self, ws: websocket.WebSocket, per_second: float) -> None:
        super().__init__(daemon=True)
        self.ws, self.per_second = ws, per_second
        self.stop = threading.Event()
        self.asked = self.answered = self.refused = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def run(self) -> None:
        started = time.monotonic()
        try:
            while not self.stop.is_set():
                self.ws.send(f'42/hall,{self.asked}["hall_view",{{}}]')
                self.asked += 1
                time.sleep(max(0.0, started + self.asked / self.per_second - time.monotonic()))
        except CLOSED:
            pass

    def _read(self) -> None:
        try:
            while not self.stop.is_set():
                frame = self.ws.recv()
                if frame == "2":
                    self.ws.send("3")
                elif frame.startswith("43/hall,"):
                    self.answered += 1
                    self.refused += '"rate_limited"' in frame
        except CLOSED:
            pass


def timed_paced_moves(black, white, game_id: int, first: int, seconds: float,
                per_second: float) -> list[tuple[float, float]]:
    """(when, seconds to the acknowledgement) of moves sent at a player's pace, each side's
    cells from `first` on (see quiet_cells: the game never ends)."""
    cells = {0: quiet_cells(0), 1: quiet_cells(1)}
    timed, started = [], time.monotonic()
    while time.monotonic() - started < seconds:
        index = first + len(timed)
        mover = (black, white)[index % 2]
        row, col = cells[index % 2][index // 2]
        sent = time.monotonic()
        ack = mover[2].ask("place_stone", {"game_id": game_id, "row": row, "col": col})
        timed.append((sent - started, time.monotonic() - sent))
        assert ack == {"ok": True}, ack
        time.sleep(max(0.0, started + len(timed) / per_second - time.monotonic()))
    return timed


def _percentiles(took: list[float]) -> dict:
    took = sorted(took)
    if not took:
        return {"moves": 0}
    return {"moves": len(took), "p50_ms": round(took[len(took) // 2] * 1000, 1),
            "p99_ms": round(took[max(0, int(len(took) * 0.99) - 1)] * 1000, 1),
            "max_ms": round(took[-1] * 1000, 1)}


def hall_view(server: live.LiveServer, accounts: int = 10, per_second: float = 45,
              crowd: int = 38, seconds: float = 20, burst: float = 4) -> dict:
    """Accounts asking for the whole hall view at `per_second` each while a game is played at
    4 moves a second, in a hall of 50 players (the view's default bound). The game's moves:
    before the attack, in its first `burst` seconds (a per-minute limit lets each account
    ask up to it at once), and after."""
    black, white, game_id = matched_pair(server)
    listed = [hall_socket(server, f"crowd{n}") for n in range(crowd)]
    pongs = Pongs(listed)
    pongs.start()
    askers = [ViewAsker(hall_socket(server, f"viewer{n}"), per_second)
              for n in range(accounts)]
    time.sleep(2)  # a hall_update lists everyone
    quiet = timed_paced_moves(black, white, game_id, 0, 10, 4)
    for asker in askers:
        asker.start()
    attacked = timed_paced_moves(black, white, game_id, len(quiet), seconds, 4)
    for asker in askers:
        asker.stop.set()
    pongs.stop.set()
    return {
        "accounts": accounts, "per_second": per_second, "hall_players": crowd + accounts + 2,
        "seconds": seconds,
        "quiet": _percentiles([took for _when, took in quiet]),
        "attack_first_seconds": _percentiles([t for when, t in attacked if when < burst]),
        "attack_after": _percentiles([t for when, t in attacked if when >= burst]),
        "attack_all": _percentiles([t for _when, t in attacked]),
        "views_asked": sum(a.asked for a in askers),
        "views_answered": sum(a.answered for a in askers),
        "views_refused": sum(a.refused for a in askers),
        "players_connected": black[2].connected and white[2].connected,
    }


SCENARIOS = {"flood": flood, "pong_flood": pong_flood, "ping_flood": ping_flood,
             "fragment": fragment, "fragment_anonymous": fragment_anonymous,
             "malformed": malformed, "binary": binary, "memory": memory,
             "hall_view": hall_view}


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
