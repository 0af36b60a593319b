"""The move writer stores exactly what the ORM would, and a failed write leaves nothing."""

from __future__ import annotations

from datetime import datetime

import pytest

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
