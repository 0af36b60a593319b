"""Joining and withdrawing: at any time while a tournament is scheduled or running."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from gobang.extensions import db
from gobang.models import Tournament, TournamentPlayer, User
from gobang.services.arenas.schedule import OPEN, SCHEDULED, Schedule
from gobang.services.notices import ActionError
from gobang.services.ratings.categories import category_of
from gobang.services.ratings.stored import standing


class Entries:
    def __init__(self, schedule: Schedule) -> None:
        self.schedule = schedule

    def join(self, user: User, tournament_id: int) -> TournamentPlayer:
        """In the pairings from the next tick; a player who withdrew comes back with their
        points."""
        tournament = self._open(user, tournament_id)
        entry = entry_of(tournament.id, user.id)
        if entry is not None:
            entry.withdrawn = False
            db.session.commit()
            return entry
        rating, _provisional = standing(user.id, category_of(tournament.ruleset,
                                                             tournament.time_control()))
        entry = TournamentPlayer(tournament_id=tournament.id, user_id=user.id, rating=rating)
        db.session.add(entry)
        try:
            db.session.commit()
        except IntegrityError:  # the same player's other request was first
            db.session.rollback()
            return self.join(user, tournament_id)
        return entry

    def withdraw(self, user: User, tournament_id: int) -> None:
        """Out of the pairings (a game in play is played out); the points stay. Before the
        start the entry simply goes."""
        tournament = self._open(user, tournament_id)
        entry = entry_of(tournament.id, user.id)
        if entry is None:
            raise ActionError("conflict", gettext("You have not joined this tournament."))
        if tournament.status == SCHEDULED:
            db.session.delete(entry)
        else:
            entry.withdrawn = True
        db.session.commit()

    def _open(self, user: User, tournament_id: int) -> Tournament:
        if user.guest or user.computer_level is not None:
            raise ActionError("registered_only", gettext(
                "Register to play in tournaments: guests can play the computer."))
        tournament = self.schedule.get(tournament_id)
        if tournament.status not in OPEN:
            raise ActionError("conflict", gettext("This tournament is over."))
        return tournament


def entry_of(tournament_id: int, user_id: int) -> TournamentPlayer | None:
    return db.session.scalars(select(TournamentPlayer).where(
        TournamentPlayer.tournament_id == tournament_id,
        TournamentPlayer.user_id == user_id)).first()
