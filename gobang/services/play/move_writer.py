"""The one database write on every move, kept as cheap as the database allows.

A move is an INSERT into `moves` and, with clocks, an UPDATE of the game's clock columns, in
one transaction that commits before anyone is told of the move. Through SQLAlchemy's
Connection each statement went through the compiled cache, parameter processing and result
set-up: two thirds of the time of the whole write and a fifth of the server's CPU per move
under closed-loop load (docs/performance.md). Here both statements are compiled once for the
engine's dialect and run on a DBAPI cursor, with the column types' own conversions (SQLite
stores datetimes as text), so the SQL is exactly what SQLAlchemy would have sent.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from sqlalchemy import Engine, bindparam, insert, update
from sqlalchemy import event as db_events
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.sql.expression import Executable

from gobang.models import Game, Move

MOVE_COLUMNS = ("game_id", "number", "row", "col", "color", "created_at")
CLOCK_COLUMNS = ("black_ms", "white_ms", "turn_started_at")
_INSERT_MOVE = insert(Move.__table__)
_SAVE_CLOCKS = update(Game.__table__).where(Game.__table__.c.id == bindparam("game"))


class Prepared:
    """A statement compiled for one dialect, and how to hand it values in that DBAPI's
    parameter style."""

    def __init__(self, statement: Executable, dialect: Dialect, columns: Iterable[str]) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=list(columns))
        self.sql = str(compiled)
        self._order = list(compiled.positiontup or ()) if compiled.positional else None
        self._convert: dict[str, Callable[[Any], Any]] = {}
        for name, bind in compiled.binds.items():
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                self._convert[name] = process

    def parameters(self, values: Mapping[str, Any]) -> list[Any] | dict[str, Any]:
        converted = {name: self._convert[name](value) if name in self._convert else value
                     for name, value in values.items()}
        if self._order is None:
            return converted
        return [converted[name] for name in self._order]


class MoveWriter:
    """Keeps one connection for moves. The lock keeps one transaction at a time on it, should
    the driver yield to another green thread mid-way (psycopg does)."""

    def __init__(self, engine: Callable[[], Engine]) -> None:
        self._engine = engine
        self._lock = threading.Lock()
        self._raw: Any = None
        self._prepared: tuple[Prepared, Prepared] | None = None

    def write(self, move: Mapping[str, Any], clocks: Mapping[str, Any] | None) -> None:
        with self._lock:
            raw = self._connection()
            insert_move, save_clocks = self._statements()
            cursor = raw.cursor()
            try:
                cursor.execute(insert_move.sql, insert_move.parameters(move))
                if clocks is not None:
                    cursor.execute(save_clocks.sql, save_clocks.parameters(clocks))
                raw.commit()
            except BaseException:
                # Rolled back by closing: the next move starts on a fresh connection.
                self._raw = None
                raw.invalidate()
                raise
            cursor.close()

    def _statements(self) -> tuple[Prepared, Prepared]:
        if self._prepared is None:
            dialect = self._engine().dialect
            self._prepared = (Prepared(_INSERT_MOVE, dialect, MOVE_COLUMNS),
                              Prepared(_SAVE_CLOCKS, dialect, CLOCK_COLUMNS))
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
