"""The one background task: runs the services' time-driven work and publishes it."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from flask import Flask
from redis.exceptions import RedisError

from gobang.extensions import db, socketio
from gobang.services.registry import Services
from gobang.sockets.base import Publisher
from gobang.transport.fanout import PacedEmits

log = logging.getLogger("gobang.ticker")


# How long a tick runs before everyone else gets a turn on the hub.
SLICE_SECONDS = 0.02


class _Outage:
    """Whether the last tick found Redis unreachable: said once when it starts and once when
    it ends, not five times a second."""

    down = False


def tick_once(app: Flask, found: Services, timer: Callable[[], float] = time.monotonic) -> None:
    """One round: each batch is sent as soon as it is made, and every SLICE_SECONDS the tick
    lets everyone else have a turn on the hub, so that 500 games starting at once delay a move
    by a slice, not by all 500 (yielding after every game instead made the crowd's pairing
    three times slower)."""
    publish = Publisher(found.store)
    with app.app_context():
        try:
            slice_ends = timer() + SLICE_SECONDS
            for notices in found.tick(hall_sent=_hall_sent()):
                publish(notices)
                if timer() >= slice_ends:
                    socketio.sleep(0)
                    slice_ends = timer() + SLICE_SECONDS
            if _Outage.down:
                _Outage.down = False
                log.warning("Redis reachable again")
        except RedisError as error:  # the shared store restarting: the next tick retries
            db.session.rollback()
            if not _Outage.down:
                _Outage.down = True
                log.warning("ticks skipped until Redis answers", extra={"fields": {
                    "error": type(error).__name__}})
        except Exception:
            db.session.rollback()
            log.exception("tick failed")
        finally:
            db.session.remove()


def _hall_sent() -> bool:
    """Whether this process has sent the hall's last update to all of its crowd (fanout.py)."""
    manager = getattr(socketio.server, "manager", None)
    return not isinstance(manager, PacedEmits) or manager.crier.idle()


def keep_alive_once(app: Flask, found: Services) -> None:
    with app.app_context():
        try:
            Publisher(found.store)(found.keep_alive())
        except RedisError:
            pass  # the tick says so, once
        except Exception:
            log.exception("keep-alive failed")
        finally:
            db.session.remove()


def start_ticker(app: Flask, found: Services) -> None:
    interval = app.config["TICKER_INTERVAL_SECONDS"]

    def run() -> None:
        while True:
            socketio.sleep(interval)
            tick_once(app, found)

    def keep() -> None:
        while True:
            keep_alive_once(app, found)
            socketio.sleep(app.config["LEASE_SECONDS"] / 4)

    socketio.start_background_task(run)
    if app.config["REDIS_URL"]:
        socketio.start_background_task(keep)
