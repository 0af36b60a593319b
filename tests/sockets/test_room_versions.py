"""The room's events on the wire carry the game's numbers, and a join's state the last one
(the numbering itself: tests/services/test_game_versions.py)."""

from __future__ import annotations


def test_each_event_on_the_wire_is_numbered_one_after_the_state(game_between):
    black, white, game_id = game_between()
    start = white.emit("/room", "join_game", {"game_id": game_id})["state"]["v"]
    black.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7})
    white.emit("/room", "chat", {"game_id": game_id, "text": "hi"})
    assert [(name, payload["v"]) for name, payload in white.numbered_events("/room")] == [
        ("stone_placed", start + 1), ("chat", start + 2)]


def test_a_joining_spectators_state_counts_its_own_arrival(game_between, player):
    black, white, game_id = game_between()
    black.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7})
    [placed] = white.numbered("/room", "stone_placed")
    state = player("carol").emit("/room", "join_game", {"game_id": game_id})["state"]
    [arrival] = white.numbered("/room", "spectators")
    assert state["v"] == arrival["v"] == placed["v"] + 1
