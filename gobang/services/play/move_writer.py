"""The one database write on every move, kept as cheap as the database allows.

A move is an INSERT into `moves` and, with clocks, an UPDATE of the game's clock columns, in
one transaction that commits before anyone is told of the move. Through SQLAlchemy's
Connection each statement went through the compiled cache, parameter processing and result
set-up: two thirds of the time of the whole write and a fifth of the server's CPU per move
under closed-loop load (docs/performance.md). Here both statements are compiled once for the
engine's dialect and run on the DBAPI connection itself, with the column types' own
conversions (SQLite stores datetimes as text), so the SQL is exactly what SQLAlchemy would
have sent. The clocks' `turn_started_at` is the move's own time, bound once for both.

On PostgreSQL the two statements are one: the INSERT inside a WITH of the UPDATE, on a
connection in autocommit, so the statement is its own transaction, committed when it returns.
BEGIN, INSERT, UPDATE and COMMIT were four round trips, each a green select through eventlet's
hub; they were a third of a cluster process's time per move, and one round trip costs about a
third of the four's CPU (docs/performance.md, "Where a cluster process's time per move goes").
The unique (game, number) still refuses a second move of the same number, and then nothing of
the statement is written. SQLite cannot put an INSERT in a WITH: it keeps the transaction.
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
# Both in one statement, for the dialects in ONE_STATEMENT_DIALECTS.
_MOVE_AND_CLOCKS = _SAVE_CLOCKS.add_cte(
    insert(Move.__table__).values({name: bindparam(name) for name in MOVE_COLUMNS})
    .cte("new_move"))
# Runs an INSERT inside a WITH, however the WITH is used, as part of the one statement.
ONE_STATEMENT_DIALECTS = frozenset({"postgresql"})


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


class Statements:
    """How one dialect writes a move: `for_move` gives the statements of one move's
    transaction, and `commits` says whether it ends with a COMMIT or each statement commits
    itself (autocommit)."""

    def __init__(self, dialect: Dialect) -> None:
        self.insert_move = Prepared(_INSERT_MOVE, dialect, MOVE_COLUMNS)
        self.save_clocks = Prepared(_SAVE_CLOCKS, dialect, CLOCK_COLUMNS)
        self.combined = (Prepared(_MOVE_AND_CLOCKS, dialect, ())
                         if dialect.name in ONE_STATEMENT_DIALECTS else None)
        self.commits = self.combined is None
        self.conversions = {**self.insert_move.conversions, **self.save_clocks.conversions,
                            **(self.combined.conversions if self.combined else {})}

    def for_move(self, values: dict[str, Any], clocks: bool) -> list[tuple[str, Any]]:
        if not clocks:
            return [(self.insert_move.sql, self.insert_move.parameters(values))]
        if self.combined is not None:
            return [(self.combined.sql, self.combined.parameters(values))]
        return [(self.insert_move.sql, self.insert_move.parameters(values)),
                (self.save_clocks.sql, self.save_clocks.parameters(values))]


class MoveWriter:
    """Keeps one connection for moves. The lock keeps one transaction at a time on it, should
    the driver yield to another green thread mid-way (psycopg does; a SQLite write that
    waits for the database's lock does too)."""

    def __init__(self, engine: Callable[[], Engine]) -> None:
        self._engine = engine
        self._lock = threading.Lock()
        self._raw: Any = None
        self._prepared: Statements | None = None

    def write(self, move: Mapping[str, Any], clocks: tuple[int, int] | None) -> None:
        """`move` has the MOVE_COLUMNS; `clocks`, when the game has them, is (black_ms,
        white_ms) as of this move, stored with the move's time as the turn's start."""
        with self._lock:
            statements = self._statements()
            raw = self._connection(statements)
            values = dict(move)
            if clocks is not None:
                values["black_ms"], values["white_ms"] = clocks
            for name, convert in statements.conversions.items():
                values[name] = convert(values[name])
            work = _executing(statements.for_move(values, clocks is not None),
                              commit=statements.commits)
            try:
                _atomically(raw.dbapi_connection, work)
            except BaseException:
                # Rolled back by closing: the next move starts on a fresh connection.
                self._raw = None
                raw.invalidate()
                raise

    def _statements(self) -> Statements:
        if self._prepared is None:
            self._prepared = Statements(self._engine().dialect)
        return self._prepared

    def _connection(self, statements: Statements) -> Any:
        if self._raw is None or not self._raw.is_valid:
            engine = self._engine()
            if not db_events.contains(engine, "engine_disposed", self._close):
                # A checked-out connection outlives engine.dispose() (as tests call it): close
                # it then, not whenever it is garbage-collected (psycopg warns about that).
                db_events.listen(engine, "engine_disposed", self._close)
            raw = engine.raw_connection()
            if not statements.commits:
                # The connection is this writer's until it is invalidated, never back in the
                # pool, so autocommit stays on it alone. Rolled back first: a driver refuses
                # to change autocommit inside a transaction (no round trip when there is none).
                raw.dbapi_connection.rollback()
                raw.dbapi_connection.autocommit = True
            self._raw = raw
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


def _executing(statements: list[tuple[str, Any]], commit: bool) -> Callable[[Any], None]:
    """The whole transaction as one function of the DBAPI connection, so that a wrapped
    connection runs it in one call rather than one per statement. Without `commit` the
    connection is in autocommit and each statement has committed when it returns."""

    def run(connection: Any) -> None:
        cursor = connection.cursor()
        try:
            for sql, parameters in statements:
                cursor.execute(sql, parameters)
        finally:
            cursor.close()
        if commit:
            connection.commit()

    return run
