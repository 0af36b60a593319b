"""Login and registration attempts per address hold across processes: counted in Redis."""

from __future__ import annotations

from gobang.services.ratelimit import RateLimiter, SharedRateLimiter, shared_limiter
from tests.support.live import free_port, wait_until

ADDRESS = "203.0.113.9"


def two_processes(url: str, limit: int = 3, window: float = 60) -> list[SharedRateLimiter]:
    """What two processes' auth limiters are: each its own object, one Redis between them."""
    return [SharedRateLimiter(url, "auth", limit, window) for _ in range(2)]


def test_attempts_in_one_process_count_in_the_other(redis_server):
    first, second = two_processes(redis_server.url)
    assert first.hit(ADDRESS) and first.hit(ADDRESS) and second.hit(ADDRESS)
    assert not second.hit(ADDRESS)
    assert not first.hit(ADDRESS)


def test_each_address_has_its_own_count(redis_server):
    first, second = two_processes(redis_server.url, limit=1)
    assert first.hit(ADDRESS)
    assert second.hit("198.51.100.7")
    assert not second.hit(ADDRESS)


def test_a_refused_attempt_is_not_counted(redis_server):
    first, second = two_processes(redis_server.url, limit=2, window=1)
    assert first.hit(ADDRESS) and second.hit(ADDRESS)
    assert not first.hit(ADDRESS)
    # The window moves on from the two counted attempts, not from the refusals.
    assert wait_until(lambda: second.hit(ADDRESS), timeout=3)


def test_the_counts_live_under_the_apps_prefix(redis_server):
    first, _ = two_processes(redis_server.url)
    first.hit(ADDRESS)
    keys = [key.decode() for key in redis_server.client().keys("*")]
    assert len(keys) == 1 and keys[0].startswith("gobang:limits:")


def test_an_unreachable_redis_lets_attempts_through():
    limiter = SharedRateLimiter(f"redis://127.0.0.1:{free_port()}/0", "auth", 1, 60)
    assert limiter.hit(ADDRESS) and limiter.hit(ADDRESS)


def test_rate_limits_off_are_off_in_redis_too(redis_server):
    limiter = SharedRateLimiter(redis_server.url, "auth", 1, 60, enabled=False)
    assert all(limiter.hit(ADDRESS) for _ in range(3))
    assert redis_server.client().dbsize() == 0


def test_with_redis_the_limit_is_the_shared_one(redis_server):
    local = RateLimiter(3, 60)
    assert shared_limiter(None, "auth", local) is local
    found = shared_limiter(redis_server.url, "auth", local)
    assert isinstance(found, SharedRateLimiter)
    assert [found.hit(ADDRESS) for _ in range(4)] == [True, True, True, False]
