"""Fixtures from fast to real: app and client, live server, browser."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import jinja2
import pytest
from flask import Flask
from flask.testing import FlaskClient

from config import TestConfig
from gobang import create_app
from tests.support.databases import Databases, databases_for

pytest_plugins = ["tests.support.live", "tests.support.browser", "tests.support.nginx",
                  "tests.support.redis", "tests.support.cluster"]


# Tests the PostgreSQL pass would only run again as `make test` has run them: those that
# start their own servers and databases whatever the pass (make cluster's tests, the
# one-process bench smoke tests: about 90 s of CI), and those about frames and connections,
# which never reach the database or the store (floods, hostile and slow clients, pings:
# 85 s of the pass's serial part, 2026-12-04).
SAME_IN_BOTH_PASSES = ("own_servers", "transport")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The PostgreSQL pass (make test-pg) skips the tests SAME_IN_BOTH_PASSES names."""
    if os.environ.get("GOBANG_TEST_PASS") != "postgresql":
        return
    skip = pytest.mark.skip(reason="the same in both passes: the SQLite pass (make test) runs it")
    for item in items:
        if any(item.get_closest_marker(name) for name in SAME_IN_BOTH_PASSES):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Databases]:
    """SQLite files, or a PostgreSQL server when GOBANG_TEST_DATABASE_URL names one; either way
    one template built by the real migrations and copied for every test."""
    found = databases_for(tmp_path_factory.mktemp("template"))
    found.build_template(migrate_to_head)
    yield found
    found.close()


def migrate_to_head(url: str) -> None:
    app = create_app(type("MigrateConfig", (TestConfig,), {"DATABASE_URL": url}))
    with app.app_context():
        from gobang.extensions import db

        db.engine.dispose()


def make_config(database_url: str, **overrides: object) -> type:
    attrs = {"DATABASE_URL": database_url, "AUTO_MIGRATE": False, **overrides}
    return type("CaseConfig", (TestConfig,), attrs)


@pytest.fixture
def database_url(databases: Databases, tmp_path: Path) -> Iterator[str]:
    url = databases.fresh(tmp_path)
    yield url
    databases.drop(url)


@pytest.fixture
def base_overrides() -> dict[str, object]:
    """Settings a whole folder of tests shares (the socket tests' fake clock)."""
    return {}


@pytest.fixture
def app_overrides() -> dict[str, object]:
    """Parametrize this to change settings for one test."""
    return {}


class SharedTemplateCode(jinja2.BytecodeCache):
    """The templates compiled once for the whole session: every test makes its own app, and
    compiling the same templates again for each was about a third of a page test's time.
    A bucket whose template changed is compiled afresh (Jinja compares the source's checksum)."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


TEMPLATE_CODE = SharedTemplateCode()


@pytest.fixture
def app(
    database_url: str, base_overrides: dict[str, object], app_overrides: dict[str, object]
) -> Iterator[Flask]:
    app = create_app(make_config(database_url, **base_overrides, **app_overrides))
    app.jinja_env.bytecode_cache = TEMPLATE_CODE
    yield app
    with app.app_context():
        from gobang.extensions import db

        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
