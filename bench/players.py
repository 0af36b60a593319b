"""Bench clients: players that log in over HTTP and play through the wire contract.

Everything here is asyncio (python-socketio's AsyncClient on aiohttp), so one process holds
hundreds or thousands of players. Times are `time.monotonic()` readings, which on Linux come
from one system-wide clock (CLOCK_MONOTONIC): a move sent from one bench process and received
in another can be compared exactly, so the round trips are joined by (game_id, move) at the end.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import socketio

from bench.lean_client import LeanClient

PASSWORD = "bench-password-1"
# Set (to "1") by bench/load.py's --deflate, read by the hall's clients in every bench process.
DEFLATE_ENV = "BENCH_WS_DEFLATE"
_TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
SIZE = 15


def no_five_sequence() -> list[tuple[int, int]]:
    """All 225 points, black and white alternating, such that nobody ever has five in a row.

    Colour of (r, c) is ((c // 2) + r) % 2: runs are at most two long in every direction, so a
    game played in this order fills the board and ends as a draw (`board_full`) at move 225.
    """
    black = [(r, c) for r in range(SIZE) for c in range(SIZE) if ((c // 2) + r) % 2 == 0]
    white = [(r, c) for r in range(SIZE) for c in range(SIZE) if ((c // 2) + r) % 2 == 1]
    # Play from the centre outwards, as people do; the colour pattern does the rest.
    def centre(p: tuple[int, int]) -> tuple[int, int, int]:
        return (abs(p[0] - 7) + abs(p[1] - 7), p[0], p[1])

    black.sort(key=centre)
    white.sort(key=centre)
    sequence = []
    for index in range(SIZE * SIZE):
        sequence.append((black if index % 2 == 0 else white)[index // 2])
    return sequence


SEQUENCE = no_five_sequence()


def new_http() -> aiohttp.ClientSession:
    """One HTTP session for many players: no cookie jar (each player carries its own cookie)
    and no cap on open connections (each websocket holds one)."""
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    return aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.DummyCookieJar(),
                                 timeout=aiohttp.ClientTimeout(total=120))


async def login(http: aiohttp.ClientSession, base: str, username: str,
                register: bool = True) -> str:
    """Register (or log in) over HTTP as a browser does; returns the session cookie header."""
    form = {"username": username, "password": PASSWORD, "confirm": PASSWORD}
    return await post_form(http, base, "/register" if register else "/login", form)


async def post_form(http: aiohttp.ClientSession, base: str, page: str, form: dict[str, str],
                    cookie: str = "", action: str | None = None) -> str:
    """A page's form posted as a browser does: GET `page` for its csrf_token, POST `form` with
    it to `action` (default: the page itself), which must answer 302. Returns the cookie
    header after both: the token lives in the session, so the page's answer may carry it in a
    new cookie."""
    cookies = _parse_cookie(cookie)
    async with http.get(base + page, headers=_cookie_headers(cookies)) as answer:
        text = await answer.text()
        cookies.update({k: m.value for k, m in answer.cookies.items()})
    match = _TOKEN.search(text)
    if match is None:
        raise RuntimeError(f"{page}: no csrf_token (status {answer.status})")
    target = action or page
    async with http.post(base + target, data={"csrf_token": match.group(1), **form},
                         headers=_cookie_headers(cookies), allow_redirects=False) as answer:
        await answer.read()
        if answer.status != 302:
            raise RuntimeError(f"{target} {form.get('username', '')}: HTTP {answer.status}")
        cookies.update({k: m.value for k, m in answer.cookies.items()})
    return _cookie_header(cookies)


def _cookie_header(cookies: dict[str, str]) -> str:
    return "; ".join(f"{k}={v}" for k, v in cookies.items())


def _cookie_headers(cookies: dict[str, str]) -> dict[str, str]:
    return {"Cookie": _cookie_header(cookies)} if cookies else {}


def _parse_cookie(header: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in header.split("; ") if part)


def sio_client(http: aiohttp.ClientSession, cookie: str | None = None,
               lean: bool = False) -> socketio.AsyncClient | LeanClient:
    """A Socket.IO client over the websocket transport only, sharing `http`: python-socketio's
    own, or (`lean`) bench/lean_client.py's, which leaves more of a shared machine to the
    servers.

    The cookie goes in `websocket_extra_options`: the engine.io client would otherwise store
    it in the (shared) session's jar, where every player would overwrite the others'."""
    if lean:
        return LeanClient(http, cookie)
    extra: dict[str, Any] = {"headers": {"Cookie": cookie}} if cookie else {}
    return socketio.AsyncClient(reconnection=False, http_session=http,
                                websocket_extra_options=extra)


async def open_client(client: socketio.AsyncClient | LeanClient, base: str, namespaces: list[str],
                      path: str = "socket.io") -> None:
    await client.connect(base, namespaces=namespaces, transports=["websocket"],
                         wait_timeout=120, socketio_path=path)


@dataclass
class Recorder:
    """What one bench process saw: moves sent, moves received by the opponent, errors."""

    sent: list[tuple[int, int, float]] = field(default_factory=list)
    received: list[tuple[int, int, float]] = field(default_factory=list)
    acks: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games_finished: int = 0

    def error(self, text: str) -> None:
        if len(self.errors) < 10_000:
            self.errors.append(text)

    def as_dict(self) -> dict[str, Any]:
        return {"sent": self.sent, "received": self.received, "acks": self.acks,
                "errors": self.errors, "games_finished": self.games_finished}


class Pace:
    """When a player may move: at once (closed loop), or no sooner than `every` seconds after
    its own previous move (an open, human-like pace); and, once `play_only_in` is given
    windows, only inside them (two servers measured in turns within one run)."""

    def __init__(self, every: float = 0.0) -> None:
        self.every = every
        self._windows: list[tuple[float, float]] = []

    def play_only_in(self, windows: list[tuple[float, float]]) -> None:
        """Moves wait for the next window; past the last one, the pace stops holding them
        back (the run's own deadline ends the play)."""
        self._windows = sorted(windows)

    def delay(self, last_move_at: float | None, now: float) -> float:
        due = now
        if self.every and last_move_at is not None:
            due = max(now, last_move_at + self.every)
        return self._opening(due) - now

    def _opening(self, due: float) -> float:
        for start, end in self._windows:
            if due < end:
                return max(due, start)
        return due


# Opens a new room connection at a Socket.IO path (the `moved` answer's), connected.
Reconnect = Callable[[str], Awaitable[socketio.AsyncClient]]


class FollowsRematches:
    """What a seat does between games, the same for one against a person or the computer:
    joins the rematch the server announces, and records a dropped room connection."""

    keep_playing: Callable[[], bool]
    recorder: Any

    async def join(self, game_id: int) -> None:
        raise NotImplementedError

    def _on_rematch_ready(self, data: dict[str, Any]) -> None:
        if self.keep_playing():
            asyncio.ensure_future(self._join_safely(data["game_id"]))

    async def _join_safely(self, game_id: int) -> None:
        try:
            await self.join(game_id)
        except Exception as exc:  # noqa: BLE001 - recorded, the bench goes on
            self.recorder.error(f"join after rematch: {exc}")

    dropped: tuple[Any, ...] | None = None

    def _on_disconnect(self, *reason: Any) -> None:
        # Before the run a drop is no error, but a seat that never starts says why.
        self.dropped = reason
        if self.keep_playing():
            self.recorder.error(f"room disconnected: {reason}")


class Seat(FollowsRematches):
    """One player at a board: answers the opponent's moves with the next move of SEQUENCE,
    and after the end asks for a rematch so the pair keeps playing until told to stop."""

    def __init__(self, room: socketio.AsyncClient, recorder: Recorder, pace: Pace,
                 keep_playing: Callable[[], bool], namespace: str = "/room",
                 reconnect: Reconnect | None = None) -> None:
        self.room = room
        self.recorder = recorder
        self.pace = pace
        self.keep_playing = keep_playing
        self.namespace = namespace
        self.reconnect = reconnect
        self.game_id: int | None = None
        self.color: str | None = None
        self.moves = 0
        self.last_move_at: float | None = None
        self.playing = asyncio.Event()
        self._pending: asyncio.Task | None = None
        self._listen(room)

    def _listen(self, room: socketio.AsyncClient) -> None:
        namespace = self.namespace
        room.on("game_ready", self._on_game_ready, namespace=namespace)
        room.on("stone_placed", self._on_stone, namespace=namespace)
        room.on("game_over", self._on_game_over, namespace=namespace)
        room.on("rematch_ready", self._on_rematch_ready, namespace=namespace)
        room.on("disconnect", lambda *reason: self._on_room_disconnect(room, *reason),
                namespace=namespace)

    def _on_room_disconnect(self, room: socketio.AsyncClient, *reason: Any) -> None:
        # The connection left for the game's process (`moved`) is no drop.
        if room is self.room and not self._moving:
            self._on_disconnect(*reason)

    _moving = False

    async def _ask_join(self, game_id: int, tries: int = 50) -> dict[str, Any]:
        """join_game; `conflict` (several processes: the game is being taken over, or Redis
        has just started) is asked again a little later, as the room page does."""
        for _ in range(tries):
            answer = await self.room.call("join_game", {"game_id": game_id},
                                          namespace=self.namespace, timeout=60)
            if answer.get("error") != "conflict":
                return answer
            await asyncio.sleep(0.2)
        return answer

    async def join(self, game_id: int) -> None:
        answer = await self._ask_join(game_id)
        if answer.get("error") == "moved" and self.reconnect is not None:
            # Several processes: the game is played on its owner's; go there, as the page does.
            await self._move_to(answer["path"])
            answer = await self._ask_join(game_id)
        if not answer.get("ok"):
            raise RuntimeError(f"join_game {game_id}: {answer}")
        state = answer["state"]
        self.game_id = game_id
        self.color = state["you"]
        self.moves = len(state["moves"])
        self._record_moves_in_state(game_id)
        if state["status"] == "playing":
            self.playing.set()
            if state["to_move"] == self.color:
                self._move_soon()

    def _record_moves_in_state(self, game_id: int) -> None:
        """The opponent's moves in the join's state reached this seat now. After a rematch the
        opponent may join first and move before this seat is in the new game's room: that
        first stone comes in the state, not as `stone_placed` (stones of a game this seat has
        not joined are ignored, so none was recorded before)."""
        now = time.monotonic()
        theirs = 1 if self.color == "white" else 0  # black's moves have odd numbers
        self.recorder.received.extend((game_id, number, now)
                                      for number in range(1, self.moves + 1)
                                      if number % 2 == theirs)

    async def _move_to(self, path: str) -> None:
        assert self.reconnect is not None
        old, self._moving = self.room, True
        try:
            await old.disconnect()
        finally:
            self._moving = False
        self.room = await self.reconnect(path)
        self._listen(self.room)

    def kick(self, delay: float = 0.0) -> None:
        """Start playing: the side to move makes its move (after `delay` seconds)."""
        if self.color == ("black" if self.moves % 2 == 0 else "white"):
            asyncio.get_running_loop().call_later(delay, self._move_soon)

    def _on_game_ready(self, data: dict[str, Any]) -> None:
        if data.get("game_id") != self.game_id:
            return
        self.playing.set()
        if data.get("to_move") == self.color and self.moves == 0:
            self._move_soon()

    def _on_stone(self, data: dict[str, Any]) -> None:
        if data.get("game_id") != self.game_id:
            return
        now = time.monotonic()
        self.moves = data["move"]
        if data["color"] != self.color:
            self.recorder.received.append((self.game_id, self.moves, now))
        if data.get("to_move") == self.color:
            self._move_soon()

    def _on_game_over(self, data: dict[str, Any]) -> None:
        if data.get("game_id") != self.game_id:
            return
        self.playing.clear()
        if self.color == "black":
            self.recorder.games_finished += 1
        if self.keep_playing():
            asyncio.ensure_future(self._rematch(self.game_id))

    async def _rematch(self, game_id: int) -> None:
        answer = await self.room.call("rematch", {"game_id": game_id},
                                      namespace=self.namespace, timeout=60)
        if not answer.get("ok"):
            self.recorder.error(f"rematch: {answer.get('error')}")

    def _move_soon(self) -> None:
        if not self.keep_playing():
            return
        delay = self.pace.delay(self.last_move_at, time.monotonic())
        if delay <= 0:
            self._place()
        else:
            asyncio.get_running_loop().call_later(delay, self._place)

    def _place(self) -> None:
        if not self.keep_playing() or self.moves >= len(SEQUENCE):
            return
        number = self.moves + 1
        row, col = SEQUENCE[self.moves]
        game_id = self.game_id
        now = time.monotonic()
        self.last_move_at = now
        self.recorder.sent.append((game_id, number, now))

        def acked(answer: Any = None) -> None:
            self.recorder.acks.append(time.monotonic() - now)
            if not isinstance(answer, dict) or not answer.get("ok"):
                self.recorder.error(f"place_stone {game_id}#{number}: {answer}")

        asyncio.ensure_future(self.room.emit(
            "place_stone", {"game_id": game_id, "row": row, "col": col},
            namespace=self.namespace, callback=acked))


@dataclass
class ComputerRecorder:
    """What one bench process's players against the computer saw. Times as in Recorder."""

    # (game, move, when the player's move was acknowledged, the computer's level)
    acked: list[tuple[int, int, float, int]] = field(default_factory=list)
    # (game, move, when it arrived, level, whether it was the computer's first in the game)
    replies: list[tuple[int, int, float, int, bool]] = field(default_factory=list)
    ended: list[tuple[int, int]] = field(default_factory=list)  # (game, moves) at game_over
    openings: int = 0  # computer moves that answered no move (it opens a game as black)
    refused_busy: int = 0
    games_started: int = 0
    games_finished: int = 0
    errors: list[str] = field(default_factory=list)

    def error(self, text: str) -> None:
        if len(self.errors) < 10_000:
            self.errors.append(text)

    def as_dict(self) -> dict[str, Any]:
        return {"computer": True, "acked": self.acked, "replies": self.replies,
                "ended": self.ended, "openings": self.openings,
                "refused_busy": self.refused_busy, "games_started": self.games_started,
                "games_finished": self.games_finished, "errors": self.errors}


class ComputerSeat(FollowsRematches):
    """A player against the computer: answers each of its moves at once with the first empty
    point of SEQUENCE (any empty point is legal in freestyle), and after the end asks for a
    rematch, which against the computer starts at once with colours swapped."""

    RETRY_SECONDS = 1.0  # after a rematch refused as busy

    def __init__(self, room: socketio.AsyncClient, recorder: ComputerRecorder,
                 keep_playing: Callable[[], bool], namespace: str = "/room") -> None:
        self.room = room
        self.recorder = recorder
        self.keep_playing = keep_playing
        self.namespace = namespace
        self.game_id: int | None = None
        self.color: str | None = None
        self.level = 0
        self.moves = 0
        self.taken: set[tuple[int, int]] = set()
        self.computer_moved = False
        # Stones of a game not joined yet: the computer's opening move in a rematch may
        # come before join_game's answer, and after the state that answer carries.
        self._early: list[dict[str, Any]] = []
        self.playing = asyncio.Event()
        room.on("stone_placed", self._on_stone, namespace=namespace)
        room.on("game_over", self._on_game_over, namespace=namespace)
        room.on("rematch_ready", self._on_rematch_ready, namespace=namespace)
        room.on("disconnect", self._on_disconnect, namespace=namespace)

    async def join(self, game_id: int) -> None:
        answer = await self.room.call("join_game", {"game_id": game_id},
                                      namespace=self.namespace, timeout=60)
        if not answer.get("ok"):
            raise RuntimeError(f"join_game {game_id}: {answer}")
        state = answer["state"]
        self.game_id, self.color = game_id, state["you"]
        self.level = state["white" if self.color == "black" else "black"]["computer"]
        self.taken = {tuple(m) for m in state["moves"]}
        self.moves = len(self.taken)
        # Its opening move, when it plays black, may come before we joined.
        self.computer_moved = self.color == "white" and self.moves > 0
        self.recorder.openings += int(self.computer_moved)
        self.recorder.games_started += 1
        if state["status"] == "playing":
            self.playing.set()
            if state["to_move"] == self.color:
                self._place()  # only once the run has started: `kick` starts the first
        early, self._early = [d for d in self._early if d["game_id"] == game_id], []
        for data in early:
            self._on_stone(data)

    def kick(self, delay: float = 0.0) -> None:
        """Start playing: the first move, if it is ours (after `delay` seconds)."""
        if self.color == ("black" if self.moves % 2 == 0 else "white"):
            asyncio.get_running_loop().call_later(delay, self._place)

    def _on_stone(self, data: dict[str, Any]) -> None:
        if data.get("game_id") != self.game_id:
            self._early = [*self._early[-3:], data]
            return
        if data["move"] <= self.moves:
            return  # already in the state join_game answered with
        now = time.monotonic()
        self.moves = data["move"]
        self.taken.add((data["row"], data["col"]))
        if data["color"] != self.color:
            # Recorded after the end too: it may answer a move made before the end.
            if self.moves == 1:
                self.recorder.openings += 1
            else:
                self.recorder.replies.append((self.game_id, self.moves, now, self.level,
                                              not self.computer_moved))
            self.computer_moved = True
        if data.get("to_move") == self.color:
            self._place()

    def _on_game_over(self, data: dict[str, Any]) -> None:
        if data.get("game_id") != self.game_id:
            return
        self.playing.clear()
        self.recorder.ended.append((self.game_id, self.moves))
        self.recorder.games_finished += 1
        if self.keep_playing():
            asyncio.ensure_future(self._rematch(self.game_id))

    async def _rematch(self, game_id: int) -> None:
        while self.keep_playing():
            answer = await self.room.call("rematch", {"game_id": game_id},
                                          namespace=self.namespace, timeout=60)
            if answer.get("ok"):
                return
            if answer.get("error") != "busy":
                self.recorder.error(f"rematch: {answer.get('error')}")
                return
            self.recorder.refused_busy += 1
            await asyncio.sleep(self.RETRY_SECONDS)

    def _place(self) -> None:
        if not self.keep_playing():
            return
        point = next((p for p in SEQUENCE if p not in self.taken), None)
        if point is None:
            return
        number, game_id, level = self.moves + 1, self.game_id, self.level

        def acked(answer: Any = None) -> None:
            if isinstance(answer, dict) and answer.get("ok"):
                self.recorder.acked.append((game_id, number, time.monotonic(), level))
            else:
                self.recorder.error(f"place_stone {game_id}#{number}: {answer}")

        asyncio.ensure_future(self.room.emit(
            "place_stone", {"game_id": game_id, "row": point[0], "col": point[1]},
            namespace=self.namespace, callback=acked))


class HallViewCopy:
    """A client's copy of the hall view, kept as docs/protocol.md says: the whole view from
    `hello` (or `hall_view`), then each `hall_update` whose seq follows; `reached_at` is when
    the copy reached its current seq."""

    def __init__(self) -> None:
        self.seq: int | None = None
        self.counts: dict[str, Any] = {}
        self.players: dict[int, dict[str, Any]] = {}
        self.games: dict[int, dict[str, Any]] = {}
        self.reached_at = 0.0

    def reset(self, view: dict[str, Any]) -> None:
        self.seq, self.counts = view["seq"], view["counts"]
        self.players = {p["id"]: p for p in view["players"]}
        self.games = {g["game_id"]: g for g in view["games"]}
        self.reached_at = time.monotonic()

    def apply(self, update: dict[str, Any]) -> bool:
        """False when an update is missing in between (then ask for the whole view)."""
        if self.seq is None:
            return True  # before `hello`, whose view follows it (or the next one shows the gap)
        if update["seq"] > self.seq + 1:
            return False
        if update["seq"] <= self.seq:
            return True  # already in the view we hold
        self.seq = update["seq"]
        self.counts = update.get("counts", self.counts)
        for part, entries in (("players", self.players), ("games", self.games)):
            for gone in update[part]["removed"]:
                entries.pop(gone, None)
            key = "id" if part == "players" else "game_id"
            entries.update({e[key]: e for e in update[part]["set"]})
        self.reached_at = time.monotonic()
        return True

    def digest(self) -> str:
        return view_digest({"seq": self.seq, "counts": self.counts,
                            "players": list(self.players.values()),
                            "games": list(self.games.values())})


def view_digest(view: dict[str, Any]) -> str:
    """The view's content without its order (a client sorts its own copy)."""
    return json.dumps([view["seq"], view["counts"], sorted(view["players"], key=lambda p: p["id"]),
                       sorted(view["games"], key=lambda g: g["game_id"])], sort_keys=True)


class HallIdler:
    """A minimal Socket.IO client for holding thousands of hall connections.

    It speaks the same wire protocol (Engine.IO 4 over a websocket, Socket.IO 5 packets),
    answers pings, keeps its copy of the hall view from `hello` and `hall_update` (as the page
    does, asking `hall_view` on a gap), decodes otherwise only what it waits for, and counts
    the rest, so one bench process can hold far more connections than AsyncClient could on the
    same core."""

    def __init__(self, http: aiohttp.ClientSession, base: str, cookie: str,
                 namespace: str = "/hall") -> None:
        self.http = http
        self.url = base.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket"
        self.cookie = cookie
        self.namespace = namespace
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.messages = 0
        self.connected = asyncio.Event()
        self.connected_at = 0.0
        self.closed_reason: str | None = None
        self.waiting: dict[str, asyncio.Future] = {}
        self.seen_at: dict[str, float] = {}
        self.view = HallViewCopy()
        self.hello_bytes = 0
        self.resyncs = 0
        self.resync_failures = 0
        self._resyncing = False
        self._acks: dict[int, asyncio.Future] = {}
        self._next_id = 0
        self._reader: asyncio.Task | None = None

    async def connect(self, timeout: float = 60) -> None:
        # Browsers offer permessage-deflate; aiohttp offers it only when asked (--deflate).
        compress = 15 if os.environ.get(DEFLATE_ENV) == "1" else 0
        self.ws = await self.http.ws_connect(self.url, headers={"Cookie": self.cookie},
                                             autoping=True, max_msg_size=0, compress=compress)
        opened = await self.ws.receive_str(timeout=timeout)
        if not opened.startswith("0"):
            raise RuntimeError(f"no engine.io open packet: {opened[:80]}")
        await self.ws.send_str(f"40{self.namespace},")
        self._reader = asyncio.ensure_future(self._read())
        await asyncio.wait_for(self.connected.wait(), timeout)
        if self.closed_reason:
            raise RuntimeError(self.closed_reason)

    def expect(self, event: str) -> asyncio.Future:
        """A future for the next `event` from the server (resolved with its payload)."""
        future = asyncio.get_running_loop().create_future()
        self.waiting[event] = future
        return future

    async def call(self, event: str, data: Any, timeout: float = 60) -> Any:
        assert self.ws is not None
        self._next_id += 1
        future = asyncio.get_running_loop().create_future()
        self._acks[self._next_id] = future
        await self.ws.send_str(f"42{self.namespace},{self._next_id}{dumps([event, data])}")
        return await asyncio.wait_for(future, timeout)

    async def _read(self) -> None:
        assert self.ws is not None
        event_prefix = f'42{self.namespace},["'
        ack_prefix = f"43{self.namespace},"
        connected_prefix = f"40{self.namespace},"
        refused_prefix = f"44{self.namespace},"
        view_events = (f'{event_prefix}hall_update"', f'{event_prefix}hello"')
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            data = message.data
            self.messages += 1
            if data == "2":
                await self.ws.send_str("3")
            elif data.startswith(view_events):
                self._on_view_event(data, len(event_prefix) - 2)
            elif self.waiting and data.startswith(event_prefix):
                name = data[len(event_prefix):data.index('"', len(event_prefix))]
                future = self.waiting.pop(name, None)
                if future is not None and not future.done():
                    self.seen_at[name] = time.monotonic()
                    future.set_result(json.loads(data[len(event_prefix) - 2:])[1])
            elif data.startswith(ack_prefix):
                body = data[len(ack_prefix):]
                digits = len(body) - len(body.lstrip("0123456789"))
                future = self._acks.pop(int(body[:digits]), None)
                if future is not None and not future.done():
                    future.set_result(json.loads(body[digits:])[0])
            elif data.startswith(connected_prefix):
                self.connected_at = time.monotonic()
                self.connected.set()
            elif data.startswith(refused_prefix):
                self.closed_reason = "refused: " + data
                self.connected.set()
                break
        if self.closed_reason is None:
            self.closed_reason = f"closed ({self.ws.close_code})"

    def _on_view_event(self, data: str, body_at: int) -> None:
        name, payload = json.loads(data[body_at:])
        if name == "hello":
            self.hello_bytes = len(data.encode()) - body_at
            if "view" in payload:  # an older build (BENCH_APP_SCRIPT) has none
                self.view.reset(payload["view"])
        elif not self._resyncing and not self.view.apply(payload):
            self._resyncing = True
            self.resyncs += 1
            asyncio.ensure_future(self._resync())

    async def _resync(self) -> None:
        try:
            answer = await self.call("hall_view", {})
            if answer.get("ok"):
                self.view.reset(answer["view"])
        except Exception:  # noqa: BLE001 - unanswered: the copy stays stale, and is counted so
            self.resync_failures += 1
        finally:
            self._resyncing = False

    @property
    def open(self) -> bool:
        return self.ws is not None and not self.ws.closed and self.closed_reason is None

    async def close(self) -> None:
        if self.ws is not None and not self.ws.closed:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


def percentile(values: list[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(fraction * (len(ordered) - 1)))))
    return ordered[index]


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))
