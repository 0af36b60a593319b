"""One client address cannot hold every connection: past its cap, it is refused at once."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from tests.live.test_slow_clients import closed_by_server, half_sent

pytestmark = [pytest.mark.live]

PER_ADDRESS = 20


@pytest.fixture
def live_env() -> dict[str, str]:
    return {"GOBANG_MAX_CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS),
            "GOBANG_REQUEST_TIMEOUT_SECONDS": "60", "GOBANG_RATELIMIT_ENABLED": "1"}


def healthz_from(port: int, source: str) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5,
                                  source_address=(source, 0)) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: gobang\r\nConnection: close\r\n\r\n")
        return sock.recv(1024)


@pytest.fixture
def held(live_server) -> Iterator[list[socket.socket]]:
    """PER_ADDRESS half-sent requests from 127.0.0.1, as a slow-loris attacker holds them."""
    socks = [half_sent(live_server.port) for _ in range(PER_ADDRESS)]
    time.sleep(0.2)  # accepted and counted
    yield socks
    for sock in socks:
        sock.close()


def test_one_address_past_its_cap_is_refused_while_another_is_served(live_server, held):
    with socket.create_connection(("127.0.0.1", live_server.port), timeout=5) as extra:
        assert closed_by_server(extra, within=1)
    assert healthz_from(live_server.port, "127.0.0.2").startswith(b"HTTP/1.1 200")


def test_an_address_below_its_cap_again_is_served(live_server, held):
    held.pop().close()
    time.sleep(0.2)
    assert healthz_from(live_server.port, "127.0.0.1").startswith(b"HTTP/1.1 200")


def test_reaching_the_cap_is_logged_once(live_server, held):
    for _ in range(5):
        with socket.create_connection(("127.0.0.1", live_server.port), timeout=5) as extra:
            assert closed_by_server(extra, within=1)
    assert live_server.log().count("too many connections from one address") == 1


@pytest.mark.parametrize("setting", ["GOBANG_PROXY_FIX", "GOBANG_RATELIMIT_ENABLED"])
def test_no_cap_behind_a_proxy_or_with_rate_limits_off(live_server, setting):
    live_server.stop()
    live_server.env[setting] = "1" if setting == "GOBANG_PROXY_FIX" else "0"
    live_server.start()
    socks = [half_sent(live_server.port) for _ in range(PER_ADDRESS + 5)]
    try:
        assert healthz_from(live_server.port, "127.0.0.1").startswith(b"HTTP/1.1 200")
        assert not any(closed_by_server(sock, within=0.01) for sock in socks)
    finally:
        for sock in socks:
            sock.close()
