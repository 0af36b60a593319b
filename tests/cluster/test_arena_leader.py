"""With several processes only the leader runs the arenas' tick: two processes never pair
the same players, and when the leader is gone the next one pairs."""

from __future__ import annotations

from gobang.extensions import db
from gobang.models import TournamentGame
from gobang.services.arenas.schedule import Plan
from gobang.services.cluster.leader import LEADER
from gobang.services.cluster.leases import PREFIX
from tests.cluster.test_services import register, two_processes  # noqa: F401 - the fixture


def arena_games() -> int:
    return len(db.session.scalars(db.select(TournamentGame)).all())


def test_only_the_leader_pairs_an_arena(two_processes):  # noqa: F811 - the fixture
    leader, other = two_processes
    assert leader.leadership.hold() and not other.leadership.hold()
    arena = leader.arenas.schedule.create(
        Plan("Cluster arena", "freestyle", (180, 2), 60, 0, 2), "host")
    for number, player in enumerate(register(leader, "ann", "bob")):
        leader.arenas.entries.join(player, arena.id)
        leader.lobby.hall.connect(player, f"hall-{number}")
    for _ in other.tick():
        pass
    assert (arena.status, arena_games()) == ("scheduled", 0)
    for _ in leader.tick():
        pass
    db.session.refresh(arena)
    assert (arena.status, arena_games()) == ("running", 1)


def test_only_the_leader_pairs_a_swiss_round(two_processes):  # noqa: F811 - the fixture
    leader, other = two_processes
    assert leader.leadership.hold() and not other.leadership.hold()
    swiss = leader.arenas.schedule.create(
        Plan("Cluster Swiss", "freestyle", (180, 2), None, 0, 2, kind="swiss", rounds=3),
        "host")
    for number, player in enumerate(register(leader, "ann", "bob")):
        leader.arenas.entries.join(player, swiss.id)
        leader.lobby.hall.connect(player, f"hall-{number}")
    for _ in other.tick():
        pass
    assert (swiss.status, arena_games()) == ("scheduled", 0)
    for _ in leader.tick():
        pass
    db.session.refresh(swiss)
    assert (swiss.status, arena_games()) == ("running", 1)


def test_once_the_leader_s_lease_runs_out_the_other_process_pairs_the_arena(
        two_processes, redis_server):  # noqa: F811 - the fixture
    leader, other = two_processes
    assert leader.leadership.hold() and not other.leadership.hold()
    arena = leader.arenas.schedule.create(
        Plan("Cluster arena", "freestyle", (180, 2), 60, 0, 2), "host")
    for number, player in enumerate(register(leader, "ann", "bob")):
        leader.arenas.entries.join(player, arena.id)
        other.lobby.hall.connect(player, f"hall-{number}")  # their pages on the other process
    redis_server.client().delete(PREFIX + LEADER)  # the leader died: its lease ran out
    for _ in other.tick():
        pass
    db.session.refresh(arena)
    assert other.leadership.hold()
    assert (arena.status, arena_games()) == ("running", 1)
