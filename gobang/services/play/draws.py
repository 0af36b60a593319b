"""Draw offers: one open offer at a time; it lapses when its maker moves. A player whose offer
was declined may offer again only after AGAIN_AFTER_MOVES more moves (lichess keeps a declined
offer from being repeated at once too): an offer a move is a nuisance, not a question."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext, ngettext

from gobang.services.notices import ActionError, Notice
from gobang.services.play.checks import (
    Pace,
    past_the_opening,
    require_answer,
    require_person_opponent,
)
from gobang.services.play.finisher import Finisher
from gobang.services.play.live import room_notice
from gobang.services.play.results import Ending
from gobang.services.play.table import GameTable
from gobang.services.ratelimit import RateLimiter
from gobang.vocabulary import Reason, opponent

# Moves of the game (both sides' stones) after a declined offer before its maker may offer again.
AGAIN_AFTER_MOVES = 10


class Draws:
    def __init__(self, table: GameTable, finisher: Finisher, limiter: RateLimiter) -> None:
        self.table = table
        self.finisher = finisher
        self.pace = Pace(limiter)

    def offer(self, game_id: int, user_id: int) -> list[Notice]:
        """Offering while the opponent's offer is open accepts it."""
        with self.table.acting(game_id, user_id, self.pace, past_the_opening) as (live, color):
            require_person_opponent(live, gettext("The computer does not accept draws."))
            if live.draw_offer == color:
                raise ActionError("conflict", gettext("You have already offered a draw."))
            if live.draw_offer == opponent(color):
                return self.finisher.finish(live, Ending(None, Reason.DRAW_AGREED))
            _check_not_too_soon(live.draw_declined_at.get(color), len(live.rules.moves))
            live.draw_offer = color
            return [room_notice("draw_offered", live, by=color)]

    def answer(self, game_id: int, user_id: int, accept: Any) -> list[Notice]:
        accept = require_answer(accept)
        with self.table.acting(game_id, user_id) as (live, color):
            if live.draw_offer != opponent(color):
                raise ActionError("conflict", gettext("There is no draw offer to answer."))
            if accept:
                # The offer stays open should the database refuse the result.
                notices = self.finisher.finish(live, Ending(None, Reason.DRAW_AGREED))
                live.draw_offer = None
                return notices
            live.draw_offer = None
            live.draw_declined_at[opponent(color)] = len(live.rules.moves)
            return [room_notice("draw_declined", live, by=color)]


def _check_not_too_soon(declined_at: int | None, moves: int) -> None:
    if declined_at is None:
        return
    left = declined_at + AGAIN_AFTER_MOVES - moves
    if left > 0:
        raise ActionError("conflict", ngettext(
            "Your draw offer was declined; you may offer again after %(num)s more move.",
            "Your draw offer was declined; you may offer again after %(num)s more moves.",
            left), moves_left=left)
