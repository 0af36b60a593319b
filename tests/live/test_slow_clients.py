"""Slow and idle connections are timed out."""

from __future__ import annotations

import http.client
import socket
import time

import pytest
import requests
import websocket

pytestmark = [pytest.mark.live, pytest.mark.serial, pytest.mark.transport]

HALF_SENT = b"GET /healthz HTTP/1.1\r\nHost: gobang\r\n"  # no blank line: never finished


@pytest.fixture
def live_env() -> dict[str, str]:
    return {"GOBANG_REQUEST_TIMEOUT_SECONDS": "1", "GOBANG_NAMESPACE_CONNECT_SECONDS": "1"}


def half_sent(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                    source_address=(source, 0))
    sock.sendall(HALF_SENT)
    return sock


def closed_by_server(sock: socket.socket, within: float) -> bool:
    sock.settimeout(within)
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_a_half_sent_request_is_closed_after_the_request_timeout(live_server):
    with half_sent(live_server.port) as sock:
        started = time.monotonic()
        assert closed_by_server(sock, within=5)
        assert time.monotonic() - started <= 3


def test_a_connection_that_sends_nothing_is_closed_after_the_request_timeout(live_server):
    with socket.create_connection(("127.0.0.1", live_server.port), timeout=5) as sock:
        assert closed_by_server(sock, within=5)


HEADER_SECONDS = 2
# A byte every half second: each read well within the 1 s request timeout.
DRIP_PACE = 0.5
DRIPS = {
    "a header byte at a time": (b"GET /healthz HTTP/1.1\r\nHost: gobang\r\n", b"X"),
    "a request line byte at a time": (b"G", b"E"),
}


def drip(sock: socket.socket, opening: bytes, byte: bytes, until: float) -> float | None:
    """Sends `opening`, then `byte` every DRIP_PACE seconds, until the server closes the
    connection: the seconds that took, or None while it is still open after `until`."""
    started = time.monotonic()
    sock.sendall(opening)
    while time.monotonic() - started < until:
        if closed_by_server(sock, within=DRIP_PACE):
            return time.monotonic() - started
        try:
            sock.sendall(byte)
        except (BrokenPipeError, ConnectionResetError):
            return time.monotonic() - started
    return None


@pytest.mark.parametrize("live_env", [{
    "GOBANG_REQUEST_TIMEOUT_SECONDS": "1", "GOBANG_NAMESPACE_CONNECT_SECONDS": "1",
    "GOBANG_REQUEST_HEADER_SECONDS": str(HEADER_SECONDS)}])
@pytest.mark.parametrize(("opening", "byte"), DRIPS.values(), ids=DRIPS.keys())
def test_a_request_dripped_byte_by_byte_is_closed_at_the_header_deadline(live_server, opening,
                                                                         byte):
    with socket.create_connection(("127.0.0.1", live_server.port), timeout=5) as sock:
        assert requests.get(live_server.url + "/healthz", timeout=5).ok  # served meanwhile
        took = drip(sock, opening, byte, until=HEADER_SECONDS + 3)
    assert took is not None, "still open"
    assert HEADER_SECONDS - DRIP_PACE <= took <= HEADER_SECONDS + 1.5
    assert requests.get(live_server.url + "/healthz", timeout=5).ok
    refusals = [line for line in live_server.log().splitlines() if "refused" in line]
    assert len(refusals) == 1 and "headers too slow" in refusals[0], refusals


@pytest.mark.parametrize("live_env", [{"GOBANG_REQUEST_TIMEOUT_SECONDS": "5",
                                       "GOBANG_REQUEST_HEADER_SECONDS": "1"}])
def test_waiting_between_kept_alive_requests_is_not_held_to_the_header_deadline(live_server):
    connection = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=5)
    connection.request("GET", "/healthz")
    assert connection.getresponse().read()
    kept = connection.sock
    assert not closed_by_server(kept, within=2)  # idle for twice the header deadline
    connection.request("GET", "/healthz")
    assert connection.getresponse().status == 200
    assert connection.sock is kept
    connection.close()


def test_a_websocket_that_never_joins_a_namespace_is_closed(live_server):
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{live_server.port}/socket.io/?EIO=4&transport=websocket", timeout=5)
    assert ws.recv().startswith("0")
    started = time.monotonic()
    with pytest.raises((websocket.WebSocketConnectionClosedException, ConnectionError)):
        while time.monotonic() - started < 5:
            frame = ws.recv()
            if frame == "2":  # it answers pings, as a live client would
                ws.send("3")
            elif frame == "":
                raise websocket.WebSocketConnectionClosedException
    assert time.monotonic() - started <= 3
    ws.shutdown()


def test_a_websocket_in_a_namespace_is_kept_past_the_deadline(live_server):
    ws = live_server.raw_socket(live_server.user("kept"), "/room")
    started = time.monotonic()
    while time.monotonic() - started < 3:
        if ws.recv() == "2":
            ws.send("3")
    ws.send("42/room,1[\"join_game\",{\"game_id\":1}]")
    assert ws.recv().startswith("43/room,1")
    ws.close()
