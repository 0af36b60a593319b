"""bench/mutants.py's table of deliberate slips stays true as the code moves (the mutants
themselves run by hand: docs/testing.md, "The suite's power: mutations")."""

from __future__ import annotations

from bench.mutants import MUTANTS, check


def test_every_mutants_original_is_found_exactly_once_and_changes_one_line():
    assert check() == []


def test_there_are_at_least_thirty_mutants():
    assert len(MUTANTS) >= 30
