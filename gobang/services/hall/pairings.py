"""Starting a game for two players found by the matcher or a challenge, and telling them."""

from __future__ import annotations

import logging

from gobang.extensions import db
from gobang.logs import event
from gobang.models import User
from gobang.services.hall.matcher import Pairing
from gobang.services.notices import HALL_USER, Notice
from gobang.services.play.factory import GameFactory
from gobang.services.pools import wire

log = logging.getLogger("gobang.hall")


class Pairings:
    def __init__(self, factory: GameFactory) -> None:
        self.factory = factory

    def start(self, pairing: Pairing, announce: bool = True) -> list[Notice]:
        black = db.session.get(User, pairing.black)
        white = db.session.get(User, pairing.white)
        live, notices = self.factory.create(black, white, pairing.ruleset,
                                            time_control=pairing.clock, announce=announce)
        # From the game's seats: the commit expired the users, and reading them is a query.
        for color, me, other in (("black", live.black, live.white),
                                 ("white", live.white, live.black)):
            notices.append(Notice("match_found", {
                "game_id": live.game_id, "color": color, "opponent": other.player(),
                "ruleset": pairing.ruleset, "clock": wire(pairing.clock)}, HALL_USER,
                me.user_id))
        event(log, "matched", game_id=live.game_id, black=live.black.user_id,
              white=live.white.user_id)
        return notices
