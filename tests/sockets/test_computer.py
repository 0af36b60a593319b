"""`play_computer` on /hall: a game against the computer, joined in /room as any game."""

from __future__ import annotations

import time

import pytest

WAIT_SECONDS = 60


@pytest.fixture
def engines_closed(app):
    yield
    from tests.sockets.conftest import services_of

    found = services_of(app)
    end = time.monotonic() + WAIT_SECONDS
    while found.computer.engines.searching():
        assert time.monotonic() < end
        time.sleep(0.02)
    found.computer.engines.close()


def test_play_computer_answers_the_game_to_join(player, engines_closed):
    ann = player("ann_an")
    answer = ann.emit("/hall", "play_computer", {"level": 2, "color": "black"})
    assert answer["ok"] is True
    state = ann.emit("/room", "join_game", {"game_id": answer["game_id"]})["state"]
    assert state["you"] == "black"
    assert state["status"] == "playing"
    assert state["white"]["computer"] == 2
    assert state["white"]["username"] == "Computer · level 2"
    assert state["clocks"] is None
    assert "computer" not in state["black"]


def test_the_computers_move_reaches_the_room(player, tick, engines_closed):
    ann = player("ann_an")
    game_id = ann.emit("/hall", "play_computer", {"level": 1, "color": "white"})["game_id"]
    ann.emit("/room", "join_game", {"game_id": game_id})
    end = time.monotonic() + WAIT_SECONDS
    placed = []
    while not placed:
        assert time.monotonic() < end, "the computer did not move"
        tick()
        placed = ann.received("/room", "stone_placed")
        time.sleep(0.02)
    assert placed[0]["color"] == "black" and placed[0]["to_move"] == "white"


@pytest.mark.parametrize("payload", [{}, {"level": 10}, {"level": 1, "color": "red"}])
def test_play_computer_refuses_a_bad_request(player, payload):
    answer = player("ann_an").emit("/hall", "play_computer", payload)
    assert answer["ok"] is False and answer["error"] == "bad_request"
    assert answer["message"]


@pytest.mark.parametrize("app_overrides", [
    {"COMPUTER_WORKERS": 1, "COMPUTER_GAMES_PER_WORKER": 1}])
def test_play_computer_answers_busy_when_the_pool_is_full(player):
    first = player("first_fi").emit("/hall", "play_computer", {"level": 1})
    assert first["ok"] is True
    second = player("second_se").emit("/hall", "play_computer", {"level": 1})
    assert second["ok"] is False and second["error"] == "busy"


def test_play_computer_answers_busy_while_the_player_has_a_game(player):
    ann = player("ann_an")
    first = ann.emit("/hall", "play_computer", {"level": 1})
    again = ann.emit("/hall", "play_computer", {"level": 1})
    assert again == {"ok": False, "error": "busy", "message": again["message"],
                     "game_id": first["game_id"]}


def test_a_draw_offer_to_the_computer_is_refused(player, engines_closed):
    ann = player("ann_an")
    game_id = ann.emit("/hall", "play_computer", {"level": 1, "color": "black"})["game_id"]
    ann.emit("/room", "join_game", {"game_id": game_id})
    answer = ann.emit("/room", "offer_draw", {"game_id": game_id})
    assert answer["ok"] is False and answer["error"] == "conflict"


def test_a_spectator_watches_a_game_against_the_computer(player, engines_closed):
    ann, bob = player("ann_an"), player("bob_bo")
    game_id = ann.emit("/hall", "play_computer", {"level": 1, "color": "black"})["game_id"]
    ann.emit("/room", "join_game", {"game_id": game_id})
    state = bob.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert state["you"] == "spectator" and state["white"]["computer"] == 1
    ann.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7})
    assert [m["color"] for m in bob.received("/room", "stone_placed")] == ["black"]
