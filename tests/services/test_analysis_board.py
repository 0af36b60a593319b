"""The analysis board's service: positions checked by the rules (a table of good and bad
input), renju's forbidden points, a five ending the line, the .psq of a line, and the engine
asked in its worker processes within its capacity and rate limit."""

from __future__ import annotations

import os
import signal

import pytest

from gobang.rules import Game
from gobang.services.analysis_board.pool import (
    BoardEngines,
    BoardEngineSettings,
    EngineBusy,
    EngineFailed,
)
from gobang.services.analysis_board.position import line_psq, position_from_query
from gobang.services.notices import ActionError

# Black g8, h8 and i10, i9 with white in the corners: black's i8 would make two open threes.
RENJU_DOUBLE_THREE = "g8,a15,h8,o1,i10,o15,i9,a1"
FIVE = "d8,a15,e8,b15,f8,c15,g8,d15,h8"
ASKER = ("user", 1)


@pytest.mark.parametrize(("ruleset", "moves", "to_move", "winner", "count"), [
    (None, None, "black", None, 0),
    ("standard", "", "black", None, 0),
    ("freestyle", "h8", "white", None, 1),
    ("renju", "h8,i9", "black", None, 2),
    ("standard", "H8, i9 ,j10", "white", None, 3),
    ("standard", FIVE, None, "black", 9),
    ("renju", RENJU_DOUBLE_THREE, "black", None, 8),
])
def test_a_legal_position_is_described(ruleset, moves, to_move, winner, count):
    found = position_from_query(ruleset, moves).as_dict()
    assert (found["to_move"], found["winner"], len(found["moves"])) == (to_move, winner, count)
    assert found["ruleset"] == (ruleset or "standard")


@pytest.mark.parametrize(("ruleset", "moves", "message"), [
    ("gomoku", "h8", "Unknown ruleset"),
    ("standard", "z9", "“z9” is not a point"),
    ("standard", "h16", "“h16” is not a point"),
    ("standard", "h8,,i9", "“” is not a point"),
    ("standard", "h8;i9", "“h8;i9” is not a point"),
    ("standard", "h8,i9,h8", "Move 3 (h8) is on a point already taken."),
    ("renju", RENJU_DOUBLE_THREE + ",i8", "Move 9 (i8) is forbidden for black."),
    ("standard", FIVE + ",h1", "Move 10 (h1) comes after the game was won."),
    ("standard", ",".join(["h8"] * 226), "Too many moves"),
    ("standard", "h" * 1000, "Too many moves"),
])
def test_bad_input_is_refused_with_what_is_wrong(app, ruleset, moves, message):
    with app.test_request_context(), pytest.raises(ActionError) as refused:
        position_from_query(ruleset, moves)
    assert refused.value.code == "bad_request"
    assert message in refused.value.message


def test_renju_lists_black_s_forbidden_points_when_black_is_to_move():
    assert position_from_query("renju", RENJU_DOUBLE_THREE).forbidden == ((7, 8),)


def test_renju_lists_none_when_white_is_to_move():
    assert position_from_query("renju", RENJU_DOUBLE_THREE + ",a2").forbidden == ()


def test_standard_gomoku_has_no_forbidden_points():
    assert position_from_query("standard", RENJU_DOUBLE_THREE).forbidden == ()


def test_a_five_ends_the_line_with_its_stones():
    found = position_from_query("standard", FIVE)
    assert (found.to_move, found.winner, found.over) == (None, "black", True)
    assert found.line == ((7, 3), (7, 4), (7, 5), (7, 6), (7, 7))
    assert found.forbidden == ()


def test_the_line_s_psq_has_one_line_per_move_column_first():
    text = line_psq(position_from_query("standard", "h8,i9"))
    assert text.splitlines() == ["Piskvorky 15x15, 0:0, 0", "8,8,0", "9,7,0", "homo-black",
                                 "homo-white", "0"]


def test_the_address_form_of_a_position_reads_back_the_same():
    found = position_from_query("renju", RENJU_DOUBLE_THREE)
    assert found.notation() == RENJU_DOUBLE_THREE


@pytest.fixture
def board(env):
    yield env.analysis_board
    env.analysis_board.engines.close()


def test_the_engine_answers_a_legal_best_move_and_its_line(board):
    moves = [[7, 7], [6, 8], [6, 7]]
    found = board.engine(ASKER, {"ruleset": "renju", "moves": moves})
    assert set(found) == {"win_chance", "best", "line"}
    assert -1.0 <= found["win_chance"] <= 1.0
    Game.replay([*moves, found["best"]], "renju")  # raises if the rules refuse it
    assert found["line"][0] == found["best"]


def test_the_engine_takes_the_address_s_notation_too(board):
    found = board.engine(ASKER, {"ruleset": "standard", "moves": "h8,i9"})
    Game.replay(["h8", "i9", found["best"]], "standard")


def test_a_visitor_may_not_ask_the_engine(board):
    with pytest.raises(ActionError) as refused:
        board.engine(None, {"ruleset": "standard", "moves": []})
    assert refused.value.code == "unauthorized"


@pytest.mark.parametrize("body", [
    None, [], {"ruleset": 5}, {"moves": [[7, 7], [7]]}, {"moves": [[7, 15]]},
    {"moves": [[True, 0]]}, {"moves": "h8,h8"}, {"ruleset": "go"},
])
def test_a_bad_body_is_a_bad_request(board, body):
    with pytest.raises(ActionError) as refused:
        board.engine(ASKER, body)
    assert refused.value.code == "bad_request"


def test_a_won_position_is_answered_without_the_engine(board):
    with board.engines.reserve():  # every place taken: an engine ask would be refused
        found = board.engine(ASKER, {"ruleset": "standard", "moves": FIVE})
    assert found == {"win_chance": 1.0, "best": None, "line": []}


@pytest.mark.parametrize("app_overrides", [{"ANALYSIS_BOARD_AT_ONCE": 1}])
def test_asks_beyond_the_capacity_are_refused_as_unavailable(board):
    with board.engines.reserve():
        with pytest.raises(EngineBusy):
            board.engines.ask("standard", [(7, 7)])
        with pytest.raises(ActionError) as refused:
            board.engine(ASKER, {"ruleset": "standard", "moves": "h8"})
    assert refused.value.code == "unavailable"
    assert board.engine(ASKER, {"ruleset": "standard", "moves": "h8"})["best"] is not None


@pytest.mark.parametrize("app_overrides", [{"ANALYSIS_BOARD_ASKS_PER_MINUTE": 2}])
def test_asks_beyond_the_rate_are_refused_until_the_minute_has_passed(board, clock):
    ask = {"ruleset": "standard", "moves": "h8"}
    for _ in range(2):
        board.engine(ASKER, ask)
    with pytest.raises(ActionError) as refused:
        board.engine(ASKER, ask)
    assert refused.value.code == "rate_limited"
    assert board.engine(("user", 2), ask)["best"] is not None  # another asker's own count
    clock.advance(60)
    assert board.engine(ASKER, ask)["best"] is not None


@pytest.fixture
def engines():
    found = BoardEngines(BoardEngineSettings(at_once=1, seconds=0.1, nodes=2000, nice=0))
    yield found
    found.close()


def test_an_engine_that_stops_answering_is_killed_and_replaced(engines):
    engines.ask("standard", [(7, 7)])  # starts the process, which is then kept
    [stuck] = engines.idle_pids()
    os.kill(stuck, signal.SIGSTOP)  # alive, but answering nothing
    with pytest.raises(EngineFailed):
        engines.ask("standard", [(7, 7), (8, 8)])  # within the search's 0.1 s + 0.5 s
    assert stuck not in engines.idle_pids()
    with pytest.raises(ProcessLookupError):
        os.kill(stuck, 0)  # killed and reaped
    assert engines.ask("standard", [(7, 7), (8, 8)])["best"] is not None
    assert engines.idle_pids() != [stuck]
