"""Several real server processes sharing one PostgreSQL and one Redis, behind one nginx that
sends `/` and `/socket.io/` to any of them and `/pN/socket.io/` to process N.

PostgreSQL comes from .ci/with-postgres (GOBANG_TEST_DATABASE_URL): several processes refuse
SQLite. Without it these tests skip, and fail when GOBANG_REQUIRE_CLUSTER=1 (CI's PostgreSQL
pass).
"""

from __future__ import annotations

import math
import os
import resource
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests
import socketio

from tests.support.databases import Databases
from tests.support.live import LiveClient, LiveServer, show_log_on_failure, wait_until
from tests.support.nginx import DEPLOY, Nginx, _temp_paths
from tests.support.redis import RedisServer
from tests.support.required import missing

REQUIRE_ENV = "GOBANG_REQUIRE_CLUSTER"
DEFAULT_PATH = "socket.io"


def require_postgres(databases: Databases) -> None:
    if type(databases).__name__ != "PostgresDatabases":
        missing("several processes need PostgreSQL: run under .ci/with-postgres", REQUIRE_ENV)


def nginx_workers(connections: int, hard_limit: int | None = None) -> tuple[int, int]:
    """nginx workers for `connections` at once, and the connections each may hold.

    Each proxied websocket holds two connections, and two descriptors, in the worker that
    accepted it, and a worker cannot hold more descriptors than the hard limit on open files
    (raising it needs a privilege containers often lack: nginx logs `setrlimit ... failed`).
    With `reuseport` the kernel spreads new connections over the workers by a hash, not
    evenly, so each is planned to fill only half of what it may hold."""
    if hard_limit is None:
        hard_limit = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard_limit == resource.RLIM_INFINITY:
        return 1, connections
    per_worker = hard_limit - 64
    if connections <= per_worker:
        return 1, connections
    return math.ceil(connections / (per_worker // 2)), per_worker


def cluster_nginx_config(prefix: Path, port: int, app_ports: list[int],
                         worker_connections: int = 1024) -> str:
    user = "user root;\n" if os.geteuid() == 0 else ""
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;"
                        for p in app_ports)
    # Each process's own path, the prefix dropped on the way: the app serves /socket.io/.
    own = "\n".join(f"""        location /p{n}/socket.io/ {{
            proxy_pass http://127.0.0.1:{p}/socket.io/;
            include {DEPLOY / "gobang-process.conf"};
        }}""" for n, p in enumerate(app_ports, start=1))
    workers, per_worker = nginx_workers(worker_connections)
    reuseport = " reuseport" if workers > 1 else ""
    return f"""{user}worker_processes {workers};
worker_rlimit_nofile {per_worker + 64};
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} info;
events {{ worker_connections {per_worker}; }}
http {{
    access_log {prefix / "access.log"};
{_temp_paths(prefix)}
    upstream gobang_app {{
{servers}
    }}
    server {{
        listen 127.0.0.1:{port}{reuseport};
{own}
        include {DEPLOY / "gobang-proxy.conf"};
    }}
}}
"""


class ClusterNginx(Nginx):
    def __init__(self, prefix: Path, app_ports: list[int],
                 worker_connections: int = 1024) -> None:
        super().__init__(prefix, app_ports[0])
        self.conf.write_text(cluster_nginx_config(prefix, self.port, app_ports,
                                                  worker_connections))


class Cluster:
    def __init__(self, root: Path, database_url: str, redis: RedisServer, size: int,
                 env: dict[str, str], worker_connections: int = 1024) -> None:
        self.redis = redis
        self.database_url = database_url
        self.servers: list[LiveServer] = []
        for number in range(1, size + 1):
            workdir = root / f"p{number}"
            workdir.mkdir()
            self.servers.append(LiveServer(workdir, {
                "GOBANG_REDIS_URL": redis.url, "GOBANG_PROCESS_NAME": f"p{number}",
                "GOBANG_PROCESS_SOCKET_PATH": f"/p{number}/socket.io",
                "GOBANG_PROXY_FIX": "1", **env,
            }, database_url))
        prefix = root / "nginx"
        prefix.mkdir()
        self.nginx = ClusterNginx(prefix, [s.port for s in self.servers], worker_connections)
        self.url = self.nginx.url
        self.clients: list[LiveClient] = []

    def start_all(self) -> None:
        """The first process builds the schema, then the others (several migrating one
        database would race), then nginx."""
        self.servers[0].start()
        for server in self.servers[1:]:
            server.env["GOBANG_AUTO_MIGRATE"] = "0"
        self.start_rest()

    def start_together(self) -> None:
        """Every process at once (on a database already migrated), then nginx."""
        with ThreadPoolExecutor(max_workers=len(self.servers)) as pool:
            list(pool.map(LiveServer.start, self.servers))
        self.nginx.start()

    def start_rest(self) -> None:
        """Every process not yet running, then nginx."""
        for server in self.servers:
            if server.process is None:
                server.start()
        self.nginx.start()

    def stop(self) -> None:
        for client in self.clients:
            try:
                client.disconnect()
            except Exception:  # noqa: BLE001 - its process may be dead
                pass
        for server in self.servers:
            server.stop()
        self.nginx.stop()

    def kill(self, name: str) -> None:
        self.server(name).stop(signal.SIGKILL)

    def server(self, name: str) -> LiveServer:
        return self.servers[int(name.removeprefix("p")) - 1]

    def user(self, username: str) -> requests.Session:
        return self.servers[0].user(username)

    def connect(self, http: requests.Session, namespace: str,
                path: str = DEFAULT_PATH) -> LiveClient:
        """A client through nginx: `path` "socket.io" reaches any process."""
        client = LiveClient(namespace)
        cookie = "; ".join(f"{c.name}={c.value}" for c in http.cookies)
        client.connect(self.url, namespaces=[namespace], headers={"Cookie": cookie},
                       transports=["websocket"], socketio_path=path, wait_timeout=5)
        self.clients.append(client)
        return client

    def join(self, http: requests.Session, game_id: int, timeout: float = 15,
             via: str = DEFAULT_PATH) -> tuple[LiveClient, dict[str, Any], str]:
        """What the room page does (join_following_moves), through the site's one path or
        `via`, e.g. "p2/socket.io", one process's own."""
        return join_following_moves(self.connect, http, game_id, via, timeout)


def join_following_moves(connect: Callable[[requests.Session, str, str], LiveClient],
                         http: requests.Session, game_id: int, via: str,
                         timeout: float) -> tuple[LiveClient, dict[str, Any], str]:
    """What the room page does: join through `via`, follow `moved` to the game's process, and
    start again from `via` when that process is not there (yet) or the game is between
    processes (a game whose process died is adopted after its lease runs out: `conflict`
    until then). Returns the room client, join_game's state and the path it reached.
    `connect(http, namespace, path)` opens a client."""
    tried: dict[str, Any] = {"path": via, "last": None, "joined": None}

    def joined() -> bool:
        try:
            client = connect(http, "/room", tried["path"])
        except socketio.exceptions.ConnectionError as error:
            tried.update(path=via, last=error)
            return False
        ack = client.ask("join_game", {"game_id": game_id})
        if ack.get("ok"):
            tried["joined"] = (client, ack["state"], tried["path"])
            return True
        client.disconnect()
        assert ack.get("error") in ("moved", "conflict"), f"join_game refused: {ack}"
        moved = ack["error"] == "moved"
        tried.update(path=ack["path"].strip("/") if moved else via, last=ack)
        return False

    if not wait_until(joined, timeout):
        raise AssertionError(f"could not join game {game_id} within {timeout}s: {tried['last']}")
    return tried["joined"]


def owner_of(redis: RedisServer, game_id: int) -> str | None:
    value = redis.client().get(f"gobang:lease:game:{game_id}")
    return value.decode() if value is not None else None


@pytest.fixture
def cluster_env() -> dict[str, str]:
    return {}


@pytest.fixture
def cluster_of(tmp_path: Path, databases: Databases, redis_server: RedisServer,
               cluster_env: dict[str, str],
               request: pytest.FixtureRequest) -> Iterator[Callable[[int], Cluster]]:
    """Starts a cluster of `size` processes (one per test)."""
    require_postgres(databases)
    # A copy of the migrated template, as a live server's: the processes find the schema
    # current, so they may all start at once (several migrating an empty database would race:
    # Cluster.start_all, for the bench, migrates with the first one).
    database_url = databases.fresh(tmp_path)
    started: list[Cluster] = []

    def start(size: int) -> Cluster:
        found = Cluster(tmp_path, database_url, redis_server, size, cluster_env)
        show_log_on_failure(request.node, *found.servers)
        started.append(found)
        found.start_together()
        return found

    yield start
    for found in started:
        found.stop()
    databases.drop(database_url)
    for found in started:
        for server in found.servers:
            assert "Traceback" not in server.log(), server.log()
        # Room events reach each client in the order they are numbered (docs/protocol.md),
        # across a game's move from one process to another too.
        assert [issue for client in found.clients for issue in client.out_of_order] == []


@pytest.fixture
def cluster(cluster_of: Callable[[int], Cluster]) -> Cluster:
    return cluster_of(2)
