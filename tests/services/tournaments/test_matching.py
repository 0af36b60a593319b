"""The general matching the pairings lean on (gobang/services/tournaments/matching.py)."""

from __future__ import annotations

import random

import pytest

from gobang.services.tournaments.matching import UNMATCHED, augment, maximum_matching


def adjacency(size: int, edges: list[tuple[int, int]]) -> list[list[int]]:
    adjacent: list[list[int]] = [[] for _ in range(size)]
    for first, second in edges:
        adjacent[first].append(second)
        adjacent[second].append(first)
    return adjacent


def matched_pairs(match: list[int]) -> int:
    return sum(1 for vertex, mate in enumerate(match) if mate != UNMATCHED and vertex < mate)


def largest_by_trying_all(size: int, edges: set[frozenset[int]]) -> int:
    def best(left: tuple[int, ...]) -> int:
        if len(left) < 2:
            return 0
        first, rest = left[0], left[1:]
        found = best(rest)
        for other in rest:
            if frozenset((first, other)) in edges:
                found = max(found, 1 + best(tuple(v for v in rest if v != other)))
        return found
    return best(tuple(range(size)))


def test_an_augmenting_path_through_an_odd_cycle_is_found():
    # 0 and 5 are exposed; 1=2 and 3=4 are matched; 2-3-4 is an odd cycle. The only
    # augmenting path, 0-1=2-4=3-5, goes round the cycle the long way: a search that does
    # not shrink the cycle reaches 3 only as an odd vertex and never leaves it for 5.
    adjacent = adjacency(6, [(0, 1), (1, 2), (2, 3), (3, 4), (2, 4), (3, 5)])
    match = [UNMATCHED, 2, 1, 4, 3, UNMATCHED]
    assert augment(adjacent, match, 0, [True] * 6)
    assert matched_pairs(match) == 3


@pytest.mark.parametrize("seed", range(40))
def test_the_matching_is_as_large_as_any(seed):
    rng = random.Random(seed)
    size = rng.randint(2, 10)
    edges = {frozenset((a, b)) for a in range(size) for b in range(a + 1, size)
             if rng.random() < 0.35}
    match = maximum_matching(adjacency(size, [tuple(edge) for edge in edges]))
    assert all(mate == UNMATCHED or (match[mate] == vertex and frozenset((vertex, mate)) in edges)
               for vertex, mate in enumerate(match))
    assert matched_pairs(match) == largest_by_trying_all(size, edges)


def test_vertices_taken_off_are_left_out():
    adjacent = adjacency(4, [(0, 1), (1, 2), (2, 3)])
    match = maximum_matching(adjacent, alive=[True, False, True, True])
    assert match[1] == UNMATCHED and {match[2], match[3]} == {3, 2}
