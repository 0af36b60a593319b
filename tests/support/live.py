"""A real server: `python app.py` on a free port with its own database, and real clients."""

from __future__ import annotations

import atexit
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import engineio
import pytest
import requests
import socketio
import websocket

from tests.support import stacks
from tests.support.databases import Databases
from tests.support.forkserver import ForkedProcess, ForkServer
from tests.support.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct horse"
_TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


_fork_server: ForkServer | None = None
# A cluster starts its processes from several threads at once: one fork server all the same.
_fork_server_lock = threading.Lock()


def fork_server() -> ForkServer:
    """This test process's fork server, started on first use and ended with the process."""
    global _fork_server
    with _fork_server_lock:
        if _fork_server is None:
            _fork_server = ForkServer()
            atexit.register(_fork_server.close)
    return _fork_server


def wait_until(condition, timeout: float = 5) -> bool:
    """Poll `condition` until it holds or `timeout` seconds pass; says which happened."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


class LiveServer:
    def __init__(self, workdir: Path, env: dict[str, str], database_url: str) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database_url = database_url
        self.log_path = workdir / "server.log"
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("GOBANG_")},
            "GOBANG_DATABASE_URL": database_url,
            "GOBANG_SECRET_KEY": "live-test-secret",
            "GOBANG_RATELIMIT_ENABLED": "0",
            "GOBANG_ARGON2_MEMORY_KIB": "8192",
            "GOBANG_ARGON2_TIME_COST": "1",
            **env,
        }
        self.process: subprocess.Popen | ForkedProcess | None = None
        self.clients: list[LiveClient] = []
        self.out_of_order: list[str] = []

    def start(self) -> None:
        self.process = self._launch(["--port", str(self.port)])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log()}")
            try:
                if requests.get(f"{self.url}/healthz", timeout=1).ok:
                    return
            except requests.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError(f"server did not start:\n{self.log()}")

    def _launch(self, argv: list[str]) -> subprocess.Popen | ForkedProcess:
        """`python app.py ARGV`: forked from the fork server (the web stack imported once,
        tests/support/forkserver.py) when the server runs on eventlet, as deployed; a process
        of its own otherwise, or with GOBANG_TEST_FORK=0."""
        if self.env.get("GOBANG_ASYNC_MODE", "eventlet") == "eventlet" and (
                os.environ.get("GOBANG_TEST_FORK") != "0"):
            return fork_server().spawn(argv, self.env, self.log_path)
        with self.log_path.open("a") as log:
            return subprocess.Popen([sys.executable, "app.py", *argv], cwd=ROOT, env=self.env,
                                    stdout=log, stderr=subprocess.STDOUT)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        for client in self.clients:
            self.out_of_order += client.out_of_order
            # A connection the server closed leaves the transport's socket open.
            ws = getattr(client.eio, "ws", None)
            try:
                client.disconnect()
            except Exception:  # noqa: BLE001 - a client of a dead server may already be gone
                pass
            if ws is not None:
                ws.shutdown()
        self.clients.clear()
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def crash_and_restart(self, downtime: float = 0.0) -> None:
        """SIGKILL the server mid-flight, as a power cut would, and start it again."""
        self.stop(signal.SIGKILL)
        time.sleep(downtime)
        self.start()

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""

    def user(self, username: str, register: bool = True) -> requests.Session:
        """A logged-in HTTP session for a new (or existing) user."""
        http = requests.Session()
        path = "/register" if register else "/login"
        page = http.get(self.url + path, timeout=10).text
        data = {"csrf_token": _TOKEN.search(page).group(1), "username": username,
                "password": PASSWORD, "confirm": PASSWORD}
        response = http.post(self.url + path, data=data, allow_redirects=False, timeout=10)
        assert response.status_code == 302, response.text
        return http

    def raw_socket(self, http: requests.Session, namespace: str) -> websocket.WebSocket:
        """Engine.IO/Socket.IO spoken by hand over a websocket, connected to `namespace`, so
        a test decides exactly what the client sends (pongs included) and when."""
        cookie = "; ".join(f"{c.name}={c.value}" for c in http.cookies)
        ws = websocket.create_connection(
            f"ws://127.0.0.1:{self.port}/socket.io/?EIO=4&transport=websocket",
            cookie=cookie, timeout=10)
        assert ws.recv().startswith("0")
        ws.send(f"40{namespace},")
        assert ws.recv().startswith(f"40{namespace},")
        return ws

    def connect(self, http: requests.Session, namespace: str, **kw: Any) -> LiveClient:
        """A real Socket.IO client carrying the user's session cookie."""
        client = LiveClient(namespace, **kw)
        cookie = "; ".join(f"{c.name}={c.value}" for c in http.cookies)
        client.connect(self.url, namespaces=[namespace], headers={"Cookie": cookie},
                       transports=["websocket"], wait_timeout=10)
        self.clients.append(client)
        return client


class InOrderEngineIOClient(engineio.Client):
    """Hands each message to its handlers on the read thread, in the order the messages came.
    python-engineio's client starts a thread per message (`run_async=True`), so under load
    two events that came close together, a move's `stone_placed` and the next one's, could be
    recorded in the other order: the order check below then failed a test (a browser test on
    a loaded machine read `stone_placed numbered N after N+1`) though the server had sent them
    in order. No handler of ours waits for another message, so none can block the reading."""

    def _trigger_event(self, event: str, *args: Any, **kwargs: Any) -> Any:
        if event == "message":
            kwargs["run_async"] = False
        return super()._trigger_event(event, *args, **kwargs)


class LiveClient(socketio.Client):
    """A python-socketio client that keeps every event it receives, for waiting on."""

    def _engineio_client_class(self) -> type[engineio.Client]:
        return InOrderEngineIOClient

    def __init__(self, namespace: str, **kw: Any) -> None:
        super().__init__(reconnection=False, **kw)
        self.namespace = namespace
        self.inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.seen: list[tuple[str, Any]] = []
        # Room events that came after one numbered higher (docs/protocol.md, "Numbered
        # events"): the live_server fixture fails a test that saw any.
        self.out_of_order: list[str] = []
        self._last_numbers: dict[int, int] = {}
        self.on("*", self._record, namespace=namespace)
        # The answers awaited by `ask`: a connection that drops wakes them all (python-socketio's
        # `call` would wait out its whole timeout, 30 s for each player of a killed process).
        self._asking: set[threading.Event] = set()
        self._asking_lock = threading.Lock()
        self.on("disconnect", self._dropped, namespace=namespace)

    def _record(self, event: str, data: Any = None) -> None:
        if isinstance(data, dict) and "v" in data:
            last = self._last_numbers.get(data["game_id"])
            if last is not None and (data["v"] < last or (
                    data["v"] == last and event != "stone_placed")):
                self.out_of_order.append(f"{event} numbered {data['v']} after {last}")
            self._last_numbers[data["game_id"]] = data["v"]
        self.inbox.put((event, data))

    def ask(self, event: str, data: Any = None, timeout: float = 10) -> Any:
        """The server's answer to `event`; TimeoutError after `timeout`, DisconnectedError as
        soon as the connection drops."""
        answered = threading.Event()
        answers: list[tuple[Any, ...]] = []

        def callback(*args: Any) -> None:
            answers.append(args)
            answered.set()

        with self._asking_lock:
            self._asking.add(answered)
        try:
            self.emit(event, data, namespace=self.namespace, callback=callback)
            if not answered.wait(timeout):
                raise socketio.exceptions.TimeoutError()
        finally:
            with self._asking_lock:
                self._asking.discard(answered)
        if not answers:
            raise socketio.exceptions.DisconnectedError(
                f"the connection dropped: no answer to {event!r}")
        args = answers[0]
        return args[0] if len(args) == 1 else (args or None)

    def _dropped(self, *_reason: Any) -> None:
        with self._asking_lock:
            for waiting in self._asking:
                waiting.set()

    def wait_for(self, event: str, timeout: float = 10) -> Any:
        """The next `event` (earlier ones already kept are used first)."""
        for index, (name, data) in enumerate(self.seen):
            if name == event:
                del self.seen[index]
                return data
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {event!r} within {timeout}s; saw {self.seen}")
            try:
                name, data = self.inbox.get(timeout=left)
            except queue.Empty:
                continue
            if name == event:
                return data
            self.seen.append((name, data))

    def has(self, event: str) -> bool:
        """Whether an `event` has come, without waiting (it stays kept for `wait_for`)."""
        while True:
            try:
                self.seen.append(self.inbox.get_nowait())
            except queue.Empty:
                break
        return any(name == event for name, _ in self.seen)

    def drain(self) -> list[tuple[str, Any]]:
        while True:
            try:
                self.seen.append(self.inbox.get_nowait())
            except queue.Empty:
                break
        drained, self.seen = self.seen, []
        return drained


# The live servers of the test running: their logs go into its report when it fails.
SERVERS = pytest.StashKey[list[LiveServer]]()
# How much of a server's log a failure report shows (its end).
LOG_SHOWN_CHARS = 100_000


def show_log_on_failure(item: pytest.Item, *servers: LiveServer) -> None:
    """Put the servers' logs in `item`'s report should it fail (pytest_runtest_makereport)."""
    item.stash.setdefault(SERVERS, []).extend(servers)


def _log_stacks(server: LiveServer) -> None:
    """Have the running `server` write its threads' stacks into its log, and wait for them."""
    assert server.process is not None
    before = server.log().count(stacks.END)
    if stacks.ask(server.process.pid):
        # A server whose main thread never runs Python again writes only the OS threads'
        # stacks, and no END line: 3 s is then waited in vain.
        wait_until(lambda: server.log().count(stacks.END) > before, timeout=3)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return  # a failure in set-up or tear-down already quotes the log
    for server in item.stash.get(SERVERS, []):
        code = server.process.poll() if server.process is not None else None
        if isinstance(server.process, ForkedProcess) and code is None:
            _log_stacks(server)
        text = server.log()
        if code is not None:  # a crash writes nothing of its own but faulthandler's lines
            text += f"\n[the server had exited, code {code}]"
        if len(text) > LOG_SHOWN_CHARS:
            text = f"[... the first {len(text) - LOG_SHOWN_CHARS} characters left out]\n" + \
                text[-LOG_SHOWN_CHARS:]
        report.sections.append((f"server log ({server.log_path})", text))


@pytest.fixture
def live_env() -> dict[str, str]:
    """Override in a test module to pass GOBANG_* settings to the live server."""
    return {}


def store_env(request: pytest.FixtureRequest) -> dict[str, str]:
    """GOBANG_TEST_LIVE_STORE=redis starts the server on the Redis store (a real Redis,
    emptied for each test; with PostgreSQL, as several processes need): one process of a
    cluster."""
    if os.environ.get("GOBANG_TEST_LIVE_STORE") != "redis":
        return {}
    return {"GOBANG_REDIS_URL": request.getfixturevalue("redis_server").url}


def async_mode_env() -> dict[str, str]:
    """GOBANG_TEST_ASYNC_MODE=threading starts the server in the second async mode
    (`python app.py --async-mode threading`, gobang/transport/threaded.py) instead of on
    eventlet; a test module's `live_env` still wins. Unset: eventlet, as deployed."""
    mode = os.environ.get("GOBANG_TEST_ASYNC_MODE")
    return {"GOBANG_ASYNC_MODE": mode} if mode else {}


@pytest.fixture
def live_server(
    tmp_path: Path, live_env: dict[str, str], databases: Databases,
    request: pytest.FixtureRequest,
) -> Iterator[LiveServer]:
    # A copy of the migrated template: the server finds its schema current (it still runs its
    # migrations' check at start-up). A first install on an empty database has its own test
    # (tests/live/test_first_start.py); building it for every test cost 0.3-0.4 s a start.
    database_url = databases.fresh(tmp_path)
    server = LiveServer(tmp_path, {**async_mode_env(), **store_env(request), **live_env},
                        database_url)
    show_log_on_failure(request.node, server)
    server.start()
    yield server
    server.stop()
    databases.drop(database_url)
    assert "Traceback" not in server.log(), server.log()
    assert server.out_of_order == []
