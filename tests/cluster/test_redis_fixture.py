"""The tests' Redis is a real server, empty at the start of each test."""

from __future__ import annotations


def test_a_value_written_is_read_back(redis_server):
    client = redis_server.client()
    client.set("gobang:probe", "1")
    assert client.get("gobang:probe") == b"1"


def test_each_test_starts_with_an_empty_redis(redis_server):
    assert redis_server.client().dbsize() == 0
