"""Where a lost game turned (bench/ai_turns.py): the loser's first move that let the winner
force a five, and the candidates that would not have."""

from __future__ import annotations

import pytest

from bench.ai_turns import Horizon, candidates, lost_games, report, turning_move
from gobang.ai.position import Position
from gobang.rules import SIZE

# Black builds an open three on row 7; white plays on row 0 each time.
IGNORED_THREE = [(7, 7), (0, 0), (7, 8), (0, 2), (7, 9), (0, 4), (7, 10)]


def test_the_move_that_ignored_an_open_three_turned_the_game():
    turn = turning_move("freestyle", IGNORED_THREE, loser=2)
    assert (turn.ply, turn.played) == (6, (0, 4))


def test_only_the_blocks_next_to_the_three_were_safe():
    pos = Position("freestyle")
    for row, col in IGNORED_THREE[:5]:
        pos.play(row * SIZE + col)
    ranked = candidates(pos)
    turn = turning_move("freestyle", IGNORED_THREE, loser=2)
    assert {divmod(ranked[rank], SIZE) for rank in turn.safe} == {(7, 6), (7, 10)}


def test_a_game_the_loser_never_let_go_has_no_turning_move():
    assert turning_move("freestyle", [(7, 7), (0, 0), (7, 8), (0, 14)], loser=2) is None


def _record(a_black: bool, score: float) -> dict:
    return {"key": "k", "a": "9", "b": "frozen8", "a_black": a_black, "score": score,
            "ruleset": "freestyle", "record": []}


@pytest.mark.parametrize(("player", "a_black", "score", "lost_as"), [
    ("9", True, 0.0, 1),
    ("9", False, 0.0, 2),
    ("frozen8", True, 1.0, 2),
    ("frozen8", False, 1.0, 1),
    ("9", True, 1.0, None),
    ("frozen8", True, 0.0, None),
    ("9", True, 0.5, None),
    ("7", True, 0.0, None),
])
def test_a_lost_game_is_told_by_the_score_and_the_loser_by_who_had_black(
        player, a_black, score, lost_as):
    lost = lost_games([_record(a_black, score)], player)
    assert [colour for _, colour in lost] == ([] if lost_as is None else [lost_as])


def test_a_game_recorded_without_its_stones_is_left_out():
    record = _record(True, 0.0)
    del record["record"]
    assert lost_games([record], "9") == []


def test_the_report_names_each_lost_game_and_counts_those_a_safe_candidate_would_have_saved():
    lost = {**_record(a_black=False, score=0.0), "record": IGNORED_THREE}
    won = {**_record(a_black=True, score=1.0), "key": "won"}
    lines = report([lost, won], "9", Horizon())
    assert lines == [
        "k: lost as white; move 6 (0, 4) let the winner force a five; safe candidates "
        "(ranks of 16): [0, 1]",
        "1 games lost by 9 studied; 1 turned at a move where a safe candidate was among the "
        "best 16",
    ]
