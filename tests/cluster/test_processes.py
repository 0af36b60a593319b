"""Two server processes sharing one Redis, as two RedisStores with their own names and their own
Redis connections: what one writes the other reads, no user is taken twice, and what a dead
process held disappears within its lease."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

import pytest

from gobang.services.cluster.processes import PROCESSES
from gobang.services.cluster.redis_queue import RedisQueue
from gobang.services.cluster.redis_store import RedisStore, connections_key
from gobang.services.cluster.reservations import RedisReservations
from gobang.services.hall.matcher import Matcher
from gobang.services.store import QueueEntry

# Leases of a fraction of a second, timed on the wall clock: run alone (Makefile).
pytestmark = [pytest.mark.serial]

HALL = "/hall"
# Long enough never to run out during a test unless the test means it to.
LONG = 30.0
SHORT = 0.6


@pytest.fixture
def process(redis_server) -> Callable[..., RedisStore]:
    def start(name: str, lease_seconds: float = LONG) -> RedisStore:
        return RedisStore(redis_server.client(), name, lease_seconds)

    return start


def queue_on(store: RedisStore) -> RedisQueue:
    """The match queue as the process `store` is sees it (the lease it waits out)."""
    return RedisQueue(store.client, store.processes.lease_ms)


def queue(store: RedisStore, *user_ids: int) -> None:
    for user_id in user_ids:
        queue_on(store).put(QueueEntry(user_id, 1000, "freestyle", (300, 3), float(user_id)))


def until(condition: Callable[[], bool], within: float, keep_alive: RedisStore) -> float:
    """Seconds until `condition` held, renewing `keep_alive`'s lease meanwhile; fails after
    `within` seconds."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < within, "did not happen in time"
        keep_alive.heartbeat()
        time.sleep(0.02)
    return time.monotonic() - started


def test_a_connection_on_one_process_replaces_the_users_connection_on_another(process):
    one, two = process("p1"), process("p2")
    one.claim_connection(HALL, 1, "sid-on-one")
    assert two.claim_connection(HALL, 1, "sid-on-two") == "sid-on-one"
    assert one.connection(HALL, 1) == "sid-on-two"


def test_the_replaced_process_cannot_release_the_newer_connection(process):
    one, two = process("p1"), process("p2")
    one.claim_connection(HALL, 1, "sid-on-one")
    two.claim_connection(HALL, 1, "sid-on-two")
    assert one.release_connection(HALL, 1, "sid-on-one") is False
    assert two.connected_users(HALL) == [1]


def test_each_process_sees_everyones_connections(process):
    one, two = process("p1"), process("p2")
    one.claim_connection(HALL, 1, "a")
    two.claim_connection(HALL, 2, "b")
    assert sorted(one.connected_users(HALL)) == sorted(two.connected_users(HALL)) == [1, 2]


def test_a_queue_is_one_queue_for_all_processes(process):
    one, two = process("p1"), process("p2")
    queue(one, 1)
    assert queue_on(two).put(QueueEntry(1, 900, "renju", None, 5.0)) is False
    assert [e.user_id for e in queue_on(two).entries()] == [1]
    assert queue_on(two).remove(1) is not None
    assert queue_on(one).entry(1) is None


def race_for_pairs(stores: list[RedisStore],
                   pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """One thread per pair, all let go at once, each on the next process in turn; returns
    the pairs taken."""
    taken: list[tuple[int, int]] = []
    start = threading.Barrier(len(pairs))

    def take(pair: tuple[int, int], store: RedisStore) -> None:
        start.wait()
        if queue_on(store).take_pair(*pair):
            taken.append(pair)

    threads = [threading.Thread(target=take, args=(pair, stores[i % len(stores)]))
               for i, pair in enumerate(pairs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return taken


def test_racing_pair_takes_never_take_a_user_twice(process):
    """Twenty takers on two processes race for overlapping pairs (1, 2), (2, 3), ... at once."""
    stores = [process("p1"), process("p2")]
    for _round in range(5):
        queue(stores[0], *range(1, 22))
        taken = race_for_pairs(stores, [(n, n + 1) for n in range(1, 21)])
        users = [user for pair in taken for user in pair]
        assert taken and len(users) == len(set(users))
        left = {e.user_id for e in queue_on(stores[0]).entries()}
        assert left == set(range(1, 22)) - set(users)
        for user_id in left:
            queue_on(stores[0]).remove(user_id)


def test_matchers_on_two_processes_pair_each_player_once(process):
    stores = [process("p1"), process("p2")]
    queue(stores[0], *range(1, 41))
    found: list[list[int]] = [[], []]
    start = threading.Barrier(2)

    def tick(n: int) -> None:
        matcher = Matcher(queue_on(stores[n]), lambda: 100.0, random.Random(n), 50, 50, set)
        start.wait()
        taken = matcher.take(matcher.tick()[0])
        found[n] = [u for p in taken for u in (p.black, p.white)]

    threads = [threading.Thread(target=tick, args=(n,)) for n in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    paired = found[0] + found[1]
    assert sorted(paired) == list(range(1, 41))


def test_one_live_game_per_player_holds_across_processes(process):
    one, two = process("p1"), process("p2")
    game = object()
    one.put_game(5, game, (1, 2))
    assert (two.game_of_user(1), two.game_of_user(2)) == (5, 5)
    assert (two.get_game(5), two.games()) == (None, [])
    one.drop_game(5)
    assert two.game_of_user(1) is None


def test_a_process_that_stops_renewing_its_lease_vanishes_within_it(process, redis_server):
    dying, living = process("p1", SHORT), process("p2", SHORT)
    dying.claim_connection(HALL, 1, "a")
    dying.heartbeat()
    last_heartbeat = time.monotonic()
    assert living.connected_users(HALL) == [1]
    until(lambda: living.connection(HALL, 1) is None, SHORT + 1, keep_alive=living)
    assert time.monotonic() - last_heartbeat < SHORT + 0.25
    assert living.connected_users(HALL) == []
    living.heartbeat()  # the sweep
    assert redis_server.client().hlen(connections_key(HALL)) == 0


def test_a_process_that_renews_its_lease_keeps_its_connections(process):
    living, other = process("p1", SHORT), process("p2", SHORT)
    living.claim_connection(HALL, 1, "a")
    ends = time.monotonic() + 3 * SHORT
    while time.monotonic() < ends:
        living.heartbeat()
        other.heartbeat()
        assert other.connection(HALL, 1) == "a"
        time.sleep(0.05)


def test_a_dead_processes_connections_are_not_found_among_the_connected(process):
    dying, living = process("p1", SHORT), process("p2", SHORT)
    dying.claim_connection(HALL, 1, "a")
    living.claim_connection(HALL, 2, "b")
    until(lambda: living.connection(HALL, 1) is None, SHORT + 1, keep_alive=living)
    assert living.connected_among(HALL, [1, 2]) == {2}


def test_the_matcher_reads_the_queues_connections_in_one_round_trip(process, redis_server):
    store = process("p1")
    queue(store, *range(1, 21))
    for user_id in range(1, 20):  # the last one's hall connection is gone
        store.claim_connection(HALL, user_id, f"sid{user_id}")
    matcher = Matcher(queue_on(store), lambda: 100.0, random.Random(1), 50, 50,
                      lambda users: store.connected_among(HALL, users))
    counter = redis_server.client()
    before = counter.info("commandstats")
    _pairings, dropped = matcher.tick()
    after = counter.info("commandstats")
    assert dropped == [20]
    script_calls = (after["cmdstat_evalsha"]["calls"] - before["cmdstat_evalsha"]["calls"])
    assert script_calls == 3  # pending pairs back, the connections read, the one drop


def test_a_dead_processes_connection_is_not_named_as_replaced(process):
    dying, living = process("p1", SHORT), process("p2", SHORT)
    dying.claim_connection(HALL, 1, "a")
    until(lambda: living.connection(HALL, 1) is None, SHORT + 1, keep_alive=living)
    assert living.claim_connection(HALL, 1, "b") is None


def test_a_process_started_again_under_its_name_does_not_bring_back_what_it_held(process):
    process("p1", SHORT).claim_connection(HALL, 1, "a")
    again = process("p1", SHORT)
    until(lambda: again.connection(HALL, 1) is None, SHORT + 1, keep_alive=again)
    again.heartbeat()
    assert again.connected_users(HALL) == []


def test_a_pair_taken_by_a_leader_that_died_before_making_its_game_waits_again(process):
    dying, living = process("p1", SHORT), process("p2", SHORT)
    queue(dying, 1, 2)
    assert queue_on(dying).take_pair(1, 2)  # ... and the process dies before the game is made
    assert queue_on(living).entries() == []
    time.sleep(SHORT)
    assert queue_on(living).return_pending() == 2
    assert sorted(e.user_id for e in queue_on(living).entries()) == [1, 2]


def test_a_pair_taken_less_than_a_lease_ago_is_left_to_the_process_making_its_game(process):
    making, other = process("p1"), process("p2")
    queue(making, 1, 2)
    assert queue_on(making).take_pair(1, 2)
    assert queue_on(other).return_pending() == 0
    assert queue_on(other).entries() == []


def test_a_settled_pair_does_not_wait_again(process):
    leader = process("p1")
    queue(leader, 1, 2)
    assert queue_on(leader).take_pair(1, 2)
    queue_on(leader).settle(1, 2)
    assert queue_on(leader).return_pending() == 0
    assert queue_on(leader).entries() == []


def test_a_taken_player_who_has_a_game_does_not_wait_again(process):
    leader = process("p1")
    queue(leader, 1, 2)
    assert queue_on(leader).take_pair(1, 2)
    leader.put_game(9, object(), (1, 2))  # made, but the leader died before settling
    assert queue_on(leader).return_pending() == 0


def test_a_process_sees_another_alive_only_within_a_lease_of_its_last_stamp(redis_server):
    from gobang.services.cluster.directory import RedisDirectory

    now = [1000.0]
    one, two = (RedisDirectory(redis_server.client(), name, None, 3.0, lambda: now[0])
                for name in ("p1", "p2"))
    one.stamp()
    assert (one.others_alive(), two.others_alive()) == (False, True)
    now[0] += 3.5
    assert two.others_alive() is False


def test_a_connection_claimed_after_redis_lost_every_lease_is_seen_at_once(process,
                                                                             redis_server):
    """Redis restarted empty: the claim itself shows its process alive, without waiting for
    that process's next renewal (until then its new players looked offline)."""
    one, two = process("p1"), process("p2")
    redis_server.client().flushall()
    one.claim_connection(HALL, 1, "a")
    assert (two.connection(HALL, 1), two.connected_among(HALL, [1])) == ("a", {1})


def test_a_game_is_not_reserved_when_its_first_player_already_has_one(process):
    one = process("p1")
    reservations = RedisReservations(one.client, one.processes)
    assert reservations.reserve([(5, (1, 2))]) == {}
    assert reservations.reserve([(6, (1, 3))]) == {6: 5}
    assert one.game_of_user(3) is None


def test_a_reservation_is_stale_once_its_processs_lease_has_run_out(process, redis_server):
    one, two = process("p1"), process("p2")
    RedisReservations(one.client, one.processes).reserve([(5, (1, 2))])
    theirs = RedisReservations(two.client, two.processes)
    assert theirs.stale() == []
    # Its lease ended (at 1 ms after the epoch) and nobody has swept its entry away yet.
    redis_server.client().zadd(PROCESSES, {one.processes.me: 1})
    assert theirs.stale() == [5]
