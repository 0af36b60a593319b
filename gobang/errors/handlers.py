"""Error pages: readable HTML for people, JSON for the API."""

from __future__ import annotations

from flask import Blueprint, flash, jsonify, render_template, request
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from gobang.auth.forms import LoginForm, RegisterForm
from gobang.extensions import db

bp = Blueprint("errors", __name__)

# The API's error codes; pages show the titles below in the reader's language.
_CODES = {
    400: "bad_request",
    403: "forbidden",
    404: "page_not_found",
    405: "method_not_allowed",
    429: "too_many_attempts",
    500: "something_went_wrong",
}
_TITLES = {
    400: _l("Bad request"),
    403: _l("Forbidden"),
    404: _l("Page not found"),
    405: _l("Method not allowed"),
    429: _l("Too many attempts"),
    500: _l("Something went wrong"),
}
_MESSAGES = {
    400: _l("The request could not be understood. Reload the page and try again."),
    404: _l("There is nothing at this address."),
    429: _l("Too many attempts from your address. Wait a minute and try again."),
    500: _l("The server hit an error. The team has been told; please try again."),
}


def _render(code: int):
    if request.path.startswith("/api/"):
        return jsonify(error=_CODES.get(code, "error")), code
    return (
        render_template(
            "errors/error.html",
            code=code,
            title=_TITLES.get(code, _l("Error")),
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


CSRF_MESSAGE = _l("The form was missing its security token or it expired. Please try again.")


@bp.app_errorhandler(CSRFError)
def csrf_error(exc: CSRFError):
    # The login and register pages answer every failure with the form and a reason.
    forms = {"auth.login": ("auth/login.html", LoginForm), "auth.register": (
        "auth/register.html", RegisterForm)}
    if request.endpoint in forms:
        template, form_class = forms[request.endpoint]
        flash(str(CSRF_MESSAGE), "error")
        return render_template(template, form=form_class()), 200
    if request.path.startswith("/api/"):
        return jsonify(error="bad_request"), 400
    return render_template("errors/error.html", code=400, title=_TITLES[400],
                           message=CSRF_MESSAGE), 400
