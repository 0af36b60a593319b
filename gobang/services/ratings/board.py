"""The leaderboard of one category: the players whose rating there is settled (a deviation of
75 or less, lichess's rule for its leaderboards), best first."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from gobang.extensions import db
from gobang.models import CategoryRating, User
from gobang.services.paging import Page, page_count
from gobang.services.ratings.glicko2 import LICHESS

PLAYERS_PER_PAGE = 50


def _ranked():
    return (CategoryRating.deviation <= LICHESS.ranked_up_to, User.deleted.is_(False),
            User.computer_level.is_(None))


def ranked_categories() -> list[str]:
    """The categories with at least one ranked player, in name order: the leaderboard's tabs."""
    return list(db.session.scalars(
        select(CategoryRating.category).join(User, User.id == CategoryRating.user_id)
        .where(*_ranked()).distinct().order_by(CategoryRating.category)))


def category_board(category: str, page: int, per_page: int = PLAYERS_PER_PAGE) -> Page | None:
    """Ranked players of `category` by rating (equal rounded ratings share a rank); None when
    `page` is past the end."""
    where = (CategoryRating.category == category, *_ranked())
    total = db.session.scalar(
        select(func.count(CategoryRating.id)).join(User, User.id == CategoryRating.user_id)
        .where(*where)) or 0
    pages = page_count(total, per_page)
    if not 1 <= page <= pages:
        return None
    shown = func.round(CategoryRating.rating)
    rank = func.rank().over(order_by=shown.desc()).label("rank")
    rows = db.session.execute(
        select(User.id, User.username, CategoryRating, rank)
        .join(User, User.id == CategoryRating.user_id).where(*where)
        .order_by(shown.desc(), CategoryRating.games.desc(), User.id)
        .limit(per_page).offset((page - 1) * per_page))
    return Page([_row(user_id, username, rating, rank)
                 for user_id, username, rating, rank in rows], page, pages, total)


def _row(user_id: int, username: str, rating: CategoryRating, rank: int) -> dict[str, Any]:
    return {"rank": rank, "id": user_id, "username": username, **rating.summary()}
