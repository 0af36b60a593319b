"""Live servers forked from a process that has imported the web stack once.

Starting `python app.py` costs 2.3-2.6 s, most of it importing Flask, SQLAlchemy, Socket.IO
and the app (docs/testing.md, "Where the time goes"). A test session starts hundreds. Here one
process per test worker (the fork server) patches eventlet and imports all that once, as
app.py would, and forks a child per server: the child takes the test's environment, its log
file and arguments, and runs app.py as `python app.py` would from there on (its allocator is
the fork server's, which starts as app.py makes itself start: PYTHONMALLOC=malloc and
jemalloc where installed). A server in another async mode than eventlet is started the plain
way (LiveServer).

The fork server reads requests as JSON lines on its standard input and answers on its standard
output; it reaps its children and says how each ended. When the test process goes away (its
end of the pipe closes) the fork server kills the children it still has and ends.
"""

from __future__ import annotations

import ctypes.util
import importlib
import json
import os
import pkgutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def fork_server_env(base: dict[str, str]) -> dict[str, str]:
    """The environment app.py would give itself before its imports (its allocator, psycopg's
    wait through eventlet's hub), for the fork server and so for every child."""
    env = dict(base)
    env.setdefault("PYTHONMALLOC", "malloc")
    if not env.get("LD_PRELOAD"):
        found = ctypes.util.find_library("jemalloc")
        if found:
            env["LD_PRELOAD"] = found
            env.setdefault("MALLOC_CONF", "background_thread:true,dirty_decay_ms:5000")
    env.setdefault("PSYCOPG_WAIT_FUNC", "wait_select")
    return env


# What a child keeps of the fork server's environment: it already runs with these.
INHERITED = ("PYTHONMALLOC", "LD_PRELOAD", "MALLOC_CONF", "PSYCOPG_WAIT_FUNC")


class ForkServer:
    """The test side: one fork server, asked for children one request at a time."""

    def __init__(self) -> None:
        env = fork_server_env({k: v for k, v in os.environ.items() if not k.startswith("GOBANG_")})
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.forkserver"], cwd=ROOT, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.lock = threading.Lock()
        self.inherited = {name: env[name] for name in INHERITED if name in env}
        if self.ask({"op": "ping"}) != {"ok": True}:
            raise RuntimeError("the fork server did not start")

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            assert self.process.stdin is not None and self.process.stdout is not None
            self.process.stdin.write((json.dumps(request) + "\n").encode())
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the fork server ended")
        return json.loads(line)

    def spawn(self, argv: list[str], env: dict[str, str], log: Path) -> ForkedProcess:
        answer = self.ask({"op": "spawn", "argv": argv, "log": str(log), "cwd": str(ROOT),
                           "env": {**env, **self.inherited}})
        return ForkedProcess(self, answer["pid"])

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


class ForkedProcess:
    """A child of the fork server, seen as LiveServer sees a Popen: pid, poll, wait, signals."""

    def __init__(self, server: ForkServer, pid: int) -> None:
        self.server = server
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.server.ask({"op": "status", "pid": self.pid})["returncode"]
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout or 0)
            time.sleep(0.02)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


# The fork server's side, run as `python -m tests.support.forkserver`.

def _serve() -> None:
    import eventlet

    eventlet.monkey_patch()
    from eventlet import patcher

    # Done here once for every child: every module of the app imported (what app.py and the
    # app factory import: importing them again in each child, their sources compiled too where
    # PYTHONDONTWRITEBYTECODE is set, was about half of its start), and the start-up check of
    # the patched libraries run once (its reading of library source is kept per process:
    # gobang/transport/patches.py `_sets_in_own_code`).
    import gobang
    import gobang.transport.server
    from gobang.transport.patches import refusals

    for module in pkgutil.walk_packages(gobang.__path__, "gobang."):
        importlib.import_module(module.name)
    refusals(gobang.transport.server.touched())

    real_os = patcher.original("os")
    real_select = patcher.original("select")
    children: dict[int, int | None] = {}
    pending = b""
    while True:
        _reap(real_os, children)
        ready, _, _ = real_select.select([0], [], [], 0.05)
        if not ready:
            continue
        chunk = real_os.read(0, 65536)
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            answer = _answer(json.loads(line), real_os, children)
            real_os.write(1, (json.dumps(answer) + "\n").encode())
    for pid, code in children.items():
        if code is None:
            try:
                real_os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _answer(request: dict[str, Any], real_os: Any, children: dict[int, int | None]) -> dict:
    if request["op"] == "ping":
        return {"ok": True}
    if request["op"] == "status":
        _reap(real_os, children)
        return {"returncode": children.get(request["pid"])}
    sys.stdout.flush()
    sys.stderr.flush()
    pid = real_os.fork()
    if pid == 0:
        _child(request, real_os)
    children[pid] = None
    return {"pid": pid}


def _reap(real_os: Any, children: dict[int, int | None]) -> None:
    while True:
        try:
            pid, status = real_os.waitpid(-1, real_os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        children[pid] = real_os.waitstatus_to_exitcode(status)


def _child(request: dict[str, Any], real_os: Any) -> None:
    """In the forked child: become `python app.py ARGS` with the test's environment."""
    code = 1
    try:
        log = real_os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        null = real_os.open(os.devnull, os.O_RDONLY)
        real_os.dup2(null, 0)
        real_os.dup2(log, 1)
        real_os.dup2(log, 2)
        real_os.close(log)
        real_os.close(null)
        os.environ.clear()
        os.environ.update(request["env"])
        real_os.chdir(request["cwd"])
        fresh_hub()
        from tests.support import stacks

        stacks.install()  # a failing test's report shows where the server waits
        import runpy

        sys.argv = ["app.py", *request["argv"]]
        runpy.run_path(str(Path(request["cwd"]) / "app.py"), run_name="__main__")
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if isinstance(stop.code, str):
            sys.stderr.write(stop.code + "\n")
    except BaseException:  # noqa: BLE001 - a child's failure is its log's, as app.py's would be
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        real_os._exit(code)


def fresh_hub() -> None:
    """A hub of the child's own (eventlet's public `use_hub` drops the current one): the fork
    server's epoll instance is shared with every child. Nothing is registered on it (the fork
    server reads its requests with the unpatched os and select), so it is left unused."""
    from eventlet import hubs

    hubs.use_hub()


if __name__ == "__main__":
    _serve()
