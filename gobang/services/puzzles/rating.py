"""Puzzle ratings: the games' Glicko-2 (gobang.services.ratings.glicko2), a solved puzzle
counting as a win against the puzzle's own rating, a failed one as a loss; the puzzle is
rated the other way, against the solver as they stood."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from gobang.extensions import db
from gobang.models import Puzzle, PuzzleRating
from gobang.services.ratings.glicko2 import LICHESS, Rating, Result, after_idle, new_rating, rate

SECONDS_A_DAY = 86_400
# A new puzzle's rating: a guess from its length (each attacking move is something to see)
# and its kind (a VCT's threes are harder to see than fours), sure enough to be served near
# it but moved quickly by its first solvers.
PUZZLE_BASE = 1100.0
PER_ATTACK = 100.0
VCT_EXTRA = 300.0
PUZZLE_DEVIATION = 350.0


@dataclass(frozen=True)
class Standing:
    """A player's puzzle rating and counts, as the page and the API show them."""

    rating: Rating
    solved: int = 0
    failed: int = 0

    def as_dict(self) -> dict:
        return {"rating": round(self.rating.rating), "rd": round(self.rating.deviation),
                "provisional": self.rating.provisional(), "solved": self.solved,
                "failed": self.failed}


def puzzle_start(kind: str, line: list) -> Rating:
    attacks = (len(line) + 1) // 2
    guess = PUZZLE_BASE + PER_ATTACK * attacks + (VCT_EXTRA if kind == "vct" else 0.0)
    return Rating(guess, PUZZLE_DEVIATION, LICHESS.start_volatility)


def standing(user_id: int) -> Standing:
    row = db.session.get(PuzzleRating, user_id)
    if row is None:
        return Standing(new_rating())
    return Standing(Rating(row.rating, row.deviation, row.volatility), row.solved, row.failed)


def rate_attempt(user_id: int, puzzle: Puzzle, solved: bool,
                 now: datetime) -> tuple[Rating, Rating]:
    """The player's rating before (grown with the idle time) and after the attempt, both it
    and the puzzle's written to the session; committed by the caller with the attempt."""
    row = _locked_row(user_id, now)
    before = after_idle(Rating(row.rating, row.deviation, row.volatility),
                        max(0.0, (now - row.rated_at).total_seconds() / SECONDS_A_DAY))
    own = Rating(puzzle.rating, puzzle.deviation, puzzle.volatility)
    score = 1.0 if solved else 0.0
    after = rate(before, [Result(own, score)])
    theirs = rate(own, [Result(before, 1.0 - score)])
    db.session.execute(update(PuzzleRating).where(PuzzleRating.user_id == user_id).values(
        rating=after.rating, deviation=after.deviation, volatility=after.volatility,
        solved=PuzzleRating.solved + int(solved), failed=PuzzleRating.failed + int(not solved),
        rated_at=now))
    db.session.execute(update(Puzzle).where(Puzzle.id == puzzle.id).values(
        rating=theirs.rating, deviation=theirs.deviation, volatility=theirs.volatility,
        attempts=Puzzle.attempts + 1))
    return before, after


def _locked_row(user_id: int, now: datetime) -> PuzzleRating:
    """The player's row, made at the start on a first attempt. ON CONFLICT DO NOTHING: two
    first attempts at once both find it, as the games' ratings do."""
    insert = postgresql_insert if db.engine.dialect.name == "postgresql" else sqlite_insert
    start = new_rating()
    db.session.execute(insert(PuzzleRating).values(
        user_id=user_id, rating=start.rating, deviation=start.deviation,
        volatility=start.volatility, solved=0, failed=0, rated_at=now,
    ).on_conflict_do_nothing(index_elements=["user_id"]))
    return db.session.execute(
        select(PuzzleRating).where(PuzzleRating.user_id == user_id).with_for_update()
        .execution_options(populate_existing=True)).scalar_one()
