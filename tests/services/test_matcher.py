"""The matcher, on a fake clock and a seeded random source."""

from __future__ import annotations

import random

import pytest

from gobang.services.hall.matcher import Matcher, Pairing
from gobang.services.pools import Pool
from gobang.services.store import MemoryQueue
from tests.support.clock import FakeClock

BLITZ = (300, 3)
RAPID = (600, 5)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def gone() -> set[int]:
    return set()


@pytest.fixture
def blocks() -> set[tuple[int, int]]:
    """(blocker, blocked) pairs."""
    return set()


@pytest.fixture
def matcher(clock: FakeClock, gone: set[int], blocks: set[tuple[int, int]]) -> Matcher:
    return Matcher(MemoryQueue(), clock, random.Random(1), gap_start=50, gap_per_second=50,
                   connected=lambda users: set(users) - gone,
                   apart=lambda users: {frozenset(pair) for pair in blocks
                                        if set(pair) <= set(users)})


def pairs(pairings: list[Pairing]) -> set[frozenset[int]]:
    return {frozenset((p.black, p.white)) for p in pairings}


def test_close_scores_pair_at_once(matcher):
    matcher.enqueue(1, 1000, "freestyle", BLITZ)
    matcher.enqueue(2, 1040, "freestyle", BLITZ)
    assert pairs(matcher.tick()[0]) == {frozenset({1, 2})}


def test_far_scores_wait_until_the_gap_has_widened(matcher, clock):
    matcher.enqueue(1, 600, "freestyle", BLITZ)
    matcher.enqueue(2, 2000, "freestyle", BLITZ)
    assert matcher.tick()[0] == []
    clock.advance(20)
    assert matcher.tick()[0] == []
    clock.advance(8)
    assert pairs(matcher.tick()[0]) == {frozenset({1, 2})}


@pytest.mark.parametrize(("waited", "gap"), [(0, 50), (1, 100), (10, 550), (29, 1500)])
def test_allowed_gap_widens_with_waiting(matcher, waited, gap):
    assert matcher.allowed_gap(waited) == gap


def test_longest_waiting_player_is_served_first(matcher, clock):
    matcher.enqueue(1, 1000, "freestyle", BLITZ)
    clock.advance(5)
    matcher.enqueue(2, 1000, "freestyle", BLITZ)
    matcher.enqueue(3, 1000, "freestyle", BLITZ)
    (pairing,), _ = matcher.tick()
    assert 1 in (pairing.black, pairing.white)
    assert matcher.is_queued(3) or matcher.is_queued(2)


def test_closest_score_is_preferred(matcher):
    matcher.enqueue(1, 1000, "freestyle", BLITZ)
    matcher.enqueue(2, 1045, "freestyle", BLITZ)
    matcher.enqueue(3, 1010, "freestyle", BLITZ)
    assert frozenset({1, 3}) in pairs(matcher.tick()[0])


def test_never_pairs_a_user_with_themself(matcher, clock):
    matcher.enqueue(1, 1000, "freestyle", BLITZ)
    matcher.enqueue(1, 1000, "freestyle", BLITZ)
    clock.advance(100)
    assert matcher.tick()[0] == []
    assert matcher.is_queued(1)


def test_only_the_same_ruleset_is_paired(matcher, clock):
    matcher.enqueue(1, 1000, "freestyle", BLITZ)
    matcher.enqueue(2, 1000, "renju", BLITZ)
    clock.advance(100)
    assert matcher.tick()[0] == []


@pytest.mark.parametrize("other", [RAPID, None])
def test_only_the_same_clock_is_paired(matcher, clock, other):
    matcher.enqueue(1, 1000, "freestyle", BLITZ)
    matcher.enqueue(2, 1000, "freestyle", other)
    clock.advance(100)
    assert matcher.tick()[0] == []


def test_a_pairing_carries_its_pools_ruleset_and_clock(matcher):
    matcher.enqueue(1, 1000, "renju", None)
    matcher.enqueue(2, 1000, "renju", None)
    matcher.enqueue(3, 1000, "renju", RAPID)
    matcher.enqueue(4, 1000, "renju", RAPID)
    pairings, _ = matcher.tick()
    assert {(frozenset((p.black, p.white)), p.ruleset, p.clock) for p in pairings} == {
        (frozenset({1, 2}), "renju", None), (frozenset({3, 4}), "renju", RAPID)}


def test_the_gap_widens_within_each_pool_alone(matcher, clock):
    """A player waiting long in one pool does not pull in a far score from another."""
    matcher.enqueue(1, 600, "freestyle", BLITZ)
    matcher.enqueue(2, 2000, "freestyle", RAPID)
    clock.advance(28)
    matcher.enqueue(3, 2000, "freestyle", BLITZ)
    assert pairs(matcher.tick()[0]) == {frozenset({1, 3})}


def test_cancel_leaves_the_queue(matcher):
    matcher.enqueue(1, 1000, "freestyle", BLITZ)
    assert matcher.cancel(1) is True
    assert matcher.cancel(1) is False
    matcher.enqueue(2, 1000, "freestyle", BLITZ)
    assert matcher.tick()[0] == []


def test_vanished_users_are_dropped(matcher, gone):
    matcher.enqueue(1, 1000, "freestyle", BLITZ)
    matcher.enqueue(2, 1000, "freestyle", BLITZ)
    gone.add(2)
    pairings, dropped = matcher.tick()
    assert pairings == []
    assert dropped == [2]
    assert not matcher.is_queued(2)


def test_colours_are_random(clock):
    colours = set()
    for seed in range(20):
        matcher = Matcher(MemoryQueue(), clock, random.Random(seed), 50, 50, set)
        matcher.enqueue(1, 1000, "freestyle", BLITZ)
        matcher.enqueue(2, 1000, "freestyle", BLITZ)
        colours.add(matcher.tick()[0][0].black)
    assert colours == {1, 2}


def test_a_thousand_players_are_all_paired_in_one_tick(matcher):
    rng = random.Random(3)
    for user_id in range(1000):
        matcher.enqueue(user_id, 1000 + rng.randrange(-20, 20), "freestyle", BLITZ)
    pairings, _ = matcher.tick()
    assert len(pairings) == 500
    assert len({u for p in pairings for u in (p.black, p.white)}) == 1000



def test_equal_scores_pair_in_the_order_they_waited(matcher, clock):
    for user_id in range(1, 7):
        matcher.enqueue(user_id, 1000, "freestyle", BLITZ)
        clock.advance(1)
    assert pairs(matcher.tick()[0]) == {frozenset((1, 2)), frozenset((3, 4)), frozenset((5, 6))}


def test_scores_exactly_the_allowed_gap_apart_pair(matcher):
    matcher.enqueue(1, 1000, "freestyle", BLITZ)
    matcher.enqueue(2, 1050, "freestyle", BLITZ)  # gap_start is 50
    assert pairs(matcher.tick()[0]) == {frozenset({1, 2})}


def test_every_vanished_user_leaves_the_queue(matcher, gone):
    for user_id in (1, 2, 3):
        matcher.enqueue(user_id, 1000 * user_id, "freestyle", BLITZ)
    gone.update({1, 2, 3})
    _pairings, dropped = matcher.tick()
    assert dropped == [1, 2, 3]
    assert [matcher.is_queued(user_id) for user_id in (1, 2, 3)] == [False] * 3


@pytest.mark.parametrize(("provisional", "paired"), [
    ((False, False), False), ((True, False), True), ((False, True), True), ((True, True), True)])
def test_a_provisional_rating_on_either_side_doubles_the_gap(matcher, provisional, paired):
    matcher.enqueue(1, 1500, "freestyle", BLITZ, provisional[0])
    matcher.enqueue(2, 1590, "freestyle", BLITZ, provisional[1])  # 90 apart: within 2 x 50
    assert (pairs(matcher.tick()[0]) == {frozenset({1, 2})}) is paired


def test_players_of_one_clock_with_different_openings_are_not_paired(matcher, clock):
    matcher.enqueue(1, 1000, "freestyle", RAPID)
    matcher.enqueue(2, 1000, "freestyle", RAPID, opening="swap2")
    matcher.enqueue(3, 1000, "freestyle", RAPID, opening="swap")
    clock.advance(60)
    assert matcher.tick()[0] == []


def test_a_pairing_in_an_opening_pool_carries_its_opening(matcher):
    matcher.enqueue(1, 1000, "renju", RAPID, opening="taraguchi-10")
    matcher.enqueue(2, 1000, "renju", RAPID, opening="taraguchi-10")
    assert matcher.pool_of(1) == Pool("renju", RAPID, "taraguchi-10")
    (pairing,) = matcher.tick()[0]
    assert (pairing.ruleset, pairing.clock, pairing.opening) == ("renju", RAPID, "taraguchi-10")


BLOCKS = pytest.mark.parametrize("blocked", [(1, 2), (2, 1)],
                                 ids=["1-blocks-2", "2-blocks-1"])


@BLOCKS
def test_two_players_either_of_whom_blocks_the_other_are_never_paired(matcher, clock, blocks,
                                                                     blocked):
    blocks.add(blocked)
    matcher.enqueue(1, 1000, "freestyle", BLITZ)
    matcher.enqueue(2, 1000, "freestyle", BLITZ)
    for _second in range(60):
        clock.advance(1)
        assert matcher.tick()[0] == []


@BLOCKS
def test_a_blocked_neighbour_in_score_is_stepped_over_to_the_next(matcher, blocks, blocked):
    blocks.add(blocked)
    matcher.enqueue(1, 1000, "freestyle", BLITZ)
    matcher.enqueue(2, 1010, "freestyle", BLITZ)
    matcher.enqueue(3, 1020, "freestyle", BLITZ)
    assert pairs(matcher.tick()[0]) == {frozenset({1, 3})}


def test_a_block_between_others_changes_nobody_else_s_pairing(matcher, blocks):
    blocks.add((3, 4))
    for user_id, score in ((1, 1000), (2, 1005), (3, 1500), (4, 1505)):
        matcher.enqueue(user_id, score, "freestyle", BLITZ)
    assert pairs(matcher.tick()[0]) == {frozenset({1, 2})}


def test_the_blocks_are_read_once_a_tick_and_only_for_pools_of_two_or_more(clock):
    asked: list[set[int]] = []
    matcher = Matcher(MemoryQueue(), clock, random.Random(1), 50, 50, set,
                      apart=lambda users: asked.append(set(users)) or set())
    matcher.enqueue(1, 1000, "freestyle", BLITZ)
    matcher.enqueue(2, 1000, "freestyle", RAPID)
    matcher.tick()
    matcher.enqueue(3, 2000, "freestyle", BLITZ)
    matcher.tick()
    assert asked == [{1, 3}]
