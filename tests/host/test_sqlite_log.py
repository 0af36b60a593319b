"""How long SQLite's write-ahead log grows before a commit copies it into the database."""

from __future__ import annotations

import pytest

from gobang import create_app
from tests.conftest import make_config


def autocheckpoint(app) -> int:
    with app.app_context():
        from gobang.extensions import db

        with db.engine.connect() as connection:
            pages = connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
        db.engine.dispose()
    return pages


@pytest.fixture
def sqlite_url(database_url: str) -> str:
    if not database_url.startswith("sqlite:///"):
        pytest.skip("SQLite's log")
    return database_url


@pytest.mark.parametrize(("overrides", "pages"), [
    ({}, 10_000),
    ({"SQLITE_CHECKPOINT_PAGES": 2_500}, 2_500),
    ({"SQLITE_CHECKPOINT_PAGES": 1}, 1),
])
def test_every_connection_checkpoints_at_the_configured_size(sqlite_url, overrides, pages):
    assert autocheckpoint(create_app(make_config(sqlite_url, **overrides))) == pages


@pytest.mark.parametrize("pages", [0, -5])
def test_a_size_that_would_turn_checkpoints_off_is_refused(sqlite_url, pages):
    with pytest.raises(ValueError, match="SQLITE_CHECKPOINT_PAGES must be at least 1"):
        create_app(make_config(sqlite_url, SQLITE_CHECKPOINT_PAGES=pages))
