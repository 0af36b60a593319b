"""One connection sending Engine.IO frames back to back does not stall everyone else."""

from __future__ import annotations

import threading
import time

import pytest
import requests
import websocket

from tests.live.test_play import matched_pair

pytestmark = [pytest.mark.live, pytest.mark.serial, pytest.mark.transport]

SIZE = 15


@pytest.fixture
def live_env() -> dict[str, str]:
    # The frame budget is a rate limit (load tests turn them all off); moves' own limit is
    # raised so that the game below can play as fast as the server answers.
    return {"GOBANG_RATELIMIT_ENABLED": "1", "GOBANG_MOVES_PER_SECOND": "1000",
            "GOBANG_AUTH_ATTEMPTS_PER_MINUTE": "1000"}


def quiet_cells(color: int) -> list[tuple[int, int]]:
    """Cells of one colour in a pattern of 2-wide stripes: no line anywhere holds more than two
    stones of a colour in a row, so a game of these moves never ends."""
    return [(r, c) for r in range(SIZE) for c in range(SIZE) if (r + c // 2) % 2 == color]


def timed_moves(black, white, game_id: int, count: int) -> list[float]:
    """Seconds from sending each move to its acknowledgement."""
    cells = {0: quiet_cells(0), 1: quiet_cells(1)}
    took = []
    for index in range(count):
        mover = (black, white)[index % 2]
        row, col = cells[index % 2][index // 2]
        started = time.monotonic()
        ack = mover[2].ask("place_stone", {"game_id": game_id, "row": row, "col": col})
        took.append(time.monotonic() - started)
        assert ack == {"ok": True}, ack
    return took


def healthz_seconds(url: str) -> float:
    started = time.monotonic()
    assert requests.get(url + "/healthz", timeout=10).ok
    return time.monotonic() - started


class Flooder(threading.Thread):
    """An unauthenticated websocket writing pre-built NOOP frames as fast as the kernel takes
    them, with no pause: the server always has another frame buffered."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.ws = websocket.create_connection(
            f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket", timeout=10)
        assert self.ws.recv().startswith("0")
        self.stop = threading.Event()
        self.closed_by_server = threading.Event()
        self.sent = 0

    def run(self) -> None:
        frame = websocket.ABNF.create_frame("6", websocket.ABNF.OPCODE_TEXT).format()
        chunk = frame * 4096
        try:
            while not self.stop.is_set():
                self.ws.sock.sendall(chunk)
                self.sent += 4096
        except OSError:
            self.closed_by_server.set()


@pytest.fixture
def flooder(live_server):
    thread = Flooder(live_server.port)
    thread.start()
    time.sleep(1)  # let the flood reach the server's buffers first
    yield thread
    thread.stop.set()
    thread.join(timeout=10)
    thread.ws.shutdown()


def test_healthz_answers_during_a_flood(live_server, flooder):
    assert healthz_seconds(live_server.url) <= 1.0


def test_a_game_in_play_stays_responsive_during_a_flood(live_server):
    black, white, game_id = matched_pair(live_server)
    thread = Flooder(live_server.port)
    thread.start()
    try:
        time.sleep(1)
        took = sorted(timed_moves(black, white, game_id, 60))
    finally:
        thread.stop.set()
        thread.join(timeout=10)
        thread.ws.shutdown()
    p99 = took[int(len(took) * 0.99) - 1]
    assert p99 <= 0.1, took
    assert black[2].connected and white[2].connected


def test_the_flooding_connection_is_closed(live_server, flooder):
    assert flooder.closed_by_server.wait(timeout=10)
    assert "Traceback" not in live_server.log()


def test_a_client_sending_at_a_human_pace_is_kept(live_server):
    ws = live_server.raw_socket(live_server.user("steady"), "/room")
    for _ in range(50):
        ws.send("6")
        time.sleep(0.02)
    ws.send("42/room,1[\"join_game\",{\"game_id\":1}]")
    assert ws.recv().startswith("43/room,1")
    ws.close()



def test_load_tests_with_rate_limits_off_have_no_frame_budget(live_server):
    live_server.stop()
    live_server.env["GOBANG_RATELIMIT_ENABLED"] = "0"
    live_server.start()
    ws = live_server.raw_socket(live_server.user("bench"), "/room")
    for _ in range(1_000):
        ws.send("6")
    ws.send("42/room,1[\"join_game\",{\"game_id\":1}]")
    assert ws.recv().startswith("43/room,1")
    ws.close()
