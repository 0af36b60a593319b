"""A real Redis: Debian's `redis-server` on a free port with nothing saved to disk, one per
test session, emptied before each test that asks for it."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.support.live import free_port
from tests.support.required import require_binary

REQUIRE_ENV = "GOBANG_REQUIRE_REDIS"
# A lease that outlasts any test: for apps whose tests tick by hand and run no keep-alive, so
# that their processes' leases, on Redis's own clock, never run out while a busy machine is slow.
LASTING_LEASE_SECONDS = 3600.0


def redis_binary() -> str:
    return require_binary("redis-server", ("/usr/bin/redis-server",), REQUIRE_ENV)


class RedisServer:
    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = redis_binary()
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = self.client()
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def restart(self, down_seconds: float = 0) -> None:
        """Stop and start again on the same port: everything in it is gone."""
        self.stop()
        time.sleep(down_seconds)
        self.start()

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url)


@pytest.fixture(scope="session")
def redis_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def redis_server(redis_session: RedisServer) -> RedisServer:
    if redis_session.process is None or redis_session.process.poll() is not None:
        redis_session.start()
    redis_session.client().flushall()
    return redis_session
