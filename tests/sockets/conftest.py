"""Several logged-in players at once through Flask-SocketIO's test client, on a fake clock."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from gobang.extensions import socketio
from gobang.services.registry import services
from gobang.sockets.ticker import tick_once
from tests.support.clock import FakeClock
from tests.support.forms import register
from tests.support.redis import LASTING_LEASE_SECONDS


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def base_overrides(clock: FakeClock, request: pytest.FixtureRequest) -> dict[str, object]:
    return {"CLOCK": clock, "RANDOM": random.Random(7), **store_overrides(request)}


def store_overrides(request: pytest.FixtureRequest) -> dict[str, object]:
    """GOBANG_TEST_LIVE_STORE=redis runs these tests on the Redis store (a real Redis,
    emptied for each test), as several processes use it.
    An hour's lease: these tests tick by hand and never run the keep-alive, so the process's
    lease, counted on Redis's own clock, is renewed only when the app starts. With the 3-s
    lease a loaded machine that took 8 s to register two players made the process look dead,
    its players' connections with it, and the matcher dropped them from the queue."""
    if os.environ.get("GOBANG_TEST_LIVE_STORE") != "redis":
        return {}
    return {"REDIS_URL": request.getfixturevalue("redis_server").url,
            "REDIS_MESSAGE_QUEUE": False, "LEASE_SECONDS": LASTING_LEASE_SECONDS}


@dataclass
class Player:
    name: str
    http: FlaskClient
    app: Flask
    clients: dict[str, Any] = field(default_factory=dict)
    # The last number `v` seen of each game's room events: every socket test checks that a
    # room's events reach a player in the order they are numbered (docs/protocol.md).
    last_numbers: dict[int, int] = field(default_factory=dict)

    def connect(self, namespace: str):
        client = socketio.test_client(self.app, namespace=namespace, flask_test_client=self.http)
        self.clients[namespace] = client
        return client

    @property
    def hall(self):
        return self.clients.get("/hall") or self.connect("/hall")

    def join_hall(self):
        return self.hall

    @property
    def room(self):
        return self.clients.get("/room") or self.connect("/room")

    def emit(self, namespace: str, event: str, data: Any = None) -> dict:
        client = self.hall if namespace == "/hall" else self.room
        args = () if data is None else (data,)
        return client.emit(event, *args, namespace=namespace, callback=True)

    def _inbox(self, namespace: str) -> list[dict]:
        # Read the queue directly: the test client refuses to once a connection is closed.
        client = self.clients[namespace]
        packets = [p for p in client.queue if p["namespace"] == namespace]
        client.queue = [p for p in client.queue if p["namespace"] != namespace]
        for packet in packets:
            self._check_order(packet)
        return packets

    def _check_order(self, packet: dict) -> None:
        payload = packet["args"][0] if packet["args"] else None
        if not isinstance(payload, dict) or "v" not in payload:
            return
        game_id, number = payload["game_id"], payload["v"]
        last = self.last_numbers.get(game_id)
        # Only the last move sent again after a Redis outage repeats the last number.
        assert last is None or number > last or (
            number == last and packet["name"] == "stone_placed"), (
            f"{packet['name']} numbered {number} after {last}: out of order")
        self.last_numbers[game_id] = number

    def received(self, namespace: str, name: str | None = None) -> list[dict]:
        """The payloads of the events received since the last look, without the room
        events' number `v` (test_room_versions.py is about that)."""
        return [_unnumbered(payload) for payload in self.numbered(namespace, name)]

    def numbered(self, namespace: str, name: str | None = None) -> list[dict]:
        return [e["args"][0] if e["args"] else {} for e in self._inbox(namespace)
                if name is None or e["name"] == name]

    def events(self, namespace: str) -> list[tuple[str, Any]]:
        return [(name, _unnumbered(payload)) for name, payload in self.numbered_events(namespace)]

    def numbered_events(self, namespace: str) -> list[tuple[str, Any]]:
        return [(e["name"], e["args"][0] if e["args"] else None) for e in self._inbox(namespace)]

    @property
    def id(self) -> int:
        return self.http.get("/api/me").get_json()["id"]


def _unnumbered(payload: Any) -> Any:
    if not isinstance(payload, dict):
        return payload
    return {key: value for key, value in payload.items() if key != "v"}


@pytest.fixture
def player(app: Flask):
    made: list[Player] = []

    def make(name: str) -> Player:
        http = app.test_client()
        assert register(http, name).status_code == 302
        made.append(Player(name, http, app))
        return made[-1]

    yield make
    disconnect_all(made)


def disconnect_all(players: list[Player]) -> None:
    """Close every namespace a test left open, as a browser closing its tabs would."""
    for each in players:
        for namespace, client in each.clients.items():
            if client.is_connected(namespace):
                client.disconnect(namespace)


@pytest.fixture
def tick(app: Flask):
    def run() -> None:
        tick_once(app, services_of(app))

    return run


def services_of(app: Flask):
    with app.app_context():
        return services()


@pytest.fixture
def game_between(player, tick, app):
    """A started game: both players matched through the hall and joined in the room."""

    def make(black_name: str = "blackie", white_name: str = "whitey",
             ruleset: str = "freestyle") -> tuple[Player, Player, int]:
        a, b = player(black_name), player(white_name)
        for p in (a, b):
            p.join_hall()
            assert p.emit("/hall", "start_match", {"ruleset": ruleset})["ok"]
        tick()
        found = a.received("/hall", "match_found")[-1]
        black, white = (a, b) if found["color"] == "black" else (b, a)
        for p in (black, white):
            assert p.emit("/room", "join_game", {"game_id": found["game_id"]})["ok"]
        for p in (black, white):
            p.received("/room")
        return black, white, found["game_id"]

    return make


@pytest.fixture
def next_update(app: Flask, clock: FakeClock, tick):
    """Let the hall's update interval pass and run the ticker: what changed goes out."""

    def run() -> None:
        clock.advance(app.config["HALL_UPDATE_SECONDS"])
        tick()

    return run
