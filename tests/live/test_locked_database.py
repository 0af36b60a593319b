"""A database write that waits on a lock must not freeze the server (SQLite under eventlet)."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest
import requests

from tests.live.test_play import matched_pair

pytestmark = [pytest.mark.live, pytest.mark.serial]

LOCK_SECONDS = 2.0


@pytest.fixture
def sqlite_path(live_server) -> str:
    if not live_server.database_url.startswith("sqlite:///"):
        pytest.skip("the lock is SQLite's whole-database write lock")
    return live_server.database_url.removeprefix("sqlite:///")


def hold_write_lock(path: str, seconds: float, locked: threading.Event) -> None:
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("BEGIN EXCLUSIVE")
    locked.set()
    time.sleep(seconds)
    connection.execute("COMMIT")
    connection.close()


def saved_moves(path: str, game_id: int) -> list[tuple[int, int, int]]:
    connection = sqlite3.connect(path)
    try:
        return connection.execute("SELECT number, row, col FROM moves WHERE game_id = ?",
                                  (game_id,)).fetchall()
    finally:
        connection.close()


def test_waiting_write_does_not_freeze_other_connections(live_server, sqlite_path):
    a_black, a_white, game_a = matched_pair(live_server, ("ann", "amy"))
    b_black, b_white, game_b = matched_pair(live_server, ("bob", "ben"))
    locked = threading.Event()
    holder = threading.Thread(target=hold_write_lock, args=(sqlite_path, LOCK_SECONDS, locked))
    holder.start()
    locked.wait(5)
    acks: list = []
    started = time.monotonic()
    a_black[2].emit("place_stone", {"game_id": game_a, "row": 7, "col": 7},
                    namespace="/room", callback=acks.append)
    time.sleep(0.2)  # the move is now waiting for the lock inside the server

    probe = time.monotonic()
    assert requests.get(live_server.url + "/healthz", timeout=5).ok
    assert time.monotonic() - probe < 0.5
    probe = time.monotonic()
    assert b_black[1].ask("chat", {"text": "still there?"}) == {"ok": True}
    assert b_white[1].wait_for("chat", timeout=1)["text"] == "still there?"
    assert time.monotonic() - probe < 0.5
    assert acks == []

    holder.join()
    deadline = time.monotonic() + 5
    while not acks and time.monotonic() < deadline:
        time.sleep(0.01)
    assert acks == [{"ok": True}]
    assert time.monotonic() - started >= LOCK_SECONDS - 0.3
    assert saved_moves(sqlite_path, game_a) == [(1, 7, 7)]  # retried whole, saved once
    ack = b_black[2].ask("place_stone", {"game_id": game_b, "row": 7, "col": 7})
    assert ack == {"ok": True}
    assert a_white[2].wait_for("stone_placed")["move"] == 1
