"""Error pages: readable HTML for people, JSON for the API."""

from __future__ import annotations

from flask import Blueprint, flash, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from gobang.auth.forms import LoginForm, RegisterForm
from gobang.extensions import db

bp = Blueprint("errors", __name__)

_TITLES = {
    400: "Bad request",
    403: "Forbidden",
    404: "Page not found",
    405: "Method not allowed",
    429: "Too many attempts",
    500: "Something went wrong",
}
_MESSAGES = {
    400: "The request could not be understood. Reload the page and try again.",
    404: "There is nothing at this address.",
    429: "Too many attempts from your address. Wait a minute and try again.",
    500: "The server hit an error. The team has been told; please try again.",
}


def _render(code: int):
    if request.path.startswith("/api/"):
        return jsonify(error=_TITLES.get(code, "error").lower().replace(" ", "_")), code
    return (
        render_template(
            "errors/error.html",
            code=code,
            title=_TITLES.get(code, "Error"),
            message=_MESSAGES.get(code, ""),
        ),
        code,
    )


@bp.app_errorhandler(HTTPException)
def http_error(exc: HTTPException):
    return _render(exc.code or 500)


@bp.app_errorhandler(InternalServerError)
def server_error(exc: InternalServerError):
    db.session.rollback()
    return _render(500)


CSRF_MESSAGE = "The form was missing its security token or it expired. Please try again."


@bp.app_errorhandler(CSRFError)
def csrf_error(exc: CSRFError):
    # The login and register pages answer every failure with the form and a reason.
    forms = {"auth.login": ("auth/login.html", LoginForm), "auth.register": (
        "auth/register.html", RegisterForm)}
    if request.endpoint in forms:
        template, form_class = forms[request.endpoint]
        flash(CSRF_MESSAGE, "error")
        return render_template(template, form=form_class()), 200
    if request.path.startswith("/api/"):
        return jsonify(error="bad_request"), 400
    return render_template("errors/error.html", code=400, title="Bad request",
                           message=CSRF_MESSAGE), 400
