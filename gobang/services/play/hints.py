"""Hints a player may ask for: renju's forbidden points for black, computed only on request."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from gobang.extensions import db
from gobang.models import Game
from gobang.rules import BLACK, SIZE, forbidden_kind, ruleset_named
from gobang.services.notices import ActionError
from gobang.services.play.live import LiveGame
from gobang.services.play.table import GameTable
from gobang.services.store import Recent
from gobang.vocabulary import Status

# One position per game is enough: the players and spectators ask about the same one.
RECENT_GAMES_KEPT = 2000


class Hints:
    def __init__(self, table: GameTable) -> None:
        self.table = table
        self._forbidden: Recent[int, tuple[tuple[tuple[int, int], ...], list[list[int]]]] = (
            Recent(RECENT_GAMES_KEPT))

    def forbidden_points(self, game_id: int) -> dict[str, Any]:
        """The points where black may not play now, with the move number they are for. Empty
        unless the game is renju, in play, and black is to move. Checking every empty point
        costs a few milliseconds, so it is done only when asked and kept per position."""
        live = self.table.get(game_id)
        if live is None:
            if db.session.get(Game, game_id) is None:
                raise ActionError("not_found", gettext("There is no such game."))
            return {"move": None, "points": []}
        with live.lock:
            moves = tuple(live.rules.moves)
            return {"move": len(moves), "points": self._points(live, moves)}

    def _points(self, live: LiveGame, moves: tuple[tuple[int, int], ...]) -> list[list[int]]:
        if (not ruleset_named(live.ruleset).forbids(BLACK) or live.status != Status.PLAYING
                or live.to_move() != BLACK):
            return []
        cached = self._forbidden.get(live.game_id)
        if cached is not None and cached[0] == moves:
            return cached[1]
        board = live.rules.board
        taken = set(moves)
        near = _near_black(moves[0::2])
        points = [[row, col] for row, col in sorted(near - taken)
                  if forbidden_kind(board, row, col) is not None]
        self._forbidden[live.game_id] = (moves, points)
        return points


_DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def _near_black(black: tuple[tuple[int, int], ...]) -> set[tuple[int, int]]:
    """The points within four steps, along a line, of a black stone: a point is forbidden only
    by the black stones in the five-point windows through it, so the rest need no check."""
    return {(row + dr * step, col + dc * step)
            for row, col in black for dr, dc in _DIRECTIONS for step in range(1, 5)
            if 0 <= row + dr * step < SIZE and 0 <= col + dc * step < SIZE}
