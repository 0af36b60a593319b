"""Creating, listing and cancelling tournaments (the host's `flask tournament` commands)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask_babel import gettext
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from gobang.extensions import db
from gobang.models import Tournament
from gobang.services.notices import ActionError
from gobang.services.openings.stored import check_opening
from gobang.services.pools import TimeControl
from gobang.services.validation import ruleset_choice

SCHEDULED, RUNNING, FINISHED, CANCELLED = "scheduled", "running", "finished", "cancelled"
OPEN = (SCHEDULED, RUNNING)  # players may join or withdraw
ARENA, SWISS = "arena", "swiss"
KINDS = (ARENA, SWISS)
NAME_LENGTH = 80
LONGEST_MINUTES = 24 * 60
FURTHEST_START = 366 * 24 * 60
MOST_ROUNDS = 20  # a long weekend's Swiss; more would outlast the players
RECENT = 10

Now = Callable[[], datetime]


@dataclass(frozen=True)
class Plan:
    """What the host asks for; checked by `Schedule.create`. An arena lasts `minutes`; a
    Swiss event (`kind` SWISS) plays `rounds` rounds instead and has no minutes."""

    name: str
    ruleset: str
    clock: TimeControl
    minutes: int | None
    starts_in_minutes: float
    min_players: int = 2
    rated: bool = True
    opening: str = "none"
    kind: str = ARENA
    rounds: int | None = None


def parse_clock(text: str) -> TimeControl:
    """"180+2" (seconds + seconds a move) or "none"."""
    if text.strip().lower() == "none":
        return None
    try:
        initial, increment = (int(part) for part in text.split("+"))
    except ValueError:
        raise ActionError("bad_request", gettext(
            "A clock is written as seconds+increment, such as 180+2, or none.")) from None
    if initial <= 0 or increment < 0:
        raise ActionError("bad_request", gettext(
            "A clock needs some initial time and an increment of 0 or more."))
    return (initial, increment)


def ends_at(tournament: Tournament) -> datetime | None:
    """An arena's end; None for a Swiss event, which ends with its last round."""
    if tournament.minutes is None:
        return None
    return tournament.starts_at + timedelta(minutes=tournament.minutes)


class Schedule:
    def __init__(self, now: Now) -> None:
        self.now = now

    def create(self, plan: Plan, created_by: str, created_by_id: int | None = None,
               by_player: bool = False) -> Tournament:
        """`created_by_id`: the creator's account (the host has none); `by_player`: made under
        the players' limits, which the database's unique index holds for the one upcoming
        event (IntegrityError, rolled back by the caller)."""
        _check(plan)
        tournament = Tournament(
            kind=plan.kind, name=plan.name.strip(), ruleset=plan.ruleset,
            clock_initial=plan.clock[0] if plan.clock else None,
            clock_increment=plan.clock[1] if plan.clock else None, opening=plan.opening,
            rated=plan.rated, starts_at=self.now() + timedelta(minutes=plan.starts_in_minutes),
            # Each kind keeps only its own length: a Swiss event's minutes would mean nothing.
            minutes=plan.minutes if plan.kind == ARENA else None,
            rounds=plan.rounds if plan.kind == SWISS else None, min_players=plan.min_players,
            status=SCHEDULED, created_by=created_by, created_by_id=created_by_id,
            by_player=by_player, created_at=self.now())
        db.session.add(tournament)
        db.session.commit()
        return tournament

    def get(self, tournament_id: int) -> Tournament:
        tournament = db.session.get(Tournament, tournament_id)
        if tournament is None:
            raise ActionError("not_found", gettext("There is no tournament with that id."))
        return tournament

    def cancel(self, tournament_id: int) -> Tournament:
        """Only before it ends; games in play are played out (they count for nobody's table
        any more, but ratings change as for any rated game)."""
        tournament = self.get(tournament_id)
        if tournament.status not in OPEN:
            raise ActionError("conflict", gettext("That tournament is already over."))
        tournament.status = CANCELLED
        db.session.commit()
        return tournament

    def of_status(self, *statuses: str) -> list[Tournament]:
        return list(db.session.scalars(select(Tournament).where(
            Tournament.status.in_(statuses)).order_by(Tournament.starts_at, Tournament.id)
            .options(selectinload(Tournament.creator))))

    def recent(self, limit: int = RECENT) -> list[Tournament]:
        return list(db.session.scalars(select(Tournament).where(
            Tournament.status.in_((FINISHED, CANCELLED))).order_by(
            Tournament.starts_at.desc(), Tournament.id.desc()).limit(limit)
            .options(selectinload(Tournament.creator))))


def _check(plan: Plan) -> None:
    name = plan.name.strip()
    if not name or len(name) > NAME_LENGTH:
        raise ActionError("bad_request", gettext(
            "A tournament's name has 1 to %(count)d characters.", count=NAME_LENGTH))
    ruleset_choice(plan.ruleset)
    check_opening(plan.ruleset, plan.opening)
    _check_length(plan)
    if not math.isfinite(plan.starts_in_minutes) or plan.starts_in_minutes > FURTHEST_START:
        # "nan" and "inf" read as numbers from a form, and no date is that far.
        raise ActionError("bad_request", gettext("A tournament starts within a year."))
    if plan.starts_in_minutes < 0:
        raise ActionError("bad_request", gettext("A tournament cannot start in the past."))
    if plan.min_players < 2:
        raise ActionError("bad_request", gettext("A tournament needs at least 2 players."))


def _check_length(plan: Plan) -> None:
    """An arena's minutes, a Swiss event's rounds (the other is not asked for)."""
    if plan.kind not in KINDS:
        raise ActionError("bad_request", gettext("A tournament is an arena or a Swiss event."))
    if plan.kind == SWISS:
        if plan.rounds is None or not 1 <= plan.rounds <= MOST_ROUNDS:
            raise ActionError("bad_request", gettext(
                "A Swiss event has 1 to %(count)d rounds.", count=MOST_ROUNDS))
    elif plan.minutes is None or not 1 <= plan.minutes <= LONGEST_MINUTES:
        raise ActionError("bad_request", gettext(
            "A tournament lasts 1 to %(count)d minutes.", count=LONGEST_MINUTES))
