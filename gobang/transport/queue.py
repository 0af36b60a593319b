"""The message queue between processes: python-socketio's Redis manager, sending a batch of
emits in one round trip.

Each emit through the queue is one PUBLISH, a round trip to Redis, and under eventlet a turn of
the hub while it waits. A crowd's pairing sends 100 `match_found` per batch of games, and those
round trips were most of the leader's time per batch (docs/performance.md, issue 15). Inside
`batch()` the emits are handled in this process at once, as before, and published to the others
together, in order, in one pipeline.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import socketio

from gobang.transport.fanout import FailureCount, PacedEmits, uncounted

log = logging.getLogger("gobang.sockets")

REDIS_PUBLISH = "redis_publish"


class Outage:
    """A burst of publishes Redis refused, logged as it starts (one line, with the error) and
    as it ends (one line, with how many messages it lost and for how long): while Redis is
    down every batch fails, and a line for each filled the log. Each message lost is also
    counted in /metrics as it fails."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._since: float | None = None
        self._lost = 0

    def failed(self, messages: int, error: Exception | None) -> None:
        with self._lock:
            first = self._since is None
            if first:
                self._since = self._clock()
            self._lost += messages
        if first:
            log.error("cannot publish to Redis", extra={"fields": {
                "messages": messages, "error": str(error)}})

    def published(self) -> None:
        if self._since is None:  # the usual case, without the lock
            return
        with self._lock:
            since, lost = self._since, self._lost
            self._since, self._lost = None, 0
        if since is not None:
            log.warning("publishing to Redis again", extra={"fields": {
                "lost": lost, "seconds": round(self._clock() - since, 1)}})


class BatchingRedisManager(socketio.RedisManager, PacedEmits):
    """What the queue delivers here is emitted paced (gobang/transport/fanout.py): by the C3 order,
    the pub/sub manager's local emit is PacedEmits'."""

    def __init__(self, url: str, channel: str, write_only: bool = False,
                 count_failure: FailureCount = uncounted,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(url, channel=channel, write_only=write_only)
        # PacedEmits' __init__ is reached through RedisManager's, which passes nothing on.
        self.count_failure = count_failure
        self.outage = Outage(clock)
        # Per green thread under eventlet's patching: only the batching caller's emits wait.
        self._held = threading.local()

    @contextmanager
    def batch(self) -> Iterator[None]:
        if getattr(self._held, "messages", None) is not None:  # already batching: one batch
            yield
            return
        held: list[str] = []
        self._held.messages = held
        try:
            yield
        finally:
            self._held.messages = None
            if held:
                self._publish_all(held)

    def _publish(self, data: Any) -> None:
        held = getattr(self._held, "messages", None)
        message = self.json.dumps(data)
        if held is None:
            # A batch of one, not the manager's own publish: that one gives up uncounted.
            self._publish_all([message])
        else:
            held.append(message)

    def _publish_all(self, messages: list[str]) -> None:
        """Publish in one pipeline, reconnecting once as the manager's own publish does. What
        still fails is lost for the other processes (the emitter goes on, as it must): it is
        counted, and logged once for the outage (`Outage`)."""
        error: Exception | None = None
        for _attempt in (1, 2):
            try:
                if not self.connected:
                    self._redis_connect()
                pipe = self.redis.pipeline(transaction=False)
                for message in messages:
                    pipe.publish(self.channel, message)
                pipe.execute()
                self.outage.published()
                return
            except Exception as failure:  # noqa: BLE001 - counted and logged below
                self.connected = False
                error = failure
        self._failed(REDIS_PUBLISH, len(messages))
        self.outage.failed(len(messages), error)


@contextmanager
def batched(server: Any) -> Iterator[None]:
    """Emits through `server` inside are published together (with a batching manager)."""
    manager = getattr(server, "manager", None)
    if isinstance(manager, BatchingRedisManager):
        with manager.batch():
            yield
    else:
        yield
