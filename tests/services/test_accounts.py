"""Accounts through the service alone: the limits of names and passwords, and who may log in."""

from __future__ import annotations

from gobang.extensions import db
from gobang.services.accounts.accounts import (
    PASSWORD_MIN,
    USERNAME_MAX,
    password_problem,
    username_problem,
)


def test_a_password_of_exactly_the_minimum_length_is_accepted():
    assert password_problem("x" * PASSWORD_MIN) is None


def test_a_username_of_exactly_the_maximum_length_is_accepted():
    assert username_problem("a" * USERNAME_MAX) is None


def test_a_banned_player_cannot_log_in_with_the_right_password(env, users):
    (bob,) = users("bob_banned")
    bob.banned = True
    db.session.commit()
    assert env.accounts.authenticate("bob_banned", "password1") is None
