"""What the room tells a player for an evening without surprises: the spectator count and the
abort countdown in the state, the final clocks, the rematch to go to, renju's forbidden points."""

from __future__ import annotations

import pytest

from tests.sockets.test_room import play

# Black's four stones around h8 (7, 7) make it a double-three; white plays far away.
DOUBLE_THREE_AT_H8 = [(7, 6), (0, 0), (7, 8), (0, 2), (6, 7), (0, 4), (8, 7), (0, 6)]


def test_a_player_who_joins_again_is_told_the_spectator_count(game_between, player):
    black, _white, game_id = game_between()
    player("carol").emit("/room", "join_game", {"game_id": game_id})
    state = black.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert state["spectators"] == 1


def test_the_rematch_state_counts_spectators_who_arrived_first(game_between, player):
    black, white, game_id = game_between()
    carol = player("carol")
    carol.emit("/room", "join_game", {"game_id": game_id})
    white.emit("/room", "resign", {"game_id": game_id})
    black.emit("/room", "rematch", {"game_id": game_id})
    white.emit("/room", "rematch", {"game_id": game_id})
    new_id = carol.received("/room", "rematch_ready")[0]["game_id"]
    carol.emit("/room", "join_game", {"game_id": new_id})
    state = white.emit("/room", "join_game", {"game_id": new_id})["state"]
    assert state["spectators"] == 1


def test_game_ready_and_the_state_carry_the_abort_countdown(player, tick, app, clock):
    ann, ben = player("ann"), player("ben")
    for p in (ann, ben):
        p.join_hall()
        p.emit("/hall", "start_match", {"ruleset": "freestyle"})
    tick()
    game_id = ann.received("/hall", "match_found")[0]["game_id"]
    ann.emit("/room", "join_game", {"game_id": game_id})
    ben.emit("/room", "join_game", {"game_id": game_id})
    assert ann.received("/room", "game_ready")[0]["abort_seconds"] == 30
    clock.advance(5)
    assert ann.emit("/room", "join_game", {"game_id": game_id})["state"]["abort_seconds"] == 25


@pytest.mark.parametrize(("moves", "abort_seconds"), [(1, 30), (2, None), (3, None)])
def test_stone_placed_carries_the_abort_countdown_until_each_side_moved(
    game_between, moves, abort_seconds
):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (7, 8), (6, 6)][:moves])
    assert white.received("/room", "stone_placed")[-1]["abort_seconds"] == abort_seconds


def test_a_paused_game_shows_no_abort_countdown_and_resumes_with_a_full_one(game_between, clock):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7)])
    black.emit("/room", "request_pause", {"game_id": game_id})
    white.emit("/room", "answer_pause", {"game_id": game_id, "accept": True})
    assert black.emit("/room", "join_game", {"game_id": game_id})["state"]["abort_seconds"] is None
    clock.advance(100)
    black.emit("/room", "resume", {"game_id": game_id})
    white.emit("/room", "resume", {"game_id": game_id})
    assert black.received("/room", "resumed")[0]["abort_seconds"] == 30


@pytest.mark.parametrize("app_overrides", [{"CLOCK_INITIAL_SECONDS": 60}])
def test_game_over_after_a_flag_fall_carries_the_fallen_clock_at_zero(game_between, clock, tick):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (7, 8), (6, 6)])
    clock.advance(66)  # past the flag and the server's allowance for lag
    tick()
    over = black.received("/room", "game_over")[0]
    assert over["result"]["reason"] == "timeout"
    assert over["clocks"]["white_ms"] == 0
    assert over["clocks"]["black_ms"] > 0


def test_a_stale_rematch_refusal_names_the_rematch_game(game_between):
    black, white, game_id = game_between()
    white.emit("/room", "resign", {"game_id": game_id})
    black.emit("/room", "rematch", {"game_id": game_id})
    white.emit("/room", "rematch", {"game_id": game_id})
    new_id = black.received("/room", "rematch_ready")[0]["game_id"]
    black.emit("/room", "resign", {"game_id": new_id})
    ack = white.emit("/room", "rematch", {"game_id": game_id})
    assert (ack["error"], ack["game_id"]) == ("conflict", new_id)


def test_the_state_of_a_finished_game_names_its_rematch(game_between):
    black, white, game_id = game_between()
    white.emit("/room", "resign", {"game_id": game_id})
    assert black.emit("/room", "join_game", {"game_id": game_id})["state"][
        "rematch_game_id"] is None
    black.emit("/room", "rematch", {"game_id": game_id})
    white.emit("/room", "rematch", {"game_id": game_id})
    new_id = black.received("/room", "rematch_ready")[0]["game_id"]
    state = white.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert state["rematch_game_id"] == new_id


def test_forbidden_points_lists_renju_double_three_for_black_to_move(game_between):
    black, white, game_id = game_between(ruleset="renju")
    play(black, white, game_id, DOUBLE_THREE_AT_H8)
    ack = white.emit("/room", "forbidden_points", {"game_id": game_id})
    assert ack["ok"] is True
    assert ack["move"] == len(DOUBLE_THREE_AT_H8)
    assert [7, 7] in ack["points"]


@pytest.mark.parametrize(
    ("ruleset", "moves"),
    [
        ("freestyle", DOUBLE_THREE_AT_H8),  # no forbidden points outside renju
        ("renju", DOUBLE_THREE_AT_H8[:-1]),  # white to move: nothing is forbidden to white
        ("renju", []),
    ],
)
def test_forbidden_points_are_empty_when_black_has_none(game_between, ruleset, moves):
    black, white, game_id = game_between(ruleset=ruleset)
    play(black, white, game_id, moves)
    ack = black.emit("/room", "forbidden_points", {"game_id": game_id})
    assert (ack["ok"], ack["points"]) == (True, [])


def test_forbidden_points_follow_a_take_back(game_between):
    black, white, game_id = game_between(ruleset="renju")
    play(black, white, game_id, DOUBLE_THREE_AT_H8)
    assert [7, 7] in black.emit("/room", "forbidden_points", {"game_id": game_id})["points"]
    black.emit("/room", "request_undo", {"game_id": game_id})
    white.emit("/room", "answer_undo", {"game_id": game_id, "accept": True})
    ack = black.emit("/room", "forbidden_points", {"game_id": game_id})
    assert ack["move"] == len(DOUBLE_THREE_AT_H8) - 2
    assert [7, 7] not in ack["points"]


@pytest.mark.parametrize(("payload", "code"), [({"game_id": 999}, "not_found"),
                                               ({}, "bad_request")])
def test_forbidden_points_refuses_unknown_games(game_between, payload, code):
    black, _white, _game_id = game_between()
    assert black.emit("/room", "forbidden_points", payload)["error"] == code
