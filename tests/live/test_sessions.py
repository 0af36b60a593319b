"""Ending a session in one browser closes another browser's live connections on the real
server (eventlet, real cookies, real Socket.IO clients), and they cannot come back."""

from __future__ import annotations

import re

import pytest
import requests
import socketio

from tests.support.live import PASSWORD, wait_until

pytestmark = [pytest.mark.live]
NEW_PASSWORD = "battery staple"


def post_form(live_server, http: requests.Session, page: str, path: str, data: dict):
    html = http.get(live_server.url + page, timeout=10).text
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)
    return http.post(live_server.url + path, data={"csrf_token": token, **data},
                     allow_redirects=False, timeout=10)


def change_password(live_server, http):
    return post_form(live_server, http, "/settings", "/settings/password",
                     {"old": PASSWORD, "new": NEW_PASSWORD, "confirm": NEW_PASSWORD})


def log_out(live_server, http):
    return post_form(live_server, http, "/hall", "/logout", {})


@pytest.mark.parametrize(("end", "reason"), [(change_password, "password_changed"),
                                             (log_out, "logged_out")])
def test_ending_a_session_closes_another_browser_s_connections(live_server, end, reason):
    phone = live_server.user("ann")
    laptop = live_server.user("ann", register=False)
    hall = live_server.connect(laptop, "/hall")
    room = live_server.connect(laptop, "/room")
    hall.wait_for("hello")
    assert end(live_server, phone).status_code == 302
    assert hall.wait_for("session_ended") == {"reason": reason}
    assert wait_until(lambda: not hall.connected and not room.connected)
    with pytest.raises(socketio.exceptions.ConnectionError):
        live_server.connect(laptop, "/hall")
    assert laptop.get(f"{live_server.url}/api/me", timeout=10).status_code == 401


def test_the_browser_that_changed_the_password_stays_in(live_server):
    phone = live_server.user("ann")
    change_password(live_server, phone)
    assert phone.get(f"{live_server.url}/api/me", timeout=10).status_code == 200
    hall = live_server.connect(phone, "/hall")
    assert hall.wait_for("hello")["me"]["username"] == "ann"
