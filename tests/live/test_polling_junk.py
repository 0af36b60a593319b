"""Long-polling is held to the websocket's frame checks: junk is refused with a 400, its
session is closed, and the log gets one short line, never a traceback."""

from __future__ import annotations

import json

import pytest
import requests

from tests.support.live import LiveClient, wait_until

pytestmark = [pytest.mark.live]

JUNK = {
    "frame type not a digit": b"x",
    "body not UTF-8": b"4\xff\xfe",
    "17 frames, one more than a body may hold": ("6\x1e" * 16 + "6").encode(),
    "body over the message size": b"4" + b"x" * 20_000,
    "noop, which only the server sends": b"6",
}


def polling(live_server, sid: str | None = None) -> tuple[str, dict[str, str]]:
    params = {"EIO": "4", "transport": "polling"}
    if sid is not None:
        params["sid"] = sid
    return f"{live_server.url}/socket.io/", params


def open_session(live_server) -> str:
    url, params = polling(live_server)
    handshake = requests.get(url, params=params, timeout=5)
    assert handshake.text.startswith("0"), handshake.text
    return json.loads(handshake.text[1:])["sid"]


def post(live_server, sid: str, body: bytes) -> requests.Response:
    url, params = polling(live_server, sid)
    return requests.post(url, params=params, data=body, timeout=10)


def refusals(lines: list[str]) -> list[str]:
    return [line for line in lines if "refused" in line]


@pytest.mark.parametrize("body", JUNK.values(), ids=JUNK.keys())
def test_junk_posted_by_long_polling_gets_a_400_and_one_short_log_line(live_server, body):
    sid = open_session(live_server)
    logged_before = len(live_server.log().splitlines())
    assert post(live_server, sid, body).status_code == 400
    assert wait_until(lambda: refusals(live_server.log().splitlines()[logged_before:]))
    new_lines = live_server.log().splitlines()[logged_before:]
    assert "Traceback" not in live_server.log()
    assert len(new_lines) == 1, new_lines
    assert len(new_lines[0]) <= 200, new_lines


@pytest.mark.parametrize("body", JUNK.values(), ids=JUNK.keys())
def test_junk_posted_by_long_polling_closes_its_session(live_server, body):
    sid = open_session(live_server)
    post(live_server, sid, body)
    url, params = polling(live_server, sid)
    assert requests.get(url, params=params, timeout=10).status_code == 400
    assert post(live_server, sid, b"3").status_code == 400


@pytest.mark.parametrize("live_env", [{"GOBANG_RATELIMIT_ENABLED": "1",
                                       "GOBANG_SOCKET_FRAME_BURST": "20",
                                       "GOBANG_SOCKET_FRAMES_PER_SECOND": "1"}])
def test_long_polling_frames_spend_the_websocket_frame_budget(live_server):
    sid = open_session(live_server)
    sixteen_pongs = "\x1e".join(["3"] * 16).encode()
    assert post(live_server, sid, sixteen_pongs).status_code == 200
    assert post(live_server, sid, sixteen_pongs).status_code == 400
    assert wait_until(lambda: refusals(live_server.log().splitlines()))
    [refusal] = refusals(live_server.log().splitlines())
    assert "too many frames" in refusal


def test_a_client_on_long_polling_alone_is_served(live_server):
    http = live_server.user("poller")
    cookie = "; ".join(f"{c.name}={c.value}" for c in http.cookies)
    client = LiveClient("/room")
    client.connect(live_server.url, namespaces=["/room"], headers={"Cookie": cookie},
                   transports=["polling"], wait_timeout=10)
    live_server.clients.append(client)
    assert client.ask("join_game", {"game_id": 1})["error"] == "not_found"
    assert client.transport() == "polling"
    assert "refused" not in live_server.log()


def test_a_malformed_socketio_packet_by_long_polling_is_answered_and_closes_its_session(
        live_server):
    """The packet passes the Engine.IO checks (a message frame) and is refused by Socket.IO's
    decoder; closing its session waited, for good, for the poll queue to drain."""
    sid = open_session(live_server)
    post(live_server, sid, b"49")
    assert wait_until(lambda: refusals(live_server.log().splitlines()))
    [refusal] = refusals(live_server.log().splitlines())
    assert "malformed packet" in refusal
    url, params = polling(live_server, sid)
    assert requests.get(url, params=params, timeout=10).status_code == 400
    assert "Traceback" not in live_server.log()
