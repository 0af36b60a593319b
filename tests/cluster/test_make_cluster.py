"""`make cluster`'s script: processes behind nginx, each one's own Socket.IO path, and Ctrl-C
stops everything it started (PostgreSQL and Redis included); a process killed meanwhile is
started again under its name while its games go on elsewhere."""

from __future__ import annotations

import glob
import importlib.util
import os
import queue
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.support.cluster import join_following_moves
from tests.support.games import BLACK_FIVE
from tests.support.live import PASSWORD, ROOT, LiveClient, wait_until
from tests.support.nginx import nginx_binary

URL_LINE = re.compile(r"^Gobang: (http://127\.0\.0\.1:\d+)/ ")
# Every process the cluster starts inherits its environment, wherever it ends up.
MARK = "GOBANG_CLUSTER_TEST_MARK"
HANDSHAKE = "EIO=4&transport=polling"
# The script starts its own PostgreSQL and Redis, whatever the pass.
pytestmark = [pytest.mark.own_servers]
TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


class Cluster:
    def __init__(self, processes: int) -> None:
        self.mark = secrets.token_hex(8)
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("GOBANG_")},
               MARK: self.mark}
        # A session of its own: our SIGINT is the terminal's Ctrl-C to that session's group.
        self.process = subprocess.Popen(
            [sys.executable, "deploy/cluster/cluster.py", "--processes", str(processes),
             "--port", "0"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            line = raw.decode(errors="replace")
            self.output.append(line)
            self.lines.put(line)

    def url(self, timeout: float = 180) -> str:
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                pytest.fail("no URL printed:\n" + "".join(self.output))
            if found := URL_LINE.match(line):
                return found.group(1)

    def wait_for_line(self, line: str, timeout: float = 60) -> bool:
        """Whether the cluster printed `line` within `timeout` seconds."""
        return wait_until(lambda: line in self.output, timeout)

    def ctrl_c(self) -> int:
        os.killpg(self.process.pid, signal.SIGINT)
        return self.process.wait(timeout=60)

    def survivors(self) -> dict[int, str]:
        """Processes still carrying this cluster's mark in their environment, and their
        children (nginx writes its title over its environment, mark included): pid, command."""
        needle = f"{MARK}={self.mark}".encode()
        marked, parents, commands = set(), {}, {}
        for path in map(Path, glob.glob("/proc/[0-9]*")):
            try:
                stat = (path / "stat").read_text()
                commands[int(path.name)] = (path / "cmdline").read_bytes().replace(b"\0", b" ")
                parents[int(path.name)] = int(stat.rsplit(")", 1)[1].split()[1])
                if needle in (path / "environ").read_bytes().split(b"\0"):
                    marked.add(int(path.name))
            except (OSError, ValueError):  # gone meanwhile, or not ours to read
                continue
        found = set(marked)
        while grown := {pid for pid, parent in parents.items()
                        if parent in found and pid not in found}:
            found |= grown
        return {pid: commands[pid].decode(errors="replace") for pid in found}

    def kill_survivors(self) -> None:
        for pid in self.survivors():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    nginx_binary()  # skips (or fails in CI) without nginx
    if not glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"):
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    started = Cluster(processes=2)
    yield started
    if started.process.poll() is None:  # the test failed before its Ctrl-C
        try:
            started.ctrl_c()
        except subprocess.TimeoutExpired:
            started.process.kill()
            started.process.wait()
    started.kill_survivors()
    started.reader.join(timeout=10)
    started.process.stdout.close()


def handshake(url: str) -> str:
    """An engine.io long-polling open packet from `url`; its session id."""
    answer = requests.get(f"{url}?{HANDSHAKE}", timeout=10)
    assert answer.status_code == 200 and answer.text.startswith("0{"), answer.text
    return re.search(r'"sid":"([^"]+)"', answer.text).group(1)


def post(url: str, sid: str) -> int:
    return requests.post(f"{url}?{HANDSHAKE}&sid={sid}", data="40/hall,", timeout=10).status_code


@pytest.mark.live
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_cluster_serves_each_process_through_nginx_and_stops_on_ctrl_c(cluster):
    url = cluster.url()
    assert requests.get(f"{url}/healthz", timeout=10).json() == {"status": "ok"}
    own_paths = [f"{url}/p1/socket.io/", f"{url}/p2/socket.io/"]
    sessions = [handshake(path) for path in own_paths]
    # Each path reaches one process: its session goes on there, and is unknown at the other.
    assert [post(path, sid) for path, sid in zip(own_paths, sessions, strict=True)] == [200, 200]
    assert post(own_paths[1], sessions[0]) == 400
    assert post(own_paths[0], sessions[1]) == 400
    assert cluster.survivors()  # the mark finds the cluster's processes

    assert cluster.ctrl_c() == 0
    assert cluster.survivors() == {}


# --- A process killed while games are in play -------------------------------------------------

RECOVERY_SECONDS = 15
PLAYED_BEFORE_KILL = 4  # moves of BLACK_FIVE acknowledged before the kill


@dataclass
class Table:
    """One game through nginx: its players' HTTP sessions and room connections (black's
    first), the path its process was reached by, and the moves acknowledged so far."""

    game_id: int
    https: list[requests.Session]
    rooms: list[LiveClient] = field(default_factory=list)
    path: str = ""
    acked: list[list[int]] = field(default_factory=list)

    def place(self, count: int) -> None:
        for row, col in BLACK_FIVE[len(self.acked):len(self.acked) + count]:
            ack = self.rooms[len(self.acked) % 2].ask(
                "place_stone", {"game_id": self.game_id, "row": row, "col": col})
            assert ack == {"ok": True}, (self.game_id, ack)
            self.acked.append([row, col])


class Site:
    """What a browser does, through the cluster's nginx: register, open the hall and a game's
    room; every Socket.IO connection is kept, to be closed at the end."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.clients: list[LiveClient] = []

    def register(self, username: str) -> requests.Session:
        http = requests.Session()
        page = http.get(f"{self.url}/register", timeout=10).text
        data = {"csrf_token": TOKEN.search(page).group(1), "username": username,
                "password": PASSWORD, "confirm": PASSWORD}
        answer = http.post(f"{self.url}/register", data=data, allow_redirects=False, timeout=30)
        assert answer.status_code == 302, answer.text
        return http

    def connect(self, http: requests.Session, namespace: str, path: str) -> LiveClient:
        client = LiveClient(namespace)
        cookie = "; ".join(f"{c.name}={c.value}" for c in http.cookies)
        client.connect(self.url, namespaces=[namespace], headers={"Cookie": cookie},
                       transports=["websocket"], socketio_path=path, wait_timeout=5)
        self.clients.append(client)
        return client

    def challenge(self, black: requests.Session, white: requests.Session) -> Table:
        """`black` challenges `white` from the hall, who accepts: a new game (colours are
        drawn, so the table says who is black)."""
        halls = [self.connect(http, "/hall", "socket.io") for http in (black, white)]
        for hall in halls:
            hall.wait_for("hello")
        named = white.get(f"{self.url}/api/me", timeout=10).json()["username"]
        assert halls[0].ask("challenge", {"username": named})["ok"]
        received = halls[1].wait_for("challenge_received")
        assert halls[1].ask("answer_challenge", {
            "challenge_id": received["challenge_id"], "accept": True})["ok"]
        found = [hall.wait_for("match_found") for hall in halls]
        for hall in halls:
            hall.disconnect()
        by_color = {found[0]["color"]: black, found[1]["color"]: white}
        return Table(found[0]["game_id"], [by_color["black"], by_color["white"]])

    def join(self, http: requests.Session, game_id: int, via: str,
             deadline: float) -> tuple[LiveClient, dict[str, Any], str]:
        """What the room page does, through nginx (tests/support/cluster.py)."""
        return join_following_moves(self.connect, http, game_id, via,
                                    deadline - time.monotonic())

    def sit(self, table: Table, via: str, timeout: float) -> dict[str, Any]:
        """Both players in the game's room (black first, through `via`); black's state."""
        deadline = time.monotonic() + timeout
        black, state, table.path = self.join(table.https[0], table.game_id, via, deadline)
        white, _state, _path = self.join(table.https[1], table.game_id, table.path, deadline)
        table.rooms = [black, white]
        return state

    def close(self) -> None:
        for client in self.clients:
            # A connection whose process was killed leaves the transport's socket open.
            ws = getattr(client.eio, "ws", None)
            try:
                client.disconnect()
            except Exception:  # noqa: BLE001 - its process may be dead
                pass
            if ws is not None:
                ws.shutdown()


@pytest.fixture
def site(cluster: Cluster) -> Iterator[Site]:
    found = Site(cluster.url())
    yield found
    found.close()


def app_pids(cluster: Cluster, name: str) -> list[int]:
    """The pids of the cluster's app processes called `name` (GOBANG_PROCESS_NAME)."""
    needle = f"GOBANG_PROCESS_NAME={name}".encode()
    found = []
    for pid, command in cluster.survivors().items():
        try:
            if "app.py" in command and needle in Path(
                    f"/proc/{pid}/environ").read_bytes().split(b"\0"):
                found.append(pid)
        except OSError:  # gone meanwhile
            continue
    return found


def kill_app(cluster: Cluster, name: str) -> int:
    """SIGKILL to the app process `name`, as the kernel's OOM killer would; its pid."""
    [pid] = app_pids(cluster, name)
    os.kill(pid, signal.SIGKILL)
    return pid


@pytest.mark.live
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_killed_process_is_restarted_under_its_name_and_its_games_go_on(cluster, site):
    players = [site.register(name) for name in ("ann", "ben", "cat", "dan", "eve", "fay")]
    tables = [site.challenge(players[i], players[i + 1]) for i in range(0, 6, 2)]
    # The first to join a new game takes it on the process they reached: p2, p1, p2.
    for table, via in zip(tables, ("p2/socket.io", "p1/socket.io", "p2/socket.io"), strict=True):
        site.sit(table, via, timeout=15)
        table.place(PLAYED_BEFORE_KILL)
    assert {table.path for table in tables} == {"p1/socket.io", "p2/socket.io"}
    killed_port = re.search(r"p2 on 127\.0\.0\.1:(\d+)", "".join(cluster.output)).group(1)

    killed = kill_app(cluster, "p2")
    killed_at = time.monotonic()
    # The game on p1 goes on at once; those on p2 once their players are back, as the room
    # page brings them: on p1 after p2's leases run out, or on p2 if it is back first.
    for table in sorted(tables, key=lambda table: table.path.startswith("p2/")):
        if table.path.startswith("p2/"):
            state = site.sit(table, "socket.io", timeout=RECOVERY_SECONDS)
            assert state["moves"] == table.acked
        table.place(1)
    moved_again = time.monotonic() - killed_at
    print(f"every game took a move again {moved_again:.1f} s after the kill")
    assert moved_again < RECOVERY_SECONDS

    assert cluster.wait_for_line(f"cluster: p2 is back on 127.0.0.1:{killed_port}\n")
    assert "cluster: p2 exited (-9); restarting\n" in cluster.output
    assert app_pids(cluster, "p2") not in ([], [killed])
    handshake(f"{site.url}/p2/socket.io/")
    for table in tables:
        table.place(len(BLACK_FIVE) - len(table.acked))
        assert table.rooms[1].wait_for("game_over")["result"]["winner"] == "black"
        record = table.https[0].get(f"{site.url}/api/games/{table.game_id}", timeout=10).json()
        assert (record["status"], record["moves"]) == ("finished", table.acked)
        # Written once: each player's counters hold this one game.
        me = [http.get(f"{site.url}/api/me", timeout=10).json() for http in table.https]
        assert [(m["games"], m["wins"], m["losses"]) for m in me] == [(1, 1, 0), (1, 0, 1)]


@pytest.mark.live
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_ctrl_c_while_a_process_is_restarted_stops_it_too(cluster):
    cluster.url()
    killed = kill_app(cluster, "p2")
    assert cluster.wait_for_line("cluster: p2 exited (-9); restarting\n")
    # The new p2 runs and is still starting (it takes seconds to answer its /healthz).
    assert wait_until(lambda: app_pids(cluster, "p2") not in ([], [killed]), 10)
    assert not any(line.startswith("cluster: p2 is back") for line in cluster.output)

    assert cluster.ctrl_c() == 0
    assert cluster.survivors() == {}


def nginx_masters(cluster: Cluster) -> list[int]:
    return [pid for pid, command in cluster.survivors().items()
            if command.startswith("nginx: master")]


@pytest.mark.live
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_killed_nginx_is_restarted_on_its_port(cluster):
    url = cluster.url()
    [master] = nginx_masters(cluster)
    # Its worker outlives it, holding the port: the new nginx can listen only once it is gone.
    os.kill(master, signal.SIGKILL)
    port = url.rsplit(":", 1)[1]
    assert cluster.wait_for_line(f"cluster: nginx is back on 127.0.0.1:{port}\n")
    assert "cluster: nginx exited (-9); restarting\n" in cluster.output
    assert requests.get(f"{url}/healthz", timeout=10).json() == {"status": "ok"}


@pytest.mark.live
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_clean_stop_is_not_restarted_and_the_rest_goes_on(cluster):
    url = cluster.url()
    [master] = nginx_masters(cluster)
    [app] = app_pids(cluster, "p2")
    os.kill(app, signal.SIGTERM)  # a clean stop for systemd, as exit status 0 is
    assert cluster.wait_for_line(
        "cluster: p2 exited (-15), a clean stop; not restarting it (Restart=on-failure; "
        "Ctrl-C stops the rest)\n")
    assert app_pids(cluster, "p2") == []
    assert requests.get(f"{url}/healthz", timeout=10).json() == {"status": "ok"}  # p1's
    os.kill(master, signal.SIGQUIT)  # nginx's graceful stop: exit status 0
    assert cluster.wait_for_line(
        "cluster: nginx exited (0), a clean stop; not restarting it (Restart=on-failure; "
        "Ctrl-C stops the rest)\n")
    assert nginx_masters(cluster) == []
    assert len(app_pids(cluster, "p1")) == 1
    assert cluster.ctrl_c() == 0
    assert cluster.survivors() == {}


def cluster_script() -> Any:
    spec = importlib.util.spec_from_file_location("cluster_script",
                                                  ROOT / "deploy" / "cluster" / "cluster.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("code", "restarted"), [
    (0, False), (1, True), (2, True), (-signal.SIGKILL, True), (-signal.SIGSEGV, True),
    (-signal.SIGABRT, True), (-signal.SIGTERM, False), (-signal.SIGINT, False),
    (-signal.SIGHUP, False), (-signal.SIGPIPE, False),
])
def test_a_process_is_restarted_only_after_a_failure_as_restart_on_failure_has_it(
        code: int, restarted: bool) -> None:
    assert cluster_script().failed(code) is restarted


def test_a_port_already_taken_stops_the_cluster_before_anything_starts():
    """Whoever holds nginx's port would otherwise answer its health check: the cluster took
    a Gobang process listening there for its nginx (a CI run's /p1/socket.io/ was a 404)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "deploy/cluster/cluster.py", "--external", "--processes", "1",
             "--port", str(port)], cwd=ROOT, capture_output=True, text=True, timeout=60,
            env={**os.environ, "GOBANG_DATABASE_URL": "", "GOBANG_REDIS_URL": ""})
    assert done.returncode == 1
    assert f"cluster: port {port} is taken" in done.stdout
