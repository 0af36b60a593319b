"""The websocket frame checks and budget, with a hand-driven clock."""

from __future__ import annotations

import pytest

from gobang.transport_guard import FrameBudget, frame_fault


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(("frame", "upgrading", "fault"), [
    ("3", False, None),
    ("6", False, None),
    ("1", False, None),
    ('42/room,["place_stone",{}]', False, None),
    ("40/hall,", False, None),
    ("2probe", True, None),
    ("5", True, None),
    ("2probe", False, "malformed frame"),
    ("5", False, "malformed frame"),
    ("", False, "malformed frame"),
    ("[]", False, "malformed frame"),
    ("4", False, "malformed frame"),
    ("4[[[[", False, "malformed frame"),
    ("3" + "[" * 5000, False, "malformed frame"),
    ("9", False, "malformed frame"),
    ("b!!!", False, "malformed frame"),
    (b"\x00\x01", False, "binary frame"),
])
def test_only_frames_a_client_sends_pass(frame, upgrading, fault):
    assert frame_fault(frame, upgrading) == fault


def test_a_burst_is_allowed_and_the_next_frame_is_not():
    budget = FrameBudget(rate=10, burst=5, clock=Clock())
    assert [budget.spend() for _ in range(6)] == [True] * 5 + [False]


def test_the_budget_refills_at_its_rate_up_to_the_burst():
    clock = Clock()
    budget = FrameBudget(rate=10, burst=5, clock=clock)
    for _ in range(5):
        budget.spend()
    clock.now = 0.2  # two frames' worth
    assert [budget.spend() for _ in range(3)] == [True, True, False]
    clock.now = 100.0
    assert sum(budget.spend() for _ in range(10)) == 5


def test_a_steady_sender_at_the_rate_is_never_refused():
    clock = Clock()
    budget = FrameBudget(rate=8, burst=1, clock=clock)
    for step in range(100):
        clock.now = step / 8  # exact in binary floating point, as 1/10 is not
        assert budget.spend()
