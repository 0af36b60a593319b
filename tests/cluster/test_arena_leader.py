"""With several processes only the leader runs the tournaments' tick: two processes never pair
the same players, and when the leader is gone the next one pairs."""

from __future__ import annotations

import pytest

from gobang.extensions import db
from gobang.models import Tournament, TournamentGame
from gobang.services.arenas.schedule import Plan
from gobang.services.cluster.leader import LEADER
from gobang.services.cluster.leases import PREFIX
from gobang.services.registry import Services
from tests.cluster.test_services import (  # noqa: F401 - the fixtures
    lease_seconds,
    register,
    two_processes,
)

ARENA = Plan("Cluster arena", "freestyle", (180, 2), 60, 0, 2)
SWISS = Plan("Cluster Swiss", "freestyle", (180, 2), None, 0, 2, kind="swiss", rounds=3)


def arena_games() -> int:
    return len(db.session.scalars(db.select(TournamentGame)).all())


def entered(leader: Services, pages_on: Services, plan: Plan) -> Tournament:
    """`plan`, due now, with ann and bob joined and a page of theirs open on `pages_on`."""
    made = leader.arenas.schedule.create(plan, "host")
    for number, player in enumerate(register(leader, "ann", "bob")):
        leader.arenas.entries.join(player, made.id)
        pages_on.lobby.hall.connect(player, f"hall-{number}")
    return made


def ticked(env: Services) -> None:
    for _ in env.tick():
        pass


@pytest.mark.parametrize("plan", [ARENA, SWISS], ids=["arena", "swiss"])
def test_only_the_leader_starts_and_pairs(two_processes, plan):  # noqa: F811 - the fixture
    leader, other = two_processes
    assert leader.leadership.hold() and not other.leadership.hold()
    tournament = entered(leader, leader, plan)
    ticked(other)
    assert (tournament.status, arena_games()) == ("scheduled", 0)
    ticked(leader)
    db.session.refresh(tournament)
    assert (tournament.status, arena_games()) == ("running", 1)


def test_once_the_leader_s_lease_runs_out_the_other_process_pairs_the_arena(
        two_processes, redis_server):  # noqa: F811 - the fixture
    leader, other = two_processes
    assert leader.leadership.hold() and not other.leadership.hold()
    arena = entered(leader, other, ARENA)  # their pages on the other process
    redis_server.client().delete(PREFIX + LEADER)  # the leader died: its lease ran out
    ticked(other)
    db.session.refresh(arena)
    assert other.leadership.hold()
    assert (arena.status, arena_games()) == ("running", 1)
