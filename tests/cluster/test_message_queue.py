"""The message queue between processes sends a batch of emits (a tick's notices) to Redis
together, in order, instead of a round trip each."""

from __future__ import annotations

import json

import socketio

from gobang.transport.queue import BatchingRedisManager

CHANNEL = "gobang-test-queue"


def listening(redis_server):
    listener = redis_server.client().pubsub()
    listener.subscribe(CHANNEL)
    assert listener.get_message(timeout=2)["type"] == "subscribe"  # listening from here on
    return listener


def sender(redis_server) -> tuple[socketio.Server, BatchingRedisManager]:
    manager = BatchingRedisManager(redis_server.url, channel=CHANNEL, write_only=True)
    return socketio.Server(client_manager=manager, async_mode="threading"), manager


def test_emits_in_a_batch_reach_the_other_processes_together_and_in_order(redis_server):
    listener = listening(redis_server)
    server, manager = sender(redis_server)
    with manager.batch():
        for number in range(3):
            server.emit("match_found", {"n": number}, to="user:1", namespace="/hall")
        assert listener.get_message(timeout=0.3) is None  # held until the batch ends
    sent = [json.loads(listener.get_message(timeout=2)["data"]) for _ in range(3)]
    assert [(m["event"], m["data"][0]["n"], m["room"]) for m in sent] == [
        ("match_found", 0, "user:1"), ("match_found", 1, "user:1"), ("match_found", 2, "user:1")]


def test_an_emit_outside_a_batch_is_sent_at_once(redis_server):
    listener = listening(redis_server)
    server, _manager = sender(redis_server)
    server.emit("me", {"n": 1}, to="user:2", namespace="/hall")
    assert json.loads(listener.get_message(timeout=2)["data"])["event"] == "me"


def test_a_batch_within_a_batch_is_part_of_it(redis_server):
    listener = listening(redis_server)
    server, manager = sender(redis_server)
    with manager.batch():
        server.emit("first", {}, to="user:1", namespace="/hall")
        with manager.batch():
            server.emit("second", {}, to="user:1", namespace="/hall")
        server.emit("third", {}, to="user:1", namespace="/hall")
        assert listener.get_message(timeout=0.3) is None
    sent = [json.loads(listener.get_message(timeout=2)["data"])["event"] for _ in range(3)]
    assert sent == ["first", "second", "third"]
