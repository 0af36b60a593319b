"""Category ratings in the database, changed inside the transaction that saves a result
(gobang.services.play.results): the ratings move with the result or not at all."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from gobang.extensions import db
from gobang.models import CategoryRating
from gobang.services.ratings.categories import Category
from gobang.services.ratings.glicko2 import LICHESS, Rating, Result, after_idle, rate
from gobang.vocabulary import BLACK, WHITE

SECONDS_A_DAY = 86_400


@dataclass(frozen=True)
class Change:
    """One player's rating in the game's category, before the game (grown with the idle time)
    and after it."""

    before: Rating
    after: Rating


def rating_payload(before: float, after: float, deviation: float) -> dict:
    """One side's line in a Result's `ratings` (docs/protocol.md)."""
    return {"before": round(before), "after": round(after), "rd": round(deviation),
            "provisional": deviation >= LICHESS.provisional_from}


def rate_game(category: Category, black_id: int, white_id: int, black_points: float,
              now: datetime) -> dict[str, Change]:
    """Both players' ratings in `category` after a game in which black scored `black_points`
    (1, 0.5, 0); written to the session, committed by the caller. Each side is rated against
    the other as they stood before the game (Glicko-2's rating period of one game)."""
    _ensure_rows(category.key, (black_id, white_id), now)
    rows = _locked(category.key, (black_id, white_id))
    before = {color: after_idle(_rating(rows[user_id]), _days(rows[user_id].rated_at, now))
              for color, user_id in ((BLACK, black_id), (WHITE, white_id))}
    changes = {
        BLACK: Change(before[BLACK], rate(before[BLACK], [Result(before[WHITE], black_points)])),
        WHITE: Change(before[WHITE],
                      rate(before[WHITE], [Result(before[BLACK], 1.0 - black_points)])),
    }
    for color, user_id in ((BLACK, black_id), (WHITE, white_id)):
        after = changes[color].after
        db.session.execute(update(CategoryRating).where(
            CategoryRating.id == rows[user_id].id).values(
            rating=after.rating, deviation=after.deviation, volatility=after.volatility,
            games=CategoryRating.games + 1, rated_at=now))
    return changes


def _ensure_rows(category: str, user_ids: tuple[int, int], now: datetime) -> None:
    """A first game in a category makes its row at the start. ON CONFLICT DO NOTHING: two
    first games ending at once both find the row (PostgreSQL's second insert waits for the
    first to commit, then does nothing) instead of one failing on the unique key."""
    insert = postgresql_insert if db.engine.dialect.name == "postgresql" else sqlite_insert
    start = LICHESS
    db.session.execute(insert(CategoryRating).values([
        {"user_id": user_id, "category": category, "rating": start.start_rating,
         "deviation": start.start_deviation, "volatility": start.start_volatility,
         "games": 0, "rated_at": now} for user_id in user_ids
    ]).on_conflict_do_nothing(index_elements=["user_id", "category"]))


def _locked(category: str, user_ids: tuple[int, int]) -> dict[int, CategoryRating]:
    # Rows in user id order, FOR NO KEY UPDATE like the scores (results._locked_scores), so
    # that two endings of the same players wait for each other instead of deadlocking.
    rows = db.session.execute(
        select(CategoryRating).where(CategoryRating.category == category,
                                     CategoryRating.user_id.in_(user_ids))
        .order_by(CategoryRating.user_id).with_for_update(key_share=True)
        .execution_options(populate_existing=True)).scalars().all()
    return {row.user_id: row for row in rows}


def _rating(row: CategoryRating) -> Rating:
    return Rating(row.rating, row.deviation, row.volatility)


def _days(since: datetime, now: datetime) -> float:
    return max(0.0, (now - since).total_seconds() / SECONDS_A_DAY)


def standing(user_id: int, category: Category) -> tuple[int, bool]:
    """The player's rating in `category`, rounded, and whether it is provisional; a newcomer
    to the category stands at the start (provisional)."""
    row = db.session.execute(select(CategoryRating.rating, CategoryRating.deviation).where(
        CategoryRating.user_id == user_id, CategoryRating.category == category.key)).first()
    rating, deviation = row if row is not None else (LICHESS.start_rating,
                                                     LICHESS.start_deviation)
    return round(rating), deviation >= LICHESS.provisional_from


def standings_of(wanted: Iterable[tuple[int, str]]) -> dict[tuple[int, str], int]:
    """The rounded ratings of (user id, category key) pairs, in one query: a new game's seats
    show them. A pair without a row stands at the start."""
    wanted = set(wanted)
    if not wanted:
        return {}
    rows = db.session.execute(
        select(CategoryRating.user_id, CategoryRating.category, CategoryRating.rating).where(
            CategoryRating.user_id.in_({user_id for user_id, _key in wanted}),
            CategoryRating.category.in_({key for _user_id, key in wanted})))
    found = {(user_id, key): round(rating) for user_id, key, rating in rows}
    return {pair: found.get(pair, round(LICHESS.start_rating)) for pair in wanted}
