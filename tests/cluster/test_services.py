"""Two apps built with one REDIS_URL and one database, as two server processes: the hall's
services of each see the other's players, challenges, chat and games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from flask import Flask

from gobang import create_app
from gobang.services.cluster.leases import PREFIX
from gobang.services.cluster.redis_store import RedisStore
from gobang.services.play.table import game_lease
from gobang.services.registry import Services, services
from gobang.services.store import MemoryStore
from tests.conftest import make_config
from tests.support.clock import FakeClock
from tests.support.live import wait_until
from tests.support.redis import LASTING_LEASE_SECONDS


def build(database_url: str, **overrides: object) -> Flask:
    # Services only: no Socket.IO message queue (its listener thread would outlive the test).
    return create_app(make_config(database_url, CLOCK=FakeClock(), RANDOM=random.Random(7),
                                  REDIS_MESSAGE_QUEUE=False, **overrides))


def close(app: Flask) -> None:
    with app.app_context():
        from gobang.extensions import db

        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def lease_seconds() -> float:
    """An hour: these processes run no keep-alive, so their leases on Redis's own clock are
    renewed only when a test does, and a test that a busy machine slowed past a lease of
    seconds would find its processes dead (tests/sockets/conftest.py, the same). The tests
    that wait until Redis has been up for two leases set the server's 3 s."""
    return LASTING_LEASE_SECONDS


@pytest.fixture
def two_processes(database_url: str, redis_server,
                  lease_seconds: float) -> Iterator[tuple[Services, Services]]:
    """Both processes' services, each in its own app context."""
    apps = [build(database_url, REDIS_URL=redis_server.url, PROCESS_NAME=f"p{n}",
                  LEASE_SECONDS=lease_seconds) for n in (1, 2)]
    with ExitStack() as contexts:
        found = []
        for app in apps:
            contexts.enter_context(app.app_context())
            found.append(services())
        yield found[0], found[1]
    for app in apps:
        close(app)


def register(env: Services, *names: str):
    return [env.accounts.register(name, "password1", "password1") for name in names]


def test_without_redis_the_live_state_stays_in_memory(database_url):
    app = build(database_url)
    with app.app_context():
        assert isinstance(services().store, MemoryStore)
    close(app)


def test_with_redis_the_live_state_is_shared(two_processes):
    one, two = two_processes
    assert isinstance(one.store, RedisStore) and isinstance(two.store, RedisStore)


def test_a_player_in_the_hall_of_one_process_is_found_from_the_other(two_processes):
    one, two = two_processes
    (alice,) = register(one, "alice")
    one.lobby.hall.connect(alice, "alice-hall")
    (found,) = two.lobby.hall.find_players("al")
    assert (found["username"], found["status"]) == ("alice", "idle")


def test_a_challenge_sent_on_one_process_is_accepted_on_the_other(two_processes):
    one, two = two_processes
    alice, bob = register(one, "alice", "bob")
    one.lobby.hall.connect(alice, "alice-hall")
    two.lobby.hall.connect(bob, "bob-hall")
    challenge_id, _notices = one.lobby.challenges.send(alice, "bob", "freestyle", None)
    notices = two.lobby.challenges.answer(bob, challenge_id, True)
    assert [n.event for n in notices].count("match_found") == 2
    game_id = two.play.table.current_game_of(bob.id)
    assert one.play.table.current_game_of(alice.id) == game_id is not None


def test_a_chat_message_said_on_one_process_greets_arrivals_on_the_other(two_processes):
    one, two = two_processes
    alice, bob = register(one, "alice", "bob")
    one.lobby.chat.say(alice, "hello from one")
    _replaced, hello = two.lobby.hall.connect(bob, "bob-hall")
    assert [m["text"] for m in hello["chat"]] == ["hello from one"]


@pytest.mark.parametrize("lease_seconds", [3.0])
def test_the_hall_view_of_one_process_lists_the_games_of_the_other(two_processes):
    one, two = two_processes
    alice, bob = register(one, "alice", "bob")
    two.lobby.hall.connect(alice, "alice-hall")
    two.lobby.hall.connect(bob, "bob-hall")
    two.lobby.matchmaking.start(alice, "freestyle")
    two.lobby.matchmaking.start(bob, "freestyle")
    two.lobby.matchmaking.run()
    # The game is played where its first player joins: here, the second process (once
    # Redis has been up for two leases: before that nothing is adopted).
    def settled() -> bool:
        one.store.heartbeat()  # both stay alive meanwhile
        two.store.heartbeat()
        return two.play.homes.directory.settled()

    assert wait_until(settled, timeout=10)
    two.play.homes.locate(two.store.game_of_user(alice.id))
    two.lobby.games.publish()
    (update,) = one.lobby.view.flush()
    assert [g["black"]["username"] for g in update.payload["games"]["set"]] in (
        ["alice"], ["bob"])
    assert update.payload["counts"]["playing"] == 2


def redis_calls(client) -> dict[str, int]:
    """Commands Redis has run so far, by name (this very INFO left out)."""
    stats = client.info("commandstats")
    return {name: found["calls"] for name, found in stats.items() if name != "cmdstat_info"}


def test_a_move_on_the_process_that_plays_its_game_asks_redis_nothing(two_processes,
                                                                       redis_server):
    one, _two = two_processes
    black, white = register(one, "black_bo", "white_wu")
    live, _notices = one.play.factory.create(black, white, "freestyle")
    one.play.seating.join(live.game_id, black.id, "sid-b")
    one.play.seating.join(live.game_id, white.id, "sid-w")
    counter = redis_server.client()  # one connection: its handshake is counted once, before
    before = redis_calls(counter)
    for number, (row, col) in enumerate([(7, 7), (0, 0), (7, 8), (0, 1)]):
        player = black if number % 2 == 0 else white
        notices = one.play.moves.place_stone(live.game_id, player.id, row, col)
        assert [n.event for n in notices] == ["stone_placed"]
    assert redis_calls(counter) == before


def test_handing_out_a_crowds_games_asks_who_else_lives_once_per_keep_alive_step(
        two_processes, redis_server):
    one, two = two_processes
    players = register(one, *(f"crowd{i}" for i in range(6)))
    two.play.homes.keep()  # the other process's sign of life
    one.play.homes.keep()
    counter = redis_server.client()
    before = redis_calls(counter).get("cmdstat_hgetall", 0)
    games = []
    for black, white in zip(players[::2], players[1::2], strict=True):
        live, _notices = one.play.factory.create(black, white, "freestyle")
        one.play.homes.hand_out([live])
        games.append(live.game_id)
    assert redis_calls(counter).get("cmdstat_hgetall", 0) == before
    assert [one.play.table.get(game_id) for game_id in games] == [None] * 3  # handed out


@pytest.mark.parametrize("lease_seconds", [3.0])
def test_the_sweep_reads_the_leases_of_the_games_played_elsewhere_in_one_round_trip(
        two_processes, redis_server):
    one, two = two_processes
    players = register(one, *(f"swept{i}" for i in range(6)))
    two.play.homes.keep()
    one.play.homes.keep()
    for black, white in zip(players[::2], players[1::2], strict=True):
        live, _notices = one.play.factory.create(black, white, "freestyle")
        one.play.homes.hand_out([live])
    assert wait_until(one.play.homes.directory.settled, timeout=10)
    counter = redis_server.client()
    before = redis_calls(counter)
    assert one.play.homes.sweep() == []  # handed out: nobody's to adopt yet
    after = redis_calls(counter)
    assert after.get("cmdstat_get", 0) == before.get("cmdstat_get", 0)
    assert after["cmdstat_mget"] == before.get("cmdstat_mget", 0) + 1


def test_a_process_that_stalled_past_its_games_lease_lets_the_game_go_to_its_new_owner(
        two_processes, redis_server):
    """Its lease ran out while it stalled and the other process took the game: its next
    renewal finds the lease another's and lets the game go, never renewing it as its own."""
    one, two = two_processes
    black, white = register(one, "black_bo", "white_wu")
    live, _notices = one.play.factory.create(black, white, "freestyle")
    one.play.seating.join(live.game_id, black.id, "sid-b")
    one.play.seating.join(live.game_id, white.id, "sid-w")
    lease = game_lease(live.game_id)
    redis_server.client().delete(PREFIX + lease)  # ran out while the first process stalled
    assert two.play.homes._adopt(live.game_id) is not None
    one.play.homes.keep()
    assert one.play.table.get(live.game_id) is None
    assert one.play.homes.leases.holder(lease) == two.play.homes.leases.me
