"""A search's allowance of nodes, and the shares its sub-searches get."""

from __future__ import annotations

import pytest

from gobang.ai.budget import Budget, OutOfBudget

FAR = float("inf")  # a deadline never reached


def never() -> float:
    return 0.0


def test_a_budget_runs_out_after_its_nodes():
    budget = Budget(3, FAR, never)
    for _ in range(3):
        budget.tick()
    with pytest.raises(OutOfBudget):
        budget.tick()


def test_a_share_is_of_the_nodes_left_not_of_the_whole_allowance():
    budget = Budget(100, FAR, never)
    for _ in range(60):
        budget.tick()
    assert budget.share(0.5).limit == 20
