"""Debian's nginx in front of a live server, configured with deploy/nginx/gobang-proxy.conf.

Missing nginx skips the tests locally and fails them when GOBANG_REQUIRE_NGINX=1 (CI).
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.support.live import ROOT, free_port
from tests.support.required import require_binary

DEPLOY = ROOT / "deploy" / "nginx"
REQUIRE_ENV = "GOBANG_REQUIRE_NGINX"


def nginx_binary() -> str:
    return require_binary("nginx", ("/usr/sbin/nginx", "/usr/local/sbin/nginx"), REQUIRE_ENV)


def _temp_paths(prefix: Path) -> str:
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    return "\n".join(f"    {kind}_temp_path {prefix / kind};" for kind in kinds)


def loopback_config(prefix: Path, port: int, app_port: int) -> str:
    """A whole nginx.conf: plain HTTP on a loopback port, the production locations."""
    # As root, workers would otherwise run as `nobody`, who cannot enter pytest's 0700 dirs.
    user = "user root;\n" if os.geteuid() == 0 else ""
    return f"""{user}worker_processes 1;
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} info;
events {{ worker_connections 256; }}
http {{
    access_log {prefix / "access.log"};
{_temp_paths(prefix)}
    upstream gobang_app {{ server 127.0.0.1:{app_port}; }}
    server {{
        listen 127.0.0.1:{port};
        include {DEPLOY / "gobang-proxy.conf"};
    }}
}}
"""


class Nginx:
    def __init__(self, prefix: Path, app_port: int) -> None:
        self.prefix = prefix
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.conf = prefix / "nginx.conf"
        self.conf.write_text(loopback_config(prefix, self.port, app_port))
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        command = [nginx_binary(), "-p", str(self.prefix), "-e", str(self.prefix / "error.log"),
                   "-c", str(self.conf), "-g", "daemon off;"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited early:\n{self.error_log()}")
            try:
                if requests.get(f"{self.url}/healthz", timeout=1).ok:
                    return
            except requests.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError(f"nginx did not start:\n{self.error_log()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def error_log(self) -> str:
        path = self.prefix / "error.log"
        return path.read_text() if path.exists() else ""

    def access_log(self) -> str:
        path = self.prefix / "access.log"
        return path.read_text() if path.exists() else ""


@pytest.fixture
def nginx(live_server, tmp_path: Path) -> Iterator[Nginx]:
    """nginx in front of the live server; the live server's clients now go through it."""
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    proxy = Nginx(prefix, live_server.port)
    proxy.start()
    direct_url, live_server.url = live_server.url, proxy.url
    yield proxy
    live_server.url = direct_url
    proxy.stop()
