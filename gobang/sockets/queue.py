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
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import socketio

from gobang.sockets.fanout import PacedEmits

log = logging.getLogger("gobang.sockets")


class BatchingRedisManager(socketio.RedisManager, PacedEmits):
    """What the queue delivers here is emitted paced (sockets/fanout.py): by the C3 order,
    the pub/sub manager's local emit is PacedEmits'."""

    def __init__(self, url: str, channel: str, write_only: bool = False) -> None:
        super().__init__(url, channel=channel, write_only=write_only)
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

    def _publish(self, data: Any) -> Any:
        held = getattr(self._held, "messages", None)
        if held is None:
            return super()._publish(data)
        held.append(self.json.dumps(data))
        return None

    def _publish_all(self, messages: list[str]) -> None:
        for attempt in (1, 2):  # as the manager's own publish: reconnect once
            try:
                if not self.connected:
                    self._redis_connect()
                pipe = self.redis.pipeline(transaction=False)
                for message in messages:
                    pipe.publish(self.channel, message)
                pipe.execute()
                return
            except Exception as error:  # noqa: BLE001 - the manager's own publish logs and goes on
                self.connected = False
                log.error("cannot publish to Redis", extra={"fields": {
                    "attempt": attempt, "messages": len(messages), "error": str(error)}})


@contextmanager
def batched(server: Any) -> Iterator[None]:
    """Emits through `server` inside are published together (with a batching manager)."""
    manager = getattr(server, "manager", None)
    if isinstance(manager, BatchingRedisManager):
        with manager.batch():
            yield
    else:
        yield
