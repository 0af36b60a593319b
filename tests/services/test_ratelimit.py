"""The sliding window of the in-memory rate limiter, on a clock moved by hand."""

from __future__ import annotations

from gobang.services.ratelimit import RateLimiter
from tests.support.clock import FakeClock

# Beyond this many keys the limiter forgets the idle ones (RateLimiter._forget_idle).
CROWD = 10_000


def limiter(limit: int, window: float) -> tuple[RateLimiter, FakeClock]:
    clock = FakeClock()
    return RateLimiter(limit, window, clock), clock


def test_the_attempt_after_the_limit_is_refused():
    limits, _clock = limiter(limit=3, window=10.0)
    assert [limits.hit("key") for _ in range(4)] == [True, True, True, False]


def test_a_hit_exactly_one_window_old_no_longer_counts():
    limits, clock = limiter(limit=1, window=10.0)
    assert limits.hit("key")
    clock.advance(10.0)
    assert limits.hit("key")


def test_hits_leave_the_window_one_at_a_time():
    limits, clock = limiter(limit=2, window=10.0)
    limits.hit("key")
    clock.advance(5.0)
    limits.hit("key")
    clock.advance(5.0)  # the first hit has left the window, the second has not
    assert [limits.hit("key"), limits.hit("key")] == [True, False]


def test_forgetting_idle_keys_in_a_crowd_keeps_a_key_whose_newest_hit_still_counts():
    limits, clock = limiter(limit=2, window=10.0)
    limits.hit("busy")
    clock.advance(5.0)
    limits.hit("busy")  # full: hits at 0 s and 5 s
    for number in range(CROWD):
        limits.hit(number)
    clock.advance(7.0)  # the hit at 0 s has left the window, the one at 5 s has not
    limits.hit("newcomer")  # the crowd is tidied
    assert [limits.hit("busy"), limits.hit("busy")] == [True, False]
