"""A leader that dies while it makes a batch of games, at either point that matters: after its
players were put into their games in Redis and before the commit, or after the commit and
before it confirmed them. Either way nobody is paired twice, nobody is left "in a game" that
was never saved, and the next leader or a player's next press sees which it was.

Two apps on one Redis and one PostgreSQL database act as two processes; a process "dies" by an
exception no handler catches (as SIGKILL runs none), its transaction rolled back as PostgreSQL
does when a connection drops, its lease and the lead gone."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from flask import Flask
from sqlalchemy import select

from gobang import create_app
from gobang.extensions import db
from gobang.models import Game
from gobang.services.cluster.processes import PROCESSES
from gobang.services.notices import ActionError
from gobang.services.registry import Services, services
from tests.conftest import make_config
from tests.support.clock import FakeClock

LEASE = 0.5
PLAYERS = 6


class Killed(BaseException):
    """The process is gone: not an Exception, so no cleanup of ours runs."""


def build(database_url: str, redis_url: str, name: str) -> Flask:
    return create_app(make_config(database_url, CLOCK=FakeClock(), RANDOM=random.Random(7),
                                  REDIS_MESSAGE_QUEUE=False, REDIS_URL=redis_url,
                                  PROCESS_NAME=name, LEASE_SECONDS=LEASE,
                                  MATCH_BATCH_GAMES=50))


@pytest.fixture
def two_processes(database_url: str, redis_server) -> Iterator[tuple[Services, Services]]:
    apps = [build(database_url, redis_server.url, f"p{n}") for n in (1, 2)]
    with ExitStack() as contexts:
        found = []
        for app in apps:
            contexts.enter_context(app.app_context())
            found.append(services())
        yield found[0], found[1]
    for app in apps:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def crowd_presses_match(env: Services) -> list:
    users = [env.accounts.register(f"user{i}", "password1", "password1") for i in range(PLAYERS)]
    for user in users:
        env.lobby.hall.connect(user, f"sid-{user.id}")
        env.lobby.matchmaking.start(user, "freestyle")
    return users


def die_when(monkeypatch, obj: object, name: str, after: bool) -> None:
    """`obj.name` kills the process, before or after doing its work."""
    real = getattr(obj, name)

    def dying(*args, **kwargs):
        if after:
            real(*args, **kwargs)
        raise Killed

    monkeypatch.setattr(obj, name, dying)


def lead_until_killed(leader: Services, client) -> None:
    # The lease is real time: on a slow machine the first process's lease from start-up
    # may have run out, so it is taken afresh here rather than assumed.
    client.delete("gobang:lease:leader")
    with pytest.raises(Killed):
        for _notices in leader.tick():
            pass


def kill(dead: Services, client) -> None:
    db.session.rollback()  # its connection closed: PostgreSQL rolls back what it had not committed
    client.zrem(PROCESSES, dead.store.processes.me)
    client.delete("gobang:lease:leader")


def lead(env: Services, rounds: int = 3) -> list:
    """The survivor leads a few ticks, a lease apart; the `match_found` notices sent."""
    found = []
    for _ in range(rounds):
        env.store.heartbeat()
        env.clock.advance(LEASE)
        found += [n for notices in env.tick() for n in notices if n.event == "match_found"]
        time.sleep(LEASE + 0.1)
    return found


def games_by_player() -> dict[int, list[int]]:
    rows = db.session.execute(select(Game.id, Game.black_id, Game.white_id)).all()
    db.session.commit()
    seated: dict[int, list[int]] = {}
    for game_id, black, white in rows:
        for user_id in (black, white):
            seated.setdefault(user_id, []).append(game_id)
    return seated


def test_killed_before_its_commit_the_pairs_are_paired_once_by_the_next_leader(
        two_processes, redis_server, monkeypatch):
    dying, survivor = two_processes
    users = crowd_presses_match(survivor)
    die_when(monkeypatch, dying.play.table, "reserve", after=True)
    lead_until_killed(dying, redis_server.client())
    kill(dying, redis_server.client())
    # Rounds to spare on a loaded machine: a pair paired twice would show as more notices.
    found = lead(survivor, rounds=8)
    seated = games_by_player()
    assert sorted(n.key for n in found) == sorted(u.id for u in users)
    assert all(len(seated[u.id]) == 1 for u in users)
    assert {n.payload["game_id"] for n in found} == {g for u in users for g in seated[u.id]}


def test_killed_before_its_commit_its_players_are_not_in_a_game(two_processes, redis_server,
                                                                monkeypatch):
    dying, survivor = two_processes
    users = crowd_presses_match(survivor)
    die_when(monkeypatch, dying.play.table, "reserve", after=True)
    lead_until_killed(dying, redis_server.client())
    reserved = survivor.store.game_of_user(users[0].id)
    with pytest.raises(ActionError) as refused:  # its process may still commit it
        survivor.lobby.matchmaking.start(users[0], "freestyle")
    assert (refused.value.code, refused.value.extra["game_id"]) == ("busy", reserved)
    kill(dying, redis_server.client())
    survivor.lobby.matchmaking.start(users[0], "freestyle")
    assert survivor.store.game_of_user(users[0].id) is None
    assert survivor.lobby.matcher.is_queued(users[0].id)
    assert games_by_player() == {}


def test_killed_after_its_commit_the_games_stand_and_their_players_hear_of_them(
        two_processes, redis_server, monkeypatch):
    dying, survivor = two_processes
    users = crowd_presses_match(survivor)
    die_when(monkeypatch, dying.play.table, "confirm", after=False)
    lead_until_killed(dying, redis_server.client())
    kill(dying, redis_server.client())
    found = lead(survivor)
    seated = games_by_player()
    assert all(len(seated[u.id]) == 1 for u in users)
    assert sorted((n.key, n.payload["game_id"]) for n in found) == sorted(
        (u.id, seated[u.id][0]) for u in users)
    assert survivor.lobby.matcher.queued() == []


def test_killed_after_its_commit_a_players_press_finds_their_game(two_processes, redis_server,
                                                                 monkeypatch):
    dying, survivor = two_processes
    users = crowd_presses_match(survivor)
    die_when(monkeypatch, dying.play.table, "confirm", after=False)
    lead_until_killed(dying, redis_server.client())
    kill(dying, redis_server.client())
    with pytest.raises(ActionError) as refused:
        survivor.lobby.matchmaking.start(users[0], "freestyle")
    assert (refused.value.code, refused.value.extra["game_id"]) == (
        "busy", games_by_player()[users[0].id][0])


def test_a_game_committed_after_its_players_were_freed_is_aborted(two_processes, redis_server,
                                                                  monkeypatch):
    stalled, other = two_processes
    users = crowd_presses_match(other)
    client = redis_server.client()

    def stall_past_the_lease() -> None:
        monkeypatch.undo()
        # Meanwhile the process was taken for dead, and another found its games uncommitted.
        client.zrem(PROCESSES, stalled.store.processes.me)
        reservations = other.play.table.reservations
        reservations.release(reservations.stale())
        db.session.commit()

    reserve = stalled.play.table.reserve

    def reserve_then_stall(lives):
        refused = reserve(lives)
        monkeypatch.setattr(db.session, "commit", stall_past_the_lease)
        return refused

    monkeypatch.setattr(stalled.play.table, "reserve", reserve_then_stall)
    found = [n for notices in stalled.tick() for n in notices if n.event == "match_found"]
    assert found == []
    assert all(other.store.game_of_user(u.id) is None for u in users)
    assert set(db.session.scalars(select(Game.status))) == {"finished"}
