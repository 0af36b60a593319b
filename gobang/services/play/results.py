"""Saving a game's end: result, Elo changes, category ratings and the players' counters,
exactly once."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update

from gobang.extensions import db
from gobang.models import Game, Move, User, utcnow
from gobang.services.play.ratings import elo
from gobang.services.ratings.categories import Category, category_of
from gobang.services.ratings.stored import Change, rate_game, rating_payload
from gobang.vocabulary import BLACK, UNSCORED_REASONS, WHITE, Reason, Status


@dataclass(frozen=True)
class Ending:
    winner: str | None  # colour, or None for a draw or an abort
    reason: str
    line: list[list[int]] | None = None
    # An abort's cause, as `aborted` makes it; None for any other ending.
    abort: dict[str, Any] | None = None


def aborted(cause: str, color: str | None = None, seconds: float | None = None) -> Ending:
    """An abort and why: the colour that did not move or come (None: neither, or not a
    player's doing) and the seconds it had."""
    return Ending(None, Reason.ABORTED, None, {
        "cause": cause, "color": color, "seconds": None if seconds is None else round(seconds)})


def _points(winner: str | None) -> float:
    if winner is None:
        return 0.5
    return 1.0 if winner == BLACK else 0.0


def _counter_updates(color: str, winner: str | None) -> dict[str, Any]:
    if winner is None:
        return {"draws": User.draws + 1}
    return {"wins": User.wins + 1} if winner == color else {"losses": User.losses + 1}


def save_result(
    game_id: int, black_id: int, white_id: int, ending: Ending, k: int,
    clocks: dict[str, int] | None, rated: bool = True, move: Mapping[str, Any] | None = None,
) -> dict[str, Any] | None:
    """Write the end of a game in one transaction. Returns the contract's Result, or None when
    the game had already ended (so a second ending, from any race, changes nothing).

    `move`, the row of the move that ended the game (a five, a full board), is written in the
    same transaction: the database has both or neither, so a refused result never leaves a
    winning move saved in a game still in play, and a game ended first elsewhere gets no move.

    Safe under PostgreSQL's READ COMMITTED as under SQLite. The conditional UPDATE claims the
    game first: a racing second ending blocks on the row until the first commits, then
    re-checks `status`, matches nothing and gives up. Only after the claim are the players'
    scores read, locked FOR UPDATE in id order, so that a concurrent change to the same
    players (another game of theirs ending) cannot be lost. An unrated game (against the
    computer) changes neither scores nor the games/wins/losses counters."""
    winner_id = {BLACK: black_id, WHITE: white_id}.get(ending.winner or "")
    ended_at = utcnow()
    try:
        if not _claim(game_id, ending, winner_id, clocks, ended_at):
            db.session.rollback()
            return None
        if move is not None:
            db.session.execute(insert(Move).values(**move))
        before = _locked_scores(black_id, white_id)
        scored = rated and ending.reason not in UNSCORED_REASONS
        after = _scores_after(before, ending, k) if scored else dict(before)
        category = _category(game_id)
        ratings = (rate_game(category, black_id, white_id, _points(ending.winner), ended_at)
                   if scored else None)
        db.session.execute(update(Game).where(Game.id == game_id).values(
            black_score_before=before[BLACK], black_score_after=after[BLACK],
            white_score_before=before[WHITE], white_score_after=after[WHITE],
            category=category.key, **_rating_columns(ratings)))
        if scored:
            for color, user_id in ((BLACK, black_id), (WHITE, white_id)):
                db.session.execute(update(User).where(User.id == user_id).values(
                    score=after[color], games=User.games + 1,
                    **_counter_updates(color, ending.winner)))
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return result_payload(ending, winner_id, before, after, category.key, _lines(ratings))


def _claim(game_id: int, ending: Ending, winner_id: int | None,
           clocks: dict[str, int] | None, ended_at: datetime) -> bool:
    claimed = db.session.execute(
        update(Game)
        .where(Game.id == game_id, Game.status != Status.FINISHED)
        .values(
            status=Status.FINISHED, winner=ending.winner, winner_id=winner_id,
            reason=ending.reason, line=ending.line, abort_detail=ending.abort,
            ended_at=ended_at,
            **({"black_ms": clocks["black_ms"], "white_ms": clocks["white_ms"]}
               if clocks else {}),
        )
    )
    return claimed.rowcount == 1


def _locked_scores(black_id: int, white_id: int) -> dict[str, int]:
    # Plain columns, not ORM objects: the session's identity map could hold stale scores.
    # FOR NO KEY UPDATE (key_share): the claim's winner_id foreign key already holds a KEY
    # SHARE lock on the winner's row, which a plain FOR UPDATE of another ending would wait
    # for, and the two would deadlock. (SQLite ignores the clause: its one writer is enough.)
    rows = db.session.execute(
        select(User.id, User.score).where(User.id.in_((black_id, white_id)))
        .order_by(User.id).with_for_update(key_share=True)).all()
    scores = {user_id: score for user_id, score in rows}
    return {BLACK: scores[black_id], WHITE: scores[white_id]}


def _category(game_id: int) -> Category:
    ruleset, initial_ms, increment_ms = db.session.execute(
        select(Game.ruleset, Game.clock_initial_ms, Game.clock_increment_ms)
        .where(Game.id == game_id)).one()
    clock = None if initial_ms is None else (initial_ms // 1000, (increment_ms or 0) // 1000)
    return category_of(ruleset, clock)


def _rating_columns(ratings: dict[str, Change] | None) -> dict[str, float]:
    if ratings is None:
        return {}
    columns: dict[str, float] = {}
    for color in (BLACK, WHITE):
        change = ratings[color]
        columns |= {f"{color}_rating_before": change.before.rating,
                    f"{color}_rating_after": change.after.rating,
                    f"{color}_deviation_after": change.after.deviation}
    return columns


def _lines(ratings: dict[str, Change] | None) -> dict[str, dict[str, Any]] | None:
    if ratings is None:
        return None
    return {color: rating_payload(change.before.rating, change.after.rating,
                                  change.after.deviation) for color, change in ratings.items()}


def _scores_after(before: dict[str, int], ending: Ending, k: int) -> dict[str, int]:
    if ending.reason in UNSCORED_REASONS:
        return dict(before)
    black, white = elo(before[BLACK], before[WHITE], _points(ending.winner), k)
    return {BLACK: black, WHITE: white}


def result_payload(
    ending: Ending, winner_id: int | None, before: dict[str, int], after: dict[str, int],
    category: str | None, ratings: Mapping[str, Mapping[str, Any]] | None,
) -> dict[str, Any]:
    """`scores`: the all-games score (Elo) as before; `ratings`: each side's line in the
    game's category (stored.rating_payload), or None when the game changed none (unrated,
    aborted, or ended before ratings per category)."""
    return {
        "winner": ending.winner,
        "winner_id": winner_id,
        "reason": ending.reason,
        "line": ending.line,
        "scores": {
            BLACK: {"before": before[BLACK], "after": after[BLACK]},
            WHITE: {"before": before[WHITE], "after": after[WHITE]},
        },
        "ratings": None if ratings is None else {"category": category, **ratings},
        **({} if ending.abort is None else {"abort": ending.abort}),
    }
