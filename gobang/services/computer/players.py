"""The computer's user rows: one reserved row per level, made when first needed.

A row has no username key (so nobody logs in as it or finds it by name), an unusable
password, and `computer_level` set; its name holds a character ('·') that registration
refuses, so no person can take a name like it. It never plays a rated game, so its score and
counters stay as they were made and it never reaches the ladder."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from gobang.extensions import db
from gobang.models import User

UNUSABLE_PASSWORD = "!"


def computer_name(number: int) -> str:
    return f"Computer · level {number}"


def computer_user(number: int) -> User:
    """The row that plays as the computer at level `number`."""
    found = db.session.scalar(select(User).where(User.computer_level == number))
    if found is not None:
        return found
    db.session.add(User(username=computer_name(number), username_key=None,
                        password_hash=UNUSABLE_PASSWORD, computer_level=number))
    try:
        db.session.commit()
    except IntegrityError:  # another request made it first
        db.session.rollback()
    return db.session.scalars(select(User).where(User.computer_level == number)).one()
