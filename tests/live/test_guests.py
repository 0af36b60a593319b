"""Visitors and guests on the wire, with real Socket.IO clients: a visitor watches a game
from /room without a session; a guest's session is refused at the hall's door with its
reason."""

from __future__ import annotations

import pytest
import requests
import socketio

from tests.live.test_play import matched_pair, play
from tests.support.live import _TOKEN, LiveClient

pytestmark = [pytest.mark.live]


def visitor(live_server) -> LiveClient:
    client = LiveClient("/room")
    client.connect(live_server.url, namespaces=["/room"], transports=["websocket"],
                   wait_timeout=10)
    live_server.clients.append(client)
    return client


def test_a_visitor_watches_a_game_and_may_not_play_in_it(live_server):
    black, white, game_id = matched_pair(live_server)
    watcher = visitor(live_server)
    state = watcher.ask("join_game", {"game_id": game_id})["state"]
    assert (state["you"], state["status"], state["spectators"]) == ("spectator", "playing", 1)
    assert black[2].wait_for("spectators")["count"] == 1
    play(black, white, game_id, [(7, 7)])
    assert watcher.wait_for("stone_placed")["move"] == 1
    refused = watcher.ask("place_stone", {"game_id": game_id, "row": 0, "col": 0})
    assert (refused["ok"], refused["error"]) == (False, "unauthorized")
    assert black[2].ask("join_game", {"game_id": game_id})["state"]["moves"] == [[7, 7]]


def guest_session(live_server) -> requests.Session:
    http = requests.Session()
    page = http.get(live_server.url + "/login", timeout=10).text
    response = http.post(live_server.url + "/guest", allow_redirects=False, timeout=10,
                         data={"csrf_token": _TOKEN.search(page).group(1)})
    assert response.headers["Location"] == "/computer"
    return http


@pytest.mark.parametrize("namespace", ["/hall", "/site"])
def test_a_guest_is_refused_at_the_hall_with_its_reason(live_server, namespace):
    http = guest_session(live_server)
    client = LiveClient(namespace)
    reasons: list[dict] = []
    client.on("connect_error", reasons.append, namespace=namespace)
    cookie = "; ".join(f"{c.name}={c.value}" for c in http.cookies)
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(live_server.url, namespaces=[namespace], headers={"Cookie": cookie},
                       transports=["websocket"], wait_timeout=5)
    assert reasons == [{"message": "registered_only"}]
