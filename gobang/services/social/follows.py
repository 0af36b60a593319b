"""Following a player: the hall lists the players one follows who are online, with a quick
challenge and a link to the game they play."""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime

from flask_babel import gettext, ngettext
from sqlalchemy import delete, func, select

from gobang.extensions import db
from gobang.models import Block, Follow, User
from gobang.services.notices import ActionError
from gobang.services.social.relations import check_other, listed, saved_once


class Follows:
    def __init__(self, at_most: int, now: Callable[[], datetime]) -> None:
        # How many players one may follow (config FOLLOWS_AT_MOST).
        self.at_most = at_most
        self.now = now

    def follow(self, user: User, target: User | None) -> bool:
        """Follow `target`; False when already followed (nothing changes). Refusals:
        not_found (no such player), bad_request (yourself), conflict (a player you block, or
        as many followed as the limit allows)."""
        target = check_other(user, target, gettext("You cannot follow yourself."))
        if self.follows(user.id, target.id):
            return False
        if db.session.scalar(select(Block.id).where(Block.blocker_id == user.id,
                                                    Block.blocked_id == target.id)):
            raise ActionError("conflict", gettext(
                "You have blocked %(name)s: unblock them to follow them.", name=target.username))
        if self.count(user.id) >= self.at_most:
            raise ActionError("conflict", ngettext(
                "You follow %(num)d player, as many as one can: unfollow someone first.",
                "You follow %(num)d players, as many as one can: unfollow someone first.",
                self.at_most))
        return saved_once(Follow(follower_id=user.id, followed_id=target.id, created_at=self.now()))

    def unfollow(self, user_id: int, target_id: int) -> bool:
        """False when not followed (nothing changes)."""
        gone = self.forget(user_id, target_id)
        db.session.commit()
        return gone

    def forget(self, user_id: int, target_id: int) -> bool:
        """The follow removed, in the caller's transaction (a block removes it)."""
        result = db.session.execute(delete(Follow).where(Follow.follower_id == user_id,
                                                         Follow.followed_id == target_id))
        return bool(result.rowcount)

    def follows(self, user_id: int, target_id: int) -> bool:
        return db.session.scalar(select(Follow.id).where(
            Follow.follower_id == user_id, Follow.followed_id == target_id)) is not None

    def followed_ids(self, user_id: int) -> list[int]:
        return list(db.session.scalars(select(Follow.followed_id)
                                       .where(Follow.follower_id == user_id)))

    def followers_among(self, followed_ids: Collection[int]) -> list[tuple[int, int]]:
        """(follower, followed) for each follow of these players: one query, whoever changed."""
        if not followed_ids:
            return []
        rows = db.session.execute(select(Follow.follower_id, Follow.followed_id)
                                  .where(Follow.followed_id.in_(list(followed_ids))))
        return [(follower, followed) for follower, followed in rows]

    def count(self, user_id: int) -> int:
        """Followed players who still have an account: a closed one no longer counts."""
        return db.session.scalar(
            select(func.count()).select_from(Follow).join(User, User.id == Follow.followed_id)
            .where(Follow.follower_id == user_id, User.deleted.is_(False))) or 0

    def listing(self, user_id: int) -> list[User]:
        """The players the user follows, in name order."""
        return listed(self.followed_ids(user_id))
