"""The test client itself: what the order check of numbered events (tests/support/live.py)
relies on."""

from __future__ import annotations

import threading

from tests.live.test_play import BLACK_FIVE, matched_pair, play


def test_the_test_client_hands_every_event_to_its_handlers_on_one_thread(live_server):
    black, white, game_id = matched_pair(live_server)
    threads: list[str] = []
    white[2].on("stone_placed", lambda _data: threads.append(threading.current_thread().name),
                namespace="/room")
    play(black, white, game_id, BLACK_FIVE)
    white[2].wait_for("game_over")
    assert len(threads) == len(BLACK_FIVE)
    assert len(set(threads)) == 1, threads
