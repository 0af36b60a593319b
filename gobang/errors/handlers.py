"""Error pages: readable HTML for people, JSON for the API."""

from __future__ import annotations

import logging

from flask import Blueprint, flash, jsonify, render_template, request
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import HTTPException, InternalServerError

from gobang.auth.forms import LoginForm, RegisterForm
from gobang.extensions import db

bp = Blueprint("errors", __name__)
log = logging.getLogger("gobang.errors")

# The API's error codes; pages show the titles below in the reader's language.
_CODES = {
    400: "bad_request",
    403: "forbidden",
    404: "page_not_found",
    405: "method_not_allowed",
    429: "too_many_attempts",
    500: "something_went_wrong",
    503: "try_again",
}
_TITLES = {
    400: _l("Bad request"),
    403: _l("Forbidden"),
    404: _l("Page not found"),
    405: _l("Method not allowed"),
    429: _l("Too many attempts"),
    500: _l("Something went wrong"),
    503: _l("Try again in a moment"),
}
_MESSAGES = {
    400: _l("The request could not be understood. Reload the page and try again."),
    404: _l("There is nothing at this address."),
    429: _l("Too many attempts from your address. Wait a minute and try again."),
    500: _l("The server hit an error. The team has been told; please try again."),
    503: _l("The server could not save that just now (its database refused). Nothing was "
            "changed; please try again in a moment."),
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


def _form_page(message: object) -> tuple[str, type] | None:
    """The login and register pages answer every failure with the form and a reason."""
    forms = {"auth.login": ("auth/login.html", LoginForm), "auth.register": (
        "auth/register.html", RegisterForm)}
    found = forms.get(request.endpoint or "")
    if found is not None:
        flash(str(message), "error")
    return found


@bp.app_errorhandler(SQLAlchemyError)
def storage_error(exc: SQLAlchemyError):
    """A locked or full database: a page that says so, the form kept, not a 500."""
    db.session.rollback()
    log.warning("database refused a request", extra={"fields": {
        "path": request.path, "error": type(exc).__name__}})
    form_page = _form_page(_MESSAGES[503])
    if form_page is not None:
        template, form_class = form_page
        return render_template(template, form=form_class()), 503
    return _render(503)


CSRF_MESSAGE = _l("The form was missing its security token or it expired. Please try again.")


@bp.app_errorhandler(CSRFError)
def csrf_error(exc: CSRFError):
    form_page = _form_page(CSRF_MESSAGE)
    if form_page is not None:
        template, form_class = form_page
        return render_template(template, form=form_class()), 200
    if request.path.startswith("/api/"):
        return jsonify(error="bad_request"), 400
    return render_template("errors/error.html", code=400, title=_TITLES[400],
                           message=CSRF_MESSAGE), 400
