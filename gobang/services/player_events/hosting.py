"""Tournaments created by players where the host allows it (config PLAYER_TOURNAMENTS), within
limits, and cancelling: the creator before the start, a moderator any time before the end,
with a reason written to the moderation log. Moderators create as the host does, unlimited."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask_babel import gettext, ngettext
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from gobang.extensions import db
from gobang.models import Tournament, User
from gobang.services.arenas.schedule import ARENA, OPEN, SCHEDULED, Plan, Schedule
from gobang.services.moderation.chat_guard import ChatGuard
from gobang.services.moderation.desk import ModeratorDesk
from gobang.services.notices import ActionError

# A player's event starts 1 minute to 7 days ahead (time to gather players, not so far that
# it holds their one upcoming place for long) and lasts 10 minutes to 3 hours.
SOONEST_START_MINUTES = 1
LATEST_START_MINUTES = 7 * 24 * 60
SHORTEST_MINUTES = 10
LONGEST_MINUTES = 3 * 60
DAY = timedelta(hours=24)
# Who may cancel an event (`Hosting.who_cancels`).
CREATOR, MODERATOR = "creator", "moderator"


@dataclass(frozen=True)
class HostRules:
    """The host's word on players' events (config PLAYER_TOURNAMENTS, TOURNAMENTS_PER_DAY)."""

    allowed: bool
    per_day: int


class Hosting:
    def __init__(self, schedule: Schedule, rules: HostRules, guard: ChatGuard,
                 desk: ModeratorDesk, now: Callable[[], datetime]) -> None:
        self.schedule = schedule
        self.rules = rules
        self.guard = guard
        self.desk = desk
        self.now = now

    def may_create(self, user: User | None) -> bool:
        """Whether the form is offered: to moderators, and to registered players if allowed."""
        if user is None:
            return False
        return user.moderator or (self.rules.allowed and registered(user))

    def limits(self) -> dict[str, int]:
        """A player's event's bounds, as the form states them."""
        return {"soonest": SOONEST_START_MINUTES, "days": LATEST_START_MINUTES // (24 * 60),
                "shortest": SHORTEST_MINUTES, "longest": LONGEST_MINUTES,
                "per_day": self.rules.per_day}

    def create(self, user: User, plan: Plan) -> Tournament:
        """A moderator's event as the host's; a player's within the limits, or refused:
        forbidden (players may not here), registered_only, muted, bad_request (its start,
        its length, a refused word in its name, or the plan itself), conflict (an upcoming
        event of theirs already), rate_limited (TOURNAMENTS_PER_DAY in the last 24 hours)."""
        if user.moderator:
            return self.schedule.create(plan, user.username, created_by_id=user.id)
        self._check(user, plan)
        try:
            return self.schedule.create(plan, user.username, created_by_id=user.id,
                                        by_player=True)
        except IntegrityError:  # the same player's other request was first
            db.session.rollback()
            raise _one_upcoming() from None

    def who_cancels(self, user: User | None, tournament: Tournament) -> str | None:
        """CREATOR: its creator, before it starts; MODERATOR: a moderator, before it ends;
        None: this user may not cancel it."""
        if user is None or tournament.status not in OPEN:
            return None
        if tournament.created_by_id == user.id and tournament.status == SCHEDULED:
            return CREATOR
        return MODERATOR if user.moderator else None

    def cancel(self, user: User, tournament_id: int, reason: str | None = None) -> Tournament:
        """By its creator, or by a moderator with a reason (bad_request without one), logged
        in the same transaction. Refusals: not_found, conflict (over, or started and the
        user is only its creator), forbidden (anyone else)."""
        tournament = self.schedule.get(tournament_id)
        right = self.who_cancels(user, tournament)
        if right is None:
            raise _why_not(user, tournament)
        if right == MODERATOR:
            self.desk.note(user, "cancel_tournament", reason,
                           f"tournament {tournament.id} ({tournament.name})",
                           target=tournament.creator)
        try:
            return self.schedule.cancel(tournament.id)
        except ActionError:  # over meanwhile: the log's entry goes too
            db.session.rollback()
            raise

    def _check(self, user: User, plan: Plan) -> None:
        if not self.rules.allowed:
            raise ActionError("forbidden", gettext(
                "On this server only moderators create tournaments."))
        if not registered(user):
            raise ActionError("registered_only", gettext("Register to create tournaments."))
        self.guard.check_muted(user.id)
        if self.guard.refused(plan.name):
            raise ActionError("bad_request", gettext(
                "The name has a word this server does not allow."))
        if not SOONEST_START_MINUTES <= plan.starts_in_minutes <= LATEST_START_MINUTES:
            raise ActionError("bad_request", gettext(
                "Your tournament starts %(soonest)d minute to %(days)d days from now.",
                soonest=SOONEST_START_MINUTES, days=LATEST_START_MINUTES // (24 * 60)))
        # A Swiss event's length is its rounds, bounded for everyone (arenas/schedule.py).
        if plan.kind == ARENA and not SHORTEST_MINUTES <= (plan.minutes or 0) <= LONGEST_MINUTES:
            raise ActionError("bad_request", gettext(
                "Your arena lasts %(shortest)d to %(longest)d minutes.",
                shortest=SHORTEST_MINUTES, longest=LONGEST_MINUTES))
        if self._has_upcoming(user.id):
            raise _one_upcoming()
        if self._created_lately(user.id) >= self.rules.per_day:
            raise ActionError("rate_limited", ngettext(
                "You may create %(num)d tournament in 24 hours: try again later.",
                "You may create %(num)d tournaments in 24 hours: try again later.",
                self.rules.per_day))

    def _has_upcoming(self, user_id: int) -> bool:
        return db.session.scalar(select(Tournament.id).where(
            Tournament.created_by_id == user_id, Tournament.by_player.is_(True),
            Tournament.status == SCHEDULED).limit(1)) is not None

    def _created_lately(self, user_id: int) -> int:
        """Cancelled ones count too: cancelling does not give a day's place back."""
        return db.session.scalar(select(func.count()).select_from(Tournament).where(
            Tournament.created_by_id == user_id, Tournament.by_player.is_(True),
            Tournament.created_at > self.now() - DAY)) or 0


def registered(user: User) -> bool:
    """A registered player in good standing: not a guest, the computer, deleted or banned."""
    return user.has_profile and not user.banned


def _one_upcoming() -> ActionError:
    return ActionError("conflict", gettext(
        "You already have a tournament to come: one at a time, until it starts."))


def _why_not(user: User, tournament: Tournament) -> ActionError:
    if tournament.status not in OPEN:
        return ActionError("conflict", gettext("That tournament is already over."))
    if tournament.created_by_id == user.id:
        return ActionError("conflict", gettext(
            "It has started: only a moderator can cancel it now."))
    return ActionError("forbidden", gettext(
        "Only its creator or a moderator can cancel a tournament."))
