"""Players between games: profiles, score history, recent games and the leaderboard."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import selectinload

from gobang.extensions import db
from gobang.models import Game, Move, User
from gobang.rules import BLACK, WHITE
from gobang.services.paging import Page, page_count
from gobang.vocabulary import UNSCORED_REASONS

GAMES_PER_PAGE = 20
# Games against the computer the profile shows (the newest; they are practice, not record).
COMPUTER_GAMES_SHOWN = 10
PLAYERS_PER_PAGE = 50
# A player enters the leaderboard after this many finished, scored games.
RANKED_MIN_GAMES = 5


def win_rate(wins: int, games: int) -> int | None:
    """Wins as a whole percentage of finished, scored games (draws count as games)."""
    if games <= 0:
        return None
    return round(100 * wins / games)


def profile_stats(user: User) -> dict[str, Any]:
    return {**user.stats(), "win_rate": win_rate(user.wins, user.games)}


def _finished_by(user_id: int, computer: bool = False):
    """Finished games of the player: against people, or (`computer`) against the computer,
    which are unrated and listed apart."""
    against = Game.computer_level.is_not(None) if computer else Game.computer_level.is_(None)
    return (Game.status == "finished", against,
            or_(Game.black_id == user_id, Game.white_id == user_id))


def score_history(user_id: int) -> list[int]:
    """The player's score after each finished, scored game, oldest first (a casual game moved
    no score)."""
    rows = db.session.execute(
        select(Game.black_id, Game.black_score_after, Game.white_score_after)
        .where(*_finished_by(user_id), Game.rated.is_(True),
               Game.reason.not_in(tuple(UNSCORED_REASONS)))
        .order_by(Game.ended_at, Game.id)
    )
    scores = (black if black_id == user_id else white for black_id, black, white in rows)
    return [score for score in scores if score is not None]


def _score_before(game: Game, color: str) -> int | None:
    return game.black_score_before if color == BLACK else game.white_score_before


def _score_after(game: Game, color: str) -> int | None:
    return game.black_score_after if color == BLACK else game.white_score_after


def outcome_for(game: Game, color: str) -> str:
    """"win", "loss", "draw" or "aborted", as seen by the player of `color`."""
    if game.reason in UNSCORED_REASONS:
        return "aborted"
    if game.winner is None:
        return "draw"
    return "win" if game.winner == color else "loss"


def _move_count():
    """How many moves a game has, as a column of a query on games (a game without any has
    no replay to offer)."""
    return (select(func.count(Move.id)).where(Move.game_id == Game.id)
            .correlate(Game).scalar_subquery())


def _game_row(game: Game, user_id: int, moves: int) -> dict[str, Any]:
    color = game.color_of(user_id) or WHITE
    opponent = game.white if color == BLACK else game.black
    before, after = _score_before(game, color), _score_after(game, color)
    change = after - before if before is not None and after is not None else 0
    return {
        "game_id": game.id,
        "ruleset": game.ruleset,
        "clock": game.time_control(),
        "color": color,
        "opponent": opponent.username,
        "opponent_linkable": not opponent.deleted,
        "result": outcome_for(game, color),
        "reason": game.reason,
        "score_change": change,
        "rated": game.rated,
        "score_after": after,
        "ended_at": game.ended_at,
        "moves": moves,
    }


def recent_games(user_id: int, page: int) -> Page | None:
    """Finished games, newest first, GAMES_PER_PAGE a page; None when `page` is past the end."""
    total = db.session.scalar(select(func.count(Game.id)).where(*_finished_by(user_id))) or 0
    pages = page_count(total, GAMES_PER_PAGE)
    if not 1 <= page <= pages:
        return None
    rows = db.session.execute(
        select(Game, _move_count()).where(*_finished_by(user_id))
        # Each row names the opponent: load both players with the page, not one by one.
        .options(selectinload(Game.black), selectinload(Game.white))
        .order_by(Game.ended_at.desc(), Game.id.desc())
        .limit(GAMES_PER_PAGE)
        .offset((page - 1) * GAMES_PER_PAGE)
    )
    return Page([_game_row(game, user_id, moves) for game, moves in rows], page, pages, total)


def _ranked_filter():
    return (User.games >= RANKED_MIN_GAMES, User.deleted.is_(False),
            User.computer_level.is_(None), User.guest.is_(False))


def computer_games(user_id: int, limit: int = COMPUTER_GAMES_SHOWN) -> Page:
    """The player's latest finished games against the computer (one page), and how many."""
    total = db.session.scalar(
        select(func.count(Game.id)).where(*_finished_by(user_id, computer=True))) or 0
    rows = db.session.execute(
        select(Game, _move_count()).where(*_finished_by(user_id, computer=True))
        .order_by(Game.ended_at.desc(), Game.id.desc()).limit(limit))
    return Page([_computer_row(game, user_id, moves) for game, moves in rows], 1, 1, total)


def _computer_row(game: Game, user_id: int, moves: int) -> dict[str, Any]:
    color = game.color_of(user_id) or WHITE
    return {
        "game_id": game.id,
        "level": game.computer_level,
        "ruleset": game.ruleset,
        "clock": game.time_control(),
        "color": color,
        "result": outcome_for(game, color),
        "reason": game.reason,
        "ended_at": game.ended_at,
        "moves": moves,
    }


def _ranked_rows():
    """Ranked players with their standard competition rank (equal scores share a rank)."""
    rank = func.rank().over(order_by=User.score.desc()).label("rank")
    return select(User, rank).where(*_ranked_filter())


def _leader_row(user: User, rank: int) -> dict[str, Any]:
    return {
        "rank": rank,
        "id": user.id,
        "username": user.username,
        "score": user.score,
        "games": user.games,
        "win_rate": win_rate(user.wins, user.games),
    }


def leaderboard(page: int, per_page: int = PLAYERS_PER_PAGE) -> Page | None:
    """Ranked players by score; None when `page` is past the end."""
    total = db.session.scalar(select(func.count(User.id)).where(*_ranked_filter())) or 0
    pages = page_count(total, per_page)
    if not 1 <= page <= pages:
        return None
    rows = db.session.execute(
        _ranked_rows()
        .order_by(User.score.desc(), User.games.desc(), User.id)
        .limit(per_page)
        .offset((page - 1) * per_page)
    )
    return Page([_leader_row(user, rank) for user, rank in rows], page, pages, total)


def rank_of(user_id: int | None) -> int | None:
    """The player's leaderboard rank, or None when they are not (yet) ranked."""
    if user_id is None:
        return None
    user = db.session.get(User, user_id)
    if user is None or user.deleted or user.games < RANKED_MIN_GAMES:
        return None
    higher = db.session.scalar(
        select(func.count(User.id)).where(*_ranked_filter(), User.score > user.score)
    )
    return (higher or 0) + 1


def leaderboard_page_of(rank: int, per_page: int = PLAYERS_PER_PAGE) -> int:
    """The page a rank falls on (players sharing a rank may spill onto the next page)."""
    return (rank - 1) // per_page + 1


def top_players(limit: int = 10) -> list[dict[str, Any]]:
    page = leaderboard(1, per_page=limit)
    return page.items if page else []


def _finished_row(game: Game) -> dict[str, Any]:
    return {
        "game_id": game.id,
        "ruleset": game.ruleset,
        "black": game.black.username,
        "black_linkable": game.black.has_profile,
        "black_deleted": game.black.deleted,
        "black_level": game.black.computer_level,
        "white": game.white.username,
        "white_linkable": game.white.has_profile,
        "white_deleted": game.white.deleted,
        "white_level": game.white.computer_level,
        "winner": game.winner,
        "reason": game.reason,
        "moves": len(game.moves),
        "ended_at": game.ended_at,
    }


def recent_finished(limit: int = 8) -> list[dict[str, Any]]:
    """The site's latest finished games, newest first; aborted ones are left out (nothing
    was played)."""
    games = db.session.scalars(
        select(Game)
        .where(Game.status == "finished", Game.reason.not_in(tuple(UNSCORED_REASONS)))
        .options(selectinload(Game.black), selectinload(Game.white), selectinload(Game.moves))
        .order_by(Game.ended_at.desc(), Game.id.desc())
        .limit(limit)
    )
    return [_finished_row(game) for game in games]


def hall_summary(user_id: int | None) -> dict[str, Any]:
    """What templates/players/_top10.html needs: `top` and `my_rank`."""
    return {"top": top_players(10), "my_rank": rank_of(user_id)}


# The score chart, drawn on the server as SVG in a CHART_WIDTH x CHART_HEIGHT viewBox.
CHART_WIDTH, CHART_HEIGHT = 640, 220
_PAD_LEFT, _PAD_RIGHT, _PAD_TOP, _PAD_BOTTOM = 52, 16, 14, 26


def _chart_range(scores: list[int]) -> tuple[int, int]:
    low, high = min(scores), max(scores)
    if high - low < 20:  # a flat line sits in the middle, not on an edge
        middle = (low + high) // 2
        low, high = middle - 10, middle + 10
    return low, high


def score_chart(scores: list[int], start: int | None = None) -> dict[str, Any] | None:
    """Coordinates for the score-over-games chart: one point per game, oldest on the left.
    With `start` (the score every account begins with) the line sets out from it, at game 0,
    so that the first game's gain or loss shows as a slope too."""
    if not scores:
        return None
    values = scores if start is None else [start, *scores]
    first = 1 if start is None else 0
    low, high = _chart_range(values)
    left, right = _PAD_LEFT, CHART_WIDTH - _PAD_RIGHT
    top, bottom = _PAD_TOP, CHART_HEIGHT - _PAD_BOTTOM
    step = (right - left) / (len(values) - 1) if len(values) > 1 else 0

    def x_of(n: int) -> float:
        return round(left + (n - first) * step, 1) if step else (left + right) / 2

    def y_of(score: float) -> float:
        return round(bottom - (score - low) * (bottom - top) / (high - low), 1)

    line = [{"n": n, "score": score, "x": x_of(n), "y": y_of(score)}
            for n, score in enumerate(values, start=first)]
    ticks = [{"y": y_of(value), "label": round(value)} for value in (high, (low + high) / 2, low)]
    return {
        "width": CHART_WIDTH, "height": CHART_HEIGHT,
        "left": left, "right": right, "top": top, "bottom": bottom,
        "start": line[0] if start is not None else None,
        "points": line[1:] if start is not None else line, "ticks": ticks,
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in line),
    }
