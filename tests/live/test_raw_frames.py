"""Frames eventlet handles inside its own frame loop, never returning them to engine.io:
control frames (PING, PONG) and the continuation frames of a fragmented message. A flood of
either is closed like any other, and the others keep playing."""

from __future__ import annotations

import socket
import struct
import threading
import time

import psutil
import pytest
import requests
import websocket

from tests.live.test_flood import quiet_cells
from tests.live.test_play import matched_pair

pytestmark = [pytest.mark.live, pytest.mark.serial, pytest.mark.transport]

# Empty masked control frames (mask 0), as the red-team pass sent them.
PONG = bytes([0x8A, 0x80, 0, 0, 0, 0])
PING = bytes([0x89, 0x80, 0, 0, 0, 0])
FRAMES_PER_WRITE = 8192
ATTACK_SECONDS = 8.0


@pytest.fixture
def live_env() -> dict[str, str]:
    # The default frame budget and connection cap, as in production; moves' own limit is
    # raised so that the game below plays as fast as it is paced.
    return {"GOBANG_RATELIMIT_ENABLED": "1", "GOBANG_MOVES_PER_SECOND": "1000",
            "GOBANG_AUTH_ATTEMPTS_PER_MINUTE": "1000"}


def anonymous_websocket(port: int, cookie: str = "") -> websocket.WebSocket:
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket", cookie=cookie,
        timeout=10)
    assert ws.recv().startswith("0")
    return ws


def masked_frame(first_byte: int, payload: bytes) -> bytes:
    """A client's frame with the zero mask, so the payload goes as it is."""
    length = len(payload)
    if length < 126:
        header = bytes([first_byte, 0x80 | length])
    else:
        header = bytes([first_byte, 0x80 | 126]) + struct.pack("!H", length)
    return header + b"\0\0\0\0" + payload


class ControlFlooder(threading.Thread):
    """Reconnects for `seconds`, each time writing control frames back to back until the
    server closes the connection. PING's answers are read, as a real attacker would, so the
    server is never held up writing them."""

    def __init__(self, port: int, frame: bytes, seconds: float = ATTACK_SECONDS) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.chunk = frame * FRAMES_PER_WRITE
        self.seconds = seconds
        self.connections = 0
        self.closed_by_server = 0
        self.error: str | None = None

    def run(self) -> None:
        deadline = time.monotonic() + self.seconds
        try:
            while time.monotonic() < deadline:
                ws = anonymous_websocket(self.port)
                self.connections += 1
                self.closed_by_server += self._flood(ws.sock, deadline)
                ws.sock.close()
        except Exception as exc:  # noqa: BLE001 - a stalled server fails the handshake
            self.error = f"{type(exc).__name__}: {exc}"

    def _flood(self, sock: socket.socket, deadline: float) -> bool:
        """Writes until the server closes (True) or the attack's time is up (False)."""
        sock.settimeout(0.5)
        reader = threading.Thread(target=drain, args=(sock,), daemon=True)
        reader.start()
        while time.monotonic() < deadline:
            try:
                sock.sendall(self.chunk)
            except TimeoutError:
                continue  # the server is not reading: still open
            except OSError:
                return True
        return not reader.is_alive()


def drain(sock: socket.socket) -> None:
    """Reads whatever the server sends until it closes the connection."""
    while True:
        try:
            if not sock.recv(65536):
                return
        except TimeoutError:
            continue
        except OSError:
            return


class HealthPoller(threading.Thread):
    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.stop = threading.Event()
        self.took: list[float] = []

    def run(self) -> None:
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                requests.get(self.url + "/healthz", timeout=30).raise_for_status()
            except requests.RequestException:
                self.took.append(float("inf"))
            else:
                self.took.append(time.monotonic() - started)
            self.stop.wait(0.1)


def paced_moves(black, white, game_id: int, until: threading.Thread,
                per_second: float = 20) -> list[float]:
    """Seconds from sending each move to its acknowledgement, a move every 1/per_second s
    while `until` runs (and the board has quiet cells left)."""
    cells = {0: quiet_cells(0), 1: quiet_cells(1)}
    took: list[float] = []
    started = time.monotonic()
    index = 0
    while until.is_alive() and index // 2 < min(map(len, cells.values())):
        mover = (black, white)[index % 2]
        row, col = cells[index % 2][index // 2]
        sent = time.monotonic()
        try:
            ack = mover[2].ask("place_stone", {"game_id": game_id, "row": row, "col": col})
        except Exception:  # noqa: BLE001 - a timed-out move counts as never answered
            ack = None
        took.append(time.monotonic() - sent if ack == {"ok": True} else float("inf"))
        index += 1
        time.sleep(max(0.0, started + index / per_second - time.monotonic()))
    return took


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[max(0, int(len(ordered) * 0.99) - 1)]


@pytest.mark.parametrize("frame", [PONG, PING], ids=["pong", "ping"])
def test_a_control_frame_flood_is_closed_while_a_game_plays_on(live_server, frame):
    black, white, game_id = matched_pair(live_server)
    flooder = ControlFlooder(live_server.port, frame)
    poller = HealthPoller(live_server.url)
    flooder.start()
    poller.start()
    try:
        moves = paced_moves(black, white, game_id, until=flooder)
    finally:
        flooder.join(timeout=60)
        poller.stop.set()
        poller.join(timeout=60)
    assert flooder.error is None, flooder.error
    assert flooder.connections >= 2 and flooder.closed_by_server >= flooder.connections - 1, (
        f"{flooder.closed_by_server} of {flooder.connections} connections closed by the server")
    assert p99(poller.took) <= 1.0, sorted(poller.took)[-5:]
    assert p99(moves) <= 0.5, sorted(moves)[-5:]
    assert black[2].connected and white[2].connected
    assert "too many frames" in live_server.log()


def endless_fragment(sock: socket.socket, limit_bytes: int = 512 * 2**20,
                     seconds: float = 10) -> int:
    """A text frame with FIN unset, then 16,000-byte continuation frames until the server
    closes the connection (or `limit_bytes` or `seconds` pass); the bytes sent."""
    sock.settimeout(0.5)
    sock.sendall(masked_frame(0x01, b"4"))
    continuation = masked_frame(0x00, b"x" * 16_000) * 16
    sent = 0
    deadline = time.monotonic() + seconds
    while sent < limit_bytes and time.monotonic() < deadline:
        try:
            sock.sendall(continuation)
        except TimeoutError:
            continue
        except OSError:
            break
        sent += len(continuation)
    return sent


def closed_by_server(sock: socket.socket, seconds: float = 5) -> bool:
    deadline = time.monotonic() + seconds
    sock.settimeout(0.2)
    while time.monotonic() < deadline:
        try:
            if not sock.recv(65536):
                return True
        except TimeoutError:
            continue
        except OSError:
            return True
    return False


def fragment_socket(server, logged_in: bool):
    """A logged-in /room websocket, or an anonymous one that has joined no namespace."""
    if logged_in:
        return server.raw_socket(server.user("frag"), "/room")
    return anonymous_websocket(server.port)


@pytest.mark.parametrize("logged_in", [True, False], ids=["room", "anonymous"])
def test_an_endless_fragmented_message_is_refused_before_it_grows_the_server(
        live_server, logged_in):
    ws = fragment_socket(live_server, logged_in)
    server = psutil.Process(live_server.process.pid)
    rss_before = server.memory_info().rss
    sent = endless_fragment(ws.sock)
    assert closed_by_server(ws.sock), f"still open after {sent / 2**20:.0f} MB"
    ws.sock.close()
    grown_mb = (server.memory_info().rss - rss_before) / 2**20
    assert grown_mb <= 64, f"server grew {grown_mb:.0f} MB after {sent / 2**20:.0f} MB sent"
    refusals = [line for line in live_server.log().splitlines() if "refused" in line]
    assert len(refusals) == 1 and "message too long" in refusals[0], refusals


def test_a_fragmented_message_within_the_limit_is_delivered(live_server):
    ws = live_server.raw_socket(live_server.user("frag"), "/room")
    packet = b'42/room,1["join_game",{"game_id":1}]'
    ws.sock.sendall(masked_frame(0x01, packet[:10]) + masked_frame(0x00, packet[10:20])
                    + masked_frame(0x80, packet[20:]))
    assert ws.recv().startswith("43/room,1")
    ws.close()
    assert "refused" not in live_server.log()
