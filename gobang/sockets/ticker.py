"""The one background task: runs the services' time-driven work and publishes it."""

from __future__ import annotations

import logging

from flask import Flask

from gobang.extensions import db, socketio
from gobang.services.registry import Services
from gobang.sockets.base import Publisher

log = logging.getLogger("gobang.ticker")


def tick_once(app: Flask, found: Services) -> None:
    with app.app_context():
        try:
            Publisher(found.store)(found.tick())
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
