"""An arena in a live server's database, as `flask tournament create` stores one."""

from __future__ import annotations

from sqlalchemy import create_engine, text

from gobang.models import utcnow


def running_arena(database_url: str, name: str = "Live arena") -> int:
    """Already started (the server's tick starts a scheduled one at its time, which
    tests/services/test_arenas.py checks): 60 minutes of freestyle at 5+0, rated."""
    engine = create_engine(database_url)
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO tournaments (kind, name, ruleset, clock_initial, clock_increment,"
            " opening, rated, starts_at, minutes, min_players, status, created_by, created_at)"
            " VALUES ('arena', :name, 'freestyle', 300, 0, 'none', true, :now, 60, 2,"
            " 'running', 'host', :now)"), {"now": utcnow(), "name": name})
        found = connection.execute(text("SELECT MAX(id) FROM tournaments")).scalar_one()
    engine.dispose()
    return found
