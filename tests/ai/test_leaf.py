"""Level 9's leaf: a point's features, the fitted values summed over the candidates, the
root's moves ordered by that leaf one move on, and how many of them the alpha-beta searches."""

from __future__ import annotations

import random

import pytest

from gobang.ai.alphabeta import AlphaBeta
from gobang.ai.leaf import FEATURES, WIDTH, FittedLeaf, combo, point_features, position_features
from gobang.ai.levels import LEVELS
from gobang.ai.patterns import (
    FIVE,
    FOUR,
    FOUR_OPEN,
    NONE,
    OVERLINE,
    THREE,
    THREE_CLOSED,
    TWO,
    TWO_CLOSED,
)
from gobang.ai.position import BLACK, WHITE, Position
from gobang.ai.search import Engine, reordered
from gobang.rules import SIZE
from tests.ai.test_ai_renju import crowded_renju_games


def at(row: int, col: int) -> int:
    return row * SIZE + col


def position(ruleset: str, *stones: tuple[int, int]) -> Position:
    pos = Position(ruleset)
    for row, col in stones:
        pos.play(at(row, col))
    return pos


def one_hot(name: str, value: float = 1.0) -> tuple[float, ...]:
    return tuple(value if feature == name else 0.0 for feature in FEATURES)


ZERO = (0.0,) * WIDTH


@pytest.mark.parametrize(("types", "expected"), [
    ((FOUR_OPEN, NONE, NONE, NONE), "win_threat"),
    ((FOUR, FOUR, NONE, NONE), "win_threat"),
    ((FOUR, THREE, NONE, NONE), "four_three"),
    ((THREE, THREE, TWO, NONE), "double_three"),
    ((FOUR, TWO, NONE, NONE), "four_two"),
    ((FOUR, THREE_CLOSED, NONE, NONE), "four_two"),
    ((THREE, TWO, NONE, NONE), "three_two"),
    ((THREE, THREE_CLOSED, NONE, NONE), "three_two"),
    ((TWO, TWO, NONE, NONE), "two_two"),
    ((THREE, TWO_CLOSED, NONE, NONE), None),
    ((TWO, THREE_CLOSED, NONE, NONE), None),
    ((FOUR, NONE, NONE, NONE), None),
])
def test_a_point_counts_the_strongest_way_its_lines_combine(types, expected):
    assert combo(types) == expected


def test_a_point_counts_each_line_pattern_once_per_line_and_overlines_not_at_all():
    counts = point_features((TWO, TWO, OVERLINE, FIVE))
    named = {name: n for name, n in zip(FEATURES, counts, strict=True) if n}
    assert named == {"open_two": 2, "five": 1, "two_two": 1}


def test_the_leaf_is_the_sum_of_its_values_over_the_side_to_moves_and_opponents_points():
    # Black's open two on row 7; white's lone stone far away; black to move.
    pos = position("freestyle", (7, 7), (0, 14), (7, 8), (14, 0))
    features = position_features(pos)
    own, opp = features[:WIDTH], features[WIDTH:]
    leaf = FittedLeaf({BLACK: (one_hot("open_two", 0.5), one_hot("closed_two", -0.25)),
                       WHITE: (ZERO, ZERO)})
    expected = 0.5 * own[FEATURES.index("open_two")] - 0.25 * opp[FEATURES.index("closed_two")]
    assert own[FEATURES.index("open_two")] > 0
    assert leaf.evaluate(pos, BLACK) == round(expected * 10_000)


def test_the_values_are_those_of_the_side_to_moves_colour():
    pos = position("freestyle", (7, 7), (7, 8))  # black to move, one stone each
    leaf = FittedLeaf({BLACK: (one_hot("closed_two", 1.0), ZERO),
                       WHITE: (ZERO, ZERO)})
    assert leaf.evaluate(pos, BLACK) > 0
    assert leaf.evaluate(pos, WHITE) == 0


def test_renju_blacks_forbidden_point_counts_nothing_for_black():
    # Black's open twos cross at (7, 7): playing it would be a double three, the only one.
    stones = [(7, 5), (0, 0), (7, 6), (0, 14), (5, 7), (14, 0), (6, 7), (14, 14)]
    renju, freestyle = position("renju", *stones), position("freestyle", *stones)
    assert renju.is_forbidden(at(7, 7), BLACK)
    values = one_hot("double_three", 1.0)
    leaf = FittedLeaf({BLACK: (values, ZERO), WHITE: (ZERO, values)})
    assert leaf.evaluate(freestyle, BLACK) == 10_000
    assert leaf.evaluate(renju, BLACK) == 0
    assert leaf.evaluate(freestyle, WHITE) == 10_000  # white's view of black's points
    assert leaf.evaluate(renju, WHITE) == 0


def test_values_of_the_wrong_length_are_refused():
    with pytest.raises(ValueError, match="values per side"):
        FittedLeaf({BLACK: (ZERO[:-1], ZERO), WHITE: (ZERO, ZERO)})


def test_a_root_move_that_makes_an_open_four_goes_first():
    # Black's open three on row 7: (7, 5) or (7, 9) makes an open four.
    pos = position("freestyle", (7, 6), (0, 0), (7, 7), (0, 14), (7, 8), (14, 0))
    moves = [at(10, 10), at(3, 3), at(7, 9)]
    ahead = reordered(pos, moves, 3, lambda side: 0)
    assert ahead[0] == at(7, 9)
    assert len(pos.history) == 6  # the position is left as found


def test_moves_past_the_count_keep_their_place():
    pos = position("freestyle", (7, 7), (7, 8))
    moves = [at(6, 6), at(6, 7), at(8, 8), at(9, 9)]
    # The opponent's leaf one move on: the higher the point just played, the worse for it.
    leaf = lambda side: -pos.history[-1]  # noqa: E731
    assert reordered(pos, moves, 2, leaf) == [at(6, 7), at(6, 6), at(8, 8), at(9, 9)]


def test_a_four_is_judged_after_its_forced_block():
    # Black's closed three on row 7 (white at (7, 5)): (7, 9) makes a four, blocked at (7, 10).
    pos = position("freestyle", (7, 6), (7, 5), (7, 7), (0, 14), (7, 8), (14, 0))
    seen: list[int] = []

    def leaf(side: int) -> int:
        seen.append(pos.history[-1])
        return 0

    reordered(pos, [at(7, 9)], 1, leaf)
    assert seen == [at(7, 10)]


# White to move: (5, 8) makes a four on row 5 (black blocks it at (5, 4)) whose one five point,
# (5, 9), would give black two open threes (column 9 and a diagonal).
FOUL_BLOCK = [(5, 4), (5, 5), (6, 9), (5, 6), (7, 9), (5, 7), (6, 10), (14, 14), (7, 11)]


@pytest.mark.parametrize(("ruleset", "first"), [("renju", (5, 8)), ("freestyle", (0, 14))])
def test_a_four_whose_block_is_forbidden_wins(ruleset, first):
    pos = position(ruleset, *FOUL_BLOCK)
    assert pos.to_move == WHITE
    moves = [at(0, 14), at(5, 8)]
    assert reordered(pos, moves, 2, lambda side: 0)[0] == at(*first)


def test_level_9_is_level_8_with_the_fitted_leaf_and_a_wider_root():
    eight, nine = LEVELS[8], LEVELS[9]
    assert (nine.nodes, nine.depth, nine.width, nine.vcf, nine.vct) == (
        eight.nodes, eight.depth, eight.width, eight.vcf, eight.vct)
    assert nine.fitted and nine.reorder and not eight.fitted and not eight.reorder
    assert nine.root_width > nine.width + 2 and not eight.root_width


@pytest.mark.parametrize(("number", "roots"), [(8, LEVELS[8].width + 2), (9, LEVELS[9].root_width)])
def test_the_alpha_beta_searches_the_levels_number_of_root_moves(monkeypatch, number, roots):
    searched: list[int] = []

    def best_move(self, moves, deepest):
        searched.append(len(moves))
        return moves[0]

    monkeypatch.setattr(AlphaBeta, "best_move", best_move)
    pos = position("freestyle", (7, 7), (6, 8), (8, 8))
    Engine(LEVELS[number], random.Random(1)).choose(pos)
    assert searched == [roots]


def test_in_crowded_renju_positions_the_leaf_leaves_out_exactly_blacks_forbidden_points():
    values = tuple(float(k + 1) for k in range(WIDTH))
    leaf = FittedLeaf({BLACK: (values, tuple(-v for v in values)),
                       WHITE: (tuple(2 * v for v in values), tuple(-3 * v for v in values))})
    fouls = 0
    for _, pos in crowded_renju_games(seed=5, count=3):
        for side in (BLACK, WHITE):
            own, opp = leaf._values[side]
            expected = 0
            for i in pos.candidates():
                if not pos.is_forbidden(i, side):
                    expected += own[pos.types[side][i]]
                if not pos.is_forbidden(i, 3 - side):
                    expected += opp[pos.types[3 - side][i]]
            assert leaf.evaluate(pos, side) == expected
        fouls += any(pos.is_forbidden(i, BLACK) for i in pos.candidates())
    assert fouls > 5  # the positions do hold forbidden points
