"""Reports from players (/report) and the moderators' pages (/moderation): the queue of
reports, a player's page with their recent games and the actions, and the audit log. Every
action goes through gobang/services/moderation/desk.py, which logs it with who and why."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user, login_required
from sqlalchemy import or_, select
from werkzeug.wrappers import Response

from gobang.auth.guests import registered_required
from gobang.extensions import db
from gobang.models import Game, ModerationEntry, Report, User, username_key
from gobang.services.moderation.reports import REASONS
from gobang.services.notices import ActionError
from gobang.services.registry import services
from gobang.sockets.base import publish

bp = Blueprint("moderation", __name__)

RECENT_GAMES = 20
LOG_PAGE = 100


def moderator_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Anyone else gets 403: the pages say nothing to them, not even that a report exists."""

    @wraps(view)
    @login_required
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if not current_user.moderator:
            abort(403)
        return view(*args, **kwargs)

    return guarded


@bp.route("/report", methods=["GET", "POST"])
@registered_required
def report() -> Response | str:
    """A report of a player (`username`), a game (`game_id`) or a chat line (`chat_text` with
    `username`): a form, so that it works from any page without a script."""
    values = request.values
    if request.method == "POST":
        data: dict[str, Any] = {"reason": values.get("reason"), "note": values.get("note")}
        if values.get("game_id"):
            data["game_id"] = _int(values.get("game_id"))
        if values.get("chat_text"):
            data["chat"] = {"username": values.get("username"), "text": values["chat_text"]}
        elif values.get("username"):
            data["username"] = values.get("username")
        try:
            services().moderation.reports.file(current_user, data)
        except ActionError as refused:
            flash(refused.message, "error")
            return render_template("moderation/report.html", values=values,
                                   reasons=REASONS), 400
        flash(gettext("Thank you: a moderator will look at your report."), "info")
        return redirect(url_for("players.profile", username=current_user.username))
    return render_template("moderation/report.html", values=values, reasons=REASONS)


@bp.route("/moderation")
@moderator_required
def queue() -> str:
    return render_template("moderation/queue.html",
                           reports=services().moderation.reports.open_reports())


@bp.route("/moderation/reports/<int:report_id>/resolve", methods=["POST"])
@moderator_required
def resolve(report_id: int) -> Response:
    return _act(lambda desk: desk.resolve(current_user, report_id, request.form.get("reason")),
                url_for("moderation.queue"))


@bp.route("/moderation/players/<username>")
@moderator_required
def player(username: str) -> str:
    target = _player(username)
    games = db.session.scalars(
        select(Game).where(or_(Game.black_id == target.id, Game.white_id == target.id))
        .order_by(Game.id.desc()).limit(RECENT_GAMES)).all()
    reports = db.session.scalars(select(Report).where(Report.target_id == target.id)
                                 .order_by(Report.id.desc()).limit(RECENT_GAMES)).all()
    entries = db.session.scalars(select(ModerationEntry)
                                 .where(ModerationEntry.target_id == target.id)
                                 .order_by(ModerationEntry.id.desc())).all()
    return render_template("moderation/player.html", target=target, games=games,
                           reports=reports, entries=entries)


@bp.route("/moderation/players/<username>/<action>", methods=["POST"])
@moderator_required
def player_action(username: str, action: str) -> Response:
    target = _player(username)
    why = request.form.get("reason")
    actions: dict[str, Callable[[Any], Any]] = {
        "mute": lambda desk: desk.mute(current_user, target,
                                       _int(request.form.get("minutes")), why),
        "unmute": lambda desk: desk.unmute(current_user, target, why),
        "ban": lambda desk: desk.ban(current_user, target, why),
        "close": lambda desk: desk.close_account(current_user, target, why),
    }
    if action not in actions:
        abort(404)
    back = (url_for("moderation.queue") if action == "close"
            else url_for("moderation.player", username=username))
    return _act(actions[action], back)


@bp.route("/moderation/games/<int:game_id>/abort", methods=["POST"])
@moderator_required
def abort_game(game_id: int) -> Response:
    return _act(lambda desk: desk.abort_game(current_user, game_id, request.form.get("reason")),
                request.form.get("back") or url_for("moderation.queue"))


@bp.route("/moderation/log")
@moderator_required
def audit_log() -> str:
    entries = db.session.scalars(select(ModerationEntry).order_by(ModerationEntry.id.desc())
                                 .limit(LOG_PAGE)).all()
    return render_template("moderation/log.html", entries=entries)


def _act(action: Callable[[Any], Any], back: str) -> Response:
    try:
        notices = action(services().moderation.desk)
    except ActionError as refused:
        db.session.rollback()
        flash(refused.message, "error")
        return redirect(back)
    if notices:
        publish(notices)
    flash(gettext("Done, and written to the moderation log."), "info")
    local = back.startswith("/") and not back.startswith("//")  # never another site
    return redirect(back if local else url_for("moderation.queue"))


def _player(username: str) -> User:
    target = db.session.scalar(select(User).where(User.username_key == username_key(username)))
    if target is None:
        abort(404)
    return target


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
