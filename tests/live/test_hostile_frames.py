"""Malformed packets and binary attachments: one short log line, then that connection closes."""

from __future__ import annotations

import time

import psutil
import pytest
import websocket

from tests.live.test_play import matched_pair, play
from tests.support.live import LiveClient, wait_until

pytestmark = [pytest.mark.live, pytest.mark.serial, pytest.mark.transport]

DEEP = 5_000  # within the 16 KB message limit, far beyond json's recursion limit
PLACEHOLDER = '{"_placeholder":true,"num":%s}'

MALFORMED = {
    "event data not a list": ["42/room,{}"],
    "event with no name": ["42/room,[]"],
    "event name not a string": ["42/room,[5]"],
    "ack data not a list": ["43/room,1{}"],
    "connect data not an object": ["40/room,[1]"],
    "engine.io type not a digit": ["[]"],
    "engine.io type out of range": ["9"],
    "upgrade on an open websocket": ["5"],
    "empty payload": [""],
    "deep nesting": ["42/room," + "[" * DEEP + "]" * DEEP],
    "bad base64": ["b!!!"],
    "binary frame with nothing announced": [b"\x00\x01"],
    "placeholder number not an int": ['451-/room,["chat",' + PLACEHOLDER % '"x"' + "]", b"\x00"],
    "placeholder number out of range": ['451-/room,["chat",' + PLACEHOLDER % "7" + "]", b"\x00"],
}


def send(ws: websocket.WebSocket, frame: str | bytes) -> None:
    if isinstance(frame, bytes):
        ws.send_binary(frame)
    else:
        ws.send(frame)


def closed_within(ws: websocket.WebSocket, seconds: float) -> bool:
    """True once the server closes the websocket; frames it sends before that are skipped."""
    ws.settimeout(seconds)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if ws.recv() == "":
                return True
        except (websocket.WebSocketConnectionClosedException, ConnectionError):
            return True
        except websocket.WebSocketTimeoutException:
            return False
    return False


@pytest.mark.parametrize("frames", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_packet_closes_the_connection_with_one_short_log_line(live_server, frames):
    ws = live_server.raw_socket(live_server.user("mal"), "/room")
    logged_before = len(live_server.log().splitlines())
    for frame in frames:
        send(ws, frame)
    assert closed_within(ws, 5)
    ws.shutdown()
    time.sleep(0.2)  # let the server finish writing what it logs for this connection
    new_lines = live_server.log().splitlines()[logged_before:]
    assert "Traceback" not in live_server.log()
    refusals = [line for line in new_lines if "refused" in line]
    assert len(refusals) == 1, new_lines
    assert len(refusals[0]) <= 300, refusals


def test_a_stream_of_malformed_packets_logs_one_line(live_server):
    ws = live_server.raw_socket(live_server.user("mal"), "/room")
    logged_before = len(live_server.log().encode())
    try:
        for _ in range(1_000):
            ws.send("42/room,{}")
    except (websocket.WebSocketConnectionClosedException, ConnectionError):
        pass
    assert closed_within(ws, 5)
    ws.shutdown()
    time.sleep(0.2)
    assert len(live_server.log().encode()) - logged_before <= 600


def test_other_games_go_on_while_malformed_packets_arrive(live_server):
    black, white, game_id = matched_pair(live_server)
    for index, frames in enumerate(MALFORMED.values()):
        ws = live_server.raw_socket(live_server.user(f"mal{index}"), "/room")
        for frame in frames:
            send(ws, frame)
        ws.shutdown()
    play(black, white, game_id, [(7, 7)])
    assert white[2].wait_for("stone_placed")["move"] == 1


def test_streamed_binary_attachments_are_refused_before_they_pile_up(live_server):
    ws = live_server.raw_socket(live_server.user("bin"), "/room")
    server = psutil.Process(live_server.process.pid)
    rss_before = server.memory_info().rss
    ws.send('4599999-/room,["chat",' + PLACEHOLDER % "0" + "]")
    frame = b"\x00" * 16 * 1024
    sent = 0
    try:
        while sent < 128 * 2**20:  # 128 MB, if the server keeps taking them
            ws.send_binary(frame)
            sent += len(frame)
    except (websocket.WebSocketConnectionClosedException, ConnectionError):
        pass
    assert closed_within(ws, 5)
    ws.shutdown()
    grown_mb = (server.memory_info().rss - rss_before) / 2**20
    assert grown_mb <= 16, f"server grew {grown_mb:.0f} MB after {sent / 2**20:.0f} MB sent"
    assert sum("refused" in line for line in live_server.log().splitlines()) == 1


def test_a_client_upgrading_from_long_polling_is_kept(live_server):
    """The upgrade's own frames (`2probe`, `5`) pass the websocket's frame check."""
    http = live_server.user("poller")
    cookie = "; ".join(f"{c.name}={c.value}" for c in http.cookies)
    client = LiveClient("/room")
    client.connect(live_server.url, namespaces=["/room"], headers={"Cookie": cookie},
                   transports=["polling", "websocket"], wait_timeout=10)
    live_server.clients.append(client)
    assert wait_until(lambda: client.transport() == "websocket")
    assert client.ask("join_game", {"game_id": 1})["error"] == "not_found"
    assert "refused" not in live_server.log()
