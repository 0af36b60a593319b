"""Games come into play: new ones from a pairing, a challenge or a rematch, and after a restart
the unfinished ones from the database."""

from __future__ import annotations

import logging
from datetime import datetime

from flask_babel import gettext
from sqlalchemy import select

from gobang.extensions import db
from gobang.logs import event
from gobang.models import Game, User
from gobang.rules import Game as RulesGame
from gobang.services.clock import Clock
from gobang.services.events import Bus, GameStarted
from gobang.services.notices import ActionError, Notice
from gobang.services.play.finisher import Finisher
from gobang.services.play.live import Clocks, LiveGame, Seat
from gobang.services.play.results import Ending
from gobang.services.play.table import GameTable
from gobang.services.pools import OMITTED, Omitted, TimeControl
from gobang.vocabulary import BLACK, RULESETS, WHITE, Status

log = logging.getLogger("gobang.games")


class GameFactory:
    def __init__(self, table: GameTable, clock: Clock, default_clock: TimeControl,
                 bus: Bus, finisher: Finisher, abort_seconds: float) -> None:
        self.table = table
        self.abort_seconds = abort_seconds
        self.clock = clock
        self.default_clock = default_clock
        self.bus = bus
        self.finisher = finisher

    def create(
        self, black: User, white: User, ruleset: str, rematch_of: int | None = None,
        time_control: TimeControl | Omitted = OMITTED, announce: bool = True,
    ) -> tuple[LiveGame, list[Notice]]:
        """A new game, waiting for both players to join, with the given clock (None: no clock;
        omitted: the host's default). `announce=False` leaves telling the hall of the new list
        of live games to the caller, which starts many at once."""
        if ruleset not in RULESETS:
            raise ActionError("bad_request", gettext("Unknown ruleset %(name)r.", name=ruleset))
        for user in (black, white):
            if user.computer_level is None:  # the computer plays many games at once
                self.table.check_free(user.id)
        chosen = self.default_clock if time_control is OMITTED else time_control
        row = Game(ruleset=ruleset, status=Status.WAITING, black_id=black.id, white_id=white.id,
                   rematch_of=rematch_of,
                   computer_level=black.computer_level or white.computer_level,
                   **_clock_columns(chosen))
        db.session.add(row)
        # The id and the seats before the commit, which expires every loaded attribute: read
        # after it, each was a query again (three a game, a crowd's pairing's main cost).
        db.session.flush()
        live = LiveGame(
            game_id=row.id, ruleset=ruleset, black=_seat(black), white=_seat(white),
            rules=RulesGame(ruleset),
            clocks=_clocks(chosen), time_control=chosen,
            created_at=self.clock(), abort_seconds=self.abort_seconds,
        )
        db.session.commit()
        self.table.add(live)
        event(log, "game_created", game_id=live.game_id, black=live.black.user_id,
              white=live.white.user_id, ruleset=ruleset)
        return live, self.bus.publish(GameStarted(live.game_id, live.user_ids(), announce))

    def restore(self, last_alive: datetime | None = None) -> int:
        """Bring back every unfinished game after a restart. The side to move is charged the
        time it used up to `last_alive` (the server's last sign of life before it stopped),
        not the downtime."""
        rows = db.session.scalars(select(Game).where(Game.status != Status.FINISHED)).all()
        for row in rows:
            self._bring_back(row, last_alive)
        return len(rows)

    def adopt(self, game_id: int, last_alive: datetime | None) -> LiveGame | None:
        """One unfinished game, from the database, into this process (its process died):
        as after a restart. None when it is not live."""
        row = db.session.get(Game, game_id)
        if row is None or row.status == Status.FINISHED:
            return None
        return self._bring_back(row, last_alive)

    def _bring_back(self, row: Game, last_alive: datetime | None) -> LiveGame:
        """A game whose last saved move had already ended it (the server stopped between
        saving that move and saving the result) is finished now."""
        live = _from_row(row, self.clock(), last_alive)
        live.abort_seconds = self.abort_seconds
        self.table.add(live)
        outcome = live.rules.outcome
        if outcome is not None:
            line = [list(p) for p in outcome.line] if outcome.line else None
            with live.lock:
                self.finisher.finish(live, Ending(outcome.winner, outcome.reason, line))
        return live


def _clock_columns(time_control: TimeControl) -> dict[str, int | None]:
    """An untimed game stores no clock at all: every clock column stays null."""
    if time_control is None:
        return {}
    initial, increment = (seconds * 1000 for seconds in time_control)
    return {"clock_initial_ms": initial, "clock_increment_ms": increment,
            "black_ms": initial, "white_ms": initial}


def _clocks(time_control: TimeControl) -> Clocks | None:
    if time_control is None:
        return None
    initial, increment = (seconds * 1000 for seconds in time_control)
    return Clocks(initial, initial, increment)


def _from_row(row: Game, now: float, last_alive: datetime | None) -> LiveGame:
    rules = RulesGame.replay([(m.row, m.col) for m in row.moves], row.ruleset)
    clocks = None
    if row.black_ms is not None and row.white_ms is not None:
        clocks = Clocks(row.black_ms, row.white_ms, row.clock_increment_ms or 0)
        if len(row.moves) >= 1 and rules.to_move is not None:
            clocks.start(rules.to_move, now - _used_before_stop(row, last_alive))
    live = LiveGame(
        game_id=row.id, ruleset=row.ruleset,
        black=_seat(row.black), white=_seat(row.white),
        rules=rules, clocks=clocks, time_control=row.time_control(), created_at=now,
        status=row.status,
    )
    if row.status == Status.PLAYING:
        # Both players must come back (the computer is always back); each gets the grace
        # period from the restart.
        live.away_since = {color: now for color in (BLACK, WHITE)
                           if live.seat(color).computer is None}
        if len(row.moves) < 2:
            live.abort_from = now
    return live


def _seat(user: User) -> Seat:
    return Seat(user.id, user.username, user.score, user.computer_level)


def _used_before_stop(row: Game, last_alive: datetime | None) -> float:
    """Seconds the side to move had thought between its turn starting and the server's last
    sign of life: charged to it, as the time after that is the server's fault."""
    if last_alive is None or row.turn_started_at is None:
        return 0.0
    return max(0.0, (last_alive - row.turn_started_at).total_seconds())
