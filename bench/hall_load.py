"""Hall scenarios for bench/load.py: thousands of hall connections, and a crowd matched at once.

Both use HallIdler (bench/players.py), a minimal client of the same wire protocol, so that two
bench processes can hold thousands of connections on a shared machine.

How `idle` measures freshness: every idler keeps its copy of the hall view from `hello` and
`hall_update` (as the page does) and notes when it reached its current seq. Once the hall has
been quiet for a while, each bench process asks the server for its view (`hall_view`, a request
that changes nothing) and compares every idler's copy with it, content and seq. An idler's
freshness is the time from the last change (the last arrival's connection, or the last status
change of the churn phase, as answered) until its copy reached the server's final seq; an idler
whose copy differs is counted stale. This needs no extra endpoint on the server and checks the
content, not only the count of updates.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing as mp
import sqlite3
import sys
import threading
import time
from collections import Counter
from typing import Any

import psutil

from bench.load import (
    FAST_HASH,
    Server,
    _gather_limited,
    _ms,
    _wait_all,
    clustered,
    start_app,
    traceback_samples,
)
from bench.players import HallIdler, login, new_http, percentile, view_digest

# Churn: each changer queues and leaves the queue in turn. Their scores are far apart (and at
# the top of the hall's list, so each change shows in the view) so the matcher never pairs
# them: the allowed gap reaches 1,000 only after 19 s in the queue.
CHANGER_SCORE, CHANGER_SCORE_STEP = 3000, 1000


def _worker(kind: str, url: str, index: int, count: int, commands: mp.Queue,
            results: mp.Queue, rate: float, namespace: str) -> None:
    try:
        asyncio.run(_HALL_WORKERS[kind](url, index, count, commands, results, rate,
                                        namespace))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent
        results.put({"index": index, "fatal": f"{type(exc).__name__}: {exc}"})


async def _command(commands: mp.Queue) -> dict[str, Any]:
    return await asyncio.get_running_loop().run_in_executor(None, commands.get)


async def _register(http, url: str, index: int, count: int) -> list[str]:
    names = [f"h{index}x{i}" for i in range(count)]
    return await _gather_limited([login(http, url, name) for name in names], 16)


async def _connect_checked(http, url: str, cookies: list[str], rate: float = 0.0,
                           namespace: str = "/hall") -> tuple[list[HallIdler], list[str], int]:
    """Connect every cookie's player to the namespace, at most `rate` new connections a
    second (0: as fast as 50 at a time allow). A connection refused as `unavailable` is tried
    again a second later, as the pages do, at most UNAVAILABLE_TRIES times. Returns the
    idlers, the failures, and how many tries were such retries."""
    idlers = [HallIdler(http, url, cookie, namespace) for cookie in cookies]
    start = time.monotonic()

    async def one(number: int) -> tuple[str | None, int]:
        if rate:
            await asyncio.sleep(max(0.0, start + number / rate - time.monotonic()))
        for tries in range(UNAVAILABLE_TRIES):
            try:
                await idlers[number].connect()
                return None, tries
            except Exception as exc:  # noqa: BLE001 - counted as an error
                failure = f"{type(exc).__name__}: {exc}"
            if '"unavailable"' not in failure:
                return failure, tries
            idlers[number] = HallIdler(http, url, cookies[number], namespace)
            await asyncio.sleep(1.0)
        return failure, UNAVAILABLE_TRIES - 1

    outcomes = await _gather_limited([one(n) for n in range(len(idlers))], 50)
    return idlers, [f for f, _ in outcomes if f], sum(tries for _, tries in outcomes)


async def _idle(url: str, index: int, count: int, commands: mp.Queue,
                results: mp.Queue, rate: float, namespace: str) -> None:
    async with new_http() as http:
        cookies = await _register(http, url, index, count)
        results.put({"index": index, "registered": len(cookies)})
        await _command(commands)
        start = time.monotonic()
        idlers, failures, retries = await _connect_checked(http, url, cookies, rate, namespace)
        results.put({"index": index, "connected": len(idlers) - len(failures),
                     "unavailable_retries": retries,
                     "connect_s": time.monotonic() - start, "failures": failures[:5],
                     "failed": len(failures),
                     "last_connected_at": max((i.connected_at for i in idlers), default=0.0),
                     "hello_bytes": max((i.hello_bytes for i in idlers), default=0)})
        while (command := await _command(commands))["go"] != "close":
            if command["go"] == "measure":
                results.put({"index": index, "measured": await _measure(
                    idlers, command["last_change"])})
            elif command["go"] == "churn":
                # Only the changers given their far-apart scores, and still connected.
                changers = [i for i in idlers[:command["changers"]] if i.open]
                results.put({"index": index, "churned": await _churn(
                    changers, command["period"], command["duration"])})
        still = sum(1 for i in idlers if i.open)
        messages = sum(i.messages for i in idlers)
        reasons = Counter(i.closed_reason for i in idlers if not i.open)
        results.put({"index": index, "result": {"open": still, "messages": messages,
                                                "closed": dict(reasons.most_common(3))}})
        await asyncio.gather(*(i.close() for i in idlers), return_exceptions=True)


async def _measure(idlers: list[HallIdler], last_change: float) -> dict[str, Any]:
    """Each open idler's copy against the server's view: seconds from the last change until
    it reached the server's seq, or None when its copy is not the server's."""
    observer = next(i for i in idlers if i.open)
    answer = await observer.call("hall_view", {})
    if not answer.get("ok"):  # an older build: no view to compare
        return {"seq": None, "counts": None, "fresh": [None for i in idlers if i.open],
                "resyncs": 0}
    server_view = answer["view"]
    expected = view_digest(server_view)
    fresh: list[float | None] = []
    for idler in idlers:
        if not idler.open:
            continue
        if idler.view.digest() == expected:
            fresh.append(max(0.0, idler.view.reached_at - last_change))
        else:
            fresh.append(None)
    return {"seq": server_view["seq"], "counts": server_view["counts"], "fresh": fresh,
            "resyncs": sum(i.resyncs for i in idlers),
            "resync_failures": sum(i.resync_failures for i in idlers)}


async def _churn(changers: list[HallIdler], period: float, duration: float) -> dict[str, Any]:
    """Each changer queues, then leaves the queue, every `period` seconds: two status changes."""
    changes, errors, last = 0, [], 0.0
    end = time.monotonic() + duration

    async def one(number: int, idler: HallIdler) -> None:
        nonlocal changes, last
        # On a fixed schedule, not a pause after each answer: slow answers do not slow the rate.
        due = time.monotonic() + period * number / max(len(changers), 1)
        while due < end and idler.open:
            for event in ("start_match", "cancel_match"):
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                due += period / 2
                try:
                    answer = await idler.call(event, {})
                except Exception as exc:  # noqa: BLE001 - a closed connection is counted
                    errors.append(f"{type(exc).__name__}: {exc} ({idler.closed_reason})")
                    return
                if answer.get("ok"):
                    changes += 1
                    last = max(last, time.monotonic())
                else:
                    errors.append(str(answer)[:120])

    await asyncio.gather(*(one(n, i) for n, i in enumerate(changers)))
    return {"changers": len(changers), "changes": changes, "last_change_at": last,
            "errors": errors[:3], "error_count": len(errors)}


async def _matching(url: str, index: int, count: int, commands: mp.Queue,
                    results: mp.Queue, rate: float, namespace: str) -> None:
    async with new_http() as http:
        cookies = await _register(http, url, index, count)
        idlers, failures, _retries = await _connect_checked(http, url, cookies, rate)
        results.put({"index": index, "registered": len(cookies), "failed": len(failures)})
        await _command(commands)
        found = [i.expect("match_found") for i in idlers]
        acked: list[float] = []
        errors: list[str] = []

        async def join(idler: HallIdler) -> None:
            answer = await idler.call("start_match", {})
            acked.append(time.monotonic())
            if not answer.get("ok"):
                errors.append(str(answer))

        async def leave_when_matched(idler: HallIdler, future: asyncio.Future) -> dict:
            match = await asyncio.wait_for(future, 60)
            # As the browser does: it leaves the hall page for the game.
            await idler.close()
            return match

        sent = time.monotonic()
        waits = [asyncio.ensure_future(leave_when_matched(i, f)) for i, f in zip(
            idlers, found, strict=True)]
        await asyncio.gather(*(join(i) for i in idlers), return_exceptions=True)
        matches = await asyncio.gather(*waits, return_exceptions=True)
        games = [m["game_id"] for m in matches if isinstance(m, dict)]
        errors += [f"{type(m).__name__}: {m}" for m in matches if not isinstance(m, dict)]
        results.put({"index": index, "result": {
            "sent": sent, "acked": acked, "matched_at": [i.seen_at.get("match_found")
                                                         for i in idlers],
            "games": games, "errors": errors[:5], "error_count": len(errors)}})
        await asyncio.gather(*(i.close() for i in idlers), return_exceptions=True)


_HALL_WORKERS = {"idle": _idle, "matching": _matching}
# How often a connection refused as `unavailable` is tried (the pages never stop trying).
UNAVAILABLE_TRIES = 10


def _start_workers(kind: str, url: str, total: int, workers: int, rate: float = 0.0,
                   namespace: str = "/hall"):
    context = mp.get_context("fork")
    results: mp.Queue = context.Queue()
    shares = [total // workers + (1 if i < total % workers else 0) for i in range(workers)]
    commands = [context.Queue() for _ in shares]
    processes = [context.Process(target=_worker, daemon=True,
                                 args=(kind, url, i, n, commands[i], results, rate / workers,
                                       namespace))
                 for i, n in enumerate(shares)]
    for process in processes:
        process.start()
    return results, commands, processes


def _finish(processes) -> None:
    for process in processes:
        process.join(timeout=60)
        if process.is_alive():
            process.kill()


def scenario_idle(args) -> dict[str, Any]:
    """N hall connections arriving at `rate` a second into one server process: how fresh every
    client's copy of the hall view is after the last arrival, memory per connection, hello's
    size, dropped connections; then (--changes-per-second) status changes sustained for
    --churn seconds: freshness after the last change, and the server's CPU meanwhile."""
    total = args.connections or 5000
    hold = args.duration or 30
    namespace = args.namespace or "/hall"
    workers = args.workers or 2
    settle = args.settle or 10
    server = start_app(args, FAST_HASH)
    try:
        results, commands, processes = _start_workers("idle", server.url, total, workers,
                                                      args.rate or 0.0, namespace)
        try:
            _wait_all(results, len(commands), "registered", timeout=900)
            changers = _changers(args, workers)
            _give_changers_scores(server, changers, workers)
            time.sleep(2)
            rss_before = server.rss()
            cpu_before, connect_started = server.cpu_seconds(), time.monotonic()
            for queue in commands:
                queue.put({"go": "connect"})
            connected = _wait_all(results, len(commands), "connected", timeout=1800)
            arrivals_cpu = ((server.cpu_seconds() - cpu_before)
                            / max(time.monotonic() - connect_started, 1e-9))
            last_arrival = max(c["last_connected_at"] for c in connected)
            time.sleep(settle)
            arrivals = _measure_all(results, commands, last_arrival)
            # Progress, should a later phase fail.
            print("after arrivals:", json.dumps(arrivals), file=sys.stderr, flush=True)
            rss_connected = server.rss()
            rss_each = server.rss_each() if clustered(args) else []
            samples, quiet_cpu = _hold(server, hold, processes)
            churn = None
            if changers:
                churn = _churn_phase(server, results, commands, changers, args, settle,
                                     processes)
            for queue in commands:
                queue.put({"go": "close"})
            held = _wait_all(results, len(commands), "result", timeout=600)
        finally:
            _finish(processes)
        log = server.log()
    finally:
        server.stop()
    tracebacks = log.count("Traceback")
    ok = sum(c["connected"] for c in connected)
    still_open = sum(h["result"]["open"] for h in held)
    growth = rss_connected - rss_before
    each = {"processes": args.processes,
            "process_rss_mb": [_mb(r) for r in rss_each]} if clustered(args) else {}
    return {"app": {**each,
        "namespace": namespace, "connections": total, "connected": ok, "rate": args.rate,
        "still_open_at_end": still_open, "hold_s": hold,
        "connect_s": round(max(c["connect_s"] for c in connected), 1),
        "unavailable_retries": sum(c["unavailable_retries"] for c in connected),
        "errors": (total - ok) + (ok - still_open),
        "error_samples": [f for c in connected for f in c["failures"]][:3]
        + [h["result"]["closed"] for h in held if h["result"]["closed"]][:2],
        "hello_bytes_max": max(c["hello_bytes"] for c in connected),
        "after_arrivals": arrivals,
        "after_churn": churn,
        "server_rss_mb": {"before": _mb(rss_before), "connected": _mb(rss_connected),
                          "samples": [_mb(s) for s in samples]},
        "kb_per_connection": round(growth / max(ok, 1) / 1024, 1),
        "arrivals_server_cpu_cores": round(arrivals_cpu, 3),
        "quiet_hold_server_cpu_cores": quiet_cpu["server"],
        "quiet_hold_bench_cpu_cores": quiet_cpu["bench"],
        "quiet_hold_machine_cpu_cores": quiet_cpu["machine"],
        "messages_received": sum(h["result"]["messages"] for h in held),
        "bench_processes": len(commands), "server_log_tracebacks": tracebacks,
        "server_log_traceback_samples": traceback_samples(log),
    }}


def _changers(args, workers: int) -> int:
    """Changers per bench process for --changes-per-second (each makes two changes a period)."""
    if not args.changes_per_second:
        return 0
    return max(1, round(args.changes_per_second * args.churn_period / 2 / workers))


def _give_changers_scores(server: Server, per_worker: int, workers: int) -> None:
    """Scores set in the database before anyone connects (what a session reads on connect)."""
    if not per_worker:
        return
    names = [f"h{w}x{i}" for w in range(workers) for i in range(per_worker)]
    if hasattr(server, "query"):  # several processes: PostgreSQL
        server.query("UPDATE users SET score = :score WHERE username = :name", [
            {"score": CHANGER_SCORE + CHANGER_SCORE_STEP * n, "name": name}
            for n, name in enumerate(names)])
        return
    with sqlite3.connect(server.workdir / "gobang.sqlite3") as database:
        database.executemany("UPDATE users SET score = ? WHERE username = ?", [
            (CHANGER_SCORE + CHANGER_SCORE_STEP * n, name) for n, name in enumerate(names)])


def _hold(server: Server, hold: float, processes) -> tuple[list[int], dict[str, float]]:
    """RSS samples while the hall is quiet, and the CPU (cores) meanwhile of the servers, the
    bench and the whole machine: pings, leases; what the churn's figures are compared with."""
    started = time.monotonic()
    before = (server.cpu_seconds(), _bench_cpu_seconds(processes), _machine_busy_seconds())
    samples = [server.rss()]
    end = started + hold
    while time.monotonic() < end:
        time.sleep(min(5.0, max(0.0, end - time.monotonic())))
        samples.append(server.rss())
    after = (server.cpu_seconds(), _bench_cpu_seconds(processes), _machine_busy_seconds())
    elapsed = max(time.monotonic() - started, 1e-9)
    names = ("server", "bench", "machine")
    return samples, {name: round((b - a) / elapsed, 3)
                     for name, a, b in zip(names, before, after, strict=True)}


def _bench_cpu_seconds(processes) -> float:
    """CPU seconds the bench's own processes used so far: the clients share the machine."""
    return sum(sum(psutil.Process(p.pid).cpu_times()[:2]) for p in processes)


def _machine_busy_seconds() -> float:
    """CPU seconds the whole machine spent busy so far: the servers and the bench, and nginx,
    Redis and PostgreSQL beside them (not what the hypervisor took: steal)."""
    times = psutil.cpu_times()
    idle = times.idle + getattr(times, "iowait", 0.0) + getattr(times, "steal", 0.0)
    return sum(times) - idle


def _churn_phase(server: Server, results, commands, changers: int, args,
                 settle: float, processes) -> dict[str, Any]:
    cpu_before, started = server.cpu_seconds(), time.monotonic()
    bench_before, machine_before = _bench_cpu_seconds(processes), _machine_busy_seconds()
    for queue in commands:
        queue.put({"go": "churn", "changers": changers, "period": args.churn_period,
                   "duration": args.churn})
    churned = _wait_all(results, len(commands), "churned", timeout=args.churn + 600)
    elapsed = time.monotonic() - started
    cpu = server.cpu_seconds() - cpu_before
    bench_cpu = _bench_cpu_seconds(processes) - bench_before
    machine_cpu = _machine_busy_seconds() - machine_before
    last_change = max(c["churned"]["last_change_at"] for c in churned)
    time.sleep(settle)
    changes = sum(c["churned"]["changes"] for c in churned)
    return {"changers": sum(c["churned"]["changers"] for c in churned),
            "seconds": round(elapsed, 1),
            "changes": changes, "changes_per_s": round(changes / elapsed, 1),
            "server_cpu_cores": round(cpu / elapsed, 3),
            "bench_cpu_cores": round(bench_cpu / elapsed, 3),
            "machine_cpu_cores": round(machine_cpu / elapsed, 3),
            "errors": sum(c["churned"]["error_count"] for c in churned),
            "error_samples": [e for c in churned for e in c["churned"]["errors"]][:3],
            **_measure_all(results, commands, last_change)}


def _measure_all(results, commands, last_change: float) -> dict[str, Any]:
    for queue in commands:
        queue.put({"go": "measure", "last_change": last_change})
    measured = [m["measured"] for m in _wait_all(results, len(commands), "measured", 600)]
    fresh = [f for m in measured for f in m["fresh"]]
    times = [f for f in fresh if f is not None]
    return {"server_seq": sorted({m["seq"] for m in measured if m["seq"] is not None}),
            "counts": measured[0]["counts"],
            "clients_checked": len(fresh), "clients_matching": len(times),
            "clients_stale": len(fresh) - len(times),
            "resyncs": sum(m["resyncs"] for m in measured),
            "resync_failures": sum(m.get("resync_failures", 0) for m in measured),
            "freshness_s": {"p50": _s(percentile(times, 0.5)), "p99": _s(percentile(times, 0.99)),
                            "max": _s(max(times) if times else None)}}


def scenario_matching(args) -> dict[str, Any]:
    """N players in the hall press Match at once: how long after the last one is queued
    until every one of them has its `match_found`."""
    total = args.players or 1000
    workers = args.workers or 2
    server = start_app(args, FAST_HASH)
    # The control: the games on a server of their own, so that only the machine (the bench's
    # clients and the crowd's server on the same cores) is shared with the burst.
    apart = start_app(args, FAST_HASH) if args.games and args.games_apart else None
    in_play: dict[str, Any] = {}
    several: dict[str, Any] = {}
    try:
        results, commands, processes = _start_workers("matching", server.url, total, workers,
                                                      args.rate or 0.0)
        try:
            ready = _wait_all(results, len(commands), "registered", timeout=900)
            games = _games_in_play(apart or server, args.games, args.every or 1.0, in_play)
            time.sleep(3)  # the arrivals settle
            cpu_before = server.cpu_seconds()
            for queue in commands:
                queue.put({"go": "join"})
            reports = _wait_all(results, len(commands), "result", timeout=300)
            cpu = server.cpu_seconds() - cpu_before
            if games is not None:
                games.join()
        finally:
            _finish(processes)
        tracebacks = server.log().count("Traceback")
        if hasattr(server, "query"):
            # Several matchers' worth of processes: nobody may be in two games.
            several["users_in_two_games"] = len(server.query(
                "SELECT u FROM (SELECT black_id AS u FROM games UNION ALL "
                "SELECT white_id FROM games) AS seated GROUP BY u HAVING count(*) > 1"))
            several["processes"] = args.processes
    finally:
        server.stop()
        if apart is not None:
            apart.stop()
    if apart is not None:
        in_play["on_a_server_of_their_own"] = True
    sent = min(r["result"]["sent"] for r in reports)
    acked = [t for r in reports for t in r["result"]["acked"]]
    matched = [t for r in reports for t in r["result"]["matched_at"] if t is not None]
    games = Counter(g for r in reports for g in r["result"]["games"])
    last_join = max(acked) if acked else None
    last_match = max(matched) if matched else None
    return {"app": {
        "players": total, "connect_failures": sum(r["failed"] for r in ready),
        "queued": len(acked), "matched": len(matched),
        "games": len(games), "games_with_two_players": sum(1 for n in games.values() if n == 2),
        "all_joined_after_s": _s(last_join - sent if last_join else None),
        "last_match_after_last_join_s": _s(last_match - last_join
                                           if last_match and last_join else None),
        "wait_ms": {"p50": _ms(percentile([(m - sent) * 1000 for m in matched], 0.5)),
                    "p99": _ms(percentile([(m - sent) * 1000 for m in matched], 0.99))},
        "errors": sum(r["result"]["error_count"] for r in reports) + (total - len(matched)),
        "error_samples": [e for r in reports for e in r["result"]["errors"]][:3],
        "server_cpu_s": round(cpu, 1), "bench_processes": len(commands),
        "server_log_tracebacks": tracebacks,
        **({"games_in_play": in_play} if in_play else {}),
        **several,
    }}


def _games_in_play(server: Server, games: int | None, every: float,
                   report: dict[str, Any]) -> threading.Thread | None:
    """With --games N: N games play (each player moving every `every` seconds) for a window
    of GAMES_WINDOW_S; the burst of Match presses is sent once they are all moving, in the
    window's first half. Their moves' round trips show whether the burst stalls games."""
    if not games:
        return None
    from bench.load import run_games

    def play() -> None:
        played = run_games(server, games, GAMES_WINDOW_S, every, 1)
        played.pop("_sent_times")
        trips = played.pop("_trips")
        played["moves_over_100ms"] = sum(1 for trip in trips if trip > 100)
        report.update(played)

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    deadline = time.monotonic() + 600
    while _playing(server) < games and time.monotonic() < deadline:
        time.sleep(0.5)
    time.sleep(5)  # into the measured window
    return thread


GAMES_WINDOW_S = 40.0


def _playing(server: Server) -> int:
    import urllib.request

    with urllib.request.urlopen(server.url + "/metrics", timeout=5) as answer:
        text = answer.read().decode()
    for line in text.splitlines():  # the labels: status, then process
        if line.startswith('gobang_live_games{status="playing",'):
            return int(float(line.split()[-1]))
    return 0


def _mb(value: int) -> float:
    return round(value / 2**20, 1)


def _s(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
