"""Rematches: once both players of a finished game offer one, a new game with colours swapped
and the same clock. The computer accepts at once, while it has room for another game. Between
two players one of whom blocks the other there is none: the blocker is told so, the blocked
player's offer is answered as any and goes no further (gobang/services/social/blocks.py)."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import select

from gobang.extensions import db
from gobang.models import Game, User
from gobang.services.notices import GAME, ActionError, Notice
from gobang.services.openings.stored import first_and_second
from gobang.services.play.factory import GameFactory
from gobang.services.play.maintenance import Maintenance
from gobang.services.play.table import GameTable
from gobang.services.social.blocks import Blocks
from gobang.services.store import Recent
from gobang.vocabulary import BLACK, WHITE, Status

# Offers are kept for the most recent games only, so that memory stays flat.
RECENT_GAMES_KEPT = 2000


class Rematches:
    def __init__(self, table: GameTable, factory: GameFactory, maintenance: Maintenance,
                 computer_capacity: int, blocks: Blocks) -> None:
        self.table = table
        self.blocks = blocks
        self.factory = factory
        self.maintenance = maintenance
        self.computer_capacity = computer_capacity
        self._offers: Recent[int, set[str]] = Recent(RECENT_GAMES_KEPT)

    def offer(self, game_id: int, user_id: int) -> list[Notice]:
        self.maintenance.check_open()
        row = db.session.get(Game, game_id)
        if row is None:
            raise ActionError("not_found", gettext("There is no such game."))
        color = row.color_of(user_id)
        if color is None:
            raise ActionError("not_in_game", gettext("You are not a player in this game."))
        if row.status != Status.FINISHED:
            raise ActionError(
                "conflict", gettext("A rematch can be offered once the game is over."))
        rematch_id = db.session.scalar(select(Game.id).where(Game.rematch_of == row.id))
        if rematch_id is not None:
            # The id lets a page that missed rematch_ready still take the player there.
            raise ActionError("conflict", gettext("The rematch has already started."),
                              game_id=rematch_id)
        for other in (row.black_id, row.white_id):
            if self.table.current_game_of(other) is not None:
                raise ActionError("busy", gettext("A player is already in another game."))
        if row.computer_level is None and self._blocked(user_id, row):
            return []  # as an offer the opponent does not take up
        offers = self._offers.setdefault(row.id, set())
        offers.add(color)
        if row.computer_level is not None:
            self._computer_accepts(offers)
        if offers != {BLACK, WHITE}:
            return [Notice("rematch_offered", {"game_id": row.id, "by": color}, GAME, row.id)]
        return self._start(row)

    def _computer_accepts(self, offers: set[str]) -> None:
        if self.table.computer_games() >= self.computer_capacity:
            raise ActionError("busy", gettext(
                "The computer is playing as many games as it can; try again in a moment."))
        offers.update((BLACK, WHITE))

    def _blocked(self, user_id: int, row: Game) -> bool:
        """Whether the other player blocks the user; refused if the user blocks them."""
        other_id = row.white_id if user_id == row.black_id else row.black_id
        blocking, blocked = self.blocks.between(user_id, other_id)
        if blocking:
            raise ActionError("blocked", gettext(
                "You have blocked this player: unblock them to play them again."))
        return blocked

    def open_offers(self, game_id: int) -> list[str]:
        return sorted(self._offers.get(game_id, ()))

    def withdraw(self, game_id: int) -> None:
        """A player left the finished game's room: no offer stands for someone not there to
        answer it, nor for the one who left."""
        self._offers.pop(game_id, None)

    def _start(self, row: Game) -> list[Notice]:
        # Whoever did not place the first stone places it now (with no opening: the colours
        # swap), with the same ruleset, clock, opening and rating.
        first, second = first_and_second(row)
        black, white = db.session.get(User, second), db.session.get(User, first)
        live, notices = self.factory.create(black, white, row.ruleset, rematch_of=row.id,
                                            time_control=row.time_control(), rated=row.rated,
                                            opening=row.opening)
        self._offers.pop(row.id, None)
        return notices + [Notice("rematch_ready", {"game_id": live.game_id}, GAME, row.id)]
