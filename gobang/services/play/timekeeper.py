"""What happens because time passed: forfeits after a player stays away, flags, aborts."""

from __future__ import annotations

from collections.abc import Iterator

from gobang.services.clock import Clock
from gobang.services.notices import Notice
from gobang.services.play.finisher import Finisher
from gobang.services.play.live import LiveGame
from gobang.services.play.results import Ending, aborted
from gobang.services.play.table import GameTable
from gobang.vocabulary import BLACK, WHITE, AbortCause, Reason, Status, opponent


class Timekeeper:
    def __init__(self, table: GameTable, clock: Clock, grace_seconds: float,
                 abort_seconds: float, finisher: Finisher) -> None:
        self.table = table
        self.clock = clock
        self.grace_seconds = grace_seconds
        self.abort_seconds = abort_seconds
        self.finisher = finisher

    def tick(self) -> list[Notice]:
        """Every game's due ending, at once (the tests' way)."""
        return [notice for batch in self.endings() for notice in batch]

    def endings(self) -> Iterator[list[Notice]]:
        """The games that time has ended, one game's notices at a time, so that the ticker
        can let the hub serve everyone else between them: 500 games aborted in one round
        (a crowd paired who never sat down) took a second, all of it in one piece."""
        for live in self.table.all():
            with live.lock:
                ending = self.due_ending(live, self.clock())
                if ending is None:
                    continue
                notices = self.finisher.finish(live, ending)
            yield notices  # outside the game's lock: the ticker may yield the hub here

    def due_ending(self, live: LiveGame, now: float) -> Ending | None:
        if live.status == Status.FINISHED:
            return None
        outcome = live.rules.outcome
        if outcome is not None:
            # Its last saved move ended it but its result is not saved (a game brought back
            # while the database refused results): every ending is retried until it is.
            line = [list(p) for p in outcome.line] if outcome.line else None
            return Ending(outcome.winner, outcome.reason, line)
        if live.status == Status.PLAYING:
            ending = self._forfeit(live, now)
            if ending is not None:
                return ending
        if live.status == Status.WAITING and now - live.created_at >= self.abort_seconds:
            missing = [color for color in (BLACK, WHITE) if live.present[color] is None]
            return aborted(AbortCause.NO_SHOW, missing[0] if len(missing) == 1 else None,
                           self.abort_seconds)
        if live.abort_from is not None and live.abort_window_open() and (
            now - live.abort_from >= self.abort_seconds
        ):
            return aborted(AbortCause.NO_FIRST_MOVE, live.to_move(), self.abort_seconds)
        if live.clocks and not live.paused:
            flagged = live.clocks.flagged(now)
            if flagged:
                return Ending(opponent(flagged), Reason.TIMEOUT)
        return None

    def _forfeit(self, live: LiveGame, now: float) -> Ending | None:
        overdue = {color: since for color, since in live.away_since.items()
                   if now - since >= self.grace_seconds and live.present.get(color) is None}
        if len(overdue) == 2 and overdue[BLACK] == overdue[WHITE]:
            # Both gone since the same moment (a restart nobody came back from).
            return aborted(AbortCause.BOTH_LEFT)
        if overdue:
            return Ending(opponent(min(overdue, key=overdue.get)), Reason.DISCONNECT)
        return None
