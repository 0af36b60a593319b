"""Database set-up: SQLite tuning and schema upgrades at start-up."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import event
from sqlalchemy.engine import Engine

from gobang.extensions import db

# How long a write waits for another writer's lock before it fails.
BUSY_TIMEOUT_MS = 5000


def _tune_sqlite(busy_timeout_ms: int) -> Callable[[Any, Any], None]:
    def tune(dbapi_connection, _record) -> None:
        # WAL lets readers run beside the one writer; the busy timeout makes a writer wait
        # for a lock instead of failing at once.
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    return tune


def _wrap_sqlite_connections(engine: Engine, wrapper: Callable[[Any, int], Any]) -> None:
    """sqlite3 waits for locks and disk inside C code; under eventlet a wait for a lock would
    freeze every connection of the server. `wrapper` (set by app.py) is given the connection
    and how long a call may wait for a lock; the connection's own busy timeout is then 0, so
    that the wrapper, not SQLite, does the waiting, off the event loop. The wrapped
    connection may offer `atomically(work)`: `work(raw_connection)`, a whole transaction, in
    one call through the wrapper (the move writer's path, on every move)."""

    @event.listens_for(engine, "do_connect")
    def connect(dialect, _record, cargs, cparams):
        cparams["check_same_thread"] = False
        return wrapper(dialect.loaded_dbapi.connect(*cargs, **cparams), BUSY_TIMEOUT_MS)


def init_database(app: Flask) -> None:
    with app.app_context():
        engine: Engine = db.engine
        if engine.dialect.name == "sqlite":
            wrapper = app.config.get("SQLITE_CONNECTION_WRAPPER")
            if wrapper is not None:
                _wrap_sqlite_connections(engine, wrapper)
            event.listen(engine, "connect",
                         _tune_sqlite(0 if wrapper is not None else BUSY_TIMEOUT_MS))
        if app.config["AUTO_MIGRATE"]:
            upgrade()
