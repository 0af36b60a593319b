"""The arena scenario for bench/load.py: --players players in one arena, paired by the server's
tick, playing game after game for --duration seconds while a viewer polls the standings.

    python -m bench.load --scenario arena --players 200 --duration 180 [--processes 2]

The host creates the arena as docs/tournaments.md says (`flask tournament create`), starting a
few seconds later; meanwhile every player logs in, opens a /site connection (a page of the
site open: the director pairs only the players present) and a /room connection, and joins on
the arena's page (its form, POST /tournaments/<id>/join). From the start each player waits for
`tournament_game` on /site, joins that game in /room and plays it at a human pace (each move
after a think of --every/2 to --every seconds; the bench's fixed order of points never makes
five), and the side to move after a number of stones drawn from the game's id (10 to 30)
resigns; then it waits for its next pairing. A viewer polls GET /api/tournaments/<id> every
0.2 s without logging in, as the arena's page does once a second.

What is measured, with `time.monotonic()` readings joined across the bench's processes:

- pairing: a player is free from its game's `game_over` to its next `tournament_game`. The
  arena can pair a free player only with another free player it may meet (lichess: not the
  one it just played, nor one who just played it), so the target's figure is the wait from the
  first moment in that interval when such a partner was free too (`wait_with_partner_s`);
  the whole interval is `wait_s`. The first pairing, of everyone who joined before the start,
  is reported apart (`first_pairing`).
- moves: from the mover's `place_stone` to the opponent's `stone_placed` (the round trip of
  every other scenario, `rtt_ms`) and to the mover's own copy (`echo_ms`).
- standings: from a game's end (the first of its two `game_over`) to the first poll answered
  whose standings count it for both players (their rows' marks), `standings.fresh_s`.
"""

from __future__ import annotations

import asyncio
import math
import multiprocessing as mp
import os
import random
import re
import subprocess
import sys
import time
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bench.hall_load import _bench_cpu_seconds, _machine_busy_seconds
from bench.lean_client import LeanClient
from bench.load import (
    FAST_HASH,
    GAME_ENV,
    ROOT,
    _gather_limited,
    _keep_log,
    _ms,
    _reap,
    _reconnector,
    _wait_all,
    clustered,
    start_app,
    traceback_samples,
)
from bench.players import (
    Pace,
    Recorder,
    Seat,
    login,
    new_http,
    open_client,
    percentile,
    post_form,
    sio_client,
)

CLOCK = "60+1"  # quick games: a player thinks at most a second, 15 times a game
RESIGN_AFTER = (10, 30)  # stones on the board when the side to move resigns, drawn per game
POLL_SECONDS = 0.2
# The arena starts this long after it is created, and longer for more players: the joins
# (a page and a form each, 16 at a time) come first. A player late for the start joins a
# running arena; the report says how many joined before it (`joined_before_start`).
JOIN_SECONDS, JOIN_SECONDS_PER_PLAYER = 2.5, 0.15
_CREATED = re.compile(r"Created tournament (\d+):")


def resign_after(game_id: int) -> int:
    """The same number for both players of a game, in whichever bench process they are."""
    return random.Random(game_id).randint(*RESIGN_AFTER)


@dataclass
class ArenaRecorder(Recorder):
    """Recorder's moves and errors, and what the arena's players saw of pairings and ends."""

    echoes: list[tuple[int, int, float]] = field(default_factory=list)
    # (player, game, when) for each tournament_game; (player, game, when, opponent) each end
    pairings: list[tuple[str, int, float]] = field(default_factory=list)
    ends: list[tuple[str, int, float, str]] = field(default_factory=list)
    joined: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "echoes": self.echoes, "pairings": self.pairings,
                "ends": self.ends, "joined": self.joined}


class ArenaSeat(Seat):
    """One player's /room connection across the arena's games: Seat's joining (following
    `moved` to the game's process) and moves, with a think before each move, a resignation at
    the game's drawn length, and no rematch: after `game_over` the player is free."""

    def __init__(self, name: str, room: Any, recorder: ArenaRecorder, think: tuple[float, float],
                 rng: random.Random, keep_playing: Any, reconnect: Any) -> None:
        super().__init__(room, recorder, Pace(), keep_playing, reconnect=reconnect)
        self.name = name
        self.think = think
        self.rng = rng
        self.opponent = ""
        self.over = asyncio.Event()
        # The (game, stones) whose move is being thought about: the join's state and
        # `game_ready` may both say it is this player's turn.
        self._due: tuple[int | None, int] | None = None

    async def join(self, game_id: int) -> None:
        self.over.clear()
        await super().join(game_id)

    async def _ask_join(self, game_id: int, tries: int = 50) -> dict[str, Any]:
        answer = await super()._ask_join(game_id, tries)
        if answer.get("ok"):  # who the opponent is: whom the arena will not pair it with next
            state = answer["state"]
            self.opponent = state["white" if state["you"] == "black" else "black"]["username"]
        return answer

    def _on_stone(self, data: dict[str, Any]) -> None:
        if data.get("game_id") == self.game_id and data["color"] == self.color:
            self.recorder.echoes.append((self.game_id, data["move"], time.monotonic()))
        super()._on_stone(data)

    def _on_game_over(self, data: dict[str, Any]) -> None:
        if data.get("game_id") != self.game_id or self.over.is_set():
            return
        self.playing.clear()
        self.recorder.ends.append((self.name, self.game_id, time.monotonic(), self.opponent))
        if self.color == "black":
            self.recorder.games_finished += 1
        self.over.set()

    def _move_soon(self) -> None:
        due = (self.game_id, self.moves)
        if not self.keep_playing() or due == self._due:
            return
        self._due = due
        asyncio.get_running_loop().call_later(self.rng.uniform(*self.think), self._act, due)

    def _act(self, due: tuple[int | None, int]) -> None:
        if due != (self.game_id, self.moves) or self.over.is_set():
            return
        if self.moves >= resign_after(self.game_id or 0):
            self._resign()
        else:
            self._place()

    def _resign(self) -> None:
        if not self.keep_playing():
            return
        game_id = self.game_id

        def acked(answer: Any = None) -> None:
            if not isinstance(answer, dict) or not answer.get("ok"):
                self.recorder.error(f"resign {game_id}: {answer}")

        asyncio.ensure_future(self.room.emit("resign", {"game_id": game_id},
                                             namespace=self.namespace, callback=acked))


class Player:
    """A player of the arena: its /site connection, where `tournament_game` comes, and its
    seat."""

    def __init__(self, name: str, cookie: str, seat: ArenaSeat, site: LeanClient) -> None:
        self.name = name
        self.cookie = cookie
        self.seat = seat
        self.site = site
        self.games: asyncio.Queue[int] = asyncio.Queue()
        site.on("tournament_game", self._on_tournament_game, namespace="/site")

    def _on_tournament_game(self, data: dict[str, Any]) -> None:
        self.seat.recorder.pairings.append((self.name, data["game_id"], time.monotonic()))
        self.games.put_nowait(data["game_id"])

    async def play(self, stop_at: float) -> None:
        """Game after game until the run's end: a game paired after it is not joined."""
        recorder = self.seat.recorder
        while time.monotonic() < stop_at:
            try:
                game_id = await asyncio.wait_for(self.games.get(), stop_at - time.monotonic())
            except TimeoutError:
                return
            try:
                await self.seat.join(game_id)
                await asyncio.wait_for(self.seat.over.wait(),
                                       max(0.0, stop_at - time.monotonic()))
            except TimeoutError:
                return
            except Exception as exc:  # noqa: BLE001 - recorded, the player waits for the next
                recorder.error(f"{self.name} game {game_id}: {type(exc).__name__}: {exc}")


# --- a bench process's players --------------------------------------------------------------

@dataclass
class ArenaJob:
    """What one bench process plays: `players` players of the arena on `url`."""

    url: str
    index: int
    players: int
    every: float
    lean: bool
    drain: float


def _worker(job: ArenaJob, commands: mp.Queue, results: mp.Queue) -> None:
    try:
        asyncio.run(_players(job, commands, results))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent
        results.put({"index": job.index, "fatal": f"{type(exc).__name__}: {exc}"})


async def _command(commands: mp.Queue) -> dict[str, Any]:
    return await asyncio.get_running_loop().run_in_executor(None, commands.get)


async def _players(job: ArenaJob, commands: mp.Queue, results: mp.Queue) -> None:
    recorder = ArenaRecorder()
    deadline = [float("inf")]
    rng = random.Random(job.index)

    def keep_playing() -> bool:
        return time.monotonic() < deadline[0]

    async with new_http() as http:
        names = [f"a{job.index}x{i}" for i in range(job.players)]
        cookies = await _gather_limited([login(http, job.url, n) for n in names], 16)
        players = [_player(http, job, name, cookie, recorder, rng, keep_playing)
                   for name, cookie in zip(names, cookies, strict=True)]
        await _gather_limited([_connect(p, job.url) for p in players], 16)
        results.put({"index": job.index, "ready": True})
        go = await _command(commands)
        deadline[0] = go["deadline"]
        await _gather_limited([_join(http, job.url, p, go["tournament_id"], recorder)
                               for p in players], 16)
        results.put({"index": job.index, "joined": len(recorder.joined)})
        await asyncio.gather(*(p.play(go["deadline"]) for p in players))
        # Pairings and ends of the last moments still arrive: counted, not played.
        await asyncio.sleep(max(0.0, go["deadline"] + job.drain - time.monotonic()))
        results.put({"index": job.index, "result": recorder.as_dict()})
        await asyncio.gather(*(c.disconnect() for p in players for c in (p.site, p.seat.room)),
                             return_exceptions=True)


def _player(http, job: ArenaJob, name: str, cookie: str, recorder: ArenaRecorder,
            rng: random.Random, keep_playing) -> Player:
    room = sio_client(http, cookie, lean=job.lean)
    seat = ArenaSeat(name, room, recorder, (job.every / 2, job.every), rng, keep_playing,
                     _reconnector(http, cookie, job.url, job.lean))
    site = LeanClient(http, cookie)
    site.on("disconnect", lambda *reason: keep_playing() and recorder.error(
        f"{name}: /site disconnected {reason}"))
    return Player(name, cookie, seat, site)


async def _connect(player: Player, url: str) -> None:
    await open_client(player.site, url, ["/site"])
    await open_client(player.seat.room, url, ["/room"])


async def _join(http, url: str, player: Player, tournament_id: int,
                recorder: ArenaRecorder) -> None:
    page = f"/tournaments/{tournament_id}"
    try:
        await post_form(http, url, page, {}, player.cookie, action=page + "/join")
    except Exception as exc:  # noqa: BLE001 - that player sits out, counted
        recorder.error(f"{player.name} join: {type(exc).__name__}: {exc}")
        return
    recorder.joined[player.name] = time.monotonic()


# --- the viewer -----------------------------------------------------------------------------

def _viewer(url: str, commands: mp.Queue, results: mp.Queue) -> None:
    try:
        asyncio.run(_view(url, commands, results))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent
        results.put({"index": "viewer", "fatal": f"{type(exc).__name__}: {exc}"})


async def _view(url: str, commands: mp.Queue, results: mp.Queue) -> None:
    """Polls the arena every POLL_SECONDS (or at once after a slower answer) until the run's
    end: each poll's times, status, games in play, and the players whose marks changed."""
    results.put({"index": "viewer", "ready": True})
    go = await _command(commands)
    address = f"{url}/api/tournaments/{go['tournament_id']}"
    polls: list[tuple[float, float, str, int, dict[str, int]]] = []
    errors: list[str] = []
    marks: dict[str, int] = {}
    async with new_http() as http:
        due = time.monotonic()
        while (sent := time.monotonic()) < go["deadline"] + go["drain"]:
            try:
                async with http.get(address) as answer:
                    body = await answer.json()
                received = time.monotonic()
                now = {row["username"]: len(row["marks"]) for row in body["standings"]}
                changed = {name: count for name, count in now.items() if marks.get(name) != count}
                marks.update(changed)
                polls.append((sent, received, body["status"], len(body["games"]), changed))
            except Exception as exc:  # noqa: BLE001 - counted as an error
                errors.append(f"GET {address}: {type(exc).__name__}: {exc}")
            due = max(due + POLL_SECONDS, time.monotonic())
            await asyncio.sleep(due - time.monotonic())
    results.put({"index": "viewer", "result": {"polls": polls, "errors": errors}})


# --- the run --------------------------------------------------------------------------------

def scenario_arena(args) -> dict[str, Any]:
    players = args.players or 200
    duration = args.duration or 180
    every = args.every or 1.0
    drain = max(args.drain, 3.0)
    # machine() reads the load when the report is printed, after the run's own load: this is
    # the machine's before the run.
    load_before = round(os.getloadavg()[0], 2)
    server = start_app(args, {**FAST_HASH, **GAME_ENV})
    try:
        try:
            report = _run(server, players, duration, every, args.workers or 1, drain,
                          args.client == "lean")
        except Exception:
            _keep_log(server)
            raise
        log = server.log()
        report["loadavg_1m_before"] = load_before
        report["server_log_tracebacks"] = log.count("Traceback")
        report["server_log_traceback_samples"] = traceback_samples(log)
        if clustered(args):
            report["processes"] = args.processes
    finally:
        server.stop()
    return {"app": report}


def _run(server, players: int, duration: float, every: float, workers: int, drain: float,
         lean: bool) -> dict[str, Any]:
    shares = [players // workers + (1 if i < players % workers else 0) for i in range(workers)]
    jobs = [ArenaJob(server.url, i, n, every, lean, drain) for i, n in enumerate(shares) if n]
    context = mp.get_context("fork")
    results: mp.Queue = context.Queue()
    commands = [context.Queue() for _ in range(len(jobs) + 1)]
    processes = [context.Process(target=_worker, args=(job, commands[i], results), daemon=True)
                 for i, job in enumerate(jobs)]
    processes.append(context.Process(target=_viewer, args=(server.url, commands[-1], results),
                                     daemon=True))
    for process in processes:
        process.start()
    try:
        setup_start = time.monotonic()
        _wait_all(results, len(processes), "ready", timeout=900)
        starts_in = JOIN_SECONDS + JOIN_SECONDS_PER_PLAYER * players
        tournament_id = create_arena(server, starts_in, duration + drain)
        # Created before the command returned: the start is a little earlier than this.
        start = time.monotonic() + starts_in
        deadline = start + duration
        for queue in commands:
            queue.put({"tournament_id": tournament_id, "deadline": deadline, "drain": drain})
        _wait_all(results, len(jobs), "joined", timeout=600)
        setup_seconds = time.monotonic() - setup_start
        time.sleep(max(0.0, start - time.monotonic()))
        measured_from = time.monotonic()
        before = (server.cpu_seconds(), _bench_cpu_seconds(processes), _machine_busy_seconds())
        rss = [server.rss()]
        while time.monotonic() < deadline:
            time.sleep(max(0.0, min(duration / 4, deadline - time.monotonic())))
            rss.append(server.rss())
        after = (server.cpu_seconds(), _bench_cpu_seconds(processes), _machine_busy_seconds())
        reports = _wait_all(results, len(processes), "result", timeout=drain + 300)
    finally:
        _reap(processes)
    viewer = next(r["result"] for r in reports if r["index"] == "viewer")
    played = [r["result"] for r in reports if r["index"] != "viewer"]
    report = summarise(played, viewer, start, deadline, deadline + drain)
    report.update({
        "players": players, "duration_s": duration, "every_s": every, "clock": CLOCK,
        "resign_after_stones": list(RESIGN_AFTER), "tournament_id": tournament_id,
        "bench_processes": len(jobs), "setup_s": round(setup_seconds, 1),
        **{f"{name}_cpu_pct": round(100 * (b - a) / max(deadline - measured_from, 1e-9), 1)
           for name, a, b in zip(("server", "bench", "machine"), before, after, strict=True)},
        "server_rss_mb": [round(r / 2**20, 1) for r in rss],
    })
    if hasattr(server, "rss_each"):
        report["process_rss_mb"] = [round(r / 2**20, 1) for r in server.rss_each()]
    return report


def create_arena(server, starts_in: float, seconds: float) -> int:
    """`flask tournament create`, as the host runs it, on the server's database."""
    minutes = math.ceil((starts_in + seconds) / 60) + 1
    command = [sys.executable, "-m", "flask", "--app", "app", "tournament", "create",
               "--name", "Bench arena", "--clock", CLOCK, "--minutes", str(minutes),
               "--starts-in", f"{starts_in / 60:.5f}"]
    done = subprocess.run(command, cwd=ROOT, env=host_env(server), capture_output=True,
                          text=True, timeout=120)
    found = _CREATED.search(done.stdout)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"tournament create: {done.stdout} {done.stderr}")
    return int(found.group(1))


def host_env(server) -> dict[str, str]:
    """The environment the server runs with (one process's, for several): the host's
    commands read the same database."""
    if hasattr(server, "cluster"):
        return {**server.cluster.servers[0].env, "GOBANG_AUTO_MIGRATE": "0"}
    return server.env


# --- the report -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Free:
    """A player free from `since` until paired at `until` (the run's end if never);
    `after`: the opponent of the game that ended at `since`, None for the first wait."""

    player: str
    since: float
    until: float
    after: str | None
    paired: bool


def summarise(played: list[dict[str, Any]], viewer: dict[str, Any], start: float,
              deadline: float, end: float) -> dict[str, Any]:
    merged: dict[str, list] = defaultdict(list)
    joined: dict[str, float] = {}
    for result in played:
        for key in ("sent", "received", "echoes", "errors", "pairings", "ends"):
            merged[key] += result[key]
        joined.update(result["joined"])
    errors = merged["errors"] + viewer["errors"]
    moves = _moves(merged, start, deadline)
    free = free_intervals(merged["pairings"], merged["ends"], joined, start, end)
    standings = _standings(viewer["polls"], merged["ends"], start, deadline)
    ended = {game for _name, game, when, _opp in merged["ends"] if start <= when < deadline}
    return {
        "joined": len(joined), "joined_before_start": sum(1 for t in joined.values() if t < start),
        "games_ended": len(ended),
        "pairing": pairing_figures(free, deadline),
        **moves, "standings": standings,
        "errors": len(errors) + moves["moves_lost"] + standings["games_never_counted"],
        "error_samples": errors[:5],
    }


def _moves(merged: dict[str, list], start: float, deadline: float) -> dict[str, Any]:
    sent = {(g, n): t for g, n, t in merged["sent"] if start <= t < deadline}
    received = {(g, n): t for g, n, t in merged["received"]}
    echoes = {(g, n): t for g, n, t in merged["echoes"]}
    trips = [(received[k] - t) * 1000 for k, t in sent.items() if k in received]
    echo = [(echoes[k] - t) * 1000 for k, t in sent.items() if k in echoes]
    return {"moves_sent": len(sent), "moves_delivered": len(trips),
            "moves_lost": len(sent) - len(trips), "moves_echoed": len(echo),
            "moves_per_s": round(len(trips) / (deadline - start), 1),
            "rtt_ms": _spread_ms(trips), "echo_ms": _spread_ms(echo)}


def free_intervals(pairings: list[tuple[str, int, float]], ends: list[tuple[str, int, float, str]],
                   joined: dict[str, float], start: float, end: float) -> list[Free]:
    """Each player's waits: from joining (or the start) to the first pairing, and from each
    game's end to the next pairing. A `tournament_game` may overtake its player's last
    `game_over` (two connections): the wait is then none."""
    paired: dict[str, list[tuple[float, int]]] = defaultdict(list)
    for name, game, when in pairings:
        paired[name].append((when, game))
    found = []
    for name, since in joined.items():
        first = min(paired[name], default=None)
        found.append(Free(name, max(since, start), first[0] if first else end, None,
                          first is not None))
    for name, game, when, opponent in ends:
        games = sorted(paired[name])
        at = next((i for i, (_t, g) in enumerate(games) if g == game), None)
        later = games[at + 1] if at is not None and at + 1 < len(games) else None
        until = max(when, later[0]) if later else end
        found.append(Free(name, when, until, opponent, later is not None))
    return found


def pairing_figures(free: list[Free], deadline: float) -> dict[str, Any]:
    firsts = sorted(f.until for f in free if f.after is None and f.paired)
    waits = [f for f in free if f.after is not None and f.since < deadline]
    partnered = with_partner(waits, free)
    unpaired = [f for f in waits if not f.paired]
    return {
        "pairings": sum(1 for f in waits if f.paired),
        "wait_with_partner_s": _spread_s(partnered),
        "wait_s": _spread_s([f.until - f.since for f in waits]),
        "over_2s_with_partner": sum(1 for w in partnered if w > 2.0),
        "unpaired_at_end": len(unpaired),
        # Everyone who joined before the start is free at once: how long pairing them took.
        "first_pairing": {"paired": len(firsts),
                          "last_after_first_s": round(firsts[-1] - firsts[0], 3)
                          if firsts else None},
    }


def with_partner(waits: list[Free], every: list[Free]) -> list[float]:
    """For each wait, the part of it from the first moment another player it may meet was
    free too: not the one it just played, nor one who just played it."""
    ordered = sorted(every, key=lambda f: f.since)
    starts = [f.since for f in ordered]
    longest = max((f.until - f.since for f in ordered), default=0.0)
    found = []
    for wait in waits:
        first = wait.until
        for other in ordered[bisect_left(starts, wait.since - longest):
                             bisect_left(starts, wait.until)]:
            if (other.player in (wait.player, wait.after) or other.after == wait.player
                    or other.until <= wait.since):
                continue
            first = min(first, max(wait.since, other.since))
        found.append(wait.until - first)
    return found


def _standings(polls: list[tuple[float, float, str, int, dict[str, int]]],
               ends: list[tuple[str, int, float, str]], start: float,
               deadline: float) -> dict[str, Any]:
    """For each game ended in the window: from its first `game_over` to the first answered
    poll whose standings give both its players as many marks as the games they had ended."""
    counts: dict[str, list[tuple[float, int]]] = defaultdict(list)
    for _sent, received, _status, _games, changed in polls:
        for name, count in changed.items():
            counts[name].append((received, count))
    games: dict[int, list[tuple[str, float, int]]] = defaultdict(list)
    for name, player_ends in _by_player(ends).items():
        for number, (when, game) in enumerate(sorted(player_ends), start=1):
            games[game].append((name, when, number))
    fresh, never = [], 0
    for sides in games.values():
        ended = min(when for _name, when, _n in sides)
        if not start <= ended < deadline:
            continue
        shown = [next((at for at, count in counts[name] if count >= number), None)
                 for name, _when, number in sides]
        if None in shown:
            never += 1
        else:
            fresh.append(max(0.0, max(shown) - ended))
    answers = [(received - sent) * 1000 for sent, received, *_rest in polls]
    running = [received for _sent, received, status, *_rest in polls if status == "running"]
    return {"polls": len(polls), "poll_ms": _spread_ms(answers),
            "started_at_s": round(min(running) - start, 2) if running else None,
            "games_counted": len(fresh), "games_never_counted": never,
            "fresh_s": _spread_s(fresh)}


def _by_player(ends: list[tuple[str, int, float, str]]) -> dict[str, list[tuple[float, int]]]:
    found: dict[str, list[tuple[float, int]]] = defaultdict(list)
    for name, game, when, _opponent in ends:
        found[name].append((when, game))
    return found


def _spread_ms(values: list[float]) -> dict[str, float | None]:
    return {"p50": _ms(percentile(values, 0.5)), "p99": _ms(percentile(values, 0.99)),
            "max": _ms(max(values) if values else None)}


def _spread_s(values: list[float]) -> dict[str, Any]:
    def s(value: float | None) -> float | None:
        return None if value is None else round(value, 3)

    return {"count": len(values), "p50": s(percentile(values, 0.5)),
            "p99": s(percentile(values, 0.99)), "max": s(max(values) if values else None)}
