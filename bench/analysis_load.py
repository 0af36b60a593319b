"""Live games while analyses run beside them (docs/performance.md, "Analyses beside live
games"): --games human games at --every seconds a move per player, and all along
--analyses pairs of players who each play a quick game (--analysis-moves moves, then black
resigns), ask for its analysis, wait for it and start again. The server gets
ANALYSIS_WORKERS = --analyses, so that many analyses run at once while the pairs wait.

    python -m bench.load --scenario analysis --games 100 --analyses 4 --duration 60

The report is the games' (moves, round trips, losses) plus `analyses`: how many finished or
failed in the window, how long each took from the request to the stored result, and how many
ran at once on average (the sum of their time inside the window over its length).
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any

from bench.players import SEQUENCE, login, new_http, open_client, sio_client

# A page's token for its scripts' POSTs (base.html), as the replay page sends it.
_PAGE_TOKEN = re.compile(r'data-csrf-token="([^"]+)"')
POLL_SECONDS = 0.25


class Beside:
    """Runs the analysts in a thread of their own (with their own event loop) from the
    measured window's start to its end, while the bench processes play the games."""

    def __init__(self, pairs: int, moves: int) -> None:
        self.pairs = pairs
        self.moves = moves
        self.url = ""
        self.report: dict[str, Any] = {}
        self._thread: threading.Thread | None = None

    def start(self, url: str, start: float, deadline: float) -> None:
        self.url = url
        self._thread = threading.Thread(target=self._main, args=(start, deadline), daemon=True)
        self._thread.start()

    def join(self, timeout: float) -> dict[str, Any]:
        assert self._thread is not None
        self._thread.join(timeout)
        if self._thread.is_alive():
            return {"error": "the analysts did not stop in time"}
        return self.report

    def _main(self, start: float, deadline: float) -> None:
        try:
            asyncio.run(self._run(start, deadline))
        except Exception as exc:  # noqa: BLE001 - reported, as the games' errors are
            where = traceback.format_exc(limit=-4).strip().splitlines()
            self.report = {"error": f"{type(exc).__name__}: {exc}", "where": where}

    async def _run(self, start: float, deadline: float) -> None:
        async with new_http() as http:
            pairs = [await _pair(http, self.url, k) for k in range(self.pairs)]
            await asyncio.sleep(max(0.0, start - time.monotonic()))
            done: list[dict[str, Any]] = []
            await asyncio.gather(*(_analyst(http, self.url, pair, self.moves, deadline, done)
                                   for pair in pairs))
        self.report = _summary(done, start, deadline)


@dataclass(frozen=True)
class Pair:
    """Players ana<k> and anb<k>: each one's session cookie and token for POSTs."""

    k: int
    players: list[tuple[str, str]]


async def _pair(http, url: str, k: int) -> Pair:
    found = []
    for name in (f"ana{k}", f"anb{k}"):
        cookie = await login(http, url, name)
        async with http.get(url + "/hall", headers={"Cookie": cookie}) as page:
            match = _PAGE_TOKEN.search(await page.text())
            # The token lives in the session: the page's answer may carry it in a new cookie.
            fresh = {k: m.value for k, m in page.cookies.items()}
        if fresh:
            kept = dict(part.split("=", 1) for part in cookie.split("; "))
            cookie = "; ".join(f"{k}={v}" for k, v in {**kept, **fresh}.items())
        if match is None:
            raise RuntimeError(f"/hall for {name}: no data-csrf-token")
        found.append((cookie, match.group(1)))
    return Pair(k, found)


async def _analyst(http, url: str, pair: Pair, moves: int, deadline: float,
                   done: list[dict[str, Any]]) -> None:
    while time.monotonic() < deadline:
        game_id = await _quick_game(http, url, pair, moves)
        cookie, token = pair.players[0]
        asked = time.monotonic()
        headers = {"Cookie": cookie, "X-CSRFToken": token}
        async with http.post(f"{url}/api/games/{game_id}/analysis", headers=headers) as answer:
            body = await answer.json()
            if answer.status not in (200, 202):
                done.append({"asked": asked, "ended": time.monotonic(), "status": "refused",
                             "error": body.get("error")})
                continue
        status = await _wait_done(http, url, game_id, cookie)
        done.append({"asked": asked, "ended": time.monotonic(), "status": status})


async def _wait_done(http, url: str, game_id: int, cookie: str) -> str:
    while True:
        async with http.get(f"{url}/api/games/{game_id}/analysis",
                            headers={"Cookie": cookie}) as answer:
            status = (await answer.json())["status"]
        if status in ("done", "failed"):
            return status
        await asyncio.sleep(POLL_SECONDS)


async def _quick_game(http, url: str, pair: Pair, moves: int) -> int:
    """The first player challenges the second, who accepts; they play `moves` moves of the
    bench's sequence (no five in it) and black resigns. Returns the game's id."""
    halls = [sio_client(http, cookie) for cookie, _token in pair.players]
    matches: list[asyncio.Future] = []
    for hall in halls:
        future = asyncio.get_running_loop().create_future()
        hall.on("match_found", lambda data, f=future: f.done() or f.set_result(data),
                namespace="/hall")
        matches.append(future)
    accept = asyncio.get_running_loop().create_future()
    halls[1].on("challenge_received",
                lambda data: accept.done() or accept.set_result(data["challenge_id"]),
                namespace="/hall")
    await asyncio.gather(*(open_client(h, url, ["/hall"]) for h in halls))
    asked = await halls[0].call("challenge", {"username": f"anb{pair.k}"},
                                namespace="/hall", timeout=60)
    if not asked.get("ok"):
        raise RuntimeError(f"challenge: {asked}")
    await halls[1].call("answer_challenge", {"challenge_id": await accept, "accept": True},
                        namespace="/hall", timeout=60)
    found = await asyncio.gather(*matches)
    await asyncio.gather(*(h.disconnect() for h in halls))
    game_id = found[0]["game_id"]
    rooms = {match["color"]: sio_client(http, cookie)
             for match, (cookie, _token) in zip(found, pair.players, strict=True)}
    await asyncio.gather(*(open_client(r, url, ["/room"]) for r in rooms.values()))
    for room in rooms.values():
        await room.call("join_game", {"game_id": game_id}, namespace="/room", timeout=60)
    for number, (row, col) in enumerate(SEQUENCE[:moves]):
        mover = rooms["black" if number % 2 == 0 else "white"]
        answer = await mover.call("place_stone", {"game_id": game_id, "row": row, "col": col},
                                  namespace="/room", timeout=60)
        if not answer.get("ok"):
            raise RuntimeError(f"place_stone {game_id}#{number + 1}: {answer}")
    await rooms["black"].call("resign", {"game_id": game_id}, namespace="/room", timeout=60)
    await asyncio.gather(*(r.disconnect() for r in rooms.values()))
    return game_id


def _summary(done: list[dict[str, Any]], start: float, deadline: float) -> dict[str, Any]:
    inside = [d for d in done if d["asked"] < deadline]
    took = sorted(d["ended"] - d["asked"] for d in inside if d["status"] == "done")
    busy = sum(max(0.0, min(d["ended"], deadline) - max(d["asked"], start)) for d in inside)
    return {
        "done": sum(1 for d in inside if d["status"] == "done"),
        "failed": sum(1 for d in inside if d["status"] == "failed"),
        "refused": [d["error"] for d in inside if d["status"] == "refused"],
        "seconds_p50": round(took[len(took) // 2], 2) if took else None,
        "seconds_max": round(took[-1], 2) if took else None,
        "at_once_mean": round(busy / (deadline - start), 2),
    }
