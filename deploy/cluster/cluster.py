"""`make cluster`: Gobang as several processes on this machine, behind nginx, to try out what
docs/deploy.md ("Several processes") describes, with nothing installed or left behind.

    python deploy/cluster/cluster.py [--processes N] [--port PORT]

Starts a throwaway PostgreSQL and Redis (.ci/with-postgres, .ci/with-redis), runs the
migrations once, then N `python app.py` processes (p1..pN) sharing one generated SECRET_KEY,
and nginx on 127.0.0.1:PORT (no root needed: everything in a temporary directory) with the
production locations (deploy/nginx/gobang-proxy.conf, gobang-process.conf): `/` and
`/socket.io/` to any process, `/pN/socket.io/` to process N. Prints the URL; Ctrl-C (SIGINT or
SIGTERM) stops everything. With --external, the PostgreSQL and Redis named by
GOBANG_DATABASE_URL and GOBANG_REDIS_URL are used instead of throwaway ones.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "nginx"
START_SECONDS = 60
STOP_SECONDS = 10


def main() -> int:
    parser = argparse.ArgumentParser(description="Several Gobang processes behind nginx.")
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--port", type=int, default=8000, help="nginx's port (0: any free one)")
    parser.add_argument("--external", action="store_true",
                        help="use GOBANG_DATABASE_URL and GOBANG_REDIS_URL as they are")
    args = parser.parse_args()
    if args.external:
        return Cluster(args.processes, args.port or free_port()).run()
    return supervise([*with_servers(), sys.executable, __file__, "--external",
                      "--processes", str(args.processes), "--port", str(args.port)])


def with_servers() -> list[str]:
    return ["bash", str(ROOT / ".ci" / "with-postgres"), "bash", str(ROOT / ".ci" / "with-redis")]


def supervise(command: list[str]) -> int:
    """Runs `command` (the servers' scripts, the cluster inside them) in a process group of its
    own and sends the whole group SIGINT on our SIGINT or SIGTERM. A shell script killed on its
    own would leave what it started running: each one stops its server only once the command
    it runs has ended."""
    child = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.DEVNULL, process_group=0)

    def forward(_signum: int, _frame: object) -> None:
        try:
            os.killpg(child.pid, signal.SIGINT)
        except ProcessLookupError:
            pass

    signal.signal(signal.SIGINT, forward)
    signal.signal(signal.SIGTERM, forward)
    return child.wait()


class Cluster:
    def __init__(self, processes: int, port: int) -> None:
        self.names = [f"p{number}" for number in range(1, processes + 1)]
        self.port = port
        self.workdir = Path(tempfile.mkdtemp(prefix="gobang-cluster."))
        self.children: dict[str, subprocess.Popen[bytes]] = {}
        self.stopping = threading.Event()

    def run(self) -> int:
        signal.signal(signal.SIGINT, lambda *_: self.stopping.set())
        signal.signal(signal.SIGTERM, lambda *_: self.stopping.set())
        try:
            env = self.environment()
            nginx = nginx_binary()
            self.migrate(env)
            ports = {name: free_port() for name in self.names}
            for name, port in ports.items():
                self.start_app(name, port, env)
            self.start_nginx(nginx, ports)
            say(f"Gobang: http://127.0.0.1:{self.port}/ ({len(ports)} processes: "
                + ", ".join(f"{name} on 127.0.0.1:{port}" for name, port in ports.items())
                + "); Ctrl-C stops it")
            return self.wait()
        except (RuntimeError, Interrupted) as problem:
            say(f"cluster: {problem}")
            return 1
        finally:
            self.stop()

    def environment(self) -> dict[str, str]:
        # .ci/with-postgres names its server for the tests; here it is the app's database.
        database = os.environ.get("GOBANG_DATABASE_URL") or os.environ.get(
            "GOBANG_TEST_DATABASE_URL")
        redis = os.environ.get("GOBANG_REDIS_URL")
        if not database or not redis:
            raise RuntimeError("GOBANG_DATABASE_URL and GOBANG_REDIS_URL must be set")
        return {**os.environ, "GOBANG_DATABASE_URL": database, "GOBANG_REDIS_URL": redis,
                "GOBANG_SECRET_KEY": secrets.token_hex(32), "GOBANG_PROXY_FIX": "1",
                "GOBANG_AUTO_MIGRATE": "0"}

    def migrate(self, env: dict[str, str]) -> None:
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"],
                              cwd=ROOT, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True)
        if self.stopping.is_set():
            raise Interrupted("stopped while migrating")
        if done.returncode != 0:
            raise RuntimeError(f"migrations failed:\n{done.stdout}{done.stderr}")

    def start_app(self, name: str, port: int, env: dict[str, str]) -> None:
        process = subprocess.Popen(
            [sys.executable, "app.py", "--host", "127.0.0.1", "--port", str(port)], cwd=ROOT,
            env={**env, "GOBANG_PROCESS_NAME": name,
                 "GOBANG_PROCESS_SOCKET_PATH": f"/{name}/socket.io"},
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.children[name] = process
        threading.Thread(target=relay, args=(name, process), daemon=True).start()
        self.await_health(name, f"http://127.0.0.1:{port}/healthz")

    def start_nginx(self, binary: str, ports: dict[str, int]) -> None:
        prefix = self.workdir / "nginx"
        prefix.mkdir()
        conf = prefix / "nginx.conf"
        conf.write_text(nginx_config(prefix, self.port, ports))
        self.children["nginx"] = subprocess.Popen(
            [binary, "-p", str(prefix), "-e", str(prefix / "error.log"), "-c", str(conf),
             "-g", "daemon off;"], stdin=subprocess.DEVNULL)
        self.await_health("nginx", f"http://127.0.0.1:{self.port}/healthz")

    def await_health(self, name: str, url: str) -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.stopping.is_set():
                raise Interrupted("stopped while starting")
            if self.children[name].poll() is not None:
                raise RuntimeError(f"{name} exited while starting")
            try:
                with urllib.request.urlopen(url, timeout=1):
                    return
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        raise RuntimeError(f"{name} did not answer {url} within {START_SECONDS} s")

    def wait(self) -> int:
        """Until Ctrl-C, or until a process ends on its own (then everything stops)."""
        while not self.stopping.wait(0.5):
            for name, process in self.children.items():
                # Ctrl-C reaches the processes too: one may end before our handler has run.
                if process.poll() is not None and not self.stopping.wait(1):
                    say(f"cluster: {name} exited ({process.returncode}); stopping")
                    return 1
        return 0

    def stop(self) -> None:
        for process in self.children.values():
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + STOP_SECONDS
        for process in self.children.values():
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self.workdir, ignore_errors=True)


class Interrupted(Exception):
    pass


def nginx_config(prefix: Path, port: int, ports: dict[str, int]) -> str:
    """A whole nginx.conf on a loopback port: deploy/nginx/gobang-cluster.conf's locations,
    with these processes' ports, and the deployed snippets themselves."""
    # As root, workers would otherwise run as `nobody`, who cannot enter the 0700 directory.
    user = "user root;\n" if os.geteuid() == 0 else ""
    temp = "\n".join(f"    {kind}_temp_path {prefix / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    servers = "\n".join(f"        server 127.0.0.1:{app_port};" for app_port in ports.values())
    own_paths = "\n".join(
        f"        location /{name}/socket.io/ {{\n"
        f"            proxy_pass http://127.0.0.1:{app_port}/socket.io/;\n"
        f"            include {DEPLOY / 'gobang-process.conf'};\n"
        f"        }}" for name, app_port in ports.items())
    return f"""{user}worker_processes 1;
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
{temp}
    upstream gobang_app {{
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
{own_paths}
        include {DEPLOY / "gobang-proxy.conf"};
    }}
}}
"""


def nginx_binary() -> str:
    found = shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(path).exists()),
        None)
    if found is None:
        raise RuntimeError("nginx is not installed (apt-get install nginx)")
    return found


def relay(name: str, process: subprocess.Popen[bytes]) -> None:
    """A process's log on our standard output, each line under its name."""
    assert process.stdout is not None
    for line in process.stdout:
        sys.stdout.write(f"{name} | {line.decode(errors='replace')}")
        sys.stdout.flush()


def say(text: str) -> None:
    print(text, flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


if __name__ == "__main__":
    sys.exit(main())
