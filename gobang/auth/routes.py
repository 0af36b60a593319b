"""Register, log in, log out, and the account settings page."""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext
from flask_login import current_user, login_required, login_user, logout_user
from werkzeug.wrappers import Response

from gobang.auth import front, preferences
from gobang.auth.forms import (
    ChangePasswordForm,
    DeleteAccountForm,
    LoginForm,
    PreferencesForm,
    RegisterForm,
)
from gobang.auth.guests import registered_required
from gobang.extensions import db, login_manager
from gobang.i18n.labels import result_label
from gobang.logs import event
from gobang.models import User
from gobang.services.accounts.accounts import (
    LOGGED_OUT,
    SESSION_GENERATION_KEY,
    AccountError,
    session_is_current,
)
from gobang.services.history import players
from gobang.services.notices import ActionError
from gobang.services.registry import services
from gobang.sockets.base import publish

bp = Blueprint("auth", __name__)
_log = logging.getLogger("gobang.auth")


def safe_next(target: str | None) -> str | None:
    """Only a path on this site: no scheme, no host, no protocol-relative or backslash tricks."""
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or "\\" in target or any(ord(c) < 32 for c in target):
        return None
    return target


def _limit_attempts(*keys: object) -> None:
    """Per address, and per whatever else `keys` names (a user guessing their own password
    from many addresses)."""
    limiter = services().auth_limiter
    if request.method == "POST" and not all(
            limiter.hit(key) for key in (request.remote_addr, *keys)):
        abort(429)


def _start_session(user: User) -> None:
    # A fresh session on login: nothing from before the login carries over (no fixation).
    session.clear()
    login_user(user)
    session[SESSION_GENERATION_KEY] = user.session_generation
    session.permanent = True


def _form_errors(form) -> None:
    for errors in form.errors.values():
        for message in errors:
            flash(str(message), "error")  # the session keeps plain strings, not lazy ones


def _account_errors(error: AccountError) -> None:
    for message in error.problems:
        flash(str(message), "error")


@bp.route("/")
def index() -> Response | str:
    """Players go on to the hall; a visitor (or a guest) sees what this site is, the games
    being played to watch, and the way to play the computer as a guest."""
    if current_user.is_authenticated and not current_user.guest:
        return redirect(url_for("play.hall"))
    found = services()
    return render_template(
        "front/index.html",
        activity=front.activity(found.store, found.lobby.presence.elsewhere()),
        live_games=front.live_games(found.lobby.view),
        guests_open=found.guests.open,
        top=players.top_players(5),
        recent=players.recent_finished(),
        min_games=players.RANKED_MIN_GAMES,
        result_label=result_label,
    )


@bp.route("/guest", methods=["POST"])
def guest() -> Response | str:
    """Play the computer as a guest: a new guest account, logged in (a session that is
    already logged in gets none), then the page to start a game from."""
    if current_user.is_authenticated:
        return redirect(url_for("play.computer" if current_user.guest else "play.hall"))
    try:
        user = services().guests.create(request.remote_addr)
    except ActionError as refused:
        code = 429 if refused.code == "rate_limited" else 404 if (
            refused.code == "not_found") else 503
        return render_template("errors/error.html", code=code, title=gettext("Guest play"),
                               message=refused.message), code
    _start_session(user)
    event(_log, "guest", user_id=user.id)
    return redirect(url_for("play.computer"))


@bp.route("/register", methods=["GET", "POST"])
def register() -> Response | str:
    """A new account; from a guest's session, the guest's own account, games and all."""
    _limit_attempts()
    form = RegisterForm()
    guest = current_user if current_user.is_authenticated and current_user.guest else None
    if form.validate_on_submit():
        try:
            user = services().accounts.register(
                form.username.data, form.password.data, form.confirm.data,
                guest=guest._get_current_object() if guest is not None else None,
            )
        except AccountError as exc:
            _account_errors(exc)
        else:
            _start_session(user)
            event(_log, "register", user_id=user.id, was_guest=guest is not None)
            return redirect(url_for("play.hall"))
    else:
        _form_errors(form)
    return render_template("auth/register.html", form=form, guest=guest)


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | str:
    _limit_attempts()
    form = LoginForm()
    if form.validate_on_submit():
        user = services().accounts.authenticate(form.username.data, form.password.data)
        if user is None:
            event(_log, "login_failed", address=request.remote_addr)
            flash(gettext("Wrong username or password."), "error")
        else:
            _start_session(user)
            event(_log, "login", user_id=user.id)
            return redirect(safe_next(request.args.get("next")) or url_for("play.hall"))
    else:
        _form_errors(form)
    return render_template("auth/login.html", form=form)


@bp.route("/logout", methods=["POST"])
def logout() -> Response:
    # Everywhere: a copy of this session's cookie must not log anyone in afterwards.
    if current_user.is_authenticated:
        publish(services().accounts.end_sessions(current_user, LOGGED_OUT))
    logout_user()
    session.clear()
    return redirect(url_for("auth.login"))


def _render_settings(password_form=None, delete_form=None, preferences_form=None) -> str:
    if preferences_form is None:
        preferences_form = PreferencesForm(formdata=None)
        preferences_form.fill(preferences.of(current_user))
    return render_template(
        "auth/settings.html",
        password_form=password_form or ChangePasswordForm(),
        delete_form=delete_form or DeleteAccountForm(),
        preferences_form=preferences_form,
    )


@bp.route("/settings")
@login_required
def settings() -> str:
    return _render_settings()


@bp.route("/settings/preferences", methods=["POST"])
@login_required
def save_preferences() -> Response | str:
    form = PreferencesForm()
    if not form.validate_on_submit():
        _form_errors(form)
        return _render_settings(preferences_form=form)
    current = preferences.of(current_user)
    preferences.save(current_user, preferences.changed(current, form.changes()))
    flash(gettext("Your preferences have been saved."), "info")
    return redirect(url_for("auth.settings"))


@bp.route("/settings/preferences/update", methods=["POST"])
@login_required
def update_preferences() -> tuple[Response, int] | Response:
    """What the page scripts send when a player flips a switch in a game: a JSON object with
    the keys that changed. The answer holds every preference as now saved."""
    changes = request.get_json(silent=True)
    if not isinstance(changes, dict) or not changes:
        problem = gettext("Send the changes as a JSON object.")
        return jsonify(error="bad_request", problems=[problem]), 400
    try:
        saved = preferences.changed(preferences.of(current_user), changes)
    except preferences.PreferenceError as exc:
        return jsonify(error="bad_request", problems=exc.problems), 400
    preferences.save(current_user, saved)
    return jsonify(saved.as_json())


@bp.app_context_processor
def page_preferences() -> dict[str, object]:
    """Every page of a logged-in player carries their preferences (static/js/room/settings.js
    reads them from <body>)."""
    if not current_user.is_authenticated:
        return {"preferences": None}
    return {"preferences": preferences.of(current_user)}


@bp.route("/settings/password", methods=["POST"])
@registered_required
def change_password() -> Response | str:
    _limit_attempts(("account", current_user.id))
    form = ChangePasswordForm()
    if not form.validate_on_submit():
        _form_errors(form)
        return _render_settings(password_form=form)
    try:
        ended = services().accounts.change_password(
            current_user, form.old.data, form.new.data, form.confirm.data
        )
    except AccountError as exc:
        _account_errors(exc)
        return _render_settings(password_form=form)
    # This session goes on; the others, and every live connection, end.
    session[SESSION_GENERATION_KEY] = current_user.session_generation
    publish(ended)
    flash(gettext("Your password has been changed."), "info")
    return redirect(url_for("auth.settings"))


@bp.route("/settings/delete", methods=["POST"])
@registered_required
def delete_account() -> Response | str:
    _limit_attempts(("account", current_user.id))
    form = DeleteAccountForm()
    if not form.validate_on_submit():
        _form_errors(form)
        return _render_settings(delete_form=form)
    try:
        ended = services().accounts.delete(current_user, form.password.data)
    except AccountError as exc:
        _account_errors(exc)
        return _render_settings(delete_form=form)
    publish(ended)
    logout_user()
    session.clear()
    flash(gettext("Your account has been deleted."), "info")
    return redirect(url_for("auth.login"))


@login_manager.user_loader
def load_user(user_id: str) -> User | None:
    """Also for Socket.IO's connect: a session ended elsewhere (logout, password change,
    deletion, ban) logs nobody in, wherever its cookie was copied to."""
    user = db.session.get(User, int(user_id)) if user_id.isdigit() else None
    return user if session_is_current(user, session.get(SESSION_GENERATION_KEY)) else None


@login_manager.unauthorized_handler
def unauthorized() -> Response:
    if request.path.startswith("/api/"):
        return jsonify(error="unauthorized"), 401
    return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
