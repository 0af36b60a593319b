"""A leader that dies while it makes a batch of games, at either point that matters: after its
players were put into their games in Redis and before the commit, or after the commit and
before it confirmed them. Either way nobody is paired twice, nobody is left "in a game" that
was never saved, and the next leader or a player's next press sees which it was.

Two apps on one Redis and one PostgreSQL database act as two processes; a process "dies" by an
exception no handler catches (as SIGKILL runs none), its transaction rolled back as PostgreSQL
does when a connection drops, its lease and the lead gone."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from sqlalchemy import select

from gobang import create_app
from gobang.extensions import db
from gobang.models import Game
from gobang.services.cluster.leader import LEADER
from gobang.services.cluster.processes import PROCESSES
from gobang.services.cluster.redis_store import PAIRING, PAIRING_AT, QUEUE, RESERVED, USER_GAME
from gobang.services.notices import ActionError
from gobang.services.registry import Services, services
from gobang.sockets.ticker import keep_alive_once
from tests.conftest import make_config
from tests.support.clock import FakeClock

# Both processes are threads of the test process, and so are their keep-alives: a stall of
# the whole process longer than a lease (2 s in a CI run, on a machine running three test
# workers) let the first keep-alive to run afterwards take the other process for dead and
# sweep its hall connections, so the leader then paired nobody (`DID NOT RAISE Killed`), or,
# the other way round, take the lead (`assert leader.leads()`). Half a second was too short.
LEASE = 3.0
PLAYERS = 6
# How long a step that takes a few leases on a quiet machine (the longest, the next leader
# pairing a dead one's pairs, 9 s with 3-s leases) may take on a loaded one.
WITHIN = 40.0


class Killed(BaseException):
    """The process is gone: not an Exception, so no cleanup of ours runs."""


def build(database_url: str, redis_url: str, name: str) -> Flask:
    return create_app(make_config(database_url, CLOCK=FakeClock(), RANDOM=random.Random(7),
                                  REDIS_MESSAGE_QUEUE=False, REDIS_URL=redis_url,
                                  PROCESS_NAME=name, LEASE_SECONDS=LEASE,
                                  MATCH_BATCH_GAMES=50))


def until(condition: Callable[[], bool], what: str, within: float = WITHIN) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, f"not within {within} s: {what}"
        time.sleep(LEASE / 10)


class KeepAlive:
    """The process's keep-alive task, as `start_ticker` runs it (gobang/sockets/ticker.py):
    `keep_alive_once` every LEASE/4, on a thread of its own, until the process dies. Liveness
    is real time on Redis's clock, so without it a process's hall connections and lead would
    run out whenever the test's own steps take longer than a lease."""

    def __init__(self, app: Flask, env: Services) -> None:
        self.app, self.env = app, env
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"keep-alive {app.name}",
                                        daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            keep_alive_once(self.app, self.env)
            if self._stopped.wait(LEASE / 4):
                return

    def stop(self) -> None:
        """Renews nothing from now on (returns once its last step is over)."""
        self._stopped.set()
        self._thread.join()


class Process:
    """One of the two server processes: its app, its services, its keep-alive, and an app
    context of its own, so that its database session is its own (a transaction it has not
    committed is invisible to the other, as between two real processes)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.context = app.app_context()
        self.context.push()
        self.env = services()
        self.keeper: KeepAlive | None = None

    def keep_alive(self) -> None:
        self.keeper = KeepAlive(self.app, self.env)

    @contextmanager
    def acting(self) -> Iterator[Services]:
        """Code run inside as this process: `db.session` is its session."""
        self.context.push()
        try:
            yield self.env
        finally:
            self.context.pop()

    def leads(self) -> bool:
        leases = self.env.leadership.leases
        return leases.holder(LEADER) == leases.me

    def stop(self) -> None:
        if self.keeper is not None:
            self.keeper.stop()


@pytest.fixture
def two_processes(database_url: str, redis_server) -> Iterator[tuple[Process, Process]]:
    """The first leads (it started first, and its keep-alive renews the lead): the second's
    keep-alive starts once it is so, in case the first's start-up lease ran out meanwhile."""
    first = Process(build(database_url, redis_server.url, "p1"))
    first.keep_alive()
    second = Process(build(database_url, redis_server.url, "p2"))
    try:
        until(first.leads, "the first process leads")
        second.keep_alive()
        yield first, second
    finally:
        for process in (second, first):
            process.stop()
            process.context.pop()
        for process in (first, second):
            with process.app.app_context():
                db.session.remove()
                db.engine.dispose()


def crowd_registers(process: Process) -> list:
    with process.acting() as env:
        return [env.accounts.register(f"user{i}", "password1", "password1")
                for i in range(PLAYERS)]


def in_the_hall_press_match(process: Process, users: list) -> None:
    """The players' hall pages are connected to `process`, and each presses Match."""
    with process.acting() as env:
        for user in users:
            env.lobby.hall.connect(user, f"sid-{user.id}")
            env.lobby.matchmaking.start(user, "freestyle")


def die_when(monkeypatch, obj: object, name: str, after: bool) -> None:
    """`obj.name` kills the process, before or after doing its work."""
    real = getattr(obj, name)

    def dying(*args, **kwargs):
        if after:
            real(*args, **kwargs)
        raise Killed

    monkeypatch.setattr(obj, name, dying)


def lead_until_killed(leader: Process) -> None:
    """The leader's tick, which dies on its way (`die_when`). Its transaction stays open, as
    a killed process's does until its connection is found closed."""
    assert leader.leads()
    with pytest.raises(Killed), leader.acting() as env:
        for _notices in env.tick():
            pass


def kill(dead: Process, client) -> None:
    dead.stop()  # a dead process renews nothing
    with dead.acting():
        db.session.rollback()  # its connection closed: PostgreSQL rolls back what it had not
    client.zrem(PROCESSES, dead.env.store.processes.me)  # committed; its lease and lead gone
    client.delete("gobang:lease:" + LEADER)


def lead_until_paired(process: Process, users: list) -> list:
    """The process leads, a lease of the app's clock per tick, until every user was told of
    a match, then more than one lease (Redis's clock) longer: a pair kept aside goes back to
    the queue a lease after it was taken, so a pair paired twice would show as more notices.
    The `match_found` notices sent."""
    everyone = {user.id for user in users}
    found: list = []
    deadline = time.monotonic() + WITHIN
    all_paired_at = None
    with process.acting() as env:
        while True:
            env.clock.advance(LEASE)
            found += [n for notices in env.tick() for n in notices if n.event == "match_found"]
            now = time.monotonic()
            if all_paired_at is None and {n.key for n in found} >= everyone:
                all_paired_at = now
            elif all_paired_at is not None and now - all_paired_at > LEASE:
                return found
            assert now < deadline, f"not all paired within {WITHIN} s: {found}"
            time.sleep(LEASE / 5)


def games_by_player(process: Process) -> dict[int, list[int]]:
    with process.acting():
        rows = db.session.execute(select(Game.id, Game.black_id, Game.white_id)).all()
        db.session.commit()
    seated: dict[int, list[int]] = {}
    for game_id, black, white in rows:
        for user_id in (black, white):
            seated.setdefault(user_id, []).append(game_id)
    return seated


def assert_settled(client, seated: dict[int, list[int]]) -> None:
    """Nobody waits or is kept aside any more, no game is still reserved, and Redis puts
    each player in the one game the database has for them."""
    assert client.hlen(QUEUE) == client.hlen(PAIRING) == client.zcard(PAIRING_AT) == 0
    assert client.hlen(RESERVED) == 0
    assert {int(u): int(g) for u, g in client.hgetall(USER_GAME).items()} == {
        user_id: games[0] for user_id, games in seated.items()}


def leader_and_other(processes: tuple[Process, Process]) -> tuple[Process, Process]:
    """The process leading now, and the other. The lead may have passed from the first to the
    second while a crowd registered (six password hashes, on a machine running other tests:
    short leases): either one dying proves the same."""
    until(lambda: any(process.leads() for process in processes), "one process leads")
    first, second = processes
    return (first, second) if first.leads() else (second, first)


def crowd_beside_the_leader(
        processes: tuple[Process, Process]) -> tuple[list, Process, Process]:
    """A crowd pressing Match on the process that does not lead: (users, leader, other). The
    roles are read once the crowd has registered, the slow part: the crowd once joined the
    hall of a fixed process, and when the lead had passed to that one meanwhile, the leader
    that died took the crowd's connections with it and the next leader rightly paired
    nobody (`not all paired within 20.0 s: []`, one CI run, 2026-12-05)."""
    users = crowd_registers(processes[1])
    leader, other = leader_and_other(processes)
    in_the_hall_press_match(other, users)
    return users, leader, other


def test_killed_before_its_commit_the_pairs_are_paired_once_by_the_next_leader(
        two_processes, redis_server, monkeypatch):
    client = redis_server.client()
    users, dying, survivor = crowd_beside_the_leader(two_processes)
    die_when(monkeypatch, dying.env.play.table, "reserve", after=True)
    lead_until_killed(dying)
    kill(dying, client)
    found = lead_until_paired(survivor, users)
    seated = games_by_player(survivor)
    assert sorted(n.key for n in found) == sorted(u.id for u in users)
    assert all(len(seated[u.id]) == 1 for u in users)
    assert {n.payload["game_id"] for n in found} == {g for u in users for g in seated[u.id]}
    assert_settled(client, seated)


def test_killed_before_its_commit_its_players_are_not_in_a_game(two_processes, redis_server,
                                                                monkeypatch):
    client = redis_server.client()
    users, dying, survivor = crowd_beside_the_leader(two_processes)
    die_when(monkeypatch, dying.env.play.table, "reserve", after=True)
    lead_until_killed(dying)
    reserved = survivor.env.store.game_of_user(users[0].id)
    assert reserved is not None
    with pytest.raises(ActionError) as refused, survivor.acting() as env:
        env.lobby.matchmaking.start(users[0], "freestyle")  # its process may still commit it
    assert (refused.value.code, refused.value.extra["game_id"]) == ("busy", reserved)
    kill(dying, client)
    with survivor.acting() as env:
        env.lobby.matchmaking.start(users[0], "freestyle")
    assert survivor.env.store.game_of_user(users[0].id) is None
    assert survivor.env.lobby.matcher.is_queued(users[0].id)
    assert games_by_player(survivor) == {}


def test_killed_after_its_commit_the_games_stand_and_their_players_hear_of_them(
        two_processes, redis_server, monkeypatch):
    client = redis_server.client()
    users, dying, survivor = crowd_beside_the_leader(two_processes)
    die_when(monkeypatch, dying.env.play.table, "confirm", after=False)
    lead_until_killed(dying)
    kill(dying, client)
    found = lead_until_paired(survivor, users)
    seated = games_by_player(survivor)
    assert all(len(seated[u.id]) == 1 for u in users)
    assert sorted((n.key, n.payload["game_id"]) for n in found) == sorted(
        (u.id, seated[u.id][0]) for u in users)
    assert survivor.env.lobby.matcher.queued() == []
    assert_settled(client, seated)


def test_killed_after_its_commit_a_players_press_finds_their_game(two_processes, redis_server,
                                                                 monkeypatch):
    users, dying, survivor = crowd_beside_the_leader(two_processes)
    die_when(monkeypatch, dying.env.play.table, "confirm", after=False)
    lead_until_killed(dying)
    kill(dying, redis_server.client())
    with pytest.raises(ActionError) as refused, survivor.acting() as env:
        env.lobby.matchmaking.start(users[0], "freestyle")
    assert (refused.value.code, refused.value.extra["game_id"]) == (
        "busy", games_by_player(survivor)[users[0].id][0])


def test_a_game_committed_after_its_players_were_freed_is_aborted(two_processes, redis_server,
                                                                  monkeypatch):
    users, stalled, other = crowd_beside_the_leader(two_processes)
    client = redis_server.client()
    stalls = []

    def stall_past_the_lease() -> None:
        monkeypatch.undo()
        # Meanwhile the process was taken for dead, and another found its games uncommitted.
        stalled.stop()  # a stalled process renews nothing either
        client.zrem(PROCESSES, stalled.env.store.processes.me)
        reservations = other.env.play.table.reservations
        stalls.append(reservations.release(reservations.stale()))
        db.session.commit()  # the stalled process's own commit, after all

    reserve = stalled.env.play.table.reserve

    def reserve_then_stall(lives):
        refused = reserve(lives)
        monkeypatch.setattr(db.session, "commit", stall_past_the_lease)
        return refused

    monkeypatch.setattr(stalled.env.play.table, "reserve", reserve_then_stall)
    assert stalled.leads()
    with stalled.acting() as env:
        found = [n for notices in env.tick() for n in notices if n.event == "match_found"]
    assert len(stalls) == 1 and len(stalls[0]) == PLAYERS // 2  # all its games were released
    assert found == []
    assert all(other.env.store.game_of_user(u.id) is None for u in users)
    with other.acting():
        assert set(db.session.scalars(select(Game.status))) == {"finished"}
