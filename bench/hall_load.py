"""Hall scenarios for bench/load.py: thousands of idle connections, and a crowd matched at once.

Both use HallIdler (bench/players.py), a minimal client of the same wire protocol, because
every arrival and every status change in the hall is broadcast to everyone in it: N players
cost N*N messages, which python-socketio's AsyncClient could not absorb on one core.
"""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import re
import time
import urllib.request
from collections import Counter
from typing import Any

from bench.load import FAST_HASH, Server, _gather_limited, _ms, _wait_all
from bench.players import HallIdler, login, new_http, percentile


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
                           namespace: str = "/hall") -> tuple[list[HallIdler], list]:
    """Connect every cookie's player to the namespace, at most `rate` new connections a
    second (0: as fast as 50 at a time allow)."""
    idlers = [HallIdler(http, url, cookie, namespace) for cookie in cookies]
    start = time.monotonic()

    async def one(number: int, idler: HallIdler) -> str | None:
        if rate:
            await asyncio.sleep(max(0.0, start + number / rate - time.monotonic()))
        try:
            await idler.connect()
        except Exception as exc:  # noqa: BLE001 - counted as an error
            return f"{type(exc).__name__}: {exc}"
        return None

    failures = [f for f in await _gather_limited(
        [one(n, i) for n, i in enumerate(idlers)], 50) if f]
    return idlers, failures


async def _idle(url: str, index: int, count: int, commands: mp.Queue,
                results: mp.Queue, rate: float, namespace: str) -> None:
    async with new_http() as http:
        cookies = await _register(http, url, index, count)
        results.put({"index": index, "registered": len(cookies)})
        await _command(commands)
        start = time.monotonic()
        idlers, failures = await _connect_checked(http, url, cookies, rate, namespace)
        results.put({"index": index, "connected": len(idlers) - len(failures),
                     "connect_s": time.monotonic() - start, "failures": failures[:5],
                     "failed": len(failures)})
        await _command(commands)
        still = sum(1 for i in idlers if i.open)
        messages = sum(i.messages for i in idlers)
        reasons = Counter(i.closed_reason for i in idlers if not i.open)
        results.put({"index": index, "result": {"open": still, "messages": messages,
                                                "closed": dict(reasons.most_common(3))}})
        await asyncio.gather(*(i.close() for i in idlers), return_exceptions=True)


async def _matching(url: str, index: int, count: int, commands: mp.Queue,
                    results: mp.Queue, rate: float, namespace: str) -> None:
    async with new_http() as http:
        cookies = await _register(http, url, index, count)
        idlers, failures = await _connect_checked(http, url, cookies, rate)
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
    """N hall connections held by one server process: memory per connection, and whether
    they all stay connected (pings answered) for the holding period."""
    total = args.connections or 5000
    hold = args.duration or 30
    namespace = args.namespace or "/hall"
    workers = args.workers or 2
    server = Server("app", FAST_HASH).start()
    try:
        results, commands, processes = _start_workers("idle", server.url, total, workers,
                                                      args.rate or 0.0, namespace)
        try:
            _wait_all(results, len(commands), "registered", timeout=900)
            time.sleep(2)
            rss_before = server.rss()
            cpu_before = server.cpu_seconds()
            for queue in commands:
                queue.put({"go": "connect"})
            connected = _wait_all(results, len(commands), "connected", timeout=1800)
            time.sleep(10)  # let the last arrivals' broadcasts drain
            rss_connected = server.rss()
            samples = [rss_connected]
            end = time.monotonic() + hold
            while time.monotonic() < end:
                time.sleep(min(5.0, max(0.0, end - time.monotonic())))
                samples.append(server.rss())
            waiting_after_hold = _broadcasts_waiting(server)
            settled_s = _settle(server, args.settle) if args.settle else None
            for queue in commands:
                queue.put({"go": "close"})
            held = _wait_all(results, len(commands), "result", timeout=600)
            cpu = server.cpu_seconds() - cpu_before
        finally:
            _finish(processes)
        tracebacks = server.log().count("Traceback")
    finally:
        server.stop()
    ok = sum(c["connected"] for c in connected)
    still_open = sum(h["result"]["open"] for h in held)
    growth = rss_connected - rss_before
    return {"app": {
        "namespace": namespace, "connections": total, "connected": ok,
        "still_open_after_hold": still_open, "hold_s": hold,
        "connect_s": round(max(c["connect_s"] for c in connected), 1),
        "errors": (total - ok) + (ok - still_open),
        "error_samples": [f for c in connected for f in c["failures"]][:3]
        + [h["result"]["closed"] for h in held if h["result"]["closed"]][:2],
        "server_rss_mb": {"before": _mb(rss_before), "connected": _mb(rss_connected),
                          "samples": [_mb(s) for s in samples]},
        "kb_per_connection": round(growth / max(ok, 1) / 1024, 1),
        "messages_received": sum(h["result"]["messages"] for h in held),
        "hall_broadcasts_waiting_after_hold": waiting_after_hold,
        "hall_settled_after_hold_s": settled_s,
        "server_cpu_s": round(cpu, 1), "bench_processes": len(commands),
        "server_log_tracebacks": tracebacks,
    }}


def _broadcasts_waiting(server: Server) -> int:
    """Hall-wide broadcasts the server is still holding back (its pacing), from /metrics."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as answer:
        text = answer.read().decode()
    found = re.search(r"^gobang_hall_broadcasts_waiting (\d+)", text, re.MULTILINE)
    return int(found.group(1)) if found else -1


def _settle(server: Server, timeout: float) -> float | None:
    """Seconds until the server holds back nothing (every presence told), or None."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if _broadcasts_waiting(server) == 0:
            return round(time.monotonic() - started, 1)
        time.sleep(2)
    return None


def scenario_matching(args) -> dict[str, Any]:
    """N players in the hall press Match at once: how long after the last one is queued
    until every one of them has its `match_found`."""
    total = args.players or 1000
    workers = args.workers or 2
    server = Server("app", FAST_HASH).start()
    try:
        results, commands, processes = _start_workers("matching", server.url, total, workers,
                                                      args.rate or 0.0)
        try:
            ready = _wait_all(results, len(commands), "registered", timeout=900)
            time.sleep(3)  # the arrivals' presence broadcasts drain
            cpu_before = server.cpu_seconds()
            for queue in commands:
                queue.put({"go": "join"})
            reports = _wait_all(results, len(commands), "result", timeout=300)
            cpu = server.cpu_seconds() - cpu_before
        finally:
            _finish(processes)
        tracebacks = server.log().count("Traceback")
    finally:
        server.stop()
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
    }}


def _mb(value: int) -> float:
    return round(value / 2**20, 1)


def _s(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
