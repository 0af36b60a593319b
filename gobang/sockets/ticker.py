"""The one background task: runs the services' time-driven work and publishes it."""

from __future__ import annotations

import logging

from flask import Flask

from gobang.extensions import db, socketio
from gobang.services.registry import Services
from gobang.sockets.base import Publisher

log = logging.getLogger("gobang.ticker")


def tick_once(app: Flask, found: Services) -> None:
    """One round: each batch is sent as soon as it is made, then everyone else gets a turn
    on the hub, so that 500 games starting at once delay a move by one game's start, not 500."""
    publish = Publisher(found.store)
    with app.app_context():
        try:
            for notices in found.tick():
                publish(notices)
                socketio.sleep(0)
        except Exception:
            db.session.rollback()
            log.exception("tick failed")
        finally:
            db.session.remove()


def start_ticker(app: Flask, found: Services) -> None:
    interval = app.config["TICKER_INTERVAL_SECONDS"]

    def run() -> None:
        while True:
            socketio.sleep(interval)
            tick_once(app, found)

    socketio.start_background_task(run)
