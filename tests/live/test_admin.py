"""The host's `flask --app app <command>` in its own process, beside `python app.py`: the server
learns of bans, aborts and maintenance mode from the database. Creating a user and resetting a
password are proved by tests/host/test_admin.py: the server has nothing to learn of them."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import requests

from tests.live.test_play import BLACK_FIVE, matched_pair, play
from tests.support.live import PASSWORD, ROOT, wait_until

pytestmark = [pytest.mark.live]


def flask(live_server, *args: str, stdin: str | None = None) -> str:
    """Run a host command against the live server's database, as the host would."""
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "app", *args], cwd=ROOT, env=live_server.env,
        input=stdin, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def log_in(live_server, username: str, password: str = PASSWORD) -> requests.Response:
    http = requests.Session()
    page = http.get(f"{live_server.url}/login", timeout=10).text
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    return http.post(f"{live_server.url}/login", allow_redirects=False, timeout=10,
                     data={"csrf_token": token, "username": username, "password": password})


def test_ban_disconnects_at_once_and_locks_out(live_server):
    http = live_server.user("ann")
    hall = live_server.connect(http, "/hall")
    room = live_server.connect(http, "/room")
    hall.wait_for("hello")
    output = flask(live_server, "ban", "ann")
    assert "Server: disconnected." in output
    assert hall.wait_for("session_ended") == {"reason": "banned"}
    assert wait_until(lambda: not hall.connected and not room.connected)
    assert log_in(live_server, "ann").status_code == 200  # the form again: refused
    assert http.get(f"{live_server.url}/api/me", timeout=10).status_code == 401
    flask(live_server, "unban", "ann")
    assert log_in(live_server, "ann").status_code == 302


def test_abort_ends_a_game_without_score_change(live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, BLACK_FIVE[:3])
    assert "Server: aborted." in flask(live_server, "abort-game", str(game_id))
    result = white[2].wait_for("game_over")["result"]
    assert (result["winner"], result["reason"]) == (None, "aborted")
    me = black[0].get(f"{live_server.url}/api/me", timeout=10).json()
    assert (me["score"], me["games"]) == (1000, 0)


def test_maintenance_lets_games_finish_then_a_restart_cuts_nothing(live_server):
    black, white, game_id = matched_pair(live_server)
    late = live_server.connect(live_server.user("cat"), "/hall")
    assert late.wait_for("hello")["maintenance"] is False
    flask(live_server, "maintenance", "on")
    assert late.wait_for("maintenance")["on"] is True
    refused = late.ask("start_match", {})
    assert (refused["ok"], refused["error"]) == (False, "conflict")
    assert "No games in play." not in flask(live_server, "list-games")
    play(black, white, game_id, BLACK_FIVE)
    assert white[2].wait_for("game_over")["result"]["reason"] == "five"
    assert "No games in play." in flask(live_server, "list-games")

    live_server.stop()
    live_server.start()
    http = live_server.user("dan")
    assert live_server.connect(http, "/hall").wait_for("hello")["maintenance"] is True
    flask(live_server, "maintenance", "off")
    hall = live_server.connect(live_server.user("eve"), "/hall")
    assert hall.wait_for("hello")["maintenance"] is False
    assert hall.ask("start_match", {}) == {"ok": True}
