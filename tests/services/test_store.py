"""The in-process live store."""

from __future__ import annotations

from gobang.services.store import MemoryStore, Recent


def test_recent_keeps_only_the_newest_entries():
    recent: Recent[int, list] = Recent(3)
    for key in range(5):
        recent.setdefault(key, []).append(key)
    assert list(recent) == [2, 3, 4]
    assert recent[4] == [4]


def test_newer_connection_replaces_and_older_release_is_ignored():
    store = MemoryStore()
    assert store.claim_connection("/hall", 1, "a") is None
    assert store.claim_connection("/hall", 1, "b") == "a"
    assert store.release_connection("/hall", 1, "a") is False
    assert store.connection("/hall", 1) == "b"
    assert store.release_connection("/hall", 1, "b") is True
    assert store.connected_users("/hall") == []
