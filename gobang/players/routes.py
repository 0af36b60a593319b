"""Public player pages: profiles and the leaderboard; following and blocking a player."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from gobang.auth.guests import registered_required
from gobang.extensions import db
from gobang.models import User
from gobang.services.history import players
from gobang.services.notices import ActionError, Notice
from gobang.services.ratings import board as boards
from gobang.services.ratings.categories import is_category
from gobang.services.ratings.glicko2 import LICHESS
from gobang.services.ratings.history import rating_histories
from gobang.services.registry import services
from gobang.services.swiss.view import of_player
from gobang.sockets.base import publish

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
        social=_relation_to(user),
        tournaments=of_player(user.id),
    )


def _relation_to(user: User) -> dict[str, bool] | None:
    """Whether the viewer follows and blocks the player (None: logged out, or themself)."""
    if not current_user.is_authenticated or current_user.id == user.id:
        return None
    social = services().social
    return {"following": social.follows.follows(current_user.id, user.id),
            "blocking": social.blocks.blocks(current_user.id, user.id)}


@bp.route("/following")
@login_required
@registered_required
def following() -> str:
    """The players one follows and those one blocks, each with a way to undo it."""
    social = services().social
    return render_template("players/following.html",
                           followed=social.follows.listing(current_user.id),
                           blocked=social.blocks.listing(current_user.id),
                           follows_at_most=social.follows.at_most,
                           blocks_at_most=social.blocks.at_most)


@bp.route("/u/<username>/<action>", methods=["POST"])
@login_required
@registered_required
def relation(username: str, action: str) -> Response:
    """Follow, unfollow, block or unblock the player, then back to their profile (or to
    /following, which sends `back=following`)."""
    acts: dict[str, Callable[[User], tuple[str, list[Notice]]]] = {
        "follow": _follow, "unfollow": _unfollow, "block": _block, "unblock": _unblock}
    if action not in acts:
        abort(404)
    target = services().accounts.find(username)
    if target is None or target.deleted:
        abort(404)
    try:
        message, notices = acts[action](target)
    except ActionError as refused:
        db.session.rollback()
        flash(refused.message, "error")
    else:
        publish(notices)
        flash(message, "info")
    if request.form.get("back") == "following":
        return redirect(url_for("players.following"))
    return redirect(url_for("players.profile", username=target.username))


def _follow(target: User) -> tuple[str, list[Notice]]:
    services().social.follows.follow(current_user, target)
    return (gettext("You follow %(name)s: the hall shows you when they are online.",
                    name=target.username),
            services().lobby.following.told(current_user.id))


def _unfollow(target: User) -> tuple[str, list[Notice]]:
    services().social.follows.unfollow(current_user.id, target.id)
    return (gettext("You no longer follow %(name)s.", name=target.username),
            services().lobby.following.told(current_user.id))


def _block(target: User) -> tuple[str, list[Notice]]:
    services().social.blocks.block(current_user, target)
    lobby = services().lobby
    return (gettext("You block %(name)s: their challenges and chat no longer reach you, "
                    "and you are never paired with them. They are not told.",
                    name=target.username),
            lobby.challenges.drop_between(current_user.id, target.id)
            + lobby.following.told(current_user.id))


def _unblock(target: User) -> tuple[str, list[Notice]]:
    services().social.blocks.unblock(current_user.id, target.id)
    return gettext("You no longer block %(name)s.", name=target.username), []


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
