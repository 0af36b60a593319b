"""The end of a game: the result saved exactly once, the room told, the others told by the bus."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext

from gobang.logs import event
from gobang.services.clock import Clock
from gobang.services.events import Bus, GameEnded
from gobang.services.metrics import Metrics
from gobang.services.notices import ActionError, Notice
from gobang.services.play.checks import not_over
from gobang.services.play.live import LiveGame, room_notice
from gobang.services.play.results import Ending, aborted, save_result
from gobang.services.play.table import GameTable
from gobang.vocabulary import AbortCause, Reason, Status, opponent

log = logging.getLogger("gobang.games")


class Finisher:
    def __init__(self, table: GameTable, clock: Clock, rating_k: int, metrics: Metrics,
                 bus: Bus) -> None:
        self.table = table
        self.clock = clock
        self.rating_k = rating_k
        self.metrics = metrics
        self.bus = bus

    def finish(self, live: LiveGame, ending: Ending,
               move: Mapping[str, Any] | None = None) -> list[Notice]:
        """Save the result exactly once and announce it. Caller holds the game's lock.
        `move`: the move that ended the game, saved with the result or not at all
        (results.save_result). Returns no notices when the game had already ended."""
        if live.status == Status.FINISHED:
            return []
        now = self.clock()
        clocks = live.clocks.snapshot(now) if live.clocks else None
        # Raises if the database refuses; then nothing here has changed and play goes on.
        result = save_result(live.game_id, live.black.user_id, live.white.user_id, ending,
                             self.rating_k, clocks, rated=live.rated,
                             move=move)
        if live.clocks:
            live.clocks.stop(now)
        live.status = Status.FINISHED
        self.table.drop(live.game_id)
        if result is None:  # another process or path ended it first
            return []
        live.result = result
        self.metrics.game_ended(ending.reason)
        event(log, "game_over", game_id=live.game_id, winner=ending.winner,
              reason=ending.reason)
        # The final clocks, so that pages show a fallen flag as 00:00 (an extension).
        return [room_notice("game_over", live, result=result, clocks=clocks),
                *self.bus.publish(GameEnded(live.game_id, live.user_ids(), result,
                                                  (live.black.player(), live.white.player())))]

    def refuse_if_flagged(self, live: LiveGame, now: float) -> None:
        """A player whose time ran out before the ticker noticed loses now, and is told so
        rather than having the move or step taken. Caller holds the game's lock."""
        flagged = live.clocks.flagged(now) if live.clocks else None
        if flagged:
            error = ActionError("game_over", gettext("Your time ran out."))
            error.notices = self.finish(live, Ending(opponent(flagged), Reason.TIMEOUT))
            raise error

    def resign(self, game_id: int, user_id: int) -> list[Notice]:
        with self.table.acting(game_id, user_id, check=not_over) as (live, color):
            return self.finish(live, Ending(opponent(color), Reason.RESIGN))

    def abort(self, game_id: int) -> list[Notice]:
        """End a game in play with no result and no score change (the host's `abort-game`)."""
        live = self.table.get(game_id)
        if live is None:
            raise ActionError("not_found", gettext("No game in play has that id."))
        with live.lock:
            return self.finish(live, aborted(AbortCause.HOST))
