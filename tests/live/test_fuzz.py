"""Junk from every kind of client at every event: refused with contract errors, nothing changes."""

from __future__ import annotations

import random

import pytest
import requests
import socketio

from tests.live.test_play import matched_pair, play
from tests.support.live import LiveClient

pytestmark = [pytest.mark.live]

CODES = {"unauthorized", "bad_request", "not_found", "not_in_game", "not_your_turn", "occupied",
         "out_of_range", "forbidden_move", "game_over", "busy", "rate_limited", "conflict"}
HALL_EVENTS = ["start_match", "cancel_match", "challenge", "answer_challenge", "chat"]
ROOM_EVENTS = ["join_game", "place_stone", "resign", "offer_draw", "answer_draw", "request_undo",
               "answer_undo", "request_pause", "answer_pause", "resume", "rematch", "chat"]
UNKNOWN_EVENTS = ["teleport", "", "on_connect", "__init__", "x" * 200, "disconnect", "connect"]


def junk(rng: random.Random, depth: int = 0):
    """A value of a random wrong-ish type; never a valid game id, point or boolean answer."""
    kinds = ["none", "str", "bigint", "negint", "float", "list", "dict", "markup", "huge"]
    kind = rng.choice(kinds if depth < 3 else kinds[:5])
    return {
        "none": lambda: None,
        "str": lambda: rng.choice(["", "7", "h8", "null", "☃" * 5, " "]),
        "bigint": lambda: rng.choice([10**30, 2**63, 2**62 + 5, 99, 15]),
        "negint": lambda: rng.choice([-1, -(2**63), -15]),
        "float": lambda: rng.choice([7.5, -0.0, 1e308, 3.25]),
        "list": lambda: [junk(rng, depth + 1) for _ in range(rng.randrange(4))],
        "dict": lambda: {str(junk(rng, 3)): junk(rng, depth + 1) for _ in range(3)},
        "markup": lambda: "<script>alert(1)</script>",
        "huge": lambda: "z" * rng.choice([301, 4000]),
    }[kind]()


def junk_payload(rng: random.Random, event: str):
    shape = rng.randrange(5)
    if shape == 0:
        # No payload at all is a valid start_match (the default ruleset), so send junk instead.
        return junk(rng) if event != "start_match" else rng.choice(["x", 5, [1]])
    payload = {"game_id": junk(rng), "row": junk(rng), "col": junk(rng), "accept": junk(rng),
               "challenge_id": junk(rng), "username": junk(rng), "ruleset": junk(rng),
               "text": junk(rng), "extra": junk(rng)}
    # Any short string is a fine chat message, so chat gets only text that is not.
    payload["text"] = rng.choice(["", "   ", "z" * 301, None, 5, [], {"t": "x"}])
    keep = rng.sample(sorted(payload), rng.randrange(len(payload) + 1))
    if event in ("start_match", "cancel_match"):
        keep = [k for k in keep if k != "ruleset"] + ["ruleset"]
        payload["ruleset"] = rng.choice(["chess", 5, "", [], {"a": 1}])
    return {k: payload[k] for k in keep}


def assert_refused(ack, event: str, payload) -> None:
    assert isinstance(ack, dict), (event, payload, ack)
    assert ack["ok"] is False, (event, payload, ack)
    assert ack["error"] in CODES, ack
    assert isinstance(ack["message"], str) and ack["message"]


def test_fuzzed_events_are_refused_and_change_nothing(live_server):
    black, white, game_id = matched_pair(live_server)
    play(black, white, game_id, [(7, 7), (7, 8)])
    spectator_http = live_server.user("spec")
    spectator = live_server.connect(spectator_http, "/room")
    spectator.ask("join_game", {"game_id": game_id})
    stranger_http = live_server.user("stranger")
    actors = {
        "/room": [black[2], white[2], spectator, live_server.connect(stranger_http, "/room")],
        "/hall": [black[1], white[1], live_server.connect(stranger_http, "/hall")],
    }
    rng = random.Random(20261129)
    sent = 0
    for namespace, events in (("/hall", HALL_EVENTS), ("/room", ROOM_EVENTS)):
        for event in events + UNKNOWN_EVENTS:
            for _ in range(12):
                client = rng.choice(actors[namespace])
                payload = junk_payload(rng, event)
                ack = client.ask(event, payload)
                if event == "cancel_match" and (payload is None or isinstance(payload, dict)):
                    assert ack == {"ok": True}  # has no fields, so nothing to get wrong
                else:
                    assert_refused(ack, event, payload)
                sent += 1
    assert sent == 12 * (len(HALL_EVENTS) + len(ROOM_EVENTS) + 2 * len(UNKNOWN_EVENTS))
    state = black[2].ask("join_game", {"game_id": game_id})["state"]
    assert state["moves"] == [[7, 7], [7, 8]]
    assert (state["status"], state["to_move"]) == ("playing", "black")
    play(black, white, game_id, [(6, 6)])
    assert requests.get(live_server.url + "/healthz", timeout=5).ok


# /room admits visitors as viewers (tests/live/test_guests.py).
@pytest.mark.parametrize("namespace", ["/hall", "/site"])
def test_anonymous_connections_are_refused_as_unauthorized(live_server, namespace):
    client = LiveClient(namespace)
    reasons: list[dict] = []
    client.on("connect_error", reasons.append, namespace=namespace)
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(live_server.url, namespaces=[namespace], transports=["websocket"],
                       wait_timeout=5)
    assert reasons == [{"message": "unauthorized"}]


def test_oversized_message_closes_only_that_connection(live_server):
    black, white, game_id = matched_pair(live_server)
    flooder = live_server.connect(live_server.user("flood"), "/hall")
    with pytest.raises(socketio.exceptions.DisconnectedError):  # closed, not left unanswered
        flooder.ask("chat", {"text": "x" * 100_000}, timeout=3)
    assert not flooder.connected
    play(black, white, game_id, [(7, 7)])
    assert white[2].wait_for("stone_placed")["move"] == 1


def test_cross_origin_connection_is_refused(live_server):
    http = live_server.user("eve")
    cookie = "; ".join(f"{c.name}={c.value}" for c in http.cookies)
    client = LiveClient("/hall")
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(live_server.url, namespaces=["/hall"], transports=["websocket"],
                       headers={"Cookie": cookie, "Origin": "http://evil.example"},
                       wait_timeout=5)


@pytest.mark.parametrize("frame", ["42/room,{not json", "42/room,0[", "4x", "49", "42/room,0[1",
                                   "4" + "9" * 200, "42/room,99999999999999999999999[1]"])
def test_malformed_packets_close_the_connection_without_a_traceback(live_server, frame):
    black, white, game_id = matched_pair(live_server)
    ws = live_server.raw_socket(live_server.user("mal"), "/room")
    ws.send(frame)
    play(black, white, game_id, [(7, 7)])
    assert white[2].wait_for("stone_placed")["move"] == 1
    ws.shutdown()
    assert "Traceback" not in live_server.log()
