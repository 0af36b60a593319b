"""An arena or a Swiss event in a live server's database, as `flask tournament create` stores
one."""

from __future__ import annotations

from datetime import timedelta

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


def scheduled_swiss(database_url: str, rounds: int, name: str = "Live Swiss") -> int:
    """A Swiss event of freestyle at 5+0, rated, scheduled a day ahead: players join it, and
    `start_now` brings its time (the server's tick then starts it and pairs round 1)."""
    engine = create_engine(database_url)
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO tournaments (kind, name, ruleset, clock_initial, clock_increment,"
            " opening, rated, starts_at, minutes, rounds, min_players, status, created_by,"
            " created_at) VALUES ('swiss', :name, 'freestyle', 300, 0, 'none', true,"
            " :later, NULL, :rounds, 2, 'scheduled', 'host', :now)"),
            {"now": utcnow(), "later": utcnow() + timedelta(days=1), "name": name,
             "rounds": rounds})
        found = connection.execute(text("SELECT MAX(id) FROM tournaments")).scalar_one()
    engine.dispose()
    return found


def start_now(database_url: str, tournament_id: int) -> None:
    engine = create_engine(database_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE tournaments SET starts_at = :now WHERE id = :id"),
                           {"now": utcnow(), "id": tournament_id})
    engine.dispose()


def count(database_url: str, query: str, **params: object) -> int:
    """One number from the live server's database (a test's check of what it stored)."""
    engine = create_engine(database_url)
    with engine.connect() as connection:
        found = connection.execute(text(query), params).scalar_one()
    engine.dispose()
    return found
