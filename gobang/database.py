"""Database set-up: SQLite tuning and schema upgrades at start-up."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import event
from sqlalchemy.engine import Engine

from gobang.extensions import db


def _tune_sqlite(dbapi_connection, _record) -> None:
    # WAL lets readers run beside the one writer; the busy timeout makes a writer wait
    # for a lock instead of failing at once.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _wrap_sqlite_connections(engine: Engine, wrapper: Callable[[Any], Any]) -> None:
    """sqlite3 waits for locks and disk inside C code; under eventlet that would freeze every
    connection of the server. `wrapper` (set by app.py) runs each call on a native thread."""

    @event.listens_for(engine, "do_connect")
    def connect(dialect, _record, cargs, cparams):
        cparams["check_same_thread"] = False
        return wrapper(dialect.loaded_dbapi.connect(*cargs, **cparams))


def init_database(app: Flask) -> None:
    with app.app_context():
        engine: Engine = db.engine
        if engine.dialect.name == "sqlite":
            wrapper = app.config.get("SQLITE_CONNECTION_WRAPPER")
            if wrapper is not None:
                _wrap_sqlite_connections(engine, wrapper)
            event.listen(engine, "connect", _tune_sqlite)
        if app.config["AUTO_MIGRATE"]:
            upgrade()
