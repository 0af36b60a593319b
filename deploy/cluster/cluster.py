"""`make cluster`: Gobang as several processes on this machine, behind nginx, to try out what
docs/deploy.md ("Several processes") describes, with nothing installed or left behind.

    python deploy/cluster/cluster.py [--processes N] [--port PORT]

Starts a throwaway PostgreSQL and Redis (.ci/with-postgres, .ci/with-redis), runs the
migrations once, then N `python app.py` processes (p1..pN) sharing one generated SECRET_KEY,
and nginx on 127.0.0.1:PORT (no root needed: everything in a temporary directory) with the
production locations (deploy/nginx/gobang-proxy.conf, gobang-process.conf): `/` and
`/socket.io/` to any process, `/pN/socket.io/` to process N. Prints the URL.

Supervises them as deploy/gobang@.service has systemd do (Restart=on-failure): a process (or
nginx) that fails, with a non-zero exit status or killed by a signal, is started again under
its name, on its port, with its own Socket.IO path, while the others go on serving. A clean
end is left alone, as systemd leaves it: exit status 0, or one of the signals systemd counts
as a clean stop (SIGHUP, SIGINT, SIGTERM, SIGPIPE). One restarted START_LIMIT_BURST times
within START_LIMIT_SECONDS is left stopped (systemd's StartLimitBurst), the rest still
running. Ctrl-C (SIGINT or SIGTERM) stops everything, a process being restarted included.
With --external, the PostgreSQL and Redis named by GOBANG_DATABASE_URL and GOBANG_REDIS_URL
are used instead of throwaway ones.
"""

from __future__ import annotations

import argparse
import collections
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
# How often the processes are looked at; and how long after one ended (and between attempts)
# it is started again, like deploy/gobang@.service's RestartSec.
POLL_SECONDS = 0.2
RESTART_SECONDS = 1.0
# systemd's StartLimitBurst and StartLimitIntervalSec, in restarts: a start here takes
# seconds (systemd's 5 in 10 s would never trip), so the window is longer.
START_LIMIT_BURST = 5
START_LIMIT_SECONDS = 120.0
# The signals systemd counts as a clean stop, like exit status 0 (systemd.service(5),
# SuccessExitStatus): Restart=on-failure does not restart a process they ended.
CLEAN_SIGNALS = frozenset({signal.SIGHUP, signal.SIGINT, signal.SIGTERM, signal.SIGPIPE})


def failed(code: int) -> bool:
    """Whether a process that ended with `code` (Popen's: a signal's number negated) failed,
    and so is restarted, as systemd's Restart=on-failure has it."""
    if code < 0:
        return -code not in CLEAN_SIGNALS
    return code != 0


def main() -> int:
    parser = argparse.ArgumentParser(description="Several Gobang processes behind nginx.")
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--port", type=int, default=8000, help="nginx's port (0: any free one)")
    parser.add_argument("--external", action="store_true",
                        help="use GOBANG_DATABASE_URL and GOBANG_REDIS_URL as they are")
    args = parser.parse_args()
    if args.external:
        return Cluster(args.processes, args.port).run()
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


class Unit:
    """One supervised program: what runs under `name`, and how to tell that it serves."""

    def __init__(self, name: str, command: list[str], health: str, address: str,
                 env: dict[str, str] | None = None, own_group: bool = False) -> None:
        self.name = name
        self.command = command
        self.health = health  # a URL that answers once it serves
        self.address = address  # where it listens, for the "is back" line
        # An app's own environment, its log relayed under its name; None (nginx): ours, and
        # its log stays in its error.log.
        self.env = env
        # nginx's workers outlive a killed master and keep its port: in a process group of
        # their own they can be ended with it (`end`), so that a new nginx can listen there.
        self.own_group = own_group


class Cluster:
    def __init__(self, processes: int, port: int) -> None:
        self.names = [f"p{number}" for number in range(1, processes + 1)]
        self.port = port
        self.workdir = Path(tempfile.mkdtemp(prefix="gobang-cluster."))
        self.units: dict[str, Unit] = {}
        self.children: dict[str, subprocess.Popen[bytes]] = {}
        self.stopping = threading.Event()
        # Held while a process is started or the running ones are listed to be stopped: once
        # `stopping` is set, no new process can slip past the list.
        self.lock = threading.Lock()
        self.restarting: dict[str, threading.Thread] = {}
        self.given_up: set[str] = set()
        self.groups_ended: set[subprocess.Popen[bytes]] = set()
        self.restarts: dict[str, collections.deque[float]] = collections.defaultdict(
            collections.deque)

    def run(self) -> int:
        signal.signal(signal.SIGINT, lambda *_: self.stopping.set())
        signal.signal(signal.SIGTERM, lambda *_: self.stopping.set())
        # Every port is bound here, all at once, and held until just before the process that
        # listens there starts: a port picked and let go at once could be picked again by
        # the next pick (a process here, or another cluster's), and then nginx's health URL
        # was answered by a Gobang process on nginx's port, nginx having failed to listen.
        held = {name: Held(0) for name in self.names}
        try:
            nginx_port = Held(self.port)
            self.port = nginx_port.port
            env = self.environment()
            nginx = nginx_binary()
            self.migrate(env)
            ports = {name: hold.port for name, hold in held.items()}
            for name, port in ports.items():
                held[name].release()
                self.start(self.app_unit(name, port, env))
            nginx_port.release()
            self.start(self.nginx_unit(nginx, ports))
            say(f"Gobang: http://127.0.0.1:{self.port}/ ({len(ports)} processes: "
                + ", ".join(f"{name} on 127.0.0.1:{port}" for name, port in ports.items())
                + "); Ctrl-C stops it")
            return self.wait()
        except (RuntimeError, Interrupted, OSError) as problem:
            say(f"cluster: {problem}")
            return 1
        finally:
            for hold in held.values():
                hold.release()
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

    def app_unit(self, name: str, port: int, env: dict[str, str]) -> Unit:
        # The same name and path after a restart: leases, and nginx's /pN/socket.io/, find it.
        return Unit(name, [sys.executable, "app.py", "--host", "127.0.0.1", "--port", str(port)],
                    f"http://127.0.0.1:{port}/healthz", f"127.0.0.1:{port}",
                    env={**env, "GOBANG_PROCESS_NAME": name,
                         "GOBANG_PROCESS_SOCKET_PATH": f"/{name}/socket.io"})

    def nginx_unit(self, binary: str, ports: dict[str, int]) -> Unit:
        prefix = self.workdir / "nginx"
        prefix.mkdir()
        conf = prefix / "nginx.conf"
        conf.write_text(nginx_config(prefix, self.port, ports))
        return Unit("nginx", [binary, "-p", str(prefix), "-e", str(prefix / "error.log"),
                              "-c", str(conf), "-g", "daemon off;"],
                    f"http://127.0.0.1:{self.port}/healthz", f"127.0.0.1:{self.port}",
                    own_group=True)

    def start(self, unit: Unit) -> None:
        """Starts `unit` and returns once it answers its health URL."""
        self.units[unit.name] = unit
        process = self.spawn(unit)
        self.await_health(unit.name, process, unit.health)

    def spawn(self, unit: Unit) -> subprocess.Popen[bytes]:
        with self.lock:
            if self.stopping.is_set():
                raise Interrupted("stopped while starting")
            relayed = unit.env is not None
            process = subprocess.Popen(
                unit.command, cwd=ROOT, env=unit.env, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE if relayed else None,
                stderr=subprocess.STDOUT if relayed else None,
                process_group=0 if unit.own_group else None)
            self.children[unit.name] = process
        if relayed:
            threading.Thread(target=relay, args=(unit.name, process), daemon=True).start()
        return process

    def await_health(self, name: str, process: subprocess.Popen[bytes], url: str) -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.stopping.is_set():
                raise Interrupted("stopped while starting")
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited while starting ({process.returncode})")
            try:
                with urllib.request.urlopen(url, timeout=1):
                    return
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        raise RuntimeError(f"{name} did not answer {url} within {START_SECONDS} s")

    def wait(self) -> int:
        """Until Ctrl-C: a process that ends meanwhile is restarted by a thread of its own, so
        that its start (seconds of waiting for its health URL) holds up nobody else's."""
        while not self.stopping.wait(POLL_SECONDS):
            for name, process in list(self.children.items()):
                if process.poll() is not None and self.supervised(name):
                    self.restart_later(name, process.returncode)
        return 0

    def supervised(self, name: str) -> bool:
        """Not already being restarted, nor given up on (or stopped cleanly)."""
        return name not in self.restarting and name not in self.given_up

    def restart_later(self, name: str, code: int) -> None:
        thread = threading.Thread(target=self.restart, args=(name, code), daemon=True)
        self.restarting[name] = thread
        thread.start()

    def restart(self, name: str, code: int) -> None:
        """In its own thread: `name` again, until it serves, is given up on, or Ctrl-C; not
        at all after a clean stop (`failed`)."""
        try:
            # Ctrl-C reaches the processes as well as us: one may end before our handler has
            # run. A moment later (systemd's RestartSec) an end is known to be its own.
            if self.stopping.wait(RESTART_SECONDS):
                return
            if not failed(code):
                self.given_up.add(name)
                say(f"cluster: {name} exited ({code}), a clean stop; not restarting it "
                    "(Restart=on-failure; Ctrl-C stops the rest)")
                return
            why: str | None = f"{name} exited ({code})"
            while self.may_start(name):
                say(f"cluster: {why}; restarting")
                why = self.start_again(name)
                if why is None or self.stopping.wait(RESTART_SECONDS):
                    return
            self.given_up.add(name)
            say(f"cluster: {why}, after {START_LIMIT_BURST} restarts within "
                f"{START_LIMIT_SECONDS:g} s; not restarting it again (the rest goes on "
                "serving; Ctrl-C stops it)")
        finally:
            self.restarting.pop(name, None)

    def start_again(self, name: str) -> str | None:
        """One attempt: None once it serves (or Ctrl-C came), else what went wrong."""
        unit = self.units[name]
        self.end(self.children[name], unit)  # nginx's orphaned workers, if any
        try:
            self.start(unit)
        except Interrupted:
            return None
        except RuntimeError as problem:
            self.end(self.children[name], unit)  # it may hang, not answering
            return str(problem)
        say(f"cluster: {name} is back on {unit.address}")
        return None

    def may_start(self, name: str) -> bool:
        """systemd's StartLimitBurst: at most START_LIMIT_BURST restarts within
        START_LIMIT_SECONDS, so that a process that cannot run is not started forever."""
        now = time.monotonic()
        starts = self.restarts[name]
        while starts and now - starts[0] > START_LIMIT_SECONDS:
            starts.popleft()
        if len(starts) >= START_LIMIT_BURST:
            return False
        starts.append(now)
        return True

    def stop(self) -> None:
        self.stopping.set()
        with self.lock:
            running = [(self.units.get(name), process)
                       for name, process in self.children.items()]
        for _unit, process in running:
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + STOP_SECONDS
        for unit, process in running:
            self.end(process, unit, max(0.1, deadline - time.monotonic()))
        for thread in list(self.restarting.values()):
            thread.join(timeout=STOP_SECONDS)
        shutil.rmtree(self.workdir, ignore_errors=True)

    def end(self, process: subprocess.Popen[bytes], unit: Unit | None,
            timeout: float = STOP_SECONDS) -> None:
        """`process` gone (terminated, killed if it lingers), and with nginx its workers."""
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if unit is not None and unit.own_group and process not in self.groups_ended:
            # Once: the group's id is not reused while a member lives, but may be after.
            self.groups_ended.add(process)
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


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
        text = line.decode(errors="replace")
        # A process killed mid-line ends without a newline; the next line is not its.
        sys.stdout.write(f"{name} | {text}" + ("" if text.endswith("\n") else "\n"))
        sys.stdout.flush()


def say(text: str) -> None:
    # One write: print's separate newline could land inside another thread's line.
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


class Held:
    """A loopback port bound (not listening) until `release`: nobody else can bind it, so
    it is free when its process starts. Port 0: any free one."""

    def __init__(self, port: int) -> None:
        self._socket: socket.socket | None = socket.socket()
        try:
            self._socket.bind(("127.0.0.1", port))
        except OSError as problem:
            self._socket.close()
            raise OSError(f"port {port} is taken: {problem}") from problem
        self.port: int = self._socket.getsockname()[1]

    def release(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


if __name__ == "__main__":
    sys.exit(main())
