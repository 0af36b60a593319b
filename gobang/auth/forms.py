from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField
from wtforms.validators import InputRequired

# Labels and messages are lazy: a form class is built once, and each request reads them in
# its own language.


class LoginForm(FlaskForm):
    username = StringField(_l("Username"), validators=[InputRequired(_l("Enter your username."))])
    password = PasswordField(_l("Password"), validators=[InputRequired(_l("Enter your password."))])


class RegisterForm(FlaskForm):
    username = StringField(_l("Username"), validators=[InputRequired(_l("Choose a username."))])
    password = PasswordField(_l("Password"), validators=[InputRequired(_l("Choose a password."))])
    confirm = PasswordField(
        _l("Confirm password"), validators=[InputRequired(_l("Repeat the password."))]
    )


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
