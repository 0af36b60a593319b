"""Puzzles for players: the next one, and a move in one judged. The HTTP views call this and
return what it gives (docs/protocol.md, "Puzzles"). Guests may solve and are rated like
anyone (the rating goes with the account if they register); visitors may not."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from typing import Any

from flask_babel import gettext
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from gobang.extensions import db
from gobang.models import Puzzle, PuzzleAttempt
from gobang.rules import SIZE
from gobang.services.clock import Clock
from gobang.services.notices import ActionError
from gobang.services.puzzles.choosing import choose, unfinished
from gobang.services.puzzles.harvest import Harvester, Offload, inline
from gobang.services.puzzles.judge import (
    FORBIDDEN,
    ILLEGAL,
    KEPT,
    SOLVED,
    Budgets,
    Point,
    judge,
    line_points,
)
from gobang.services.puzzles.rating import rate_attempt, standing
from gobang.vocabulary import RULESETS

PLAYING, SOLVED_STATUS, FAILED_STATUS = "playing", "solved", "failed"
# The most moves an answer may carry: a whole board.
MOST_MOVES = SIZE * SIZE


class Puzzles:
    def __init__(self, budgets: Budgets, clock: Clock, rng: random.Random,
                 now: Callable[[], datetime], harvest_batch: int,
                 offload: Offload = inline) -> None:
        self._budgets = budgets
        self._clock = clock
        self._rng = rng
        self._now = now
        self._offload = offload
        self.harvester = Harvester(budgets, clock, now, harvest_batch, offload)

    # --- reading ------------------------------------------------------------------------

    def standing(self, user_id: int | None) -> dict[str, Any] | None:
        return standing(user_id).as_dict() if user_id is not None else None

    def next(self, user_id: int | None, ruleset: str | None) -> dict[str, Any]:
        """The player's try still going on in that ruleset, else a new puzzle near their
        rating; ActionError `not_found` when none is left. `ruleset` None: any."""
        _must_be_player(user_id)
        assert user_id is not None
        if ruleset is not None and ruleset not in RULESETS:
            raise ActionError("bad_request", gettext("Unknown ruleset."))
        self.harvester.harvest()
        going = unfinished(user_id, ruleset)
        if going is not None:
            puzzle, attempt = going
            return self._payload(puzzle, line_points(attempt.line), user_id)
        puzzle = choose(user_id, ruleset, standing(user_id).rating.rating, self._rng)
        if puzzle is None:
            raise ActionError("not_found", gettext(
                "No puzzle left for you here. Try another ruleset, or come back later."))
        return self._payload(puzzle, [], user_id)

    def _payload(self, puzzle: Puzzle, line: list[Point], user_id: int) -> dict[str, Any]:
        return {"id": puzzle.id, "ruleset": puzzle.ruleset, "moves": puzzle.moves,
                "to_move": puzzle.attacker, "attacker": puzzle.attacker, "kind": puzzle.kind,
                "rating": round(puzzle.rating), "line": [list(p) for p in line],
                "player": standing(user_id).as_dict()}

    # --- a move -------------------------------------------------------------------------

    def move(self, user_id: int | None, puzzle_id: int, moves: Any, move: Any,
             ) -> dict[str, Any]:
        """Judge `move` after `moves` (this try's line so far, as the server answered it).
        The answer: the reply and whether it is solved, or the failure with the solution.
        ActionError with the contract's code when refused (nothing recorded then)."""
        _must_be_player(user_id)
        assert user_id is not None
        so_far, point = _points(moves), _point(move)
        puzzle = db.session.get(Puzzle, puzzle_id)
        if puzzle is None:
            raise ActionError("not_found", gettext("There is no such puzzle."))
        attempt = db.session.scalars(select(PuzzleAttempt).where(
            PuzzleAttempt.user_id == user_id, PuzzleAttempt.puzzle_id == puzzle.id)).one_or_none()
        _check_line(attempt, so_far)
        solution = line_points(puzzle.line)
        trusted = so_far == solution[:len(so_far)] and solution[len(so_far):][:1] == [point]
        verdict = self._offload(
            judge, puzzle.ruleset, [*line_points(puzzle.moves), *so_far], point,
            self._budgets, self._clock, puzzle.kind == "vct", trusted)
        if verdict.kind == FORBIDDEN:
            raise ActionError("forbidden_move", gettext("Renju: black may not play there."))
        if verdict.kind == ILLEGAL:
            raise ActionError("bad_request", gettext("That point cannot be played."))
        if verdict.kind == KEPT:
            assert verdict.reply is not None
            self._extend(attempt, user_id, puzzle, so_far, [point, verdict.reply])
            return {"ok": True, "reply": list(verdict.reply), "solved": False}
        solved = verdict.kind == SOLVED
        rating = self._finish(attempt, user_id, puzzle, so_far, point, solved)
        ended = {"rating": rating, "game_id": puzzle.game_id, "move_number": puzzle.move_number,
                 "solution": [list(p) for p in solution]}
        if solved:
            return {"ok": True, "reply": None, "solved": True, **ended}
        return {"ok": False, "error": "wrong_move", "message": gettext(
            "That move lets the win go. The solution is shown."), **ended}

    def _extend(self, attempt: PuzzleAttempt | None, user_id: int, puzzle: Puzzle,
                so_far: list[Point], added: list[Point]) -> None:
        line = [list(p) for p in [*so_far, *added]]
        if attempt is None:
            self._insert(PuzzleAttempt(user_id=user_id, puzzle_id=puzzle.id, status=PLAYING,
                                       line=line, plies=len(line), started_at=self._now()))
            db.session.commit()
            return
        self._update(attempt, len(so_far), line=line, plies=len(line))

    def _finish(self, attempt: PuzzleAttempt | None, user_id: int, puzzle: Puzzle,
                so_far: list[Point], point: Point, solved: bool) -> dict[str, Any]:
        """The try ends, once: its result, and both ratings, in one transaction."""
        now = self._now()
        line = [list(p) for p in [*so_far, point]]
        status = SOLVED_STATUS if solved else FAILED_STATUS
        if attempt is None:
            attempt = PuzzleAttempt(user_id=user_id, puzzle_id=puzzle.id, status=PLAYING,
                                    line=[], plies=0, started_at=now)
            self._insert(attempt)
        before, after = rate_attempt(user_id, puzzle, solved, now)
        self._update(attempt, len(so_far), status=status, line=line, plies=len(line),
                     ended_at=now, rating_before=before.rating, rating_after=after.rating)
        found = standing(user_id).as_dict()
        return {**found, "before": round(before.rating), "after": round(after.rating)}

    def _insert(self, attempt: PuzzleAttempt) -> None:
        """Add the try (flushed, committed by the caller): a second one of the same player
        and puzzle is refused by the unique key."""
        db.session.add(attempt)
        try:
            db.session.flush()
        except IntegrityError:
            db.session.rollback()
            raise _conflict() from None

    def _update(self, attempt: PuzzleAttempt, read: int, **values: Any) -> None:
        """Write the try where it still stands as read: a second request for the same move
        (a double click, two tabs) finds it moved on and is refused, so a try ends once."""
        done = db.session.execute(update(PuzzleAttempt).where(
            PuzzleAttempt.id == attempt.id, PuzzleAttempt.status == PLAYING,
            PuzzleAttempt.plies == read).values(**values))
        if done.rowcount != 1:
            db.session.rollback()
            raise _conflict()
        db.session.commit()


def _must_be_player(user_id: int | None) -> None:
    if user_id is None:
        raise ActionError("unauthorized", gettext(
            "Log in, or play the computer as a guest, to solve puzzles."))


def _conflict() -> ActionError:
    return ActionError("conflict", gettext(
        "This puzzle's try has moved on in another window. Load the next puzzle."))


def _check_line(attempt: PuzzleAttempt | None, so_far: list[Point]) -> None:
    if attempt is not None and attempt.status != PLAYING:
        raise ActionError("conflict", gettext("You have already tried this puzzle."))
    expected = line_points(attempt.line) if attempt is not None else []
    if so_far != expected:
        raise ActionError("bad_request", gettext(
            "The moves sent are not this puzzle's moves so far."))


def _point(value: Any) -> Point:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(type(v) is int and 0 <= v < SIZE for v in value)):
        raise ActionError("bad_request", gettext(
            "A move is a [row, col] pair of whole numbers from 0 to 14."))
    return (value[0], value[1])


def _points(value: Any) -> list[Point]:
    if not isinstance(value, list) or len(value) > MOST_MOVES:
        raise ActionError("bad_request", gettext("The moves must be a list of moves."))
    return [_point(v) for v in value]
