"""A process's Redis connections: a burst of callers beyond the pool waits for a connection
rather than failing at once (arrivals through a cluster were refused that way), and none left
from before Redis restarted is handed out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import redis

from gobang.services.registry import redis_client
from tests.support.live import ROOT


def hold_a_connection_each(client: redis.Redis, callers: int, seconds: float) -> list[str]:
    """Each caller's error, with its message: redis-py's repr of one names only its class, and
    a pool's timeout, a refused connect and a closed connection are all ConnectionErrors."""
    errors: list[str] = []

    def hold() -> None:
        try:
            client.blpop(["gobang:probe:never"], timeout=seconds)
        except redis.RedisError as error:
            errors.append(f"{type(error).__name__}: {error}")

    threads = [threading.Thread(target=hold) for _ in range(callers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return errors


def test_callers_beyond_the_pool_wait_their_turn(redis_server):
    # Four turns of 0.3 s: the last caller waits about a second. The pool's timeout is far
    # beyond that, so that a machine stalled by other tests cannot fail the test; a pool that
    # refused callers at once (redis-py's default) fails it all the same.
    client = redis_client(redis_server.url, pool_size=2, pool_timeout=30)
    assert hold_a_connection_each(client, callers=8, seconds=0.3) == []


def test_a_caller_that_waits_past_the_pool_timeout_is_refused_not_hung(redis_server):
    client = redis_client(redis_server.url, pool_size=1, pool_timeout=0.2)
    errors = hold_a_connection_each(client, callers=3, seconds=1.0)
    assert errors == ["ConnectionError: No connection available."] * 2


# The server's pool under eventlet, as app.py runs it: each caller holds a connection of its
# own (a blocking pop), so the pool keeps `callers` connections; after the line on its standard
# input (Redis restarted meanwhile) the same callers go again.
RESTART_PROBE = """
import eventlet
eventlet.monkey_patch()  # as app.py does when it runs the server
import json, sys
sys.path.insert(0, ".")
import redis
from gobang.services.registry import redis_client

client = redis_client(sys.argv[1], pool_size=10, pool_timeout=5)

def call():
    try:
        client.blpop(["gobang:probe:never"], timeout=0.2)
        return "ok"
    except redis.RedisError as error:
        return str(error)

def everyone():
    pile = eventlet.GreenPile()
    for _ in range(int(sys.argv[2])):
        pile.spawn(call)
    print(json.dumps(list(pile)), flush=True)

everyone()
sys.stdin.readline()
everyone()
"""


def test_no_connection_left_from_before_a_redis_restart_is_handed_out(redis_server):
    """Redis closed them all when it stopped. Under eventlet, redis-py's check of a pooled
    connection could not see that (it needs select.poll, which eventlet's patching removes):
    the first command on each failed, `Connection closed by server.`, and a player connecting
    just after the restart was refused."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOBANG_")}
    probe = subprocess.Popen([sys.executable, "-c", RESTART_PROBE, redis_server.url, "3"],
                             cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert json.loads(probe.stdout.readline()) == ["ok"] * 3
        redis_server.restart()
        out, err = probe.communicate("restarted\n", timeout=60)
    finally:
        probe.kill()
    assert probe.returncode == 0, err[-2000:]
    assert json.loads(out) == ["ok"] * 3
