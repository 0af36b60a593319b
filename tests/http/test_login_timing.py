"""Logging in costs the same for a name that exists and one that does not: one password
verification at the configured argon2 cost either way, so the time taken tells nothing."""

from __future__ import annotations

import pytest

from gobang.services.accounts.accounts import Accounts
from gobang.services.accounts.passwords import Passwords

PASSWORD = "correct horse"


class CountingPasswords(Passwords):
    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_kib=1024, parallelism=1)
        self.verified: list[str] = []

    def verify(self, stored: str, password: str) -> bool:
        self.verified.append(stored)
        return super().verify(stored, password)


@pytest.fixture
def accounts(app):
    with app.app_context():
        found = Accounts(CountingPasswords())
        found.register("alice", PASSWORD, PASSWORD)
        found.register("bob", PASSWORD, PASSWORD)
        yield found


def ban(accounts: Accounts, name: str) -> None:
    accounts.find(name).banned = True


@pytest.mark.parametrize(("username", "password", "logged_in"), [
    ("alice", PASSWORD, True),
    ("alice", "wrong password", False),
    ("nobody", PASSWORD, False),
    ("nobody", "wrong password", False),
    ("bob", PASSWORD, False),  # banned
])
def test_every_login_attempt_costs_exactly_one_verification(accounts, username, password,
                                                             logged_in):
    ban(accounts, "bob")
    accounts.passwords.verified.clear()
    assert (accounts.authenticate(username, password) is not None) is logged_in
    assert len(accounts.passwords.verified) == 1


def test_unknown_names_are_checked_against_an_argon2_hash_of_the_same_cost(accounts):
    accounts.authenticate("nobody", PASSWORD)
    accounts.authenticate("alice", PASSWORD)
    unknown, known = accounts.passwords.verified
    assert unknown.startswith("$argon2id$")
    assert unknown.split("$")[2:4] == known.split("$")[2:4]  # version and cost parameters


def test_the_unknown_name_hash_is_made_once(accounts):
    accounts.authenticate("nobody", PASSWORD)
    accounts.authenticate("someone", PASSWORD)
    first, second = accounts.passwords.verified
    assert first == second
