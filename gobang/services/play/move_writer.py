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

Moves that arrive while a write is on the connection wait, and the next write takes them all
(group commit): one round trip and one commit for the lot. The connection does one write at a
time, so under load a process's moves queued behind each other's round trips: 1,000 games
over 2 processes delivered 874 of 1,000 moves a second with the processes' CPU half used,
a move's answer 0.7 s late at the median (docs/performance.md). A batch that the database
refuses is written again a move at a time, so only the move at fault is refused.
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
# Several moves in one statement on PostgreSQL: their values as arrays, one per column, so
# the statement is the same for any number of moves. Clocks of NULL are a game without them.
_MANY_MOVES = """
WITH data AS (
  SELECT * FROM unnest(%(game_id)s::integer[], %(number)s::integer[], %(row)s::integer[],
                       %(col)s::integer[], %(color)s::varchar[], %(created_at)s::timestamp[],
                       %(black_ms)s::integer[], %(white_ms)s::integer[])
    AS moved(game_id, number, "row", col, color, created_at, black_ms, white_ms)),
new_moves AS (
  INSERT INTO moves (game_id, number, "row", col, color, created_at)
  SELECT game_id, number, "row", col, color, created_at FROM data)
UPDATE games SET black_ms = data.black_ms, white_ms = data.white_ms,
                 turn_started_at = data.created_at
FROM data WHERE games.id = data.game_id AND data.black_ms IS NOT NULL
"""


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

    def for_moves(self, moves: list[tuple[dict[str, Any], bool]]) -> list[tuple[str, Any]]:
        """The statements of one transaction that writes all of `moves` (values, clocks)."""
        if len(moves) == 1:
            return self.for_move(*moves[0])
        if self.combined is not None:
            columns = (*MOVE_COLUMNS, *CLOCK_COLUMNS)
            return [(_MANY_MOVES, {name: [values.get(name) for values, _ in moves]
                                   for name in columns})]
        return [statement for values, clocks in moves
                for statement in self.for_move(values, clocks)]


class _Waiting:
    """A move waiting for its write: done, or refused with `error`."""

    __slots__ = ("clocks", "done", "error", "values")

    def __init__(self, values: dict[str, Any], clocks: bool) -> None:
        self.values = values
        self.clocks = clocks
        self.done = False
        self.error: BaseException | None = None


class MoveWriter:
    """Keeps one connection for moves. The lock keeps one transaction at a time on it, should
    the driver yield to another green thread mid-way (psycopg does; a SQLite write that
    waits for the database's lock does too); the moves that wait for it go in one batch."""

    def __init__(self, engine: Callable[[], Engine], lock: Any = None) -> None:
        self._engine = engine
        self._lock = lock or threading.Lock()
        self._queue_lock = threading.Lock()
        self._raw: Any = None
        self._prepared: Statements | None = None
        self._waiting: list[_Waiting] = []

    def write(self, move: Mapping[str, Any], clocks: tuple[int, int] | None) -> None:
        """`move` has the MOVE_COLUMNS; `clocks`, when the game has them, is (black_ms,
        white_ms) as of this move, stored with the move's time as the turn's start. Returns
        once the move is committed, perhaps by another caller's write that took it along."""
        values = dict(move)
        if clocks is not None:
            values["black_ms"], values["white_ms"] = clocks
        # Converted once, here: a refused batch writes the same values again a move at a time.
        for name, convert in self._statements().conversions.items():
            if name in values:
                values[name] = convert(values[name])
        mine = _Waiting(values, clocks is not None)
        # Native threads (`flask run`) may switch between reading the list and appending to
        # it: the queue has a lock of its own, never held across I/O.
        with self._queue_lock:
            self._waiting.append(mine)
        with self._lock:
            if not mine.done and mine.error is None:
                with self._queue_lock:
                    batch, self._waiting = self._waiting, []
                self._write(batch)
        if mine.error is not None:
            raise mine.error

    def queued(self) -> int:
        """Moves waiting for the connection."""
        return len(self._waiting)

    def _write(self, batch: list[_Waiting]) -> None:
        """Every move of `batch` ends done or with its error, whatever happens here."""
        try:
            self._transaction(batch)
        except Exception as error:
            if len(batch) == 1:
                batch[0].error = error
            else:
                # Which move the database refused (a second move of the same number, from a
                # process that lost its game) is learnt by writing each alone.
                for waiting in batch:
                    self._write([waiting])
        else:
            for waiting in batch:
                waiting.done = True
        finally:
            for waiting in batch:
                if not waiting.done and waiting.error is None:
                    # This caller was stopped mid-way (its green thread killed): the moves it
                    # took along are not known to be saved; their players are told to retry.
                    waiting.error = RuntimeError("the write that took this move along stopped")

    def _transaction(self, batch: list[_Waiting]) -> None:
        statements = self._statements()
        raw = self._connection(statements)
        moves = [(waiting.values, waiting.clocks) for waiting in batch]
        work = _executing(statements.for_moves(moves), commit=statements.commits)
        try:
            _atomically(raw.dbapi_connection, work)
        except BaseException:
            # Rolled back by closing: the next write starts on a fresh connection.
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
    """`work(connection)`, through the connection's `atomically` when it has one: the server's
    SQLite wrapper (gobang/transport/offload.py, installed by gobang/database.py) then runs the
    whole transaction in one hop instead of one per DBAPI call, and retries all of it should
    the database be locked."""
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
