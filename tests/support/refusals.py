"""A database that refuses to finish games, as a full disk would: a trigger that raises on an
UPDATE of `games` setting `status` to finished, on SQLite or PostgreSQL, and its removal.
Everything else (moves, clocks, new games) is still written."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.pool import NullPool

_CREATE = {
    "sqlite": ["""
        CREATE TRIGGER refuse_results BEFORE UPDATE OF status ON games
        WHEN NEW.status = 'finished'
        BEGIN SELECT RAISE(ABORT, 'could not extend file: no space left on device'); END
    """],
    "postgresql": ["""
        CREATE FUNCTION refuse_results() RETURNS trigger AS $$
        BEGIN RAISE EXCEPTION 'could not extend file: no space left on device'; END
        $$ LANGUAGE plpgsql
    """, """
        CREATE TRIGGER refuse_results BEFORE UPDATE ON games FOR EACH ROW
        WHEN (NEW.status = 'finished') EXECUTE FUNCTION refuse_results()
    """],
}
_DROP = {
    "sqlite": ["DROP TRIGGER refuse_results"],
    "postgresql": ["DROP TRIGGER refuse_results ON games", "DROP FUNCTION refuse_results()"],
}


def _run(engine: Engine, statements: list[str]) -> None:
    with engine.begin() as connection:
        for sql in statements:
            connection.execute(text(sql))


def refuse_results(engine: Engine) -> None:
    _run(engine, _CREATE[engine.dialect.name])


def accept_results(engine: Engine) -> None:
    _run(engine, _DROP[engine.dialect.name])


@contextmanager
def results_refused(database_url: str) -> Iterator[None]:
    """While inside, the database at `database_url` refuses every game's result."""
    engine = create_engine(database_url, poolclass=NullPool)
    refuse_results(engine)
    try:
        yield
    finally:
        accept_results(engine)
        engine.dispose()
