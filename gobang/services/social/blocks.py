"""Blocking a player: no challenge or chat line of theirs reaches you, the matcher never
pairs the two of you, and they are not told (docs/protocol.md, "Blocking").

The blocker is told plainly when they try to reach someone they block (`blocked`); the
blocked player's attempts go unanswered, as a challenge nobody takes up does."""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime

from flask_babel import gettext, ngettext
from sqlalchemy import delete, func, or_, select

from gobang.extensions import db
from gobang.models import Block, User
from gobang.services.notices import ActionError
from gobang.services.social.follows import Follows
from gobang.services.social.relations import check_other, listed, saved_once

# Queued players whose blocks one query reads.
APART_READ = 10_000


class Blocks:
    def __init__(self, at_most: int, now: Callable[[], datetime], follows: Follows) -> None:
        # How many players one may block (config BLOCKS_AT_MOST).
        self.at_most = at_most
        self.now = now
        self.follows = follows

    def block(self, user: User, target: User | None) -> bool:
        """Block `target` (and stop following them); False when already blocked (nothing
        changes). Refusals: not_found, bad_request (yourself), conflict (the limit)."""
        target = check_other(user, target, gettext("You cannot block yourself."))
        if self.blocks(user.id, target.id):
            return False
        if self.count(user.id) >= self.at_most:
            raise ActionError("conflict", ngettext(
                "You block %(num)d player, as many as one can: unblock someone first.",
                "You block %(num)d players, as many as one can: unblock someone first.",
                self.at_most))
        self.follows.forget(user.id, target.id)
        return saved_once(Block(blocker_id=user.id, blocked_id=target.id, created_at=self.now()))

    def unblock(self, user_id: int, target_id: int) -> bool:
        """False when not blocked (nothing changes)."""
        result = db.session.execute(delete(Block).where(Block.blocker_id == user_id,
                                                        Block.blocked_id == target_id))
        db.session.commit()
        return bool(result.rowcount)

    def blocks(self, user_id: int, target_id: int) -> bool:
        """Whether `user_id` blocks `target_id`."""
        return db.session.scalar(select(Block.id).where(
            Block.blocker_id == user_id, Block.blocked_id == target_id)) is not None

    def between(self, user_id: int, other_id: int) -> tuple[bool, bool]:
        """(the user blocks the other, the other blocks the user), in one query."""
        blockers = set(db.session.scalars(select(Block.blocker_id).where(or_(
            (Block.blocker_id == user_id) & (Block.blocked_id == other_id),
            (Block.blocker_id == other_id) & (Block.blocked_id == user_id)))))
        return user_id in blockers, other_id in blockers

    def blocked_ids(self, user_id: int) -> frozenset[int]:
        """The players the user blocks."""
        return frozenset(db.session.scalars(select(Block.blocked_id)
                                            .where(Block.blocker_id == user_id)))

    def blocker_ids(self, user_id: int) -> tuple[int, ...]:
        """The players who block the user: those a chat line of theirs must not reach."""
        return tuple(db.session.scalars(select(Block.blocker_id)
                                        .where(Block.blocked_id == user_id)))

    def apart(self, user_ids: Collection[int]) -> set[frozenset[int]]:
        """The pairs among these players that must never be paired: either blocks the other.
        One query for the whole match queue (one per APART_READ players: SQLite takes at most
        32,766 values in a statement)."""
        if len(user_ids) < 2:
            return set()
        ids, found = sorted(user_ids), set(user_ids)
        pairs: set[frozenset[int]] = set()
        for start in range(0, len(ids), APART_READ):
            rows = db.session.execute(select(Block.blocker_id, Block.blocked_id).where(
                Block.blocker_id.in_(ids[start:start + APART_READ])))
            pairs.update(frozenset(row) for row in rows if row[1] in found)
        return pairs

    def count(self, user_id: int) -> int:
        """Blocked players who still have an account: a closed one no longer counts."""
        return db.session.scalar(
            select(func.count()).select_from(Block).join(User, User.id == Block.blocked_id)
            .where(Block.blocker_id == user_id, User.deleted.is_(False))) or 0

    def listing(self, user_id: int) -> list[User]:
        """The players the user blocks, in name order."""
        return listed(sorted(self.blocked_ids(user_id)))
