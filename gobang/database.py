"""Database set-up: SQLite tuning and schema upgrades at start-up."""

from __future__ import annotations

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


def init_database(app: Flask) -> None:
    with app.app_context():
        engine: Engine = db.engine
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _tune_sqlite)
        if app.config["AUTO_MIGRATE"]:
            upgrade()
