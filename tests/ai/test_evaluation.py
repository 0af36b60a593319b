"""The analysis's judgement of positions and games (gobang/ai/evaluation.py): pure, on a
clock that never moves, so the node allowance alone decides and every answer repeats."""

from __future__ import annotations

import pytest

from gobang.ai.evaluation import (
    analyse_game,
    evaluate,
    label_for,
    move_accuracy,
)
from gobang.ai.position import BLACK, WHITE, Position
from gobang.rules import SIZE, Game, IllegalMove, forbidden_kind
from tests.support.analysis import FORTY_MOVES

Point = tuple[int, int]


def still() -> float:
    return 0.0


# A four-three for the attacker: (7, 8) makes a four on row 7 (closed at (7, 4)) and an
# open three on column 8, so a VCF follows whatever the defender does.
ATTACK = [(7, 5), (7, 6), (7, 7), (5, 8), (6, 8)]
DEFENCE = [(7, 4), (0, 0), (0, 3), (14, 14), (14, 11)]
FAR = (0, 13)


def interleave(black: list[Point], white: list[Point]) -> list[Point]:
    moves: list[Point] = []
    for k, stone in enumerate(black):
        moves.append(stone)
        if k < len(white):
            moves.append(white[k])
    return moves


def vcf_moves(attacker: int) -> list[Point]:
    """A move list after which ``attacker`` is to move with the four-three above."""
    if attacker == BLACK:
        return interleave(ATTACK, DEFENCE)
    return interleave([FAR, *DEFENCE], ATTACK)


def position(moves: list[Point], ruleset: str = "freestyle") -> Position:
    Game.replay(moves, ruleset)  # a real game position, or the test set-up is wrong
    pos = Position(ruleset)
    for row, col in moves:
        pos.play(row * SIZE + col)
    return pos


@pytest.mark.parametrize(("attacker", "chance"), [(BLACK, 1.0), (WHITE, -1.0)])
def test_a_forced_win_scores_plus_or_minus_one_for_black(attacker, chance):
    found = evaluate(position(vcf_moves(attacker)), 5.0, still)
    assert found.win_chance == chance
    assert found.forced is not None and found.forced.kind == "vcf"


@pytest.mark.parametrize("attacker", [BLACK, WHITE])
def test_the_best_move_of_a_forced_win_is_its_first_attack(attacker):
    found = evaluate(position(vcf_moves(attacker)), 5.0, still)
    assert found.best == found.line[0]
    assert found.forced is not None and found.forced.line == found.line


def test_a_quiet_opening_is_near_even():
    found = evaluate(position([(7, 7), (7, 8)]), 5.0, still)
    assert -0.5 < found.win_chance < 0.5
    assert found.forced is None


def test_the_same_position_gets_the_same_answer():
    moves = [(7, 7), (7, 8), (8, 8), (6, 6), (9, 9)]
    first = evaluate(position(moves), 5.0, still)
    assert evaluate(position(moves), 5.0, still) == first


def test_evaluate_leaves_the_position_as_found():
    pos = position(vcf_moves(BLACK))
    history, cells = list(pos.history), list(pos.cells)
    evaluate(pos, 5.0, still)
    assert (pos.history, pos.cells) == (history, cells)


@pytest.mark.parametrize(
    ("drop", "label"),
    [
        (2.0, "blunder"),
        (0.3, "blunder"),
        (0.29, "mistake"),
        (0.2, "mistake"),
        (0.19, "inaccuracy"),
        (0.1, "inaccuracy"),
        (0.09, None),
        (0.0, None),
        (-0.5, None),
    ],
)
def test_labels_follow_the_drop_in_the_movers_win_chance(drop, label):
    assert label_for(drop) == label


@pytest.mark.parametrize(
    ("before", "after", "accuracy"),
    [
        (0.0, 0.0, 100.0),  # 103.1668 - 3.1669, clamped
        (0.5, 1.0, 100.0),  # a gain is never above 100
        (0.0, -0.2, 103.1668 * 2.718281828 ** (-0.04354 * 10) - 3.1669),
        (1.0, -1.0, 0.0),  # 100 points lost: below zero, clamped
    ],
)
def test_move_accuracy_is_lichess_formula_on_win_percentages(before, after, accuracy):
    assert move_accuracy(before, after) == pytest.approx(accuracy, abs=1e-3)


# A quiet middle game (the first ten moves of an engine game, black to move, near even) and
# black's eleventh move in four versions, one for each band of the drop in black's chance.
MIDDLE_GAME = FORTY_MOVES[:10]


@pytest.mark.parametrize(("move", "label"), [
    ((3, 7), "blunder"),  # drop about 0.51
    ((5, 10), "mistake"),  # about 0.24
    ((5, 5), "inaccuracy"),  # about 0.12
    ((5, 7), None),  # the engine's own choice
])
def test_each_threshold_in_a_built_position(move, label):
    review = analyse_game("freestyle", [*MIDDLE_GAME, move], 5.0, still).moves[-1]
    assert review.label == label
    assert abs(review.before) < 0.1


def test_the_middle_games_best_move_is_the_one_labelled_none():
    best = evaluate(position(MIDDLE_GAME), 5.0, still).best
    assert best is not None and divmod(best, SIZE) == (5, 7)


def game_with_missed_vcf() -> list[Point]:
    """Black has the four-three at move 11 and plays far away instead; white blocks."""
    return [*vcf_moves(BLACK), FAR, (7, 8), (13, 0)]


def test_a_missed_vcf_is_found_with_its_line():
    review = analyse_game("freestyle", game_with_missed_vcf(), 5.0, still).moves[10]
    assert review.move == FAR
    assert review.missed_win is not None
    assert review.missed_win["kind"] == "vcf"
    line = [tuple(point) for point in review.missed_win["line"]]
    # The line is a real forced sequence: played out, black is left with a five to make
    # at two points (or has made it), whatever white does next.
    pos = position(vcf_moves(BLACK))
    for row, col in line:
        pos.play(row * SIZE + col)
    assert len(line) % 2 == 1 and len(line) >= 3
    assert len(set(pos.fives(BLACK))) >= 2


def test_the_winning_move_is_not_a_missed_win():
    winning = evaluate(position(vcf_moves(BLACK)), 5.0, still).best
    assert winning is not None
    moves = [*vcf_moves(BLACK), divmod(winning, SIZE)]
    review = analyse_game("freestyle", moves, 5.0, still).moves[10]
    assert review.missed_win is None
    assert review.label is None


def test_a_move_that_lets_a_won_position_go_is_a_blunder():
    review = analyse_game("freestyle", game_with_missed_vcf(), 5.0, still).moves[10]
    assert review.before == 1.0
    assert review.label == "blunder"
    assert review.best is not None and review.best != FAR


def test_the_last_move_of_a_won_game_ends_at_one():
    moves = [(7, 0), (0, 0), (7, 1), (0, 2), (7, 2), (0, 4), (7, 3), (0, 6), (7, 4)]
    review = analyse_game("freestyle", moves, 5.0, still).moves[-1]
    assert (review.before, review.after, review.label) == (1.0, 1.0, None)


def test_progress_counts_every_position():
    seen: list[tuple[int, int]] = []
    moves = [(7, 7), (7, 8), (8, 8)]
    analyse_game("freestyle", moves, 5.0, still, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_player_summaries_count_labels_and_average_accuracy():
    found = analyse_game("freestyle", game_with_missed_vcf(), 5.0, still)
    for color, sign in (("black", 1), ("white", -1)):
        own = [m for m in found.moves if m.color == color]
        player = found.players[color]
        for name in ("inaccuracy", "mistake", "blunder"):
            assert player[name] == sum(1 for m in own if m.label == name)
        # Each side's accuracy from its own win chances: white's are black's negated.
        mean = sum(move_accuracy(sign * m.before, sign * m.after) for m in own) / len(own)
        assert player["accuracy"] == pytest.approx(mean, abs=0.05)
    assert found.players["black"]["blunder"] >= 1


@pytest.mark.parametrize("moves", [[(7, 7), (7, 7)], [(7, 7), (15, 0)], [(7,)]])
def test_a_move_list_that_is_not_a_game_is_refused(moves):
    with pytest.raises(IllegalMove):
        analyse_game("freestyle", moves, 5.0, still)


# Black to move with (7, 7) a double three: the best point in freestyle, forbidden in renju.
DOUBLE_THREE = interleave([(7, 5), (7, 6), (5, 7), (6, 7)], [(0, 0), (0, 3), (14, 14), (14, 11)])


def test_freestyle_takes_the_double_three():
    found = evaluate(position(DOUBLE_THREE), 5.0, still)
    assert found.best == 7 * SIZE + 7


def test_renju_never_suggests_a_forbidden_point_for_black():
    moves = DOUBLE_THREE
    game = Game.replay(moves, "renju")
    assert forbidden_kind(game.board, 7, 7) is not None
    found = evaluate(position(moves, "renju"), 5.0, still)
    assert found.best is not None
    assert forbidden_kind(game.board, *divmod(found.best, SIZE)) is None


def test_renju_analysis_never_suggests_a_forbidden_point():
    moves = [*DOUBLE_THREE, (3, 3)]
    review = analyse_game("renju", moves, 5.0, still).moves[-1]
    assert review.best is not None and review.best != (7, 7)
