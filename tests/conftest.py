"""Fixtures from fast to real: app and client, live server, browser."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from config import TestConfig
from gobang import create_app

pytest_plugins = ["tests.support.live", "tests.support.browser"]


@pytest.fixture(scope="session")
def template_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One database built by the real migrations, copied for every test."""
    path = tmp_path_factory.mktemp("template") / "gobang.sqlite3"
    config = type("MigrateConfig", (TestConfig,), {"DATABASE_URL": f"sqlite:///{path}"})
    app = create_app(config)
    with app.app_context():
        from gobang.extensions import db

        db.engine.dispose()
    return path


def make_config(db_path: Path, **overrides: object) -> type:
    attrs = {"DATABASE_URL": f"sqlite:///{db_path}", "AUTO_MIGRATE": False, **overrides}
    return type("CaseConfig", (TestConfig,), attrs)


@pytest.fixture
def db_path(template_db: Path, tmp_path: Path) -> Path:
    path = tmp_path / "gobang.sqlite3"
    shutil.copy(template_db, path)
    return path


@pytest.fixture
def base_overrides() -> dict[str, object]:
    """Settings a whole folder of tests shares (the socket tests' fake clock)."""
    return {}


@pytest.fixture
def app_overrides() -> dict[str, object]:
    """Parametrize this to change settings for one test."""
    return {}


@pytest.fixture
def app(
    db_path: Path, base_overrides: dict[str, object], app_overrides: dict[str, object]
) -> Iterator[Flask]:
    app = create_app(make_config(db_path, **base_overrides, **app_overrides))
    yield app
    with app.app_context():
        from gobang.extensions import db

        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
