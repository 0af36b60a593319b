"""Take-backs: the requester's last move and the reply after it, if the opponent agrees (the
computer always does, at once)."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext
from sqlalchemy import delete, update

from gobang.extensions import db
from gobang.models import Game, Move
from gobang.services.clock import Clock
from gobang.services.notices import ActionError, Notice
from gobang.services.play.checks import Pace, past_the_opening, require_answer
from gobang.services.play.live import Clocks, LiveGame, room_notice
from gobang.services.play.table import GameTable
from gobang.services.ratelimit import RateLimiter
from gobang.vocabulary import opponent


class TakeBacks:
    def __init__(self, table: GameTable, clock: Clock, max_per_player: int,
                 limiter: RateLimiter) -> None:
        self.table = table
        self.clock = clock
        self.max_per_player = max_per_player
        self.pace = Pace(limiter)

    def request(self, game_id: int, user_id: int) -> list[Notice]:
        with self.table.acting(game_id, user_id, self.pace, past_the_opening) as (
                live, color):
            if live.undo_request is not None:
                raise ActionError("conflict", gettext("A take-back is already asked for."))
            if moves_to_take_back(live, color) == 0:
                raise ActionError("conflict", gettext("You have no move to take back."))
            if live.computer_color() is not None:
                # As lichess: against the computer a take-back is instant and unlimited.
                return self._take_back(live, color)
            if live.undos[color] >= self.max_per_player:
                raise ActionError(
                    "conflict", gettext("You have used all your take-backs in this game."))
            live.undo_request = color
            return [room_notice("undo_requested", live, by=color)]

    def answer(self, game_id: int, user_id: int, accept: Any) -> list[Notice]:
        accept = require_answer(accept)
        with self.table.acting(game_id, user_id) as (live, color):
            requester = live.undo_request
            if requester != opponent(color):
                raise ActionError("conflict", gettext("There is no take-back request to answer."))
            live.undo_request = None
            if not accept:
                return [room_notice("undo_declined", live, by=color)]
            return self._take_back(live, requester)

    def _take_back(self, live: LiveGame, requester: str) -> list[Notice]:
        """Saved first, then applied: a refused write changes nothing in play."""
        remaining = len(live.rules.moves) - moves_to_take_back(live, requester)
        now = self.clock()
        clocks = live.clocks.copy() if live.clocks else None
        if clocks:
            clocks.stop(now)
            if remaining:
                clocks.start(requester, now)
        db.session.execute(delete(Move).where(Move.game_id == live.game_id,
                                              Move.number > remaining))
        db.session.execute(update(Game).where(Game.id == live.game_id).values(
            **{f"{requester}_undos": live.undos[requester] + 1}, **_clock_columns(clocks)))
        db.session.commit()
        live.rules.undo(len(live.rules.moves) - remaining)
        live.clocks = clocks
        live.abort_from = now if remaining < 2 and live.opening is None else None
        live.undos[requester] += 1
        live.draw_offer = None
        return [room_notice("undone", live, moves=[list(m) for m in live.rules.moves],
                            to_move=live.rules.to_move, clocks=self.table.clocks(live))]


def moves_to_take_back(live: LiveGame, color: str) -> int:
    """The requester's last move, and the opponent's reply after it if there is one; none
    of the opening's stones, which are the start both players agreed to."""
    count = len(live.rules.moves)
    opened = len(live.opening.stones) if live.opening is not None else 0
    mine = [i for i in range(opened, count) if live.rules.color_of_move(i) == color]
    return count - mine[-1] if mine else 0


def _clock_columns(clocks: Clocks | None) -> dict[str, Any]:
    if not clocks:
        return {}
    return {"black_ms": clocks.black_ms, "white_ms": clocks.white_ms}
