from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField
from wtforms.validators import InputRequired


class LoginForm(FlaskForm):
    username = StringField("Username", validators=[InputRequired("Enter your username.")])
    password = PasswordField("Password", validators=[InputRequired("Enter your password.")])


class RegisterForm(FlaskForm):
    username = StringField("Username", validators=[InputRequired("Choose a username.")])
    password = PasswordField("Password", validators=[InputRequired("Choose a password.")])
    confirm = PasswordField("Confirm password", validators=[InputRequired("Repeat the password.")])


class ChangePasswordForm(FlaskForm):
    old = PasswordField("Current password", validators=[InputRequired("Enter your password.")])
    new = PasswordField("New password", validators=[InputRequired("Choose a new password.")])
    confirm = PasswordField("Confirm new password", validators=[InputRequired("Repeat it.")])


class DeleteAccountForm(FlaskForm):
    password = PasswordField("Password", validators=[InputRequired("Enter your password.")])
