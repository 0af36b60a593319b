"""The referee of a move: may this player move now, is the move legal, save it, then tell."""

from __future__ import annotations

import logging
import time
from typing import Any

from flask_babel import gettext, lazy_gettext

from gobang.models import utcnow
from gobang.rules import Game as RulesGame
from gobang.rules import IllegalMove, Outcome
from gobang.rules.openings import Place
from gobang.services.clock import Clock
from gobang.services.metrics import Metrics
from gobang.services.notices import ActionError, Notice
from gobang.services.openings.steps import OpeningSteps
from gobang.services.play.checks import Pace, check_can_move
from gobang.services.play.finisher import Finisher
from gobang.services.play.live import LiveGame, numbered_notice
from gobang.services.play.move_writer import MoveWriter
from gobang.services.play.results import Ending
from gobang.services.play.table import GameTable
from gobang.services.ratelimit import RateLimiter
from gobang.vocabulary import Status

log = logging.getLogger("gobang.games")


class Moves:
    def __init__(self, table: GameTable, clock: Clock, limiter: RateLimiter,
                 writer: MoveWriter, finisher: Finisher, metrics: Metrics,
                 openings: OpeningSteps) -> None:
        self.table = table
        self.openings = openings
        self.clock = clock
        self.pace = Pace(limiter, too_many_moves)
        self.writer = writer
        self.finisher = finisher
        self.metrics = metrics

    def place_stone(self, game_id: int, user_id: int, row: Any, col: Any) -> list[Notice]:
        with self.table.acting(game_id, user_id, self.pace, check_can_move) as (live, color):
            return self._place(live, color, row, col)

    def play(self, live: LiveGame, color: str, row: Any, col: Any) -> list[Notice]:
        """The computer's move of `color` in `live`, under the same lock and checks as a
        player's."""
        with live.lock:
            check_can_move(live, color)
            return self._place(live, color, row, col)

    def _place(self, live: LiveGame, color: str, row: Any, col: Any) -> list[Notice]:
        """The move, checked as the referee would: the caller holds the game's lock."""
        if live.in_opening():
            return self.openings.act(live, color, Place((row, col)))
        now = self.clock()
        self.finisher.refuse_if_flagged(live, now)
        try:
            outcome = live.rules.place(row, col, color)
        except IllegalMove as exc:
            raise ActionError(exc.code, _move_message(exc)) from exc
        return self._after_move(live, color, row, col, outcome, now)

    def _after_move(self, live: LiveGame, color: str, row: int, col: int,
                    outcome: Outcome | None, now: float) -> list[Notice]:
        number = len(live.rules.moves)
        saved_clocks = live.clocks.copy() if live.clocks else None
        if live.clocks:
            live.clocks.after_move(color, now, charged=number > 1)
        ending = None
        if outcome is not None:
            line = [list(p) for p in outcome.line] if outcome.line else None
            ending = Ending(outcome.winner, outcome.reason, line)
        # The move's number is taken before the ending's events are made (Finisher, in _save):
        # pages apply `stone_placed` first. Given back if the move is not saved.
        live.version += 1
        placed_version = live.version
        try:
            ended = self._save(live, number, row, col, color, saved_clocks, ending)
        except ActionError:
            live.version = placed_version - 1
            raise
        live.draw_offer = None if live.draw_offer == color else live.draw_offer
        live.undo_request = None
        live.abort_from = now if number == 1 else None
        placed = numbered_notice(
            "stone_placed", live, placed_version, row=row, col=col, color=color, move=number,
            to_move=None if outcome else live.rules.to_move, clocks=self.table.clocks(live),
            abort_seconds=None if outcome else live.abort_left(now))
        return [placed, *ended]

    def repeat_last(self, live: LiveGame) -> Notice | None:
        """The game's last `stone_placed` again, numbered as the game's last event (`v`, not
        counted up). A page that has every event ignores it; a page that missed the move (an
        emit lost while Redis was down) takes it; a page that missed anything else sees a gap
        or a move it has, and asks for the whole state: no page stays on a stale board."""
        with live.lock:
            if not live.rules.moves or live.status != Status.PLAYING:
                return None
            number = len(live.rules.moves)
            row, col = live.rules.moves[-1]
            return numbered_notice(
                "stone_placed", live, live.version, row=row, col=col,
                color=RulesGame.color_of_move(number - 1),
                move=number, to_move=live.rules.to_move, clocks=self.table.clocks(live),
                abort_seconds=live.abort_left(self.clock()))

    def _save(self, live: LiveGame, number: int, row: int, col: int, color: str,
              saved_clocks: Any, ending: Ending | None) -> list[Notice]:
        """Write the move before anyone hears of it; if the database refuses, the board and
        clocks go back to how they were and the player is told to try again. A move that
        ends the game is written with the result, in one transaction (Finisher.finish): both
        or neither, so that a refused result leaves no saved winning move in a game that
        nobody can move in any more. Returns the ending's notices."""
        started = time.perf_counter()
        move = {"game_id": live.game_id, "number": number, "row": row, "col": col,
                "color": color, "created_at": utcnow()}
        clocks = (live.clocks.black_ms, live.clocks.white_ms) if live.clocks else None
        try:
            if ending is None:
                self.writer.write(move, clocks)
                ended: list[Notice] = []
            else:
                ended = self.finisher.finish(live, ending, move=move)
        except Exception as exc:
            live.rules.undo(1)
            live.clocks = saved_clocks
            # The database refused (locked, disk full): the host's to hear of, not a bug.
            log.warning("move not saved", extra={"fields": {
                "game_id": live.game_id, "error": type(exc).__name__}})
            message = gettext("The move could not be saved; try again.")
            raise ActionError("conflict", message) from exc
        if ending is not None and not ended:
            # Another process (a stale owner, a restore) ended the game first: the move was
            # rolled back with the result, and the game here is over.
            live.rules.undo(1)
            raise ActionError("game_over", gettext("The game is over."))
        self.metrics.move_saved(time.perf_counter() - started)
        return ended


def too_many_moves() -> str:
    return gettext("Too many moves at once; slow down.")


_MOVE_MESSAGES = {
    "out_of_range": lazy_gettext("That point is off the board."),
    "occupied": lazy_gettext("That point is already taken."),
    "not_your_turn": lazy_gettext("It is not your turn."),
    "game_over": lazy_gettext("The game is over."),
}
_FORBIDDEN_MESSAGES = {
    "double_three": lazy_gettext("Forbidden for black under renju: double-three."),
    "double_four": lazy_gettext("Forbidden for black under renju: double-four."),
    "overline": lazy_gettext("Forbidden for black under renju: overline."),
}


def _move_message(exc: IllegalMove) -> str:
    if exc.code == "forbidden_move":
        message = _FORBIDDEN_MESSAGES.get(getattr(exc, "kind", ""))
        return str(message or lazy_gettext("Forbidden for black under renju."))
    return str(_MOVE_MESSAGES.get(exc.code, exc))
