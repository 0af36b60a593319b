"""What following and blocking share: who may be the other end of one, and the list of them."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from gobang.extensions import db
from gobang.models import User
from gobang.services.notices import ActionError


def check_other(user: User, target: User | None, yourself: str) -> User:
    """The other player of a new relation: a person with an account, not the user (a guest
    has no profile to follow or block them from)."""
    if target is None or target.deleted or target.computer_level is not None or target.guest:
        raise ActionError("not_found", gettext("There is no player of that name."))
    if target.id == user.id:
        raise ActionError("bad_request", yourself)
    return target


def saved_once(row: object) -> bool:
    """Add a new relation and commit; False when the same one was saved a moment earlier
    (from another tab: the unique constraint refuses the second)."""
    db.session.add(row)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return False
    return True


def listed(ids: Sequence[int]) -> list[User]:
    """The players of these ids who still have an account, in name order."""
    if not ids:
        return []
    users = db.session.scalars(select(User).where(User.id.in_(ids), User.deleted.is_(False)))
    return sorted(users, key=lambda user: (user.username_key or "", user.id))
