"""The move writer stores exactly what the ORM would, and a failed write leaves nothing."""

from __future__ import annotations

import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event as db_events

from gobang.extensions import db
from gobang.models import Game, Move
from gobang.services.play.move_writer import MoveWriter
from tests.support.games import add_user, start_game

WHEN = datetime(2026, 11, 29, 16, 5, 7, 123456)


@pytest.fixture
def game_id(app):
    return start_game(app, add_user(app, "bo"), add_user(app, "wu"))


@pytest.fixture
def write(app):
    with app.app_context():
        writer = MoveWriter(lambda: db.engine)

        def run(game_id: int, number: int, clocks: bool = True) -> None:
            move = {"game_id": game_id, "number": number, "row": 7, "col": number,
                    "color": "black" if number % 2 else "white", "created_at": WHEN}
            writer.write(move, (1000 - number, 2000 - number) if clocks else None)

        yield run


def stored(app, game_id: int) -> tuple[list[tuple], tuple]:
    with app.app_context():
        moves = db.session.query(Move).filter_by(game_id=game_id).order_by(Move.number).all()
        game = db.session.get(Game, game_id)
        return ([(m.number, m.row, m.col, m.color, m.created_at) for m in moves],
                (game.black_ms, game.white_ms, game.turn_started_at))


def test_a_move_and_the_clocks_read_back_through_the_orm(app, game_id, write):
    write(game_id, 1)
    assert stored(app, game_id) == ([(1, 7, 1, "black", WHEN)], (999, 1999, WHEN))


def test_without_clocks_only_the_move_is_written(app, game_id, write):
    write(game_id, 1, clocks=False)
    moves, clocks = stored(app, game_id)
    assert len(moves) == 1
    assert clocks[2] is None


def test_a_refused_write_leaves_nothing_and_the_next_one_works(app, game_id, write):
    write(game_id, 1)
    with app.app_context():
        refused = db.engine.dialect.loaded_dbapi.IntegrityError
    with pytest.raises(refused):
        write(game_id, 1)  # the same move number twice
    assert stored(app, game_id) == ([(1, 7, 1, "black", WHEN)], (999, 1999, WHEN))
    write(game_id, 2)
    assert [m[0] for m in stored(app, game_id)[0]] == [1, 2]


def _round_trips(trace: Path) -> int:
    """Each round trip ends with the server's ReadyForQuery (libpq's protocol trace)."""
    return sum("\tB\t" in line and "ReadyForQuery" in line
               for line in trace.read_text().splitlines())


@pytest.mark.parametrize("clocks", [True, False])
def test_on_postgresql_a_move_is_one_round_trip_and_committed(app, game_id, write, tmp_path,
                                                              clocks):
    with app.app_context():
        engine = db.engine
    if engine.dialect.name != "postgresql":
        pytest.skip("the one-statement write is PostgreSQL's (GOBANG_TEST_DATABASE_URL)")
    taken: list[Any] = []

    def checked_out(dbapi_connection: Any, *_: Any) -> None:
        taken.append(dbapi_connection)

    db_events.listen(engine, "checkout", checked_out)
    try:
        write(game_id, 1, clocks)  # the writer takes its connection
    finally:
        db_events.remove(engine, "checkout", checked_out)
    [connection] = taken
    trace = tmp_path / "libpq.trace"
    with trace.open("w") as out:
        connection.pgconn.trace(out.fileno())
        try:
            write(game_id, 2, clocks)
        finally:
            connection.pgconn.untrace()
    # BEGIN, INSERT, UPDATE and COMMIT were four; the move alone was three.
    assert _round_trips(trace) == 1
    # Committed when write returns: another connection reads it.
    moves, stored_clocks = stored(app, game_id)
    assert [m[0] for m in moves] == [1, 2]
    assert stored_clocks == ((998, 1998, WHEN) if clocks else stored_clocks[:2] + (None,))


@pytest.fixture
def games(app):
    return [start_game(app, add_user(app, f"b{i}"), add_user(app, f"w{i}")) for i in range(3)]


def _together(app, writes: list[tuple[int, int]]) -> list[BaseException | None]:
    """Each (game, number) written from a thread of its own while the connection is busy,
    then the connection freed: the moves go in one write. Each thread's error."""
    busy = threading.Lock()
    errors: list[BaseException | None] = [None] * len(writes)
    with app.app_context():
        writer = MoveWriter(lambda: db.engine, lock=busy)

    def run(index: int, game_id: int, number: int) -> None:
        with app.app_context():
            try:
                writer.write({"game_id": game_id, "number": number, "row": 7, "col": index,
                              "color": "black", "created_at": WHEN}, (900 + index, 800))
            except BaseException as error:  # noqa: BLE001 - each thread's outcome is asserted
                errors[index] = error

    threads = [threading.Thread(target=run, args=(i, *w)) for i, w in enumerate(writes)]
    with busy:
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 10
        while writer.queued() < len(writes) and time.monotonic() < deadline:
            time.sleep(0.005)
        assert writer.queued() == len(writes)
    for thread in threads:
        thread.join(10)
    return errors


def test_moves_waiting_for_the_connection_are_written_together(app, games):
    errors = _together(app, [(game_id, 1) for game_id in games])
    assert errors == [None, None, None]
    for index, game_id in enumerate(games):
        moves, clocks = stored(app, game_id)
        assert [m[:3] for m in moves] == [(1, 7, index)]
        assert clocks == (900 + index, 800, WHEN)


def test_a_refused_move_in_a_batch_is_refused_alone(app, games, write):
    write(games[0], 1)
    with app.app_context():
        refused = db.engine.dialect.loaded_dbapi.IntegrityError
    errors = _together(app, [(games[0], 1), (games[1], 1), (games[2], 1)])
    assert isinstance(errors[0], refused)
    assert errors[1:] == [None, None]
    assert [len(stored(app, game_id)[0]) for game_id in games] == [1, 1, 1]


def test_on_postgresql_moves_written_together_are_one_round_trip(app, games, tmp_path):
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("the one-statement write is PostgreSQL's (GOBANG_TEST_DATABASE_URL)")
    trace = tmp_path / "libpq.trace"
    tracing: list[tuple[Any, Any]] = []

    def trace_on_checkout(connection: Any, *_: Any) -> None:
        out = trace.open("w")
        tracing.append((connection, out))
        connection.pgconn.trace(out.fileno())

    with app.app_context():
        db_events.listen(db.engine, "checkout", trace_on_checkout)
    try:
        errors = _together(app, [(game_id, 1) for game_id in games])
    finally:
        with app.app_context():
            db_events.remove(db.engine, "checkout", trace_on_checkout)
        for connection, out in tracing:
            connection.pgconn.untrace()
            out.close()
    assert errors == [None, None, None]
    # The connection's set-up (a ROLLBACK to turn autocommit on costs none) and one write.
    assert _round_trips(trace) == 1


class Stopped(BaseException):
    """What a killed green thread raises where it waits (eventlet's GreenletExit)."""


class _StoppedMidWrite:
    """A pooled connection whose statements stop their caller, as a kill during the write."""

    is_valid = True

    def __init__(self, real: Any) -> None:
        self.real = real
        self.dbapi_connection = self

    def cursor(self) -> _StoppedMidWrite:
        return self

    def execute(self, *_: Any) -> None:
        raise Stopped

    def close(self) -> None:
        pass

    def rollback(self) -> None:
        pass

    def invalidate(self, *_: Any) -> None:
        self.real.invalidate()


def test_moves_taken_along_by_a_stopped_write_are_refused_not_lost(app, games, monkeypatch):
    with app.app_context():
        engine = db.engine
    real = engine.raw_connection
    monkeypatch.setattr(engine, "raw_connection", lambda: _StoppedMidWrite(real()))
    errors = _together(app, [(game_id, 1) for game_id in games])
    monkeypatch.undo()
    # The one whose write was stopped stops; the two it took along are told, not left waiting
    # or told their moves were saved.
    assert sorted(type(e).__name__ for e in errors) == ["RuntimeError", "RuntimeError", "Stopped"]
    assert [stored(app, game_id)[0] for game_id in games] == [[], [], []]
