"""The real rate limits, on: the other live tests turn them off to play fast. A whole game
plays under them and a login burst is cut; each event's limit is proved by socket tests."""

from __future__ import annotations

import pytest

from tests.live.test_play import BLACK_FIVE, matched_pair, play

pytestmark = [pytest.mark.live]


@pytest.fixture
def live_env() -> dict[str, str]:
    return {"GOBANG_RATELIMIT_ENABLED": "1"}


def test_a_whole_game_plays_under_the_real_limits(live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, BLACK_FIVE)
    assert white[2].wait_for("game_over")["result"]["winner"] == "black"


def test_a_login_burst_is_cut_at_the_real_limit(live_server):
    import requests

    from tests.support.forms import _TOKEN

    live_server.user("victim")  # registering was one of this address's 10 a minute
    codes = []
    for _ in range(11):
        session = requests.Session()
        token = _TOKEN.search(session.get(live_server.url + "/login").text).group(1)
        answer = session.post(live_server.url + "/login", data={
            "username": "victim", "password": "wrong-password", "csrf_token": token})
        codes.append(answer.status_code)
    assert codes == [200] * 9 + [429, 429]
