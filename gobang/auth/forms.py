from __future__ import annotations

from collections.abc import Callable

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Field, PasswordField, StringField
from wtforms.validators import EqualTo, InputRequired, ValidationError

from gobang.services.accounts.accounts import password_problem
from gobang.services.registry import services

# Labels and messages are lazy: a form class is built once, and each request reads them in
# its own language.


class Checked:
    """Runs one of the accounts service's checks, so that the form reports every problem at
    once and the service stays the one place the rules are written."""

    def __init__(self, problem: Callable[[str], str | None]) -> None:
        self.problem = problem

    def __call__(self, form: FlaskForm, field: Field) -> None:
        message = self.problem(field.data)
        if message:
            raise ValidationError(message)


def _name_problem(username: str) -> str | None:
    return services().accounts.name_problem(username)


class LoginForm(FlaskForm):
    username = StringField(_l("Username"), validators=[InputRequired(_l("Enter your username."))])
    password = PasswordField(_l("Password"), validators=[InputRequired(_l("Enter your password."))])


class RegisterForm(FlaskForm):
    username = StringField(_l("Username"), validators=[
        InputRequired(_l("Choose a username.")), Checked(_name_problem)])
    password = PasswordField(_l("Password"), validators=[
        InputRequired(_l("Choose a password.")), Checked(password_problem)])
    confirm = PasswordField(_l("Confirm password"), validators=[
        InputRequired(_l("Repeat the password.")),
        EqualTo("password", _l("The two passwords do not match."))])


class ChangePasswordForm(FlaskForm):
    old = PasswordField(
        _l("Current password"), validators=[InputRequired(_l("Enter your password."))]
    )
    new = PasswordField(
        _l("New password"), validators=[InputRequired(_l("Choose a new password."))]
    )
    confirm = PasswordField(
        _l("Confirm new password"), validators=[InputRequired(_l("Repeat it."))]
    )


class DeleteAccountForm(FlaskForm):
    password = PasswordField(_l("Password"), validators=[InputRequired(_l("Enter your password."))])
