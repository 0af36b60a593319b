"""Public player pages: profiles and the leaderboard."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template, request
from flask_login import current_user

from gobang.services.history import players
from gobang.services.ratings import board as boards
from gobang.services.ratings.categories import is_category
from gobang.services.ratings.glicko2 import LICHESS
from gobang.services.ratings.history import rating_histories
from gobang.services.registry import services

bp = Blueprint("players", __name__)


def page_arg() -> int:
    """`?page=N`; anything that is not a positive whole number means the first page."""
    raw = request.args.get("page", "1")
    return int(raw) if raw.isascii() and raw.isdigit() and int(raw) > 0 else 1


def viewer_id() -> int | None:
    return current_user.id if current_user.is_authenticated else None


@bp.route("/u/<username>")
def profile(username: str) -> str:
    user = services().accounts.find(username)
    if user is None or not user.has_profile:  # deleted accounts and guests have no page
        abort(404)
    games = players.recent_games(user.id, page_arg())
    if games is None:
        abort(404)
    return render_template(
        "players/profile.html",
        player=players.profile_stats(user),
        games=games,
        computer_games=players.computer_games(user.id),
        chart=players.score_chart(
            players.score_history(user.id), start=current_app.config["INITIAL_SCORE"]),
        rating_charts={category: players.score_chart(points, start=start) for category,
                       (start, points) in rating_histories(user.id).items()},
        rank=players.rank_of(user.id),
    )


@bp.route("/leaderboard")
def leaderboard() -> str:
    board = players.leaderboard(page_arg())
    if board is None:
        abort(404)
    my_rank = players.rank_of(viewer_id())
    return render_template(
        "players/leaderboard.html",
        board=board,
        me=viewer_id(),
        my_rank=my_rank,
        my_page=players.leaderboard_page_of(my_rank) if my_rank else None,
        min_games=players.RANKED_MIN_GAMES,
        categories=boards.ranked_categories(),
    )


@bp.route("/leaderboard/<category>")
def category_leaderboard(category: str) -> str:
    """One tab of the leaderboard: a category's settled ratings. A category nobody is ranked
    in (yet) shows an empty board; a name that is no category is not found."""
    if not is_category(category):
        abort(404)
    found = boards.category_board(category, page_arg())
    if found is None:
        abort(404)
    return render_template(
        "players/category_board.html", board=found, category=category, me=viewer_id(),
        categories=boards.ranked_categories(), ranked_up_to=round(LICHESS.ranked_up_to))
