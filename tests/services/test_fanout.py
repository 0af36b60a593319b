"""Pacing of hall-wide broadcasts: a bucket of recipient-messages, refilled with time."""

from __future__ import annotations

import pytest

from gobang.services.hall.fanout import Fanout
from tests.support.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def test_broadcasts_go_out_at_once_while_the_bucket_lasts(clock):
    fanout = Fanout(clock, per_second=100, burst=10)
    assert [fanout.offer(user, recipients=4) for user in (1, 2, 3, 4)] == [
        True, True, True, False]
    assert fanout.tokens == -2


def test_a_waiting_subject_is_due_once_the_bucket_refills(clock):
    fanout = Fanout(clock, per_second=10, burst=5)
    fanout.offer(1, recipients=6)
    assert not fanout.offer(2, recipients=6)
    assert fanout.due(recipients=6) == []
    clock.advance(0.2)
    assert fanout.due(recipients=6) == [2]


def test_a_subject_changed_while_waiting_is_sent_once_in_its_first_place(clock):
    fanout = Fanout(clock, per_second=10, burst=1)
    fanout.offer(0, recipients=1)
    for subject in (1, 2, 1, "games", 2):
        assert not fanout.offer(subject, recipients=1)
    clock.advance(10)
    assert fanout.due(recipients=0) == [1, 2, "games"]
    assert fanout.waiting() == 0


def test_nothing_overtakes_what_is_waiting(clock):
    fanout = Fanout(clock, per_second=100, burst=3)
    fanout.offer(1, recipients=3)
    assert not fanout.offer(2, recipients=3)
    clock.advance(1)  # the bucket is full again, but 2 is still waiting
    assert not fanout.offer(3, recipients=3)
    assert fanout.due(recipients=3) == [2]


def test_a_hall_larger_than_the_burst_still_hears_one_broadcast_at_a_time(clock):
    fanout = Fanout(clock, per_second=1000, burst=100)
    assert fanout.offer(1, recipients=5000)
    assert not fanout.offer(2, recipients=5000)
    clock.advance(4.9)
    assert fanout.due(recipients=5000) == []
    clock.advance(0.2)
    assert fanout.due(recipients=5000) == [2]


@pytest.mark.parametrize(("idle_seconds", "tokens"), [(0.0, 0), (0.5, 50), (1.0, 100), (60, 100)])
def test_the_bucket_refills_with_time_up_to_the_burst(clock, idle_seconds, tokens):
    fanout = Fanout(clock, per_second=100, burst=100)
    fanout.offer(1, recipients=100)
    clock.advance(idle_seconds)
    fanout.due(recipients=0)
    assert fanout.tokens == pytest.approx(tokens)
