"""The analysis requests, in the database: one queue for every server process, kept across
restarts and crashes.

A request is `queued` until a process with a free worker claims it (`running`, with that
process as `owner` and a lease it renews on every tick), and is deleted in the same commit as
its stored analysis. A process that dies leaves its lease to run out: the next process to
tick counts the lost attempt and puts the request back at the head of the queue (its place
is its request time), or fails it when out of attempts. A process that stops cleanly hands
its requests back without counting an attempt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask_babel import gettext
from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from gobang.extensions import db
from gobang.models import AnalysisRequest
from gobang.services.notices import ActionError

QUEUED, RUNNING, FAILED = "queued", "running", "failed"
PENDING = (QUEUED, RUNNING)
# How long a claim holds without its owner's tick: a crashed process's requests wait this
# long before another process takes them up.
LEASE_SECONDS = 10.0


@dataclass(frozen=True)
class QueueState:
    """Where a game's analysis stands in the queue."""

    status: str  # queued, running or failed; "none" when the queue holds nothing for it
    position: int | None = None
    progress: dict[str, int] | None = None


NOTHING = QueueState("none")


class RequestBook:
    def __init__(self, now: Callable[[], datetime], owner: str, retries: int,
                 lease_seconds: float = LEASE_SECONDS) -> None:
        self._now = now
        # This process, as the `owner` of the requests it analyses.
        self.owner = owner
        self._retries = retries
        self._lease = timedelta(seconds=lease_seconds)

    # --- asking and reading -------------------------------------------------------------

    def add(self, game_id: int, user_id: int, at_most: int) -> None:
        """Queue the game for `user_id`; a game already pending keeps its place (whoever
        asked). ActionError `conflict` when the player has another one pending,
        `unavailable` when `at_most` are pending in all."""
        row = db.session.scalar(select(AnalysisRequest)
                                .where(AnalysisRequest.game_id == game_id))
        if row is not None and row.status in PENDING:
            return
        if self.pending_for(user_id):
            raise ActionError("conflict", gettext(
                "You already have a game waiting for analysis. Ask again once it is done."))
        if self._pending_count() >= at_most:
            raise ActionError("unavailable", gettext(
                "The analysis queue is full. Please try again later."))
        if row is None:
            db.session.add(AnalysisRequest(game_id=game_id, user_id=user_id,
                                           requested_at=self._now()))
        else:  # failed before: asked again, it starts over at the back
            row.user_id, row.requested_at, row.status = user_id, self._now(), QUEUED
            row.attempts, row.owner, row.lease_until, row.done, row.total = 0, None, None, 0, 0
        try:
            db.session.commit()
        except IntegrityError:  # the other player asked for it a moment earlier: it is queued
            db.session.rollback()

    def state(self, game_id: int) -> QueueState:
        row = db.session.scalar(select(AnalysisRequest)
                                .where(AnalysisRequest.game_id == game_id))
        if row is None:
            return NOTHING
        if row.status == RUNNING:
            return QueueState(RUNNING, None, {"done": row.done, "total": row.total})
        if row.status == QUEUED:
            return QueueState(QUEUED, self._place(row))
        return QueueState(FAILED)

    def pending_for(self, user_id: int) -> bool:
        return db.session.scalar(select(AnalysisRequest.id).where(
            AnalysisRequest.user_id == user_id,
            AnalysisRequest.status.in_(PENDING)).limit(1)) is not None

    def _pending_count(self) -> int:
        return db.session.scalar(select(func.count()).select_from(AnalysisRequest)
                                 .where(AnalysisRequest.status.in_(PENDING))) or 0

    @staticmethod
    def _place(row: AnalysisRequest) -> int:
        """1 for the next to be taken up: the queued requests asked before this one, + 1."""
        ahead = select(func.count()).select_from(AnalysisRequest).where(
            AnalysisRequest.status == QUEUED,
            or_(AnalysisRequest.requested_at < row.requested_at,
                and_(AnalysisRequest.requested_at == row.requested_at,
                     AnalysisRequest.id < row.id)))
        return (db.session.scalar(ahead) or 0) + 1

    # --- the owner's side ---------------------------------------------------------------

    def claim(self) -> int | None:
        """Take the first queued request for this process: its game id, or None when none
        is left. A request another process took at the same moment is passed over."""
        self._take_back_lapsed()
        while True:
            row = db.session.execute(
                select(AnalysisRequest.id, AnalysisRequest.game_id)
                .where(AnalysisRequest.status == QUEUED)
                .order_by(AnalysisRequest.requested_at, AnalysisRequest.id).limit(1)).first()
            if row is None:
                db.session.commit()
                return None
            taken = db.session.execute(
                update(AnalysisRequest)
                .where(AnalysisRequest.id == row.id, AnalysisRequest.status == QUEUED)
                .values(status=RUNNING, owner=self.owner, lease_until=self._until(), done=0,
                        total=0))
            db.session.commit()
            if taken.rowcount == 1:
                return row.game_id

    def renew(self, progress: dict[int, tuple[int, int]]) -> None:
        """Extend this process's leases, with each running game's (done, total)."""
        until = self._until()
        for game_id, (done, total) in progress.items():
            db.session.execute(
                update(AnalysisRequest)
                .where(AnalysisRequest.game_id == game_id, AnalysisRequest.owner == self.owner,
                       AnalysisRequest.status == RUNNING)
                .values(lease_until=until, done=done, total=total))
        db.session.commit()

    def lost(self, game_id: int) -> bool:
        """This process's attempt at the game ended without a result: back to the head of
        the queue with one more attempt counted, or failed when out of them (False)."""
        row = self._owned(game_id)
        if row is None:
            return False
        again = self._count_attempt(row)
        db.session.commit()
        return again

    def fail(self, game_id: int) -> None:
        """No point trying again (the worker refused the moves, or the result could not be
        stored)."""
        db.session.execute(update(AnalysisRequest).where(AnalysisRequest.game_id == game_id)
                           .values(status=FAILED, owner=None, lease_until=None))
        db.session.commit()

    def hand_back(self) -> None:
        """Stopping cleanly: this process's requests go back to the queue as they were."""
        db.session.execute(
            update(AnalysisRequest)
            .where(AnalysisRequest.owner == self.owner, AnalysisRequest.status == RUNNING)
            .values(status=QUEUED, owner=None, lease_until=None, done=0))
        db.session.commit()

    def _take_back_lapsed(self) -> None:
        """Requests whose owner stopped renewing (a crash): one attempt lost each."""
        lapsed = db.session.scalars(select(AnalysisRequest).where(
            AnalysisRequest.status == RUNNING, AnalysisRequest.lease_until < self._now()))
        for row in lapsed:
            self._count_attempt(row)
        db.session.commit()

    def _count_attempt(self, row: AnalysisRequest) -> bool:
        row.attempts += 1
        row.owner, row.lease_until, row.done = None, None, 0
        row.status = QUEUED if row.attempts <= self._retries else FAILED
        return row.status == QUEUED

    def _owned(self, game_id: int) -> AnalysisRequest | None:
        return db.session.scalar(select(AnalysisRequest).where(
            AnalysisRequest.game_id == game_id, AnalysisRequest.owner == self.owner,
            AnalysisRequest.status == RUNNING))

    def _until(self) -> datetime:
        return self._now() + self._lease


def forget_request(game_id: int) -> None:
    """In the stored analysis's transaction: the request is answered (not committed here)."""
    db.session.execute(delete(AnalysisRequest).where(AnalysisRequest.game_id == game_id))
