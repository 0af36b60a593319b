"""Finished games written straight into the database, for the HTTP tests of profiles and
records. Results go through `save_result`, so scores and counters are the real ones."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from flask import Flask
from sqlalchemy import select

from gobang.extensions import db
from gobang.models import DELETED_NAME, Game, Move, User, username_key, utcnow
from gobang.rules import Game as RulesGame
from gobang.services.play.results import Ending, save_result

# Black makes five along row 7 (h8 is (7, 7)); white answers on row 0.
BLACK_FIVE = [(7, 3), (0, 0), (7, 4), (0, 1), (7, 5), (0, 2), (7, 6), (0, 3), (7, 7)]
BLACK_LINE = [[7, 3], [7, 4], [7, 5], [7, 6], [7, 7]]


def add_user(app: Flask, name: str, **columns: object) -> int:
    with app.app_context():
        user = User(username=name, username_key=username_key(name), password_hash="x", **columns)
        db.session.add(user)
        db.session.commit()
        return user.id


def user_id(app: Flask, name: str) -> int:
    with app.app_context():
        return db.session.scalar(select(User.id).where(User.username_key == username_key(name)))


def set_columns(app: Flask, name: str, **columns: object) -> None:
    with app.app_context():
        user = db.session.get(User, user_id(app, name))
        for key, value in columns.items():
            setattr(user, key, value)
        db.session.commit()


def delete_user(app: Flask, name: str) -> None:
    """What AccountService.delete does to the row, without the password check."""
    with app.app_context():
        user = db.session.get(User, user_id(app, name))
        user.username, user.username_key, user.password_hash = DELETED_NAME, None, ""
        user.deleted = True
        db.session.commit()


def start_game(
    app: Flask, black_id: int, white_id: int, moves: Sequence[tuple[int, int]] = (),
    ruleset: str = "freestyle", status: str = "playing", rated: bool = True,
    clock: tuple[int, int] | None = None,
) -> int:
    """A game in play (or `status`) with `moves` made a second apart; `rated` False: casual;
    `clock` its time control, (initial, increment) seconds (None: no clock)."""
    with app.app_context():
        started = utcnow() - timedelta(seconds=len(moves) + 1)
        game = Game(black_id=black_id, white_id=white_id, status=status, ruleset=ruleset,
                    started_at=started, rated=rated)
        if clock is not None:
            game.clock_initial_ms, game.clock_increment_ms = clock[0] * 1000, clock[1] * 1000
        db.session.add(game)
        db.session.flush()
        for number, (row, col) in enumerate(moves, start=1):
            db.session.add(Move(game_id=game.id, number=number, row=row, col=col,
                                color=RulesGame.color_of_move(number - 1),
                                created_at=started + timedelta(seconds=number)))
        db.session.commit()
        return game.id


def finish_game(
    app: Flask, black_id: int, white_id: int, winner: str | None = "black",
    reason: str = "five", moves: Sequence[tuple[int, int]] | None = None,
    abort: dict[str, object] | None = None, **kw: object,
) -> int:
    """`abort`: an aborted game's cause, as the Result's `abort` (docs/protocol.md)."""
    if moves is None:
        moves = BLACK_FIVE if (winner, reason) == ("black", "five") else BLACK_FIVE[:4]
    line = BLACK_LINE if (winner, reason) == ("black", "five") else None
    game_id = start_game(app, black_id, white_id, moves, **kw)
    with app.app_context():
        ending = Ending(winner, reason, line, abort)
        assert save_result(game_id, black_id, white_id, ending, 60, None,
                           rated=bool(kw.get("rated", True)))
    return game_id
