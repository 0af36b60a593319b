"""Starting a game for two players found by the matcher or a challenge, and telling them."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from flask_babel import gettext
from sqlalchemy import select

from gobang.extensions import db
from gobang.logs import event
from gobang.models import User
from gobang.services.events import GameAdopted
from gobang.services.hall.matcher import Pairing
from gobang.services.notices import HALL_USER, ActionError, Notice
from gobang.services.play.factory import GameFactory, Made, NewGame
from gobang.services.play.homes import GameHomes
from gobang.services.play.live import LiveGame
from gobang.services.pools import NO_OPENING, wire
from gobang.vocabulary import Status

log = logging.getLogger("gobang.hall")


class Pairings:
    def __init__(self, factory: GameFactory, homes: GameHomes) -> None:
        self.factory = factory
        # Several processes: a new game is played where its players' connections land.
        self.homes = homes

    def start(self, pairing: Pairing) -> list[Notice]:
        """One game, for a challenge accepted: its refusal is raised."""
        made = self.start_many([pairing])[0]
        if isinstance(made, ActionError):
            raise made
        return made

    def start_many(self, pairings: Sequence[Pairing]) -> list[list[Notice] | ActionError]:
        """A batch of the matcher's pairings: their players read in one query and their games
        made in one transaction. Each pairing's notices (`match_found` for both) or its
        refusal, in its place."""
        users = _users({user_id for p in pairings for user_id in (p.black, p.white)})
        known = [p for p in pairings if p.black in users and p.white in users]
        made = self.factory.create_many(
            [NewGame(users[p.black], users[p.white], p.ruleset, p.clock, rated=p.rated,
                     opening=p.opening) for p in known])
        self.homes.hand_out([m[0] for m in made if not isinstance(m, ActionError)])
        announced = iter(map(_announced, made))
        return [next(announced) if p.black in users and p.white in users else _gone()
                for p in pairings]

    def game_adopted(self, adopted: GameAdopted) -> list[Notice]:
        """The process that made a game may have died before its players heard of it."""
        live: LiveGame = adopted.live
        return match_found(live) if live.status == Status.WAITING else []


def _announced(made: Made) -> list[Notice] | ActionError:
    if isinstance(made, ActionError):
        return made
    live, notices = made
    event(log, "matched", game_id=live.game_id, black=live.black.user_id,
          white=live.white.user_id)
    return notices + match_found(live)


def _users(ids: set[int]) -> dict[int, User]:
    return {user.id: user for user in db.session.scalars(select(User).where(User.id.in_(ids)))}


def _gone() -> ActionError:
    """A player deleted (by the host) since they queued or challenged."""
    return ActionError("not_found", gettext("No player of that name is online."))


def match_found(live: LiveGame) -> list[Notice]:
    """`match_found` for both players, from the game's seats: the commit expired the users,
    and reading them is a query."""
    return [Notice("match_found", {
        "game_id": live.game_id, "color": color, "opponent": other.player(),
        "ruleset": live.ruleset, "clock": wire(live.time_control), "rated": live.rated,
        "opening": live.opening.rule if live.opening is not None else NO_OPENING},
        HALL_USER, me.user_id)
        for color, me, other in (("black", live.black, live.white),
                                 ("white", live.white, live.black))]
