"""The Swiss events' tick, run by the leader's ticker next to the arenas'.

For each running event, in this order:
1. boards of the current round without their game get it (right after the round is paired;
   again on a later tick if the leader stopped in between, or a player was busy);
2. while a game of the round is in play, nothing more;
3. once every game of the round has ended: after the last round the event is finished;
   else, once `pause` seconds have passed since the round's last game ended, the next round
   is paired among the players present and stored, boards and bye in one transaction, then
   its games are made (step 1).

Present: joined and not withdrawn, a page of the site open (as the arenas ask), no game in
play elsewhere (one live game per player). Everyone else entered is absent that round and
scores nothing. With fewer than 2 present, or a field the absolute rules cannot pair, the
round waits one pause more for players to come (a page reconnecting, a game elsewhere
ending), tried again every tick; then the event ends there: finished with the rounds played,
or cancelled if none was.

A round is stored once: the boards are unique per (event, round, board), so a second attempt
(another process that believes it leads) fails whole and stores nothing. A board gets one
game: its `tournament_games` row is unique per board."""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta
from functools import partial

from sqlalchemy.exc import IntegrityError

from gobang.extensions import db
from gobang.logs import event
from gobang.models import Tournament, TournamentGame
from gobang.services.arenas.director import Director, active_players, of_status, start_or_cancel
from gobang.services.arenas.schedule import CANCELLED, FINISHED, RUNNING, SCHEDULED, SWISS, Now
from gobang.services.arenas.starter import GameStarter
from gobang.services.notices import Notice
from gobang.services.play.maintenance import Maintenance
from gobang.services.swiss.rounds import Rounds, StoredBoard, rounds_of, store_round
from gobang.services.tournaments.swiss import NoPairing
from gobang.vocabulary import BLACK, WHITE

log = logging.getLogger("gobang.tournaments")


class SwissDirector:
    def __init__(self, arenas: Director, starter: GameStarter, maintenance: Maintenance,
                 now: Now, rng: random.Random, pause_seconds: float) -> None:
        # The arenas' director says who is free: online and without a game in play.
        self.arenas = arenas
        self.starter = starter
        self.maintenance = maintenance
        self.now = now
        self.rng = rng
        self.pause = timedelta(seconds=pause_seconds)

    def tick(self) -> list[Notice]:
        now = self.now()
        for tournament in of_status(SWISS, SCHEDULED):
            if tournament.starts_at <= now:
                start_or_cancel(tournament)
        notices: list[Notice] = []
        for tournament in of_status(SWISS, RUNNING):
            notices += self.advance(tournament)
        return notices

    def advance(self, tournament: Tournament) -> list[Notice]:
        rounds = rounds_of(tournament.id)
        if rounds.waiting():
            # No new game starts in maintenance mode: the boards wait.
            return [] if self.maintenance.on else self._make_games(tournament, rounds.waiting())
        if not rounds.round_over():
            return []
        if rounds.played >= (tournament.rounds or 0):
            return self._end(tournament, FINISHED)
        if self._pausing(rounds) or self.maintenance.on:
            return []
        return self._pair(tournament, rounds)

    def next_round_at(self, rounds: Rounds) -> datetime | None:
        """When the next round may be paired: the round's last game's end plus the pause;
        None before the first round (paired at the start) or after a round of byes."""
        ended = rounds.last_ended()
        return None if ended is None else ended + self.pause

    def _pausing(self, rounds: Rounds) -> bool:
        due = self.next_round_at(rounds)
        return due is not None and self.now() < due

    def _pair(self, tournament: Tournament, rounds: Rounds) -> list[Notice]:
        present = set(self.arenas.free_players(active_players(tournament.id)))
        number = rounds.played + 1
        if len(present) < 2:
            return self._short(tournament, rounds, "fewer than 2 players present")
        swiss = rounds.event()
        try:
            pairing = swiss.pair_next(set(rounds.ratings) - present,
                                      self.rng.choice((BLACK, WHITE)))
        except NoPairing as why:
            return self._short(tournament, rounds, str(why))
        try:
            store_round(tournament.id, number, pairing)
        except IntegrityError:  # stored already, by another process: nothing is doubled
            db.session.rollback()
            log.warning("swiss event %s: round %s was already paired", tournament.id, number)
            return []
        event(log, "swiss_round_paired", tournament_id=tournament.id, round=number,
              boards=len(pairing.boards), bye=pairing.bye)
        return self._make_games(tournament, rounds_of(tournament.id).waiting())

    def _short(self, tournament: Tournament, rounds: Rounds, why: str) -> list[Notice]:
        """A round due that cannot be paired: it waits one pause from when it was due, then
        the event ends with the rounds played (cancelled if none was)."""
        due = self.next_round_at(rounds) or tournament.starts_at
        if self.now() < due + self.pause:
            return []
        log.warning("swiss event %s ends before round %s: %s", tournament.id,
                    rounds.played + 1, why)
        return self._end(tournament, FINISHED if rounds.played else CANCELLED)

    def _make_games(self, tournament: Tournament, boards: list[StoredBoard]) -> list[Notice]:
        games = [(board.black, board.white, partial(_link, tournament.id, board.id))
                 for board in boards if board.white is not None]
        try:
            return self.starter.start(tournament, games)
        except IntegrityError:  # a board's game made meanwhile by another process
            db.session.rollback()
            log.warning("swiss event %s: a board already has its game", tournament.id)
            return []

    def _end(self, tournament: Tournament, status: str) -> list[Notice]:
        tournament.status = status
        db.session.commit()
        event(log, f"tournament_{status}", tournament_id=tournament.id)
        return []


def _link(tournament_id: int, board_id: int, game_id: int) -> TournamentGame:
    """Stored in the game's own transaction: the board's game, once."""
    return TournamentGame(tournament_id=tournament_id, game_id=game_id, swiss_board_id=board_id)
