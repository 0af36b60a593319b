"""The in-process live store."""

from __future__ import annotations

from gobang.services.store import MemoryQueue, MemoryReservations, MemoryStore, QueueEntry, Recent


def test_recent_keeps_only_the_newest_entries():
    recent: Recent[int, list] = Recent(3)
    for key in range(5):
        recent.setdefault(key, []).append(key)
    assert list(recent) == [2, 3, 4]
    assert recent[4] == [4]


def test_newer_connection_replaces_and_older_release_is_ignored():
    store = MemoryStore(MemoryQueue())
    assert store.claim_connection("/hall", 1, "a") is None
    assert store.claim_connection("/hall", 1, "b") == "a"
    assert store.release_connection("/hall", 1, "a") is False
    assert store.connection("/hall", 1) == "b"
    assert store.release_connection("/hall", 1, "b") is True
    assert store.connected_users("/hall") == []


def queued(*user_ids: int) -> MemoryQueue:
    queue = MemoryQueue()
    for user_id in user_ids:
        queue.put(QueueEntry(user_id, 1000, "freestyle", (300, 3), float(user_id)))
    return queue


def test_reserving_a_game_takes_its_players_out_of_the_queue():
    queue = queued(1, 2, 3)
    reservations = MemoryReservations(MemoryStore(queue))
    assert reservations.reserve([(9, (1, 2))]) == {}
    assert [e.user_id for e in queue.entries()] == [3]


def test_a_player_with_a_game_refuses_a_reservation_and_everyone_stays_queued():
    queue = queued(1, 2)
    store = MemoryStore(queue)
    store.put_game(5, object(), (1, 7))
    assert MemoryReservations(store).reserve([(9, (2, 1))]) == {9: 5}
    assert [e.user_id for e in queue.entries()] == [1, 2]
    assert store.game_of_user(2) is None
