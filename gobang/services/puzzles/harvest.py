"""Puzzles harvested from stored analyses, lazily: each call looks at the analyses stored
since the last one (a mark in `server_flags`), a few at a time, and keeps every missed win
the threat search confirms. The analysis itself is never touched."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from gobang.extensions import db
from gobang.models import Game, GameAnalysis, Puzzle, ServerFlag
from gobang.services.clock import Clock
from gobang.services.puzzles.judge import Budgets, attacker_of, forced_line, verify
from gobang.services.puzzles.rating import puzzle_start

log = logging.getLogger("gobang.puzzles")

MARK = "puzzles.harvested_up_to"
Offload = Callable[..., Any]


def inline(func: Callable[..., Any], *args: Any) -> Any:
    return func(*args)


class Harvester:
    def __init__(self, budgets: Budgets, clock: Clock, now: Callable[[], datetime],
                 batch: int, offload: Offload = inline) -> None:
        self._budgets = budgets
        self._clock = clock
        self._now = now
        self._batch = batch
        self._offload = offload

    def harvest(self) -> int:
        """Look at up to `batch` analyses not looked at yet; the number of puzzles kept."""
        mark = _mark()
        rows = db.session.execute(
            select(GameAnalysis.id, GameAnalysis.game_id, GameAnalysis.moves)
            .where(GameAnalysis.id > mark).order_by(GameAnalysis.id).limit(self._batch)).all()
        kept = 0
        for analysis_id, game_id, reviews in rows:
            kept += self.from_analysis(game_id, reviews)
            _set_mark(analysis_id, self._now())
        return kept

    def from_analysis(self, game_id: int, reviews: list[dict[str, Any]]) -> int:
        """The puzzles of one game's analysis: each missed win whose position the threat
        search still finds won for the side to move (so the puzzle is always solvable)."""
        game = db.session.get(Game, game_id)
        if game is None:
            return 0
        played = [(m.row, m.col) for m in game.moves]
        kept = 0
        for review in reviews:
            number = review.get("number")
            if not review.get("missed_win") or not isinstance(number, int):
                continue
            if 1 <= number <= len(played) and self._keep(game, number, played[:number - 1]):
                kept += 1
        return kept

    def _keep(self, game: Game, number: int, position: list[tuple[int, int]]) -> bool:
        exists = db.session.scalar(select(Puzzle.id).where(
            Puzzle.game_id == game.id, Puzzle.move_number == number))
        if exists is not None:
            return False
        try:
            win = self._offload(verify, game.ruleset, position, self._budgets, self._clock)
        except ValueError:  # the rules refuse the stored moves: no puzzle, and no retrying
            win = None
        if win is None:
            log.info("missed win not confirmed", extra={"fields": {
                "game_id": game.id, "move": number}})
            return False
        line = [list(p) for p in forced_line(win)]
        start = puzzle_start(win.kind, line)
        db.session.add(Puzzle(
            game_id=game.id, move_number=number, ruleset=game.ruleset,
            moves=[list(p) for p in position], attacker=attacker_of(position), kind=win.kind,
            line=line, rating=start.rating, deviation=start.deviation,
            volatility=start.volatility, attempts=0, created_at=self._now()))
        try:
            db.session.commit()
        except IntegrityError:  # another process kept it first
            db.session.rollback()
            return False
        return True


def _mark() -> int:
    row = db.session.get(ServerFlag, MARK)
    try:
        return int(row.value) if row is not None else 0
    except ValueError:
        return 0


def _set_mark(analysis_id: int, now: datetime) -> None:
    row = db.session.get(ServerFlag, MARK)
    if row is None:
        db.session.add(ServerFlag(name=MARK, value=str(analysis_id), updated_at=now))
    elif _mark() < analysis_id:
        row.value, row.updated_at = str(analysis_id), now
    try:
        db.session.commit()
    except IntegrityError:  # another process set it first; the next call reads theirs
        db.session.rollback()
