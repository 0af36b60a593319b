"""Several processes: the bench's cluster, and the failover measurement.

    bash .ci/with-postgres .venv/bin/python bench/cluster.py failover --runs 10
    .venv/bin/python bench/load.py --processes 4 --scenario matching   (re-runs itself under
                                                                         .ci/with-postgres)

The cluster is the tests' own (tests/support/cluster.py): N `python app.py` processes sharing
one PostgreSQL database (from .ci/with-postgres: GOBANG_TEST_DATABASE_URL) and one Redis
(tests/support/redis.py), behind one nginx that sends `/socket.io/` to any process and
`/pN/socket.io/` to process N. `ClusterServer` gives it the face of bench/load.py's Server, so
the load scenarios run unchanged against it: its RSS and CPU are the processes' sums.
`ProxiedServer` is one process as docs/deploy.md sets it up (nginx, PostgreSQL, no Redis):
the baseline `--scenario single --processes N` compares the cluster with.

`failover`: two players in a game on the cluster make a few moves; the process that owns the
game is killed (SIGKILL); each player then does what the room page does (join again through
the one path, follow `moved`, wait out `conflict` while the lease runs out) and moves again.
The time measured is from the kill until both players have each had a move acknowledged on
the game's new process; every move acknowledged before the kill must be in the state the
new process answers with, and in the database at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.cluster import Cluster, owner_of  # noqa: E402
from tests.support.databases import SERVER_ENV, PostgresDatabases  # noqa: E402
from tests.support.nginx import Nginx  # noqa: E402
from tests.support.redis import RedisServer  # noqa: E402

WITH_POSTGRES = ROOT / ".ci" / "with-postgres"
# What the cluster's processes get beside the tests' own settings: bench/load.py's FAST_HASH,
# GAME_ENV and quiet logs.
BENCH_ENV = {"GOBANG_ARGON2_MEMORY_KIB": "1024", "GOBANG_ARGON2_TIME_COST": "1",
             "GOBANG_ARGON2_PARALLELISM": "1", "GOBANG_ABORT_SECONDS": "3600",
             "GOBANG_LOG_LEVEL": "WARNING"}


def under_postgres(argv: list[str]) -> None:
    """Without a PostgreSQL server, run this very command again under .ci/with-postgres."""
    if os.environ.get(SERVER_ENV):
        return
    os.execv(str(WITH_POSTGRES), [str(WITH_POSTGRES), sys.executable, *argv])


def bench_database(what: str, prefix: str) -> tuple[Path, PostgresDatabases, str]:
    """A working directory and an empty PostgreSQL database of the bench's own, named apart
    from a test session's (whose clean-up would otherwise drop them)."""
    server_url = os.environ.get(SERVER_ENV)
    if not server_url:
        raise RuntimeError(f"{what} needs PostgreSQL: {SERVER_ENV} (run under .ci/with-postgres)")
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    databases = PostgresDatabases(
        server_url, prefix=f"gobang_bench_{os.getpid()}_{secrets.token_hex(3)}")
    return workdir, databases, databases.empty(workdir)


class ClusterServer:
    """A cluster of `size` processes, shaped as bench/load.py's Server (kind "app")."""

    kind = "app"

    def __init__(self, size: int, env: dict[str, str] | None = None,
                 worker_connections: int = 1024) -> None:
        self.workdir, self.databases, self.database_url = bench_database(
            "several processes", "gobang-bench-cluster-")
        self.redis = RedisServer(self.workdir)
        self.cluster = Cluster(self.workdir, self.database_url, self.redis, size,
                               {**BENCH_ENV, **(env or {})}, worker_connections)
        self.url = self.cluster.url

    def start(self) -> ClusterServer:
        self.redis.start()
        try:
            self.cluster.start_all()
        except BaseException:
            self.stop()
            raise
        return self

    def _processes(self) -> list[psutil.Process]:
        found = []
        for server in self.cluster.servers:
            if server.process is not None and server.process.poll() is None:
                found.append(psutil.Process(server.process.pid))
        return found

    def rss_each(self) -> list[int]:
        return [p.memory_info().rss for p in self._processes()]

    def rss(self) -> int:
        return sum(self.rss_each())

    def cpu_seconds(self) -> float:
        return sum(sum(p.cpu_times()[:2]) for p in self._processes())

    def children(self) -> list[psutil.Process]:
        return [c for p in self._processes() for c in p.children(recursive=True)]

    def children_rss(self) -> int:
        return sum(c.memory_info().rss for c in self.children())

    def children_cpu_seconds(self) -> float:
        return sum(sum(c.cpu_times()[:2]) for c in self.children())

    def log(self) -> str:
        return "\n".join(server.log() for server in self.cluster.servers)

    def query(self, sql: str, rows: list[dict[str, Any]] | None = None) -> list[tuple]:
        """SQL on the cluster's database, committed; the rows it returns, if any."""
        from sqlalchemy import create_engine, text
        from sqlalchemy.pool import NullPool

        engine = create_engine(self.database_url, poolclass=NullPool)
        try:
            with engine.begin() as connection:
                result = connection.execute(text(sql), rows) if rows else connection.execute(
                    text(sql))
                return [tuple(row) for row in result] if result.returns_rows else []
        finally:
            engine.dispose()

    def stop(self) -> None:
        self.cluster.stop()
        self.redis.stop()
        self.databases.drop(self.database_url)
        self.databases.close()
        if os.environ.get("BENCH_KEEP") != "1":
            import shutil

            shutil.rmtree(self.workdir, ignore_errors=True)


class ProxiedServer:
    """One `python app.py` as docs/deploy.md sets one up: nginx in front (deploy/nginx/
    gobang-proxy.conf), PostgreSQL, the in-process live store (no Redis). The baseline a
    cluster's figures are compared with: what several processes add, and nothing else.
    `make_server(env)` is bench/load.py's Server("app") with those settings (so
    BENCH_APP_SCRIPT picks the build); RSS and CPU are its own."""

    kind = "app"

    def __init__(self, make_server: Callable[[dict[str, str]], Any]) -> None:
        self.workdir, self.databases, self.database_url = bench_database(
            "the baseline behind nginx", "gobang-bench-proxied-")
        self.server = make_server({"GOBANG_DATABASE_URL": self.database_url,
                                   "GOBANG_PROXY_FIX": "1"})
        self.nginx: Nginx | None = None
        self.url = ""

    def start(self) -> ProxiedServer:
        try:
            self.server.start()
            prefix = self.workdir / "nginx"
            prefix.mkdir()
            self.nginx = Nginx(prefix, self.server.port)
            self.nginx.start()
        except BaseException:
            self.stop()
            raise
        self.url = self.nginx.url
        return self

    def __getattr__(self, name: str) -> Any:
        # rss, cpu_seconds, children..., log: the app process's own.
        return getattr(self.server, name)

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        self.server.stop()
        self.databases.drop(self.database_url)
        self.databases.close()
        if os.environ.get("BENCH_KEEP") != "1":
            import shutil

            shutil.rmtree(self.workdir, ignore_errors=True)


# --- failover -------------------------------------------------------------------------------

MOVES_BEFORE = 4
# A few points far from one another: no five in the moves of a run.
POINTS = [(7, 7), (0, 0), (7, 9), (0, 14), (9, 7), (14, 0), (9, 9), (14, 14)]


def matched(cluster: Cluster, black_name: str, white_name: str):
    """Two new users press Match in the hall (through nginx); their game's id and who plays
    black: (game_id, [black http, white http])."""
    users = [cluster.user(black_name), cluster.user(white_name)]
    halls = [cluster.connect(http, "/hall") for http in users]
    for hall in halls:
        answer = hall.ask("start_match", {})
        if not answer.get("ok"):
            raise RuntimeError(f"start_match: {answer}")
    found = [hall.wait_for("match_found", timeout=30) for hall in halls]
    for hall in halls:
        hall.disconnect()
    if found[0]["color"] == "white":
        users.reverse()
    return found[0]["game_id"], users


def place(room, game_id: int, point: tuple[int, int]) -> dict[str, Any]:
    return room.ask("place_stone", {"game_id": game_id, "row": point[0], "col": point[1]},
                    timeout=15)


def one_failover(server: ClusterServer, run: int) -> dict[str, Any]:
    cluster = server.cluster
    game_id, users = matched(cluster, f"fa{run}", f"fb{run}")
    rooms = [cluster.join(http, game_id, timeout=30)[0] for http in users]
    acked = []
    for number in range(MOVES_BEFORE):
        answer = place(rooms[number % 2], game_id, POINTS[number])
        if answer != {"ok": True}:
            raise RuntimeError(f"move {number + 1} before the kill: {answer}")
        acked.append(list(POINTS[number]))
    owner = owner_of(cluster.redis, game_id)
    if owner is None:
        raise RuntimeError(f"game {game_id} has no owner")
    killed_at = time.monotonic()
    cluster.kill(owner)
    # Both players at once, as two browsers would: join again, then each moves in turn.
    states: list[dict[str, Any] | None] = [None, None]
    rejoined: list[Any] = [None, None]
    failures: list[str] = []

    def rejoin(index: int) -> None:
        try:
            rejoined[index], states[index], _path = cluster.join(users[index], game_id,
                                                                 timeout=30)
        except Exception as exc:  # noqa: BLE001 - reported in the run's result
            failures.append(f"{type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=rejoin, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise RuntimeError(f"run {run}: {failures}")
    joined_at = time.monotonic()
    lost = [m for m in acked if m not in [list(p[:2]) for p in states[0]["moves"]]]
    for number in range(MOVES_BEFORE, MOVES_BEFORE + 2):
        answer = place(rejoined[number % 2], game_id, POINTS[number])
        if answer != {"ok": True}:
            raise RuntimeError(f"run {run}: move {number + 1} after the kill: {answer}")
    moving_at = time.monotonic()
    new_owner = owner_of(cluster.redis, game_id)
    record = users[0].get(f"{cluster.url}/api/games/{game_id}", timeout=10).json()
    for room in rejoined:
        room.disconnect()
    cluster.server(owner).start()  # back for the next run
    return {"game_id": game_id, "owner": owner, "new_owner": new_owner,
            "rejoined_s": round(joined_at - killed_at, 3),
            "moving_s": round(moving_at - killed_at, 3),
            "acked_before_kill": len(acked), "lost_after_rejoin": len(lost),
            "moves_in_database": len(record["moves"])}


def failover(runs: int, size: int = 2) -> dict[str, Any]:
    server = ClusterServer(size).start()
    results = []
    try:
        for run in range(runs):
            results.append(one_failover(server, run))
            print("failover run", run, json.dumps(results[-1]), file=sys.stderr, flush=True)
        tracebacks = server.log().count("Traceback")
    finally:
        server.stop()
    times = [r["moving_s"] for r in results]
    return {"processes": size, "runs": runs, "moves_before_kill": MOVES_BEFORE,
            "moving_again_s": {"p50": round(statistics.median(times), 3),
                               "max": round(max(times), 3)},
            "rejoined_s_p50": round(statistics.median(r["rejoined_s"] for r in results), 3),
            "acked_moves_lost": sum(r["lost_after_rejoin"] for r in results),
            "database_short": sum(1 for r in results
                                  if r["moves_in_database"] != MOVES_BEFORE + 2),
            "moved_elsewhere": sum(1 for r in results if r["new_owner"] != r["owner"]),
            "server_log_tracebacks": tracebacks, "runs_detail": results}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("measure", choices=["failover"])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--json", type=Path, help="append the report as one JSON line")
    args = parser.parse_args(argv)
    if argv is None:
        under_postgres([str(Path(__file__).resolve()), *sys.argv[1:]])
    from bench.load import emit

    return emit("bench/cluster.py", "failover", argv, args.json,
                failover(args.runs, args.processes))


if __name__ == "__main__":
    main()
