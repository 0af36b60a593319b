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


def _tune_sqlite(busy_timeout_ms: int, checkpoint_pages: int) -> Callable[[Any, Any], None]:
    def tune(dbapi_connection, _record) -> None:
        # WAL lets readers run beside the one writer; the busy timeout makes a writer wait
        # for a lock instead of failing at once. The commit that takes the log past
        # `checkpoint_pages` copies it into the database and waits for the disk, on the event
        # loop: a longer log means fewer such waits, and pages written many times over (the
        # games' clocks, the last page of moves) are copied once per checkpoint.
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA wal_autocheckpoint={checkpoint_pages}")
        cursor.close()

    return tune


def _wrap_sqlite_connections(engine: Engine, wrapper: Callable[[Any, int], Any]) -> None:
    """sqlite3 waits for locks and disk inside C code; under eventlet a wait for a lock would
    freeze every connection of the server. `wrapper` (gobang/transport/offload.py, set by
    app.py) is given the connection and how long a call may wait for a lock; the connection's
    own busy timeout is then 0, so that the wrapper, not SQLite, does the waiting, off the
    event loop. The wrapped
    connection may offer `atomically(work)`: `work(raw_connection)`, a whole transaction, in
    one call through the wrapper (the move writer's path, on every move)."""

    @event.listens_for(engine, "do_connect")
    def connect(dialect, _record, cargs, cparams):
        cparams["check_same_thread"] = False
        return wrapper(dialect.loaded_dbapi.connect(*cargs, **cparams), BUSY_TIMEOUT_MS)


def _checkpoint_pages(app: Flask) -> int:
    pages = app.config["SQLITE_CHECKPOINT_PAGES"]
    if pages < 1:  # 0 would turn checkpoints off: the log would grow for good
        raise ValueError(f"SQLITE_CHECKPOINT_PAGES must be at least 1, not {pages}")
    return pages


def init_database(app: Flask) -> None:
    with app.app_context():
        engine: Engine = db.engine
        if engine.dialect.name == "sqlite":
            wrapper = app.config.get("SQLITE_CONNECTION_WRAPPER")
            if wrapper is not None:
                _wrap_sqlite_connections(engine, wrapper)
            event.listen(engine, "connect", _tune_sqlite(
                0 if wrapper is not None else BUSY_TIMEOUT_MS, _checkpoint_pages(app)))
        if app.config["AUTO_MIGRATE"]:
            upgrade()
