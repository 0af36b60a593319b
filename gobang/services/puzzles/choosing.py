"""Which puzzle a player gets: of the ruleset asked (or any), from no game the player took
part in, not tried before, among the few rated nearest the player's puzzle rating."""

from __future__ import annotations

import random

from sqlalchemy import exists, func, or_, select

from gobang.extensions import db
from gobang.models import Game, Puzzle, PuzzleAttempt

# Candidates drawn from: a few, so two players of one rating do not all get the same one.
NEAREST = 5


def unfinished(user_id: int, ruleset: str | None) -> tuple[Puzzle, PuzzleAttempt] | None:
    """The player's try still going on (left with the page), of that ruleset: served again."""
    query = (select(Puzzle, PuzzleAttempt).join(PuzzleAttempt,
                                                PuzzleAttempt.puzzle_id == Puzzle.id)
             .where(PuzzleAttempt.user_id == user_id, PuzzleAttempt.status == "playing")
             .order_by(PuzzleAttempt.started_at.desc(), PuzzleAttempt.id.desc()))
    if ruleset is not None:
        query = query.where(Puzzle.ruleset == ruleset)
    row = db.session.execute(query.limit(1)).first()
    return (row[0], row[1]) if row is not None else None


def choose(user_id: int, ruleset: str | None, rating: float,
           rng: random.Random) -> Puzzle | None:
    own_games = select(Game.id).where(or_(Game.black_id == user_id, Game.white_id == user_id))
    tried = exists().where(PuzzleAttempt.puzzle_id == Puzzle.id,
                           PuzzleAttempt.user_id == user_id)
    query = (select(Puzzle).where(Puzzle.game_id.not_in(own_games), ~tried)
             .order_by(func.abs(Puzzle.rating - rating), Puzzle.id).limit(NEAREST))
    if ruleset is not None:
        query = query.where(Puzzle.ruleset == ruleset)
    found = list(db.session.scalars(query))
    return rng.choice(found) if found else None
