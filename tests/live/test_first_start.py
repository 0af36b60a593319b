"""A first install: the server started on an empty database builds its schema by the
migrations and serves (the other live tests start on a copy of the migrated template)."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, inspect
from sqlalchemy.pool import NullPool

from tests.support.live import LiveServer, show_log_on_failure

pytestmark = [pytest.mark.live]


def test_a_server_started_on_an_empty_database_builds_its_schema_and_serves(
        tmp_path, databases, request):
    database_url = databases.empty(tmp_path)
    server = LiveServer(tmp_path, {}, database_url)
    show_log_on_failure(request.node, server)
    server.start()
    try:
        http = server.user("first")
        assert http.get(server.url + "/api/me", timeout=5).json()["username"] == "first"
    finally:
        server.stop()
    engine = create_engine(database_url, poolclass=NullPool)
    try:
        assert {"users", "games", "moves", "alembic_version"} <= set(
            inspect(engine).get_table_names())
    finally:
        engine.dispose()
        databases.drop(database_url)
