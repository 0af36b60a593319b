"""The engine's board keeps every empty point's patterns up to date one move at a time (a
move reclassifies only the windows it changed, `undo` puts back what was): after any moves
and take-backs they are what classifying every point afresh gives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gobang.ai.position import CELLS, FOUR, Position
from gobang.rules import RULESETS

# A step: a point to play (taken back at once when the flag says so, or when it is taken).
steps = st.lists(st.tuples(st.integers(0, CELLS - 1), st.booleans()), max_size=60)


def afresh(pos: Position) -> Position:
    """The same stones, every empty point classified from its windows alone."""
    fresh = Position(pos.ruleset)
    for index in pos.history:
        fresh.play(index)
    for index in range(CELLS):
        if not fresh.cells[index]:
            fresh._refresh_point(index)
    return fresh


def state(pos: Position) -> dict:
    empty = [i for i in range(CELLS) if not pos.cells[i]]
    return {p: ([pos.types[p][i] for i in empty], [pos.scores[p][i] for i in empty],
                [pos.best[p][i] for i in empty], pos.threats[p]) for p in (1, 2)}


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@settings(max_examples=60, deadline=None)
@given(moves=steps)
def test_moves_and_take_backs_leave_every_point_as_classified_afresh(ruleset, moves):
    pos = Position(ruleset)
    for index, take_back in moves:
        if pos.cells[index]:
            pos.undo()
            continue
        pos.play(index)
        if take_back:
            pos.undo()
    assert state(pos) == state(afresh(pos))


@pytest.mark.parametrize("taken_back", [0, 1, 2])
def test_a_threat_set_holds_the_points_whose_best_is_a_four_or_more(taken_back):
    pos = Position("freestyle")
    for index in (112, 0, 113, 2, 114, 4, 115):  # black's four in a row, white's stones apart
        pos.play(index)
    for _ in range(taken_back):
        pos.undo()
    fours = {i for i in range(CELLS) if not pos.cells[i] and pos.best[1][i] >= FOUR}
    assert fours and pos.threats[1] == fours
