"""A process's Redis connections: a burst of callers beyond the pool waits for a connection
rather than failing at once (arrivals through a cluster were refused that way)."""

from __future__ import annotations

import threading

import redis

from gobang.services.registry import redis_client


def hold_a_connection_each(client: redis.Redis, callers: int, seconds: float) -> list[Exception]:
    errors: list[Exception] = []

    def hold() -> None:
        try:
            client.blpop(["gobang:probe:never"], timeout=seconds)
        except redis.RedisError as error:
            errors.append(error)

    threads = [threading.Thread(target=hold) for _ in range(callers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return errors


def test_callers_beyond_the_pool_wait_their_turn(redis_server):
    client = redis_client(redis_server.url, pool_size=2, pool_timeout=5)
    assert hold_a_connection_each(client, callers=8, seconds=0.3) == []


def test_a_caller_that_waits_past_the_pool_timeout_is_refused_not_hung(redis_server):
    client = redis_client(redis_server.url, pool_size=1, pool_timeout=0.2)
    errors = hold_a_connection_each(client, callers=3, seconds=1.0)
    assert len(errors) == 2
    assert all(isinstance(error, redis.ConnectionError) for error in errors)
