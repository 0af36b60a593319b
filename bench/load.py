"""Load generator: real Socket.IO clients over loopback against `python app.py`.

    .venv/bin/python bench/load.py --scenario single|throughput|thousand|idle|matching|
                                              login-burst|soak|computer|analysis|arena
                                              [--json FILE] [options]

Each scenario starts its own server(s) on 127.0.0.1 with a temporary database, drives them
with asyncio clients in one or more bench processes, stops everything and prints a report
(and a JSON line). Game scenarios run twice in the same invocation: against the Gobang server
and against bench/relay_server.py (the same Flask-SocketIO + eventlet set-up relaying moves,
nothing else), so each figure can be read as a ratio to the stack's own ceiling.

Every loop is bounded: a scenario ends after its duration (or its count) and a drain period.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import multiprocessing as mp
import os
import platform
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.players import (  # noqa: E402
    DEFLATE_ENV,
    ComputerRecorder,
    ComputerSeat,
    Pace,
    Recorder,
    Seat,
    login,
    new_http,
    open_client,
    percentile,
    sio_client,
)
from tests.support.ports import free_port  # noqa: E402

# Low hashing cost for registering bench users quickly; the login-burst scenario overrides it.
FAST_HASH = {"GOBANG_ARGON2_MEMORY_KIB": "1024", "GOBANG_ARGON2_TIME_COST": "1",
             "GOBANG_ARGON2_PARALLELISM": "1"}
# Seating a thousand games takes minutes; the first games must not be aborted (no first move
# within 30 s) while the last ones are being seated.
GAME_ENV = {"GOBANG_ABORT_SECONDS": "3600"}
DRAIN_SECONDS = 3.0


# --- servers --------------------------------------------------------------------------------

class Server:
    """`python app.py` (kind "app") or bench/relay_server.py (kind "relay") on a free port."""

    def __init__(self, kind: str, env: dict[str, str] | None = None) -> None:
        self.kind = kind
        self.workdir = Path(tempfile.mkdtemp(prefix=f"gobang-bench-{kind}-"))
        # Below the kernel's ephemeral range, from this test worker's own block: a port
        # picked with bind(0) and let go could be taken by another client's outgoing
        # connection before the server binds it, now that the bench's smoke tests share the
        # machine with other tests.
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = self.workdir / "server.log"
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("GOBANG_")},
            "GOBANG_DATABASE_URL": f"sqlite:///{self.workdir / 'gobang.sqlite3'}",
            "GOBANG_SECRET_KEY": "bench-secret",
            "GOBANG_RATELIMIT_ENABLED": "0",
            "GOBANG_LOG_LEVEL": "WARNING",
            **(env or {}),
        }
        self.process: subprocess.Popen | None = None
        self.ps: psutil.Process | None = None

    def start(self) -> Server:
        # BENCH_APP_SCRIPT: another build's app.py, for before/after comparisons.
        script = (os.environ.get("BENCH_APP_SCRIPT", "app.py") if self.kind == "app"
                  else "bench/relay_server.py")
        with self.log_path.open("a") as log:
            self.process = subprocess.Popen(
                [sys.executable, script, "--port", str(self.port)],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            )
        self.ps = psutil.Process(self.process.pid)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.kind} server exited:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as answer:
                    if answer.status == 200:
                        return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"{self.kind} server did not start:\n{self.log()}")

    def rss(self) -> int:
        return self.ps.memory_info().rss if self.ps else 0

    def cpu_seconds(self) -> float:
        if not self.ps:
            return 0.0
        times = self.ps.cpu_times()
        return times.user + times.system

    def children(self) -> list[psutil.Process]:
        """The server's child processes: the computer's engines."""
        try:
            return self.ps.children(recursive=True) if self.ps else []
        except psutil.Error:
            return []

    def children_cpu_seconds(self) -> float:
        """CPU used by the engines, those running and those ended (and reaped) alike."""
        if not self.ps:
            return 0.0
        total = 0.0
        for child in self.children():
            try:
                times = child.cpu_times()
            except psutil.Error:
                continue
            total += times.user + times.system
        own = self.ps.cpu_times()
        return total + own.children_user + own.children_system

    def children_rss(self) -> int:
        total = 0
        for child in self.children():
            try:
                total += child.memory_info().rss
            except psutil.Error:
                continue
        return total

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""

    def stop(self) -> None:
        """Stop the server and remove its database and log (BENCH_KEEP=1 keeps them)."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if os.environ.get("BENCH_KEEP") != "1":
            shutil.rmtree(self.workdir, ignore_errors=True)


# --- bench processes ------------------------------------------------------------------------

@dataclass
class Job:
    """What one bench process plays: `games` games on `url` (kind "app" or "relay"), or
    (kind "computer") `games` players each playing the computer at one of `levels`."""

    kind: str
    url: str
    index: int
    games: int
    every: float = 0.0  # seconds between one player's moves; 0 = closed loop
    batch: int = 50  # players matched at a time through the hall
    login_burst: int = 0  # extra users that log in all at once during the run
    burst_at: float = 0.0  # seconds after the start
    drain: float = DRAIN_SECONDS  # seconds after the end for the last moves to arrive
    levels: tuple[int, ...] = ()  # computer: the levels, given to the players in turn
    lean: bool = False  # bench/lean_client.py's clients instead of python-socketio's


def _worker(job: Job, commands: mp.Queue, results: mp.Queue) -> None:
    # Closing thousands of clients at the end makes engine.io log one line each.
    logging.getLogger("engineio.client").setLevel(logging.CRITICAL)
    try:
        asyncio.run(_play(job, commands, results))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, never swallowed
        # A bare TimeoutError says nothing of which wait ran out: name the bench's own lines.
        where = [f"{Path(f.filename).name}:{f.lineno} {f.name}"
                 for f in traceback.extract_tb(exc.__traceback__)
                 if Path(f.filename).parent == Path(__file__).parent]
        results.put({"index": job.index,
                     "fatal": f"{type(exc).__name__}: {exc} (at {' <- '.join(reversed(where))})"})


async def _play(job: Job, commands: mp.Queue, results: mp.Queue) -> None:
    loop = asyncio.get_running_loop()
    recorder = ComputerRecorder() if job.kind == "computer" else Recorder()
    deadline = [float("inf")]
    started = [False]

    def keep_playing() -> bool:
        return started[0] and time.monotonic() < deadline[0]

    pace = Pace(job.every)
    async with new_http() as http:
        if job.kind == "relay":
            seats, clients = await _seat_relay(http, job, recorder, pace, keep_playing)
        elif job.kind == "computer":
            seats, clients = await _seat_computer(http, job, recorder, keep_playing)
        else:
            seats, clients = await _seat_app(http, job, recorder, pace, keep_playing)
        burst_users = []
        if job.login_burst:
            burst_users = [f"burst{job.index}x{i}" for i in range(job.login_burst)]
            await _gather_limited([login(http, job.url, name) for name in burst_users], 8)
        await _all_playing(seats, 120)
        # Thousands of clients are thousands of long-lived objects: a full collection in the
        # middle of the run would pause this process and be counted as the server's latency.
        gc.freeze()
        gc.set_threshold(50_000, 50, 100)
        results.put({"index": job.index, "ready": True})
        go = await loop.run_in_executor(None, commands.get)
        deadline[0] = go["deadline"]
        if go.get("windows"):
            pace.play_only_in([tuple(w) for w in go["windows"]])
        started[0] = True
        cpu_start = time.process_time()
        rng = random.Random(job.index)
        for seat in seats:
            # Spread the first moves over one pace period, as real games do not start in step.
            seat.kick(rng.uniform(0, job.every) if job.every else 0.0)
        burst: dict[str, Any] = {}
        if burst_users:
            await asyncio.sleep(max(0.0, go["start"] + job.burst_at - time.monotonic()))
            burst = await _login_burst(http, job.url, burst_users)
        await asyncio.sleep(max(0.0, deadline[0] - time.monotonic()) + job.drain)
        cpu = time.process_time() - cpu_start
        results.put({"index": job.index, "result": recorder.as_dict(), "cpu_seconds": cpu,
                     "burst": burst})
        # A seat that followed `moved` holds another connection than the one it began with.
        rooms = {*clients, *(s.room for s in seats)}
        await asyncio.gather(*(c.disconnect() for c in rooms), return_exceptions=True)


async def _all_playing(seats: list, timeout: float) -> None:
    """Every seat's game started, or an error naming the first seats whose game did not."""
    try:
        await asyncio.wait_for(asyncio.gather(*(s.playing.wait() for s in seats)), timeout)
    except TimeoutError:
        waiting = [s for s in seats if not s.playing.is_set()]
        described = "; ".join(
            f"game {s.game_id} {s.color} moves {s.moves} dropped {s.dropped} "
            f"connected {s.room.connected}" for s in waiting[:5])
        raise RuntimeError(f"{len(waiting)} of {len(seats)} seats not playing after "
                           f"{timeout:.0f} s: {described}") from None


async def _gather_limited(coroutines: list, limit: int) -> list:
    semaphore = asyncio.Semaphore(limit)

    async def one(coroutine):
        async with semaphore:
            return await coroutine

    return await asyncio.gather(*(one(c) for c in coroutines))


async def _seat_relay(http, job: Job, recorder, pace, keep_playing):
    seats, clients = [], []
    for number in range(job.games):
        game_id = job.index * 100_000 + number + 1
        for _color in ("black", "white"):
            room = sio_client(http, lean=job.lean)
            seat = Seat(room, recorder, pace, keep_playing)
            await open_client(room, job.url, ["/room"])
            await seat.join(game_id)
            seats.append(seat)
            clients.append(room)
    return seats, clients


async def _seat_app(http, job: Job, recorder, pace, keep_playing):
    """Players register, wait in the hall for `match_found`, then go to the room (closing the
    hall connection, as the browser does when it opens the game page) and join the game."""
    names = [f"p{job.index}x{i}" for i in range(job.games * 2)]
    seats, clients = [], []
    for first in range(0, len(names), job.batch):
        batch = names[first:first + job.batch]
        cookies = await _gather_limited([login(http, job.url, n) for n in batch], 16)
        found: list[asyncio.Future] = []
        halls = []
        for cookie in cookies:
            hall = sio_client(http, cookie, lean=job.lean)
            future = asyncio.get_running_loop().create_future()
            hall.on("match_found", _resolver(future), namespace="/hall")
            found.append(future)
            halls.append(hall)
        await asyncio.gather(*(open_client(h, job.url, ["/hall"]) for h in halls))
        answers = await asyncio.gather(
            *(h.call("start_match", {}, namespace="/hall", timeout=60) for h in halls))
        for answer in answers:
            if not answer.get("ok"):
                raise RuntimeError(f"start_match: {answer}")
        matches = await asyncio.wait_for(asyncio.gather(*found), 120)
        await asyncio.gather(*(h.disconnect() for h in halls))
        rooms = [sio_client(http, cookie, lean=job.lean) for cookie in cookies]
        batch_seats = [Seat(room, recorder, pace, keep_playing,
                            reconnect=_reconnector(http, cookie, job.url, job.lean))
                       for room, cookie in zip(rooms, cookies, strict=True)]
        await asyncio.gather(*(open_client(r, job.url, ["/room"]) for r in rooms))
        await asyncio.gather(*(s.join(m["game_id"]) for s, m in zip(batch_seats, matches,
                                                                     strict=True)))
        seats += batch_seats
        clients += rooms
    return seats, clients


async def _seat_computer(http, job: Job, recorder: ComputerRecorder, keep_playing):
    """Players register, ask the hall for a game against the computer (taking black, so each
    game starts with a move of theirs), then go to the room and join it. A game refused as
    busy is counted, and that player sits out."""
    names = [f"c{job.index}x{i}" for i in range(job.games)]
    cookies = await _gather_limited([login(http, job.url, n) for n in names], 16)
    halls = [sio_client(http, cookie, lean=job.lean) for cookie in cookies]
    await asyncio.gather(*(open_client(h, job.url, ["/hall"]) for h in halls))
    answers = await asyncio.gather(*(
        h.call("play_computer", {"level": job.levels[i % len(job.levels)], "color": "black",
                                 "ruleset": "freestyle"}, namespace="/hall", timeout=60)
        for i, h in enumerate(halls)))
    await asyncio.gather(*(h.disconnect() for h in halls))
    seats, clients = [], []
    for cookie, answer in zip(cookies, answers, strict=True):
        if not answer.get("ok"):
            if answer.get("error") != "busy":
                raise RuntimeError(f"play_computer: {answer}")
            recorder.refused_busy += 1
            continue
        room = sio_client(http, cookie, lean=job.lean)
        seat = ComputerSeat(room, recorder, keep_playing)
        await open_client(room, job.url, ["/room"])
        await seat.join(answer["game_id"])
        seats.append(seat)
        clients.append(room)
    return seats, clients


def _reconnector(http, cookie: str, url: str, lean: bool):
    """Several processes: a room connection at the game's own path, as the page makes when
    join_game answers `moved`."""

    async def reconnect(path: str):
        room = sio_client(http, cookie, lean=lean)
        await open_client(room, url, ["/room"], path.strip("/"))
        return room

    return reconnect


def _resolver(future: asyncio.Future):
    def resolve(data: Any) -> None:
        if not future.done():
            future.set_result(data)

    return resolve


async def _login_burst(http, url: str, names: list[str]) -> dict[str, Any]:
    start = time.monotonic()

    async def one(name: str) -> float:
        await login(http, url, name, register=False)
        return time.monotonic() - start

    times = await asyncio.gather(*(one(n) for n in names), return_exceptions=True)
    ok = [t for t in times if isinstance(t, float)]
    return {"logins": len(names), "ok": len(ok), "failed": len(names) - len(ok),
            "first_s": min(ok) if ok else None, "last_s": max(ok) if ok else None,
            "started_at": start}


# --- running a game scenario ----------------------------------------------------------------

def run_games(server: Server, games: int, duration: float, every: float, workers: int,
              batch: int = 50, login_burst: int = 0, burst_at: float = 0.0,
              samples: int = 3, drain: float = DRAIN_SECONDS, computer_games: int = 0,
              levels: tuple[int, ...] = (), computer_drain: float = DRAIN_SECONDS,
              lean: bool = False, beside: Any = None) -> dict[str, Any]:
    """Seat `games` games over `workers` bench processes, play for `duration` seconds, and
    join what every process saw into one report. With `computer_games`, one more bench
    process plays that many games against the computer at `levels` meanwhile; `beside`
    (bench/analysis_load.py's `Beside`) runs through the same window, and reports too."""
    shares = _shares(games, workers)
    jobs = [Job(server.kind, server.url, i, n, every, batch,
                login_burst // workers if login_burst else 0, burst_at, drain, lean=lean)
            for i, n in enumerate(shares) if n]
    if computer_games:
        jobs.append(Job("computer", server.url, len(shares), computer_games,
                        drain=computer_drain, levels=levels))
    setup_start = time.monotonic()
    results, commands, processes = _launch(jobs)
    try:
        _wait_all(results, len(jobs), "ready", timeout=600)
        setup_seconds = time.monotonic() - setup_start
        rss, engines_rss = [server.rss()], [server.children_rss()]
        cpu_start, engines_cpu_start = server.cpu_seconds(), server.children_cpu_seconds()
        start = time.monotonic()
        for queue in commands:
            queue.put({"start": start, "deadline": start + duration})
        if beside is not None:
            beside.start(server.url, start, start + duration)
        for i in range(1, samples):
            time.sleep(max(0.0, start + duration * i / (samples - 1) - time.monotonic()))
            rss.append(server.rss())
            engines_rss.append(server.children_rss())
        server_cpu = server.cpu_seconds() - cpu_start
        engines_cpu = server.children_cpu_seconds() - engines_cpu_start
        reports = _wait_all(results, len(jobs), "result",
                            timeout=duration + max(drain, computer_drain) + 120)
    finally:
        _reap(processes)
    people = [r for r in reports if "computer" not in r["result"]]
    report = _join(people, [(start, start + duration)])
    report.update({
        "games": games, "players": games * 2, "duration_s": duration, "every_s": every,
        "bench_processes": len(jobs), "setup_s": round(setup_seconds, 1),
        "server_rss_mb": [round(r / 2**20, 1) for r in rss],
        "server_cpu_pct": round(100 * server_cpu / duration, 1),
        "bench_cpu_pct": round(100 * sum(r["cpu_seconds"] for r in reports) / duration, 1),
    })
    bursts = [r["burst"] for r in reports if r.get("burst")]
    if bursts:
        report["login_burst"] = _join_bursts(bursts, reports, start)
    if beside is not None:
        report["analyses"] = beside.join(timeout=120)
    if computer_games:
        against = [r for r in reports if "computer" in r["result"]]
        report["computer"] = {
            "players": computer_games, "levels": list(levels),
            **_join_computer(against, start, start + duration),
            "engines_cpu_pct": round(100 * engines_cpu / duration, 1),
            "engines_rss_mb": [round(r / 2**20, 1) for r in engines_rss],
            "engine_processes": len(server.children()),
            # Moves the engines did not play, over the whole run (warnings in the log): the
            # cheap level's (no engine free in time) and the fallback's (an engine failed).
            "cheap_moves": server.log().count("computer move from the cheap level"),
            "fallback_moves": server.log().count("fallback plays"),
        }
    return report


def _shares(games: int, workers: int) -> list[int]:
    return [games // workers + (1 if i < games % workers else 0) for i in range(workers)]


def _launch(jobs: list[Job]) -> tuple[mp.Queue, list[mp.Queue], list]:
    """One bench process per job, started: their common result queue, a command queue each."""
    context = mp.get_context("fork")
    results: mp.Queue = context.Queue()
    commands = [context.Queue() for _ in jobs]
    processes = [context.Process(target=_worker, args=(job, commands[i], results), daemon=True)
                 for i, job in enumerate(jobs)]
    for process in processes:
        process.start()
    return results, commands, processes


def _reap(processes: list) -> None:
    for process in processes:
        process.join(timeout=30)
        if process.is_alive():
            process.kill()


# Between two turns, for the moves in flight at the end of one to arrive before the next.
TURN_GAP_SECONDS = 0.3


def run_in_turns(servers: list[Server], games: int, turn: float, rounds: int,
                 workers: int) -> dict[str, dict[str, Any]]:
    """Seat `games` closed-loop games on each server, then let the servers play in turns
    of `turn` seconds, `rounds` turns each, in the order A B B A A B ..., every server's
    games waiting while another's play. Two servers measured one after the other meet
    different machines: here a fixed piece of Python work varies by half from one few
    seconds to the next, so a ratio between them is only fair when both are measured in
    the same minutes, turn by turn."""
    fleets = []
    try:
        for server in servers:
            jobs = [Job(server.kind, server.url, i, n) for i, n in
                    enumerate(_shares(games, workers)) if n]
            fleets.append((server, jobs, *_launch(jobs)))
        for _server, jobs, results, _commands, _processes in fleets:
            _wait_all(results, len(jobs), "ready", timeout=600)
        slots = _turn_slots(len(servers), time.monotonic() + 1.0, turn, rounds)
        windows = [[(a, b) for i, a, b in slots if i == n] for n in range(len(servers))]
        for n, (_server, _jobs, _results, commands, _processes) in enumerate(fleets):
            for queue in commands:
                queue.put({"start": windows[n][0][0], "deadline": windows[n][-1][1],
                           "windows": windows[n]})
        cpu = _cpu_in_turns(servers, slots)
        out = {}
        for n, (server, jobs, results, _commands, _processes) in enumerate(fleets):
            reports = _wait_all(results, len(jobs), "result", timeout=DRAIN_SECONDS + 120
                                + windows[n][-1][1] - time.monotonic())
            out[server.kind] = _turns_report(reports, windows[n], cpu[n], games)
    finally:
        for fleet in fleets:
            _reap(fleet[4])
    return out


def _turn_slots(servers: int, start: float, turn: float,
                rounds: int) -> list[tuple[int, float, float]]:
    """(server, from, to) in play order; the order reverses every round so that neither
    server always plays first."""
    slots, moment = [], start
    for number in range(rounds):
        order = range(servers) if number % 2 == 0 else reversed(range(servers))
        for server in order:
            slots.append((server, moment, moment + turn))
            moment += turn + TURN_GAP_SECONDS
    return slots


def _cpu_in_turns(servers: list[Server], slots: list[tuple[int, float, float]]) -> list[float]:
    """Each server's CPU seconds over its own turns (each with the gap after it)."""
    used = [0.0] * len(servers)
    for server, begin, end in slots:
        time.sleep(max(0.0, begin - time.monotonic()))
        before = servers[server].cpu_seconds()
        time.sleep(max(0.0, end + TURN_GAP_SECONDS - time.monotonic()))
        used[server] += servers[server].cpu_seconds() - before
    return used


def _turns_report(reports: list[dict], windows: list[tuple[float, float]], cpu: float,
                  games: int) -> dict[str, Any]:
    report = _join(reports, windows)
    sent = report.pop("_sent_times")
    report.pop("_trips")
    playing = sum(b - a for a, b in windows)
    report.update({
        "games": games, "players": games * 2, "turns": len(windows),
        "turn_s": round(windows[0][1] - windows[0][0], 2), "duration_s": round(playing, 1),
        "moves_per_s_by_turn": [round(sum(1 for t in sent if a <= t < b) / (b - a))
                                for a, b in windows],
        "server_cpu_pct": round(100 * cpu / (playing + TURN_GAP_SECONDS * len(windows)), 1),
        "server_cpu_ms_per_move": round(1000 * cpu / max(1, report["moves_delivered"]), 3),
    })
    return report


def _wait_all(results: mp.Queue, count: int, key: str, timeout: float) -> list[dict]:
    found: list[dict] = []
    deadline = time.monotonic() + timeout
    while len(found) < count:
        left = deadline - time.monotonic()
        if left <= 0:
            raise RuntimeError(f"bench processes: only {len(found)}/{count} reached {key!r}")
        message = results.get(timeout=left)
        if "fatal" in message:
            raise RuntimeError(f"bench process {message['index']}: {message['fatal']}")
        if key in message:
            found.append(message)
    return found


def _join(reports: list[dict], windows: list[tuple[float, float]]) -> dict[str, Any]:
    """Moves sent inside the windows (a run's one window, or a server's turns)."""
    sent: dict[tuple[int, int], float] = {}
    received: dict[tuple[int, int], float] = {}
    errors: list[str] = []
    acks: list[float] = []
    finished = 0
    for report in reports:
        result = report["result"]
        sent.update({(g, n): t for g, n, t in result["sent"]})
        received.update({(g, n): t for g, n, t in result["received"]})
        errors += result["errors"]
        acks += result["acks"]
        finished += result["games_finished"]
    in_window = [key for key, t in sent.items() if any(a <= t < b for a, b in windows)]
    delivered = [key for key in in_window if key in received]
    trips = [(received[key] - sent[key]) * 1000 for key in delivered]
    lost = len(in_window) - len(delivered)
    return {
        "moves_sent": len(in_window),
        "moves_delivered": len(delivered),
        "moves_lost": lost,
        "moves_per_s": round(len(delivered) / sum(b - a for a, b in windows), 1),
        "rtt_ms": {"p50": _ms(percentile(trips, 0.5)), "p99": _ms(percentile(trips, 0.99)),
                   "max": _ms(max(trips) if trips else None)},
        "ack_ms_p50": _ms(percentile([a * 1000 for a in acks], 0.5)),
        "errors": len(errors) + lost,
        "error_samples": errors[:5],
        "games_finished": finished,
        "_trips": trips,
        "_sent_times": [sent[k] for k in delivered],
    }


def _join_computer(reports: list[dict], start: float, end: float) -> dict[str, Any]:
    """Per level: from the acknowledgement of each player's move sent in the window to the
    computer's stone that answered it; how many came later than the level's backstop + 1 s,
    and how many never came (within the drain) though the game went on."""
    from gobang.ai.levels import LEVELS

    acked: dict[tuple[int, int], tuple[float, int]] = {}
    replies: dict[tuple[int, int], tuple[float, bool]] = {}
    ended: set[tuple[int, int]] = set()
    errors: list[str] = []
    totals = {"refused_busy": 0, "games_started": 0, "games_finished": 0, "openings": 0}
    for report in reports:
        result = report["result"]
        acked.update({(g, n): (t, level) for g, n, t, level in result["acked"]})
        replies.update({(g, n): (t, first) for g, n, t, _level, first in result["replies"]})
        ended.update((g, n) for g, n in result["ended"])
        errors += result["errors"]
        for key in totals:
            totals[key] += result[key]
    trips: dict[int, list[tuple[float, bool]]] = {}
    unanswered: dict[int, int] = {}
    for (game, number), (when, level) in acked.items():
        if not start <= when < end:
            continue
        reply = replies.get((game, number + 1))
        if reply is not None:
            trips.setdefault(level, []).append(((reply[0] - when) * 1000, reply[1]))
        elif (game, number) not in ended:
            unanswered[level] = unanswered.get(level, 0) + 1
    per_level = {}
    for level in sorted(set(trips) | set(unanswered)):
        backstop = LEVELS[level].seconds
        times = [ms for ms, _first in trips.get(level, [])]
        firsts = [ms for ms, first in trips.get(level, []) if first]
        per_level[str(level)] = {
            "backstop_s": backstop, "replies": len(times),
            "reply_ms": _spread(times),
            # The game's first reply includes starting its engine process.
            "first_reply_ms": {"replies": len(firsts), **_spread(firsts)},
            "later_than_backstop_plus_1s": sum(1 for ms in times
                                               if ms > (backstop + 1) * 1000),
            "unanswered": unanswered.get(level, 0),
        }
    return {**totals, "per_level": per_level, "errors": len(errors),
            "error_samples": errors[:5]}


def _spread(values: list[float]) -> dict[str, float | None]:
    return {"p50": _ms(percentile(values, 0.5)), "p99": _ms(percentile(values, 0.99)),
            "max": _ms(max(values) if values else None)}


def _join_bursts(bursts: list[dict], reports: list[dict], start: float) -> dict[str, Any]:
    begin = min(b["started_at"] for b in bursts)
    end = max(b["started_at"] + (b["last_s"] or 0) for b in bursts)
    return {"logins": sum(b["logins"] for b in bursts), "ok": sum(b["ok"] for b in bursts),
            "failed": sum(b["failed"] for b in bursts),
            "all_done_s": round(end - begin, 2), "from_s": round(begin - start, 2)}


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


# --- scenarios ------------------------------------------------------------------------------

def games_pair(args, games: int, duration: float, every: float, workers: int,
               env: dict[str, str] | None = None, app_kw: dict[str, Any] | None = None,
               **kw) -> dict[str, Any]:
    """The same load against the relay, then against Gobang; ratios app/relay. `app_kw`:
    more of run_games' options, for Gobang only (the relay has no computer to play)."""
    out: dict[str, Any] = {}
    kinds = ["relay", "app"] if not args.no_relay else ["app"]
    kinds = getattr(args, "kinds", None) or kinds
    for kind in kinds:
        server = start_server(kind, args, {**FAST_HASH, **GAME_ENV, **(env or {})})
        try:
            try:
                report = run_games(server, games, duration, every, workers, **kw,
                                   **((app_kw or {}) if kind == "app" else {}),
                                   lean=args.client == "lean")
            except Exception:
                _keep_log(server)
                raise
            report["server_log_tracebacks"] = server.log().count("Traceback")
            if kind == "cluster":
                report["processes"] = args.processes
                report["process_rss_mb"] = [round(r / 2**20, 1) for r in server.rss_each()]
        finally:
            server.stop()
        report.pop("_trips")
        report.pop("_sent_times")
        out[kind] = report
    # The target's comparison is with one process as deployed (docs/deploy.md): behind nginx,
    # on PostgreSQL ("app-nginx"); "app" alone (no nginx, SQLite) is the one reported before.
    for baseline, key in (("app-nginx", "cluster_minus_single_rtt_ms"),
                          ("app", "cluster_minus_direct_rtt_ms")):
        if "cluster" in out and baseline in out and out[baseline]["rtt_ms"]["p50"] is not None:
            out[key] = {q: round(out["cluster"]["rtt_ms"][q] - out[baseline]["rtt_ms"][q], 2)
                        for q in ("p50", "p99")}
    return _with_ratios(out)


def _keep_log(server) -> None:
    """A failed run's server logs outlive the server's temporary directory."""
    kept = Path(tempfile.mkdtemp(prefix="gobang-bench-failed-")) / "server.log"
    kept.write_text(server.log())
    print(f"bench: the server's log is kept in {kept}", file=sys.stderr)


def _with_ratios(out: dict[str, Any]) -> dict[str, Any]:
    if "relay" in out and "app" in out and out["relay"]["moves_per_s"]:
        out["ratio_moves_per_s"] = round(out["app"]["moves_per_s"]
                                         / out["relay"]["moves_per_s"], 2)
        relay_p50 = out["relay"]["rtt_ms"]["p50"]
        if relay_p50:
            out["ratio_rtt_p50"] = round(out["app"]["rtt_ms"]["p50"] / relay_p50, 2)
    return out


def games_in_turns(args, games: int, duration: float, workers: int) -> dict[str, Any]:
    """The relay and Gobang both up, playing closed-loop games in turns (`run_in_turns`),
    `duration` seconds of play each over `args.rounds` turns."""
    env = {**FAST_HASH, **GAME_ENV}
    servers = []
    try:
        for kind in ("relay", "app"):
            servers.append(start_server(kind, args, env))
        out = run_in_turns(servers, games, duration / args.rounds, args.rounds, workers)
        for server in servers:
            out[server.kind]["server_log_tracebacks"] = server.log().count("Traceback")
    finally:
        for server in servers:
            server.stop()
    return _with_ratios(out)


def start_server(kind: str, args, env: dict[str, str]):
    """kind "app" or "relay": one process; "app-nginx": one process behind nginx on
    PostgreSQL; "cluster": --processes processes behind nginx."""
    if getattr(args, "ping_interval", None):
        env = {**env, "GOBANG_SOCKETIO_PING_INTERVAL": str(args.ping_interval)}
    if kind == "app-nginx":
        from bench.cluster import ProxiedServer

        return ProxiedServer(lambda more: Server("app", {**env, **more})).start()
    if kind == "cluster":
        from bench.cluster import ClusterServer

        # Each client's websocket holds two of nginx's connections (client and upstream).
        clients = max(getattr(args, name, None) or 0 for name in ("connections", "players"))
        clients = max(clients, 2 * (getattr(args, "games", None) or 0))
        return ClusterServer(args.processes, env,
                             worker_connections=2 * clients + 1024).start()
    return Server(kind, env).start()


def start_app(args, env: dict[str, str]):
    """The Gobang server a scenario measures: one process, or --processes behind nginx."""
    return start_server("cluster" if clustered(args) else "app", args, env)


def traceback_samples(log: str, most: int = 3) -> list[str]:
    """For each traceback in a server's log, the line logged before it and the exception it
    ended with: where to start looking, kept in the report after the log is gone."""
    lines = log.splitlines()
    found = []
    for at, line in enumerate(lines):
        if line.startswith("Traceback"):
            before = lines[at - 1] if at else ""
            ended = next((x for x in lines[at + 1:] if x and not x[0].isspace()), "")
            found.append(f"{before[-200:]} | {ended[:200]}")
    return found[:most]


def clustered(args) -> bool:
    return (getattr(args, "processes", None) or 1) >= 2


def scenario_single(args) -> dict[str, Any]:
    if clustered(args):
        # Through nginx to several processes, against one process in the same run: behind
        # the same nginx on the same PostgreSQL (the fair comparison), and alone on SQLite.
        args.kinds = ["app", "app-nginx", "cluster"]
    return games_pair(args, 1, args.duration or 10, 0.0, 1, drain=args.drain)


def scenario_throughput(args) -> dict[str, Any]:
    if clustered(args):
        args.kinds = ["cluster"]
    elif args.rounds and not args.no_relay:
        return games_in_turns(args, args.games or 100, args.duration or 20, args.workers or 1)
    return games_pair(args, args.games or 100, args.duration or 20, 0.0, args.workers or 1)


def scenario_thousand(args) -> dict[str, Any]:
    if clustered(args):
        args.kinds = ["cluster"]
    return games_pair(args, args.games or 1000, args.duration or 60, args.every or 2.0,
                      args.workers or 2, batch=50)


def scenario_soak(args) -> dict[str, Any]:
    return games_pair(args, args.games or 200, args.duration or 600, args.every or 1.0,
                      args.workers or 1, samples=5)


def scenario_login_burst(args) -> dict[str, Any]:
    """Games in play while 50 users log in at once at the default argon2id cost."""
    duration = args.duration or 20
    args.no_relay = True
    server = Server("app", GAME_ENV).start()  # no FAST_HASH: the default argon2id cost
    try:
        report = run_games(server, args.games or 100, duration, args.every or 1.0,
                           args.workers or 1, login_burst=args.logins or 50,
                           burst_at=duration / 3)
        report["server_log_tracebacks"] = server.log().count("Traceback")
    finally:
        server.stop()
    burst = report["login_burst"]
    begin = report.pop("_sent_times")
    trips = report.pop("_trips")
    # Moves sent while the logins were being hashed, and the rest, separately.
    start = min(begin) if begin else 0
    window = (start + burst["from_s"] - 0.5, start + burst["from_s"] + burst["all_done_s"] + 0.5)
    during = [t for t, s in zip(trips, begin, strict=True) if window[0] <= s <= window[1]]
    report["rtt_ms_during_burst"] = {"moves": len(during),
                                     "p50": _ms(percentile(during, 0.5)),
                                     "p99": _ms(percentile(during, 0.99)),
                                     "max": _ms(max(during) if during else None)}
    return {"app": report}


def scenario_computer(args) -> dict[str, Any]:
    """Issue 16's load: --computer-games players play the computer, each answering every
    computer move at once, while --games human games play at --every seconds a move per
    player. The server gets COMPUTER_WORKERS = --computer-workers (default: its own default,
    cores - 1), enough games per worker that the count cap admits every computer game (unless
    --computer-per-worker says otherwise) and its own COMPUTER_THINK_SECONDS unless
    --computer-think-seconds is given; the load formula (docs/engines.md, "Capacity") may
    refuse some games as busy, and they are counted. The relay, which has no computer, plays
    the human games only."""
    from gobang.ai.levels import LEVELS

    levels = _levels(args.computer_level or "8", LEVELS)
    against = 20 if args.computer_games is None else args.computer_games
    workers = args.computer_workers or max(1, (os.cpu_count() or 2) - 1)
    per_worker = args.computer_per_worker or max(1, -(-against // workers))
    env = {"GOBANG_COMPUTER_WORKERS": str(workers),
           "GOBANG_COMPUTER_GAMES_PER_WORKER": str(per_worker), "GOBANG_COMPUTER_NICE": "10"}
    if args.computer_think_seconds is not None:
        env["GOBANG_COMPUTER_THINK_SECONDS"] = str(args.computer_think_seconds)
    # Long enough after the end for a reply later than backstop + 1 s to be measured, not
    # counted as never answered.
    drain = max(args.drain, max(LEVELS[n].seconds for n in levels) + 4.0)
    out = games_pair(args, 100 if args.games is None else args.games, args.duration or 60,
                     args.every or 1.0, args.workers or 1, env=env, samples=5,
                     app_kw={"computer_games": against, "levels": levels,
                             "computer_drain": drain})
    out["app"]["computer"]["settings"] = {**env, "ruleset": "freestyle"}
    return out


def scenario_analysis(args) -> dict[str, Any]:
    """Human games while --analyses analyses run beside them all along (bench/
    analysis_load.py); the server runs that many analysis workers."""
    from bench.analysis_load import Beside

    args.no_relay = True
    pairs = args.analyses or 4
    env = {"GOBANG_ANALYSIS_WORKERS": str(pairs)}
    beside = Beside(pairs, args.analysis_moves or 40)
    out = games_pair(args, 100 if args.games is None else args.games, args.duration or 60,
                     args.every or 1.0, args.workers or 1, env=env, samples=5,
                     app_kw={"beside": beside})
    out["app"]["analyses"]["settings"] = {**env, "moves_per_game": beside.moves}
    return out


def _levels(text: str, known: dict[int, Any]) -> tuple[int, ...]:
    """"8" or "1,8": the computer's levels, given to the players in turn."""
    try:
        levels = tuple(int(part) for part in text.split(","))
    except ValueError:
        levels = ()
    if not levels or any(n not in known for n in levels):
        raise SystemExit(f"--computer-level: levels from {min(known)} to {max(known)}, "
                         f"comma-separated, not {text!r}")
    return levels


SCENARIOS = {
    "single": scenario_single,
    "throughput": scenario_throughput,
    "thousand": scenario_thousand,
    "login-burst": scenario_login_burst,
    "soak": scenario_soak,
    "computer": scenario_computer,
    "analysis": scenario_analysis,
}


def machine() -> dict[str, Any]:
    return {"date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "cpus": os.cpu_count(), "memory_gb": round(psutil.virtual_memory().total / 2**30),
            "python": platform.python_version(), "kernel": platform.release(),
            # Other work on the machine competes for its 2 cores: read figures with this.
            "loadavg_1m_at_start": round(os.getloadavg()[0], 2)}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", required=True,
                        choices=sorted(SCENARIOS) + ["arena", "idle", "matching"])
    parser.add_argument("--duration", type=float, help="seconds of measured play")
    parser.add_argument("--games", type=int)
    parser.add_argument("--every", type=float,
                        help="seconds between one player's moves; arena: the longest think "
                             "before a move (a think is --every/2 to --every, default 1)")
    parser.add_argument("--workers", type=int, help="bench processes")
    parser.add_argument("--connections", type=int, help="idle: hall connections")
    parser.add_argument("--players", type=int,
                        help="matching: queued players; arena: its players (default 200)")
    parser.add_argument("--namespace", choices=["/hall", "/room"],
                        help="idle: where the connections wait (default /hall)")
    parser.add_argument("--rate", type=float,
                        help="idle, matching: new hall connections per second (0: at once)")
    parser.add_argument("--logins", type=int, help="login-burst: users logging in at once")
    parser.add_argument("--computer-games", type=int,
                        help="computer: players each playing the computer (default 20)")
    parser.add_argument("--computer-level",
                        help="computer: its level, or levels given in turn: 8 or 1,8 "
                             "(default 8)")
    parser.add_argument("--computer-workers", type=int,
                        help="computer: the server's COMPUTER_WORKERS (default cores - 1)")
    parser.add_argument("--computer-per-worker", type=int,
                        help="computer: the server's COMPUTER_GAMES_PER_WORKER (default: "
                             "enough for every computer game)")
    parser.add_argument("--computer-think-seconds", type=float,
                        help="computer: the server's COMPUTER_THINK_SECONDS, the players' "
                             "expected thinking per move in its capacity formula (default: "
                             "the server's own, 8)")
    parser.add_argument("--analyses", type=int,
                        help="analysis: analyses at once beside the games (default 4)")
    parser.add_argument("--analysis-moves", type=int,
                        help="analysis: moves in each analysed game (default 40)")
    parser.add_argument("--no-relay", action="store_true", help="skip the relay baseline")
    parser.add_argument("--rounds", type=int, default=5,
                        help="throughput: the relay and Gobang take turns, this many each, "
                             "sharing --duration (0: one whole run after the other)")
    parser.add_argument("--processes", type=int, default=1,
                        help="2 or more: a cluster (PostgreSQL, Redis, nginx; see "
                             "bench/cluster.py) for single, throughput, thousand, idle, "
                             "matching, arena")
    parser.add_argument("--drain", type=float, default=DRAIN_SECONDS,
                        help="seconds after the end for the last moves to arrive")
    parser.add_argument("--settle", type=float, default=0,
                        help="idle: seconds of quiet before comparing every client's hall "
                             "view with the server's (default 10)")
    parser.add_argument("--changes-per-second", type=float, default=0,
                        help="idle: after the hold, this many hall status changes a second "
                             "(players queueing and leaving the queue)")
    parser.add_argument("--churn", type=float, default=60,
                        help="idle: seconds the status changes go on")
    parser.add_argument("--churn-period", type=float, default=4.0,
                        help="idle: seconds between one changer's queueing and the next")
    parser.add_argument("--games-apart", action="store_true",
                        help="matching: the --games play on a second server of their own "
                             "(the control: what the burst costs them through the machine "
                             "alone)")
    parser.add_argument("--client", choices=["socketio", "lean"], default="socketio",
                        help="the players' Socket.IO client: python-socketio's AsyncClient, "
                             "or bench/lean_client.py's (less of a shared machine's CPU)")
    parser.add_argument("--ping-interval", type=int,
                        help="the servers' GOBANG_SOCKETIO_PING_INTERVAL (seconds; default "
                             "config.py's)")
    parser.add_argument("--deflate", action="store_true",
                        help="the hall's clients offer permessage-deflate, as browsers do")
    parser.add_argument("--json", type=Path, help="append the report as one JSON line")
    args = parser.parse_args(argv)
    if args.deflate:
        os.environ[DEFLATE_ENV] = "1"
    if clustered(args) and argv is None:
        from bench.cluster import under_postgres

        under_postgres([str(Path(__file__).resolve()), *sys.argv[1:]])
    runner = dict(SCENARIOS)
    if args.scenario in ("idle", "matching"):
        from bench.hall_load import scenario_idle, scenario_matching

        runner.update({"idle": scenario_idle, "matching": scenario_matching})
    if args.scenario == "arena":
        from bench.arena_load import scenario_arena

        runner["arena"] = scenario_arena
    return emit("bench/load.py", args.scenario, argv, args.json, runner[args.scenario](args))


def emit(script: str, scenario: str, argv: list[str] | None, path: Path | None,
         figures: dict[str, Any]) -> dict[str, Any]:
    """A bench's report: printed as one JSON line, and appended to `path` if given."""
    report = {"scenario": scenario, "command": " ".join([script] + (
        argv if argv is not None else sys.argv[1:])), "machine": machine(), **figures}
    text = json.dumps(report)
    print(text)
    if path:
        with path.open("a") as handle:
            handle.write(text + "\n")
    return report


if __name__ == "__main__":
    main()
