"""The live store's contract and the match queue's, each one table run against both kinds: the
in-process one and the one several processes share through Redis."""

from __future__ import annotations

import pytest

from gobang.services.cluster.redis_queue import RedisQueue
from gobang.services.cluster.redis_store import RedisStore
from gobang.services.store import LiveStore, MatchQueue, MemoryQueue, MemoryStore, QueueEntry

HALL, ROOM = "/hall", "/room"


@pytest.fixture(params=["memory", "redis"])
def store(request: pytest.FixtureRequest) -> LiveStore:
    if request.param == "memory":
        return MemoryStore(MemoryQueue())
    return RedisStore(request.getfixturevalue("redis_server").client(), "p1", lease_seconds=30)


@pytest.fixture(params=["memory", "redis"])
def queue(request: pytest.FixtureRequest) -> MatchQueue:
    if request.param == "memory":
        return MemoryQueue()
    return RedisQueue(request.getfixturevalue("redis_server").client(), lease_ms=30_000)


def entry(user_id: int, clock: tuple[int, int] | None = (300, 3), joined_at: float = 0.0,
          score: int = 1000) -> QueueEntry:
    return QueueEntry(user_id, score, "freestyle", clock, joined_at)


def test_a_first_connection_replaces_nothing(store):
    assert store.claim_connection(HALL, 1, "a") is None
    assert store.connection(HALL, 1) == "a"


def test_a_newer_connection_replaces_the_older_and_names_it(store):
    store.claim_connection(HALL, 1, "a")
    assert store.claim_connection(HALL, 1, "b") == "a"
    assert store.connection(HALL, 1) == "b"


def test_claiming_the_same_connection_again_replaces_nothing(store):
    store.claim_connection(HALL, 1, "a")
    assert store.claim_connection(HALL, 1, "a") is None


def test_releasing_a_replaced_connection_changes_nothing(store):
    store.claim_connection(HALL, 1, "a")
    store.claim_connection(HALL, 1, "b")
    assert store.release_connection(HALL, 1, "a") is False
    assert store.connection(HALL, 1) == "b"


def test_releasing_the_live_connection_forgets_the_user(store):
    store.claim_connection(HALL, 1, "a")
    assert store.release_connection(HALL, 1, "a") is True
    assert store.connection(HALL, 1) is None
    assert store.connected_users(HALL) == []


def test_each_namespace_keeps_its_own_connections(store):
    store.claim_connection(HALL, 1, "a")
    store.claim_connection(HALL, 2, "b")
    store.claim_connection(ROOM, 1, "c")
    assert sorted(store.connected_users(HALL)) == [1, 2]
    assert (store.connection_count(HALL), store.connection_count(ROOM)) == (2, 1)
    assert store.connection(ROOM, 1) == "c"


def test_of_some_users_those_connected_are_found_in_one_read(store):
    store.claim_connection(HALL, 1, "a")
    store.claim_connection(HALL, 3, "c")
    store.claim_connection(ROOM, 2, "b")
    assert store.connected_among(HALL, [1, 2, 3, 4]) == {1, 3}
    assert store.connected_among(HALL, []) == set()


def test_a_queued_user_keeps_their_first_entry(queue):
    assert queue.put(entry(1, joined_at=1.0)) is True
    assert queue.put(entry(1, clock=None, joined_at=2.0)) is False
    assert queue.entry(1) == entry(1, joined_at=1.0)


@pytest.mark.parametrize("clock", [(300, 3), None])
def test_a_queue_entry_reads_back_as_it_was_put(queue, clock):
    put = QueueEntry(7, 1234, "renju", clock, 12.5)
    queue.put(put)
    assert queue.entries() == [put]
    assert queue.entry(7) == put


def test_leaving_the_queue_returns_the_entry_once(queue):
    queue.put(entry(1))
    assert queue.remove(1) == entry(1)
    assert queue.remove(1) is None
    assert queue.entry(1) is None


def test_taking_a_pair_takes_both_out_of_the_queue(queue):
    for user_id in (1, 2, 3):
        queue.put(entry(user_id, joined_at=user_id))
    assert queue.take_pair(1, 2) is True
    assert [e.user_id for e in queue.entries()] == [3]


def test_a_pair_is_not_taken_when_one_of_them_has_left(queue):
    queue.put(entry(1))
    assert queue.take_pair(1, 2) is False
    assert queue.entry(1) == entry(1)


def test_a_pair_taken_once_cannot_be_taken_again(queue):
    queue.put(entry(1))
    queue.put(entry(2))
    assert queue.take_pair(2, 1) is True
    assert queue.take_pair(1, 2) is False


def test_no_one_is_paired_with_themselves(queue):
    queue.put(entry(1))
    assert queue.take_pair(1, 1) is False
    assert queue.entry(1) == entry(1)


def test_a_game_is_found_by_its_id_and_by_its_players(store):
    game = object()
    store.put_game(5, game, (1, 2))
    assert store.get_game(5) is game
    assert store.games() == [game]
    assert (store.game_of_user(1), store.game_of_user(2), store.game_of_user(3)) == (5, 5, None)


def test_dropping_a_game_frees_its_players(store):
    store.put_game(5, object(), (1, 2))
    store.drop_game(5)
    assert (store.get_game(5), store.games()) == (None, [])
    assert (store.game_of_user(1), store.game_of_user(2)) == (None, None)


def test_dropping_an_old_game_leaves_a_players_newer_game(store):
    store.put_game(5, object(), (1, 2))
    store.put_game(6, object(), (1, 3))
    store.drop_game(5)
    assert (store.game_of_user(1), store.game_of_user(2), store.game_of_user(3)) == (6, None, 6)


def test_a_game_played_on_elsewhere_is_let_go_and_keeps_its_players(store):
    store.put_game(5, object(), (1, 2))
    store.forget_game(5)
    assert (store.get_game(5), store.games()) == (None, [])
    assert (store.game_of_user(1), store.game_of_user(2)) == (5, 5)


def test_a_game_against_the_computer_maps_only_its_person(store):
    store.put_game(5, object(), (1,))
    assert store.game_of_user(1) == 5
    store.drop_game(5)
    assert store.game_of_user(1) is None
