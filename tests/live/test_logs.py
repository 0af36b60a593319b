"""The server's log: one line per event on stderr, at LOG_LEVEL, never a secret."""

from __future__ import annotations

import re

import pytest
import requests

from tests.live.test_play import BLACK_FIVE, matched_pair, play
from tests.support.live import PASSWORD

pytestmark = [pytest.mark.live]

WRONG_PASSWORD = "not-the-password-42"


def failed_login(live_server, username: str) -> None:
    http = requests.Session()
    page = http.get(f"{live_server.url}/login", timeout=10).text
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    http.post(f"{live_server.url}/login", timeout=10, data={
        "csrf_token": token, "username": username, "password": WRONG_PASSWORD})


@pytest.mark.parametrize("live_env", [{"GOBANG_LOG_LEVEL": "DEBUG"}])
def test_log_holds_no_password_and_no_session_cookie(live_server):
    black, white, game_id = matched_pair(live_server)  # registers, so posts the password
    again = live_server.user("ann", register=False)  # and logs in with it
    failed_login(live_server, "ann")
    play(black, white, game_id, BLACK_FIVE)
    white[2].wait_for("game_over")
    log = live_server.log()
    assert PASSWORD not in log
    assert WRONG_PASSWORD not in log
    cookies = [c.value for http in (black[0], white[0], again) for c in http.cookies]
    assert cookies and all(len(value) > 20 for value in cookies)
    for value in cookies:
        assert value not in log
        assert value[:20] not in log  # not even a recognisable part of it


HOST_EVENTS = ("register", "login", "login_failed", "queued", "matched", "game_created",
               "game_over")


@pytest.mark.parametrize("live_env", [{"GOBANG_LOG_LEVEL": "INFO"}])
def test_logins_matches_and_game_ends_are_logged(live_server):
    black, white, game_id = matched_pair(live_server)
    live_server.user("ann", register=False)
    failed_login(live_server, "ann")
    play(black, white, game_id, BLACK_FIVE)
    white[2].wait_for("game_over")
    logged = set(re.findall(r"level=info logger=gobang[.\w]* event=(\w+)", live_server.log()))
    assert set(HOST_EVENTS) - logged == set()


@pytest.mark.parametrize("live_env", [{"GOBANG_LOG_LEVEL": "WARNING"}])
def test_log_level_setting_hides_lesser_events(live_server):
    live_server.user("ann")
    failed_login(live_server, "ann")
    assert "level=info" not in live_server.log()


def test_the_server_says_where_it_serves_when_it_starts(live_server):
    lines = live_server.log().splitlines()
    assert f"Gobang serving on {live_server.url}" in lines  # for a person
    assert any(f"event=serving url='{live_server.url}'" in line for line in lines)  # machines


@pytest.mark.parametrize("live_env", [{"GOBANG_LOG_LEVEL": "WARNING"}])
def test_the_line_for_a_person_is_printed_whatever_the_log_level(live_server):
    assert f"Gobang serving on {live_server.url}" in live_server.log().splitlines()
