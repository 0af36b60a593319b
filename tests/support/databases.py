"""Test databases: every test gets a fresh copy of one database built by the real migrations.

SQLite by default (a file copied per test). With GOBANG_TEST_DATABASE_URL set to a PostgreSQL
server (`postgresql+psycopg://user@host:port/postgres`; `.ci/with-postgres` starts one), each
test gets its own database there instead, cloned with CREATE DATABASE ... TEMPLATE, which takes
a few tens of milliseconds.
"""

from __future__ import annotations

import itertools
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

SERVER_ENV = "GOBANG_TEST_DATABASE_URL"

# Builds a schema at `url` by running the migrations (given by the conftest, which owns the app).
Migrator = Callable[[str], None]


class Databases(Protocol):
    dialect: str

    def build_template(self, migrate: Migrator) -> None: ...
    def fresh(self, workdir: Path) -> str: ...
    def empty(self, workdir: Path) -> str: ...
    def drop(self, url: str) -> None: ...
    def close(self) -> None: ...


class SqliteDatabases:
    dialect = "sqlite"

    def __init__(self, root: Path) -> None:
        self.template = root / "template.sqlite3"
        self._names = itertools.count(1)

    def build_template(self, migrate: Migrator) -> None:
        migrate(f"sqlite:///{self.template}")

    def fresh(self, workdir: Path) -> str:
        path = workdir / f"gobang-{next(self._names)}.sqlite3"
        shutil.copy(self.template, path)
        return f"sqlite:///{path}"

    def empty(self, workdir: Path) -> str:
        return f"sqlite:///{workdir / f'empty-{next(self._names)}.sqlite3'}"

    def drop(self, url: str) -> None:
        """The file goes with the test's temporary directory."""

    def close(self) -> None:
        """Nothing outlives the session's temporary directory."""


class PostgresDatabases:
    dialect = "postgresql"

    def __init__(self, server_url: str, prefix: str | None = None) -> None:
        self.server_url = make_url(server_url)
        if self.server_url.get_backend_name() != "postgresql":
            raise ValueError(f"{SERVER_ENV} must be a postgresql URL, not {server_url!r}")
        # CREATE/DROP DATABASE cannot run inside a transaction.
        self.admin = create_engine(self.server_url, isolation_level="AUTOCOMMIT",
                                   poolclass=NullPool)
        # Its own names: `close` drops every database under the prefix, and a bench run
        # inside the test session must not drop the session's.
        self.prefix = prefix or f"gobang_test_{os.getpid()}"
        self.template = f"{self.prefix}_template"
        self._names = itertools.count(1)

    def _url(self, name: str) -> str:
        return self.server_url.set(database=name).render_as_string(hide_password=False)

    def _execute(self, sql: str) -> None:
        with self.admin.connect() as connection:
            connection.execute(text(sql))

    def build_template(self, migrate: Migrator) -> None:
        self._execute(f'DROP DATABASE IF EXISTS "{self.template}" WITH (FORCE)')
        self._execute(f'CREATE DATABASE "{self.template}"')
        migrate(self._url(self.template))

    def fresh(self, workdir: Path) -> str:
        name = f"{self.prefix}_{next(self._names)}"
        self._execute(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"')
        return self._url(name)

    def empty(self, workdir: Path) -> str:
        name = f"{self.prefix}_{next(self._names)}"
        self._execute(f'CREATE DATABASE "{name}"')
        return self._url(name)

    def drop(self, url: str) -> None:
        # FORCE: a server a test killed may leave a backend behind for a moment.
        self._execute(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')

    def close(self) -> None:
        """Drop the template and anything a failed test left behind."""
        with self.admin.connect() as connection:
            names = connection.execute(
                text("SELECT datname FROM pg_database WHERE datname LIKE :prefix"),
                {"prefix": f"{self.prefix}_%"}).scalars().all()
        for name in names:
            self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.admin.dispose()


def databases_for(root: Path) -> Databases:
    server = os.environ.get(SERVER_ENV)
    return PostgresDatabases(server) if server else SqliteDatabases(root)
