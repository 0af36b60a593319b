"""Starting a game for two players found by the matcher or a challenge, and telling them."""

from __future__ import annotations

import logging

from gobang.extensions import db
from gobang.logs import event
from gobang.models import User
from gobang.services.events import GameAdopted
from gobang.services.hall.matcher import Pairing
from gobang.services.notices import HALL_USER, Notice
from gobang.services.play.factory import GameFactory
from gobang.services.play.homes import GameHomes
from gobang.services.play.live import LiveGame
from gobang.services.pools import wire
from gobang.vocabulary import Status

log = logging.getLogger("gobang.hall")


class Pairings:
    def __init__(self, factory: GameFactory, homes: GameHomes) -> None:
        self.factory = factory
        # Several processes: a new game is played where its players' connections land.
        self.homes = homes

    def start(self, pairing: Pairing, announce: bool = True) -> list[Notice]:
        black = db.session.get(User, pairing.black)
        white = db.session.get(User, pairing.white)
        live, notices = self.factory.create(black, white, pairing.ruleset,
                                            time_control=pairing.clock, announce=announce)
        event(log, "matched", game_id=live.game_id, black=live.black.user_id,
              white=live.white.user_id)
        found = _found(live)
        self.homes.hand_out(live)
        return notices + found

    def game_adopted(self, adopted: GameAdopted) -> list[Notice]:
        """The process that made a game may have died before its players heard of it."""
        live: LiveGame = adopted.live
        return _found(live) if live.status == Status.WAITING else []


def _found(live: LiveGame) -> list[Notice]:
    """`match_found` for both players, from the game's seats: the commit expired the users,
    and reading them is a query."""
    return [Notice("match_found", {
        "game_id": live.game_id, "color": color, "opponent": other.player(),
        "ruleset": live.ruleset, "clock": wire(live.time_control)}, HALL_USER, me.user_id)
        for color, me, other in (("black", live.black, live.white),
                                 ("white", live.white, live.black))]
