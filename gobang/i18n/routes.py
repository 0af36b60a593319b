"""The language switcher: a link per language in the page header."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, request, url_for
from werkzeug.wrappers import Response

from gobang.auth.routes import safe_next
from gobang.i18n import COOKIE, COOKIE_MAX_AGE, LANGUAGES

bp = Blueprint("i18n", __name__)


@bp.route("/lang/<language>")
def switch(language: str) -> Response:
    """Remember the language for a year and go back to the page (same-site paths only)."""
    if language not in LANGUAGES:
        abort(404)
    response = redirect(safe_next(request.args.get("next")) or url_for("auth.index"))
    response.set_cookie(
        COOKIE, language, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Lax",
        secure=current_app.config["SESSION_COOKIE_SECURE"],
    )
    return response
