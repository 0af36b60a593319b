"""The arenas' tick, run by the leader's ticker: starts the tournaments due (or cancels those
short of players), ends those whose time is up, and pairs the free players of those running.

A player is free when they joined and did not withdraw, have no game in play anywhere (one
live game per player: `GameTable.current_game_of`), and have a page of the site open (a hall
or /site connection): lichess pairs only the players present, and a game for someone gone
would only be aborted."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable
from functools import partial

from sqlalchemy import select

from gobang.extensions import db
from gobang.logs import event
from gobang.models import Tournament, TournamentGame, TournamentPlayer
from gobang.services.arenas.schedule import (
    ARENA,
    CANCELLED,
    FINISHED,
    RUNNING,
    SCHEDULED,
    Now,
    ends_at,
)
from gobang.services.arenas.standings import ArenaGames, history_of, table_of
from gobang.services.arenas.starter import GameStarter
from gobang.services.notices import Notice
from gobang.services.play.maintenance import Maintenance
from gobang.services.play.table import GameTable
from gobang.services.tournaments.arena import colours, pair_free

log = logging.getLogger("gobang.tournaments")

# Whether a player has a page of the site open (the hall's presence: hall or /site).
Online = Callable[[int], bool]


class Director:
    def __init__(self, table: GameTable, starter: GameStarter, maintenance: Maintenance,
                 online: Online, now: Now, rng: random.Random, games: ArenaGames) -> None:
        self.table = table
        self.maintenance = maintenance
        self.starter = starter
        self.online = online
        self.now = now
        self.rng = rng
        self.games = games

    def tick(self) -> list[Notice]:
        now = self.now()
        for tournament in of_status(ARENA, SCHEDULED):
            if tournament.starts_at <= now:
                start_or_cancel(tournament)
        notices: list[Notice] = []
        for tournament in of_status(ARENA, RUNNING):
            end = ends_at(tournament)
            if end is None or end <= now:
                self._end(tournament)
            elif not self.maintenance.on:  # no new game starts in maintenance mode
                notices += self.pair(tournament)
        return notices

    def _end(self, tournament: Tournament) -> None:
        """Games still in play are played out and count when they end (standings.py)."""
        tournament.status = FINISHED
        db.session.commit()
        event(log, "tournament_finished", tournament_id=tournament.id)

    def pair(self, tournament: Tournament) -> list[Notice]:
        free = self.free_players(active_players(tournament.id))
        if len(free) < 2:
            return []
        games = self.games.played(tournament.id)
        places = {row.id: row.rank for row in table_of(tournament.id, games)}
        last, colours_played = history_of(games)
        pairs = [colours(one, other, colours_played, self.rng)
                 for one, other in pair_free(free, places, last)]
        return self.starter.start(tournament, [(black, white, partial(_link, tournament.id))
                                               for black, white in pairs])

    def free_players(self, players: Iterable[int]) -> list[int]:
        return [player for player in players
                if self.table.current_game_of(player) is None and self.online(player)]


def _link(tournament_id: int, game_id: int) -> TournamentGame:
    """Stored in the game's own transaction: no game of the tournament is ever left out."""
    return TournamentGame(tournament_id=tournament_id, game_id=game_id)


def start_or_cancel(tournament: Tournament) -> None:
    """At its time: running with at least its minimum of players, else cancelled."""
    entries = len(active_players(tournament.id))
    tournament.status = RUNNING if entries >= tournament.min_players else CANCELLED
    db.session.commit()
    event(log, "tournament_" + ("started" if tournament.status == RUNNING else "cancelled"),
          tournament_id=tournament.id, players=entries)


def of_status(kind: str, status: str) -> list[Tournament]:
    return list(db.session.scalars(select(Tournament).where(
        Tournament.kind == kind, Tournament.status == status)))


def active_players(tournament_id: int) -> list[int]:
    return list(db.session.scalars(select(TournamentPlayer.user_id).where(
        TournamentPlayer.tournament_id == tournament_id,
        TournamentPlayer.withdrawn.is_(False)).order_by(TournamentPlayer.id)))
