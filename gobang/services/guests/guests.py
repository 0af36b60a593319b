"""Guest accounts: a visitor presses "Play the computer as a guest" and gets an account of
their own at once, with a generated name, no password, and unrated games against the
computer only. Registering from that session (Accounts.register with the guest) turns the
same row into a full account, so every game the guest played stays theirs.

What a guest may not do (join pools, challenge or be challenged, chat, report, change a
password) is refused where each is done; docs/protocol.md, "Guests", lists them. Here: making
guests, at most so many per client address an hour, and removing the old ones nobody played
with."""

from __future__ import annotations

import random
from datetime import datetime

from flask_babel import gettext
from sqlalchemy import delete, exists, or_, select
from sqlalchemy.exc import IntegrityError

from gobang.extensions import db
from gobang.models import Game, ModerationEntry, Report, User, username_key
from gobang.services.computer.players import UNUSABLE_PASSWORD
from gobang.services.notices import ActionError
from gobang.services.ratelimit import Limiter

# "Guest 482913": the space is a character registration refuses, so no person can take a
# guest's name, and a guest's name is never a person's.
GUEST_PREFIX = "Guest"
NAME_DIGITS = 6
# Names drawn before giving up: with a million names, a clash is rare and two in a row rarer.
NAME_TRIES = 5


def guest_name(rng: random.Random) -> str:
    low = 10 ** (NAME_DIGITS - 1)
    return f"{GUEST_PREFIX} {rng.randrange(low, 10 * low)}"


class Guests:
    def __init__(self, limiter: Limiter, rng: random.Random, initial_score: int,
                 per_hour: int) -> None:
        # Guest accounts made per client address (an hour's window, across processes).
        self.limiter = limiter
        self.rng = rng
        self.initial_score = initial_score
        # 0: the host offers no guest accounts.
        self.open = per_hour > 0

    def create(self, address: str | None) -> User:
        """A new guest account (committed). Refused (ActionError): `not_found` when the host
        offers none, `rate_limited` past the limit of the client's address, `conflict` when
        no free name was drawn."""
        if not self.open:
            raise ActionError("not_found", gettext("This server does not offer guest play."))
        if not self.limiter.hit(address):
            raise ActionError("rate_limited", gettext(
                "Too many guest accounts were made from your address in the last hour. "
                "Register, or try again later."))
        for _ in range(NAME_TRIES):
            name = guest_name(self.rng)
            user = User(username=name, username_key=username_key(name), username_skeleton=None,
                        password_hash=UNUSABLE_PASSWORD, score=self.initial_score, guest=True)
            db.session.add(user)
            try:
                db.session.commit()
            except IntegrityError:  # the name is taken: draw another
                db.session.rollback()
                continue
            return user
        raise ActionError("conflict", gettext("No guest name was free just now; try again."))

    def remove_unused(self, made_before: datetime) -> int:
        """Delete the guest accounts made before `made_before` that nothing refers to (no
        game, report or moderation entry): visitors who looked and left. Returns how many."""
        unused = (User.guest.is_(True), User.created_at < made_before,
                  ~exists().where(or_(Game.black_id == User.id, Game.white_id == User.id)),
                  ~exists().where(or_(Report.target_id == User.id,
                                      Report.reporter_id == User.id)),
                  ~exists().where(ModerationEntry.target_id == User.id))
        ids = list(db.session.scalars(select(User.id).where(*unused)))
        if ids:
            db.session.execute(delete(User).where(User.id.in_(ids)))
        db.session.commit()
        return len(ids)
