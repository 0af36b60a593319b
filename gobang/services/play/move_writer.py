"""The one database write on every move, kept as cheap as the database allows.

A move is an INSERT into `moves` and, with clocks, an UPDATE of the game's clock columns, in
one transaction that commits before anyone is told of the move. Through SQLAlchemy's
Connection each statement went through the compiled cache, parameter processing and result
set-up: two thirds of the time of the whole write and a fifth of the server's CPU per move
under closed-loop load (docs/performance.md). Here both statements are compiled once for the
engine's dialect and run on the DBAPI connection itself, with the column types' own
conversions (SQLite stores datetimes as text), so the SQL is exactly what SQLAlchemy would
have sent. The clocks' `turn_started_at` is the move's own time, bound once for both.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from operator import itemgetter
from typing import Any

from sqlalchemy import Engine, bindparam, insert, update
from sqlalchemy import event as db_events
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.sql.expression import Executable

from gobang.models import Game, Move

MOVE_COLUMNS = ("game_id", "number", "row", "col", "color", "created_at")
CLOCK_COLUMNS = ("black_ms", "white_ms")
_GAMES = Game.__table__
_INSERT_MOVE = insert(Move.__table__)
# Bound by the move's own names: one set of values (one datetime conversion) serves both.
_SAVE_CLOCKS = update(_GAMES).where(_GAMES.c.id == bindparam("game_id")).values(
    black_ms=bindparam("black_ms"), white_ms=bindparam("white_ms"),
    turn_started_at=bindparam("created_at"))


class Prepared:
    """A statement compiled for one dialect, its values' conversions, and how to hand it
    converted values in that DBAPI's parameter style."""

    def __init__(self, statement: Executable, dialect: Dialect, columns: Iterable[str]) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=list(columns))
        self.sql = str(compiled)
        self.conversions: dict[str, Callable[[Any], Any]] = {}
        for name, bind in compiled.binds.items():
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                self.conversions[name] = process
        order = list(compiled.positiontup or ()) if compiled.positional else None
        self._pick = _picker(order) if order else None

    def parameters(self, converted: dict[str, Any]) -> Any:
        return converted if self._pick is None else self._pick(converted)


def _picker(order: list[str]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    pick = itemgetter(*order)
    return pick if len(order) > 1 else lambda values: (pick(values),)


class MoveWriter:
    """Keeps one connection for moves. The lock keeps one transaction at a time on it, should
    the driver yield to another green thread mid-way (psycopg does; a SQLite write that
    waits for the database's lock does too)."""

    def __init__(self, engine: Callable[[], Engine]) -> None:
        self._engine = engine
        self._lock = threading.Lock()
        self._raw: Any = None
        self._prepared: tuple[Prepared, Prepared, dict[str, Callable[[Any], Any]]] | None = None

    def write(self, move: Mapping[str, Any], clocks: tuple[int, int] | None) -> None:
        """`move` has the MOVE_COLUMNS; `clocks`, when the game has them, is (black_ms,
        white_ms) as of this move, stored with the move's time as the turn's start."""
        with self._lock:
            raw = self._connection()
            insert_move, save_clocks, conversions = self._statements()
            values = dict(move)
            if clocks is not None:
                values["black_ms"], values["white_ms"] = clocks
            for name, convert in conversions.items():
                values[name] = convert(values[name])
            statements = [(insert_move.sql, insert_move.parameters(values))]
            if clocks is not None:
                statements.append((save_clocks.sql, save_clocks.parameters(values)))
            try:
                _atomically(raw.dbapi_connection, _executing(statements))
            except BaseException:
                # Rolled back by closing: the next move starts on a fresh connection.
                self._raw = None
                raw.invalidate()
                raise

    def _statements(self) -> tuple[Prepared, Prepared, dict[str, Callable[[Any], Any]]]:
        if self._prepared is None:
            dialect = self._engine().dialect
            insert_move = Prepared(_INSERT_MOVE, dialect, MOVE_COLUMNS)
            save_clocks = Prepared(_SAVE_CLOCKS, dialect, CLOCK_COLUMNS)
            conversions = {**insert_move.conversions, **save_clocks.conversions}
            self._prepared = (insert_move, save_clocks, conversions)
        return self._prepared

    def _connection(self) -> Any:
        if self._raw is None or not self._raw.is_valid:
            engine = self._engine()
            if not db_events.contains(engine, "engine_disposed", self._close):
                # A checked-out connection outlives engine.dispose() (as tests call it): close
                # it then, not whenever it is garbage-collected (psycopg warns about that).
                db_events.listen(engine, "engine_disposed", self._close)
            self._raw = engine.raw_connection()
        return self._raw

    def _close(self, _engine: Engine) -> None:
        raw, self._raw = self._raw, None
        if raw is not None and raw.is_valid:
            raw.invalidate()


def _atomically(connection: Any, work: Callable[[Any], None]) -> None:
    """`work(connection)`, through the connection's `atomically` when it has one: app.py's
    SQLite wrapper (gobang/database.py) then runs the whole transaction in one hop instead of
    one per DBAPI call, and retries all of it should the database be locked."""
    atomically = getattr(connection, "atomically", None)
    if atomically is None:
        work(connection)
    else:
        atomically(work)


def _executing(statements: list[tuple[str, Any]]) -> Callable[[Any], None]:
    """The whole transaction as one function of the DBAPI connection, so that a wrapped
    connection runs it in one call rather than one per statement."""

    def run(connection: Any) -> None:
        cursor = connection.cursor()
        try:
            for sql, parameters in statements:
                cursor.execute(sql, parameters)
        finally:
            cursor.close()
        connection.commit()

    return run
