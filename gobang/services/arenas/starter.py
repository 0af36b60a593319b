"""Starting a tournament's games, as the hall starts its pairings: made by play's factory with
the tournament's ruleset, clock, opening and rated flag, each with its `tournament_games`
row in the game's own transaction; handed to their homes; announced to both players'
pages; the players taken out of the hall's Match queue. Arenas and Swiss events both."""

from __future__ import annotations

import logging
from collections.abc import Callable

from sqlalchemy import select

from gobang.extensions import db
from gobang.logs import event
from gobang.models import Tournament, TournamentGame, User
from gobang.services.hall.pairings import match_found
from gobang.services.notices import USER, ActionError, Notice
from gobang.services.play.factory import GameFactory, NewGame
from gobang.services.play.homes import GameHomes
from gobang.services.play.live import LiveGame

log = logging.getLogger("gobang.tournaments")

# Takes a player out of the hall's Match queue, with the notices that brings.
Dequeue = Callable[[int], list[Notice]]
# The tournament's record of a game, made from the game's id (stored with the game).
Link = Callable[[int], TournamentGame]


class GameStarter:
    def __init__(self, factory: GameFactory, homes: GameHomes, dequeue: Dequeue) -> None:
        self.factory = factory
        self.homes = homes
        self.dequeue = dequeue

    def start(self, tournament: Tournament, games: list[tuple[int, int, Link]]
              ) -> list[Notice]:
        """Each (black, white, link) as a game; one refused (a player busy by now) is left
        out, and the others start."""
        users = {user.id: user for user in db.session.scalars(
            select(User).where(User.id.in_({p for game in games for p in game[:2]})))}
        made = self.factory.create_many([
            NewGame(users[black], users[white], tournament.ruleset, tournament.time_control(),
                    rated=tournament.rated, opening=tournament.opening, linked=link)
            for black, white, link in games])
        lives = [found[0] for found in made if not isinstance(found, ActionError)]
        self.homes.hand_out(lives)
        notices: list[Notice] = []
        for live in lives:
            event(log, "tournament_paired", tournament_id=tournament.id, game_id=live.game_id)
            notices += match_found(live) + _told(tournament, live)
            # Queued for Match meanwhile: the queue would only pair them to be refused.
            for user_id in live.user_ids():
                notices += self.dequeue(user_id)
        return notices


def _told(tournament: Tournament, live: LiveGame) -> list[Notice]:
    """Every page of the two players (the hall has `match_found` too): to the game."""
    return [Notice("tournament_game", {"tournament_id": tournament.id, "game_id": live.game_id},
                   USER, user_id) for user_id in live.user_ids()]
