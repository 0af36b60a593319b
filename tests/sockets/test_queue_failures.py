"""Emits the message queue could not publish to Redis are counted in /metrics and logged once
per outage, never dropped unseen. Redis is a stub here: the manager's own connection seam."""

from __future__ import annotations

import logging

import pytest
import redis

from gobang.services.metrics import Metrics
from gobang.services.store import MemoryQueue, MemoryStore
from gobang.transport.queue import BatchingRedisManager
from tests.support.prometheus import sample


class Pipeline:
    def __init__(self, redis_stub: FlakyRedis) -> None:
        self.redis = redis_stub
        self.messages: list[str] = []

    def publish(self, channel: str, message: str) -> None:
        self.messages.append(message)

    def execute(self) -> None:
        if self.redis.failures:
            self.redis.failures -= 1
            raise redis.ConnectionError("Connection refused")
        self.redis.published += self.messages


class FlakyRedis:
    """Refuses the first `failures` pipelines."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.published: list[str] = []

    def pipeline(self, transaction: bool = True) -> Pipeline:
        return Pipeline(self)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def manager_on(stub: FlakyRedis, metrics: Metrics,
               clock: Clock | None = None) -> BatchingRedisManager:
    manager = BatchingRedisManager("redis://redis.invalid:6379/0", channel="c", write_only=True,
                                   count_failure=metrics.emit_failed, clock=clock or Clock())

    def connect() -> None:
        manager.redis, manager.connected = stub, True

    manager._redis_connect = connect  # type: ignore[method-assign]
    return manager


def failures(metrics: Metrics) -> float:
    text = metrics.exposition(MemoryStore(MemoryQueue()), queued=0, maintenance=False, process="p")
    return sample(text, "gobang_emit_failures_total", where="redis_publish")


def publish_three(manager: BatchingRedisManager) -> None:
    with manager.batch():
        for number in range(3):
            manager._publish({"method": "emit", "event": "match_found", "n": number})


def test_each_message_of_a_batch_redis_refused_is_counted() -> None:
    metrics = Metrics()
    publish_three(manager_on(FlakyRedis(failures=2), metrics))
    assert failures(metrics) == 3


def test_an_emit_outside_a_batch_that_redis_refused_is_counted() -> None:
    metrics = Metrics()
    manager_on(FlakyRedis(failures=2), metrics)._publish({"method": "emit", "event": "me"})
    assert failures(metrics) == 1


def test_a_batch_redis_refused_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="gobang.sockets"):
        publish_three(manager_on(FlakyRedis(failures=2), Metrics()))
    assert [record.getMessage() for record in caplog.records] == ["cannot publish to Redis"]


def test_a_batch_published_on_reconnecting_is_not_counted_as_failed() -> None:
    metrics, stub = Metrics(), FlakyRedis(failures=1)
    publish_three(manager_on(stub, metrics))
    assert (len(stub.published), failures(metrics)) == (3, 0)


def logged(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str, dict]]:
    return [(record.levelname, record.getMessage(), getattr(record, "fields", {}))
            for record in caplog.records]


def test_an_outage_is_logged_as_it_starts_and_as_it_ends_not_per_batch(
        caplog: pytest.LogCaptureFixture) -> None:
    metrics, clock = Metrics(), Clock()
    manager = manager_on(FlakyRedis(failures=6), metrics, clock)  # 2 tries a batch: 3 batches
    with caplog.at_level(logging.INFO, logger="gobang.sockets"):
        for _batch in range(3):
            publish_three(manager)
            clock.now += 2.0
        assert logged(caplog) == [("ERROR", "cannot publish to Redis", {
            "messages": 3, "error": "Connection refused"})]
        publish_three(manager)
        publish_three(manager)
    assert failures(metrics) == 9
    assert logged(caplog)[1:] == [("WARNING", "publishing to Redis again", {
        "lost": 9, "seconds": 6.0})]


def test_a_second_outage_is_logged_again(caplog: pytest.LogCaptureFixture) -> None:
    stub = FlakyRedis(failures=2)
    manager = manager_on(stub, Metrics())
    with caplog.at_level(logging.INFO, logger="gobang.sockets"):
        publish_three(manager)
        publish_three(manager)
        stub.failures = 2
        publish_three(manager)
    assert [message for _level, message, _fields in logged(caplog)] == [
        "cannot publish to Redis", "publishing to Redis again", "cannot publish to Redis"]


def test_publishing_without_an_outage_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="gobang.sockets"):
        publish_three(manager_on(FlakyRedis(failures=0), Metrics()))
    assert caplog.records == []
