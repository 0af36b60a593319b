from __future__ import annotations

from collections.abc import Callable

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, PasswordField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import AnyOf, EqualTo, InputRequired, ValidationError

from gobang.auth.preferences import THEMES, Preferences
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


# The confirm-moves choice as the form spells it, and what is stored for each.
CONFIRM_CHOICES = {"auto": None, "on": True, "off": False}


class PreferencesForm(FlaskForm):
    sound = BooleanField(_l("Sound"))
    numbers = BooleanField(_l("Move numbers"))
    confirm = SelectField(_l("Confirm moves"), validate_choice=False, choices=[
        SelectChoice("auto", _l("On touch screens only")), SelectChoice("on", _l("Always")),
        SelectChoice("off", _l("Never"))],
        validators=[AnyOf(list(CONFIRM_CHOICES), _l("Choose when to confirm moves."))])
    forbidden = BooleanField(_l("Show forbidden points (renju)"))
    theme = SelectField(_l("Board theme"), validate_choice=False, choices=[
        SelectChoice("wood", _l("Wood")), SelectChoice("plain", _l("Plain"))],
        validators=[AnyOf(list(THEMES), _l("Choose one of the offered board themes."))])
    spectator_chat = BooleanField(_l("Show spectators' chat while I play"))

    def fill(self, preferences: Preferences) -> None:
        """Shows the saved values (on a GET: a POST shows what was sent)."""
        self.sound.data, self.numbers.data = preferences.sound, preferences.numbers
        self.forbidden.data, self.theme.data = preferences.forbidden, preferences.theme
        self.confirm.data = next(k for k, v in CONFIRM_CHOICES.items() if v is preferences.confirm)
        self.spectator_chat.data = preferences.spectator_chat

    def changes(self) -> dict[str, object]:
        return {"sound": self.sound.data, "numbers": self.numbers.data,
                "confirm": CONFIRM_CHOICES[self.confirm.data],
                "forbidden": self.forbidden.data, "theme": self.theme.data,
                "spectator_chat": self.spectator_chat.data}
