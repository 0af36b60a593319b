"""A position on the analysis board: a ruleset and a move list, checked by the rules.

Pure but for `finished_game`, which reads a stored game. The views hand over the query's
text as it came and get back what the JSON answer holds, or an ActionError whose message
says what is wrong; nothing is half done.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from gobang.extensions import db
from gobang.models import Game as StoredGame
from gobang.rules import (
    BLACK,
    RULESETS,
    SIZE,
    ForbiddenMove,
    Game,
    GameOver,
    IllegalMove,
    Occupied,
    UnknownRuleset,
    from_notation,
    ruleset_named,
    to_notation,
)
from gobang.services.history.record_files import psq_text
from gobang.services.notices import ActionError

DEFAULT_RULESET = "standard"
Point = tuple[int, int]
# "h8": three characters at most, and a comma between points.
_MOST_TEXT = SIZE * SIZE * 4
_WHOLE_NUMBER = re.compile(r"[0-9]{1,4}")


@dataclass(frozen=True)
class Position:
    """A legal position: the moves, black first, and what the rules say of it."""

    ruleset: str
    moves: tuple[Point, ...]
    to_move: str | None
    winner: str | None
    line: tuple[Point, ...] | None
    forbidden: tuple[Point, ...]

    @property
    def over(self) -> bool:
        return self.to_move is None

    def as_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "moves": [list(m) for m in self.moves],
                "to_move": self.to_move, "winner": self.winner,
                "line": [list(p) for p in self.line] if self.line is not None else None,
                "forbidden": [list(p) for p in self.forbidden]}

    def notation(self) -> str:
        """The moves as the page's address carries them: `h8,i9,j10`."""
        return ",".join(to_notation(row, col) for row, col in self.moves)


def bad_request(message: str) -> ActionError:
    return ActionError("bad_request", message)


def checked_ruleset(name: str | None) -> str:
    """`name`, or the default when none is given; `bad_request` for a ruleset not played."""
    if name is None or name == "":
        return DEFAULT_RULESET
    try:
        return ruleset_named(name).name
    except UnknownRuleset:
        raise bad_request(gettext("Unknown ruleset: choose one of %(names)s.",
                                  names=", ".join(RULESETS))) from None


def parse_moves(text: str | None) -> list[Point]:
    """`h8,i9,j10` as (row, col) points; none or empty is the empty board. `bad_request`
    names the first point that is not one."""
    if not text:
        return []
    if len(text) > _MOST_TEXT or text.count(",") >= SIZE * SIZE:
        raise bad_request(gettext("Too many moves for one board."))
    points = []
    for word in text.split(","):
        try:
            points.append(from_notation(word.strip()))
        except ValueError:
            raise bad_request(gettext(
                "“%(word)s” is not a point: use a column a–o and a row 1–15, as h8.",
                word=word.strip()[:8])) from None
    return points


def position(ruleset: str, moves: Sequence[Point]) -> Position:
    """The position after `moves` under `ruleset` (a known name); `bad_request` says which
    move the rules refuse and why: an occupied point, a forbidden point, a move after the
    game ended."""
    game = Game(ruleset)
    for number, (row, col) in enumerate(moves, start=1):
        try:
            game.place(row, col)
        except GameOver:
            raise bad_request(gettext(
                "Move %(n)s (%(point)s) comes after the game was won.",
                n=number, point=to_notation(row, col))) from None
        except Occupied:
            raise bad_request(gettext(
                "Move %(n)s (%(point)s) is on a point already taken.",
                n=number, point=to_notation(row, col))) from None
        except ForbiddenMove:
            raise bad_request(gettext(
                "Move %(n)s (%(point)s) is forbidden for black.",
                n=number, point=to_notation(row, col))) from None
        except IllegalMove:
            raise bad_request(gettext("Move %(n)s is not a point on the board.",
                                      n=number)) from None
    outcome = game.outcome
    return Position(
        ruleset=game.ruleset, moves=tuple(game.moves), to_move=game.to_move,
        winner=outcome.winner if outcome is not None else None,
        line=tuple(tuple(p) for p in outcome.line) if outcome and outcome.line else None,
        forbidden=tuple(_forbidden_points(game)))


def position_from_query(ruleset: str | None, moves: str | None) -> Position:
    return position(checked_ruleset(ruleset), parse_moves(moves))


def _forbidden_points(game: Game) -> list[Point]:
    """Black's forbidden points when black is to move under a ruleset that has them. Every
    empty point is asked: a point far from black stones is answered at once, and the whole
    board costs a few milliseconds (docs/engines.md, "Analysis board")."""
    rules = ruleset_named(game.ruleset)
    if game.to_move != BLACK or not rules.forbids(BLACK) or not game.moves:
        return []
    board = game.board
    return [(row, col) for row in range(SIZE) for col in range(SIZE)
            if board.is_empty(row, col)
            and rules.forbidden_kind(board, row, col, BLACK) is not None]


def line_psq(found: Position) -> str:
    """The position's moves as a Piskvork file (no players, no times): history's writer."""
    return psq_text(found.moves, [0] * len(found.moves), "black", "white")


def finished_game(game_id: int, move: str | None) -> Position:
    """The position after the first `move` moves of a stored game (all of them when none).
    `not_found` for no such game; `conflict` for a game still in play, whose position would
    tell a spectator more than the room does; `bad_request` for a move it does not have."""
    game = db.session.get(StoredGame, game_id)
    if game is None:
        raise ActionError("not_found", gettext("There is no such game."))
    if game.status != "finished":
        raise ActionError("conflict", gettext(
            "This game is still being played: it opens on the analysis board once it has "
            "ended."))
    moves = [(m.row, m.col) for m in game.moves]
    shown = len(moves)
    if move is not None:
        if not _WHOLE_NUMBER.fullmatch(move) or int(move) > len(moves):
            raise bad_request(gettext("The move must be a whole number from 0 to %(total)s.",
                                      total=len(moves)))
        shown = int(move)
    return position(game.ruleset, moves[:shown])
