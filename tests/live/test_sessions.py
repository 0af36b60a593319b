"""Ending a session in one browser closes another browser's live connections on the real
server (eventlet, real cookies, real Socket.IO clients), and they cannot come back. A log-out
proves it end to end; the other endings (a password change, an account deleted) are proved by
tests/sockets/test_sessions.py and tests/http/test_sessions_http.py (docs/testing.md)."""

from __future__ import annotations

import re

import pytest
import requests
import socketio

from tests.support.live import wait_until

pytestmark = [pytest.mark.live]


def post_form(live_server, http: requests.Session, page: str, path: str, data: dict):
    html = http.get(live_server.url + page, timeout=10).text
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)
    return http.post(live_server.url + path, data={"csrf_token": token, **data},
                     allow_redirects=False, timeout=10)


def log_out(live_server, http):
    return post_form(live_server, http, "/hall", "/logout", {})


def test_ending_a_session_closes_another_browser_s_connections(live_server):
    phone = live_server.user("ann")
    laptop = live_server.user("ann", register=False)
    hall = live_server.connect(laptop, "/hall")
    room = live_server.connect(laptop, "/room")
    hall.wait_for("hello")
    assert log_out(live_server, phone).status_code == 302
    assert hall.wait_for("session_ended") == {"reason": "logged_out"}
    assert wait_until(lambda: not hall.connected and not room.connected)
    with pytest.raises(socketio.exceptions.ConnectionError):
        live_server.connect(laptop, "/hall")
    assert laptop.get(f"{live_server.url}/api/me", timeout=10).status_code == 401
