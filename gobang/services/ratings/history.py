"""A player's rating over their games, per category: the lines of the profile's charts."""

from __future__ import annotations

from sqlalchemy import or_, select

from gobang.extensions import db
from gobang.models import Game


def rating_histories(user_id: int) -> dict[str, tuple[int, list[int]]]:
    """{category: (the rating before the first game, [the rating after each game])}, oldest
    first, rounded as shown. Only games that moved a rating count: games from before ratings
    per category (seeded by the migration) have no line to draw."""
    rows = db.session.execute(
        select(Game.category, Game.black_id, Game.black_rating_before, Game.black_rating_after,
               Game.white_rating_before, Game.white_rating_after)
        .where(Game.status == "finished", Game.black_rating_after.is_not(None),
               or_(Game.black_id == user_id, Game.white_id == user_id))
        .order_by(Game.ended_at, Game.id))
    histories: dict[str, tuple[int, list[int]]] = {}
    for category, black_id, black_before, black_after, white_before, white_after in rows:
        before, after = ((black_before, black_after) if black_id == user_id
                         else (white_before, white_after))
        _start, points = histories.setdefault(category, (round(before), []))
        points.append(round(after))
    return dict(sorted(histories.items()))
