"""Live games: the referee between players, the rules engine and the database.

Every action has the same shape: check the player may act, apply the pure rules, save, then
return the notices to publish. A game's lock serialises everything that touches it, and the
database's conditional update makes the end of a game count exactly once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext, lazy_gettext
from sqlalchemy import select, update

from gobang.extensions import db
from gobang.logs import event
from gobang.models import Game, User, utcnow
from gobang.rules import BLACK, RULESETS, WHITE, IllegalMove, opponent
from gobang.rules import Game as RulesGame
from gobang.services.clock import Clock
from gobang.services.live import Clocks, LiveGame, Seat
from gobang.services.metrics import Metrics
from gobang.services.move_writer import MoveWriter
from gobang.services.negotiation import Negotiations
from gobang.services.notices import GAME, HALL, ActionError, Notice
from gobang.services.ratelimit import RateLimiter
from gobang.services.records import stored_state
from gobang.services.results import Ending, save_result
from gobang.services.store import LiveStore, Recent

log = logging.getLogger("gobang.games")
RECENT_GAMES_KEPT = 2000
MAINTENANCE_MESSAGE = lazy_gettext("The server is in maintenance: no new games start for now. "
                                   "Games in play finish normally.")


@dataclass(frozen=True)
class GameSettings:
    grace_seconds: float = 30
    abort_seconds: float = 30
    rating_k: int = 60
    clock_initial_seconds: int = 600
    clock_increment_seconds: int = 5
    max_undos: int = 3


class LiveGames(Negotiations):
    def __init__(
        self, store: LiveStore, clock: Clock, settings: GameSettings, chat_limiter: RateLimiter,
        move_limiter: RateLimiter, presence: Callable[[int], list[Notice]] | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.settings = settings
        self.chat_limiter = chat_limiter
        self.move_limiter = move_limiter
        # Per game, kept for the most recent games only so memory stays flat.
        self.chat_logs: Recent[int, list[dict[str, Any]]] = Recent(RECENT_GAMES_KEPT)
        self.rematch_offers: Recent[int, set[str]] = Recent(RECENT_GAMES_KEPT)
        # Set by the hall: the presence notices for a user whose status changed, and those
        # for a change in the list of live games (the hall paces both).
        self.presence = presence or (lambda user_id: [])
        self.games_changed: Callable[[], list[Notice]] = self.games_changed_now
        self._sid_games: dict[str, tuple[int, int]] = {}
        self._move_writer = MoveWriter(lambda: db.engine)
        self.metrics = metrics or Metrics()
        # Set by the host (`flask --app app maintenance on`): no new game may start.
        self.maintenance = False

    # --- creating and restoring -------------------------------------------------------------

    def create(
        self, black: User, white: User, ruleset: str, rematch_of: int | None = None,
        clock_seconds: tuple[int, int] | None = None, announce: bool = True,
    ) -> tuple[LiveGame, list[Notice]]:
        """A new game in play. `announce=False` leaves telling the hall of the new list of
        live games to the caller, which starts many at once and tells it once."""
        if ruleset not in RULESETS:
            raise ActionError("bad_request", gettext("Unknown ruleset %(name)r.", name=ruleset))
        initial, increment = clock_seconds or (
            self.settings.clock_initial_seconds, self.settings.clock_increment_seconds)
        row = Game(
            ruleset=ruleset, status="waiting", black_id=black.id, white_id=white.id,
            clock_initial_ms=initial * 1000, clock_increment_ms=increment * 1000,
            black_ms=initial * 1000, white_ms=initial * 1000, rematch_of=rematch_of,
        )
        db.session.add(row)
        db.session.commit()
        live = LiveGame(
            game_id=row.id, ruleset=ruleset,
            black=Seat(black.id, black.username, black.score),
            white=Seat(white.id, white.username, white.score),
            rules=RulesGame(ruleset),
            clocks=Clocks(initial * 1000, initial * 1000, increment * 1000),
            created_at=self.clock(),
        )
        self.store.put_game(row.id, live, live.user_ids())
        event(log, "game_created", game_id=row.id, black=black.id, white=white.id,
              ruleset=ruleset)
        return live, (self.games_changed() if announce else []) + self._presence_of(live)

    def restore(self) -> int:
        """Bring back every unfinished game after a restart; the downtime is not charged."""
        rows = db.session.scalars(select(Game).where(Game.status != "finished")).all()
        now = self.clock()
        for row in rows:
            live = self._from_row(row, now)
            self.store.put_game(row.id, live, live.user_ids())
        return len(rows)

    def _from_row(self, row: Game, now: float) -> LiveGame:
        rules = RulesGame.replay([(m.row, m.col) for m in row.moves], row.ruleset)
        clocks = None
        if row.black_ms is not None and row.white_ms is not None:
            clocks = Clocks(row.black_ms, row.white_ms, row.clock_increment_ms or 0)
            if len(row.moves) >= 1:
                clocks.start(rules.to_move, now)
        live = LiveGame(
            game_id=row.id, ruleset=row.ruleset,
            black=Seat(row.black.id, row.black.username, row.black.score),
            white=Seat(row.white.id, row.white.username, row.white.score),
            rules=rules, clocks=clocks, created_at=now, status=row.status,
        )
        if row.status == "playing":
            # Both players must come back; each gets the grace period from the restart.
            live.away_since = {BLACK: now, WHITE: now}
            if len(row.moves) < 2:
                live.abort_from = now
        return live

    # --- joining and leaving ------------------------------------------------------------------

    def join(self, game_id: int, user_id: int, sid: str) -> tuple[dict[str, Any], list[Notice]]:
        notices = self._leave_previous(sid, game_id)
        live = self.store.get_game(game_id)
        if live is None:
            state = self._finished_state(game_id, user_id)
            self._sid_games[sid] = (game_id, user_id)
        else:
            with live.lock:
                color = live.color_of(user_id)
                self._sid_games[sid] = (game_id, user_id)
                if color is None:
                    live.spectators.add(sid)
                    notices.append(self._spectators(live))
                else:
                    notices += self._player_arrives(live, color, sid)
                state = live.state(color or "spectator", self.clock())
        state["chat"] = self._chat_history(game_id)
        state["rematch_offers"] = sorted(self.rematch_offers.get(game_id, ()))
        return state, notices

    def _finished_state(self, game_id: int, user_id: int) -> dict[str, Any]:
        row = db.session.get(Game, game_id)
        if row is None:
            raise ActionError("not_found", gettext("There is no such game."))
        state = stored_state(row)
        colors = {row.black_id: BLACK, row.white_id: WHITE}
        state["you"] = colors.get(user_id, "spectator")
        return state

    def _player_arrives(self, live: LiveGame, color: str, sid: str) -> list[Notice]:
        live.present[color] = sid
        notices = []
        if live.away_since.pop(color, None) is not None and live.status == "playing":
            notices.append(self._room("opponent_back", live, color=color))
        if live.status == "waiting" and all(live.present.values()):
            notices += self._start(live)
        return notices

    def _start(self, live: LiveGame) -> list[Notice]:
        live.status = "playing"
        live.abort_from = self.clock()
        db.session.execute(
            update(Game).where(Game.id == live.game_id).values(status="playing",
                                                               started_at=utcnow()))
        db.session.commit()
        return [self._room(
            "game_ready", live, black=live.black.player(), white=live.white.player(),
            to_move=BLACK, clocks=self._clocks(live),
        )]

    def leave(self, sid: str) -> list[Notice]:
        """A /room connection went away (closed, or left for another game)."""
        entry = self._sid_games.pop(sid, None)
        live = self.store.get_game(entry[0]) if entry else None
        if live is None:
            return []
        with live.lock:
            if sid in live.spectators:
                live.spectators.discard(sid)
                return [self._spectators(live)]
            color = live.color_of(entry[1])
            if color is None or live.present.get(color) != sid:
                return []
            live.present[color] = None
            if live.status != "playing":
                return []
            live.away_since[color] = self.clock()
            notices = [self._room("opponent_left", live, color=color,
                                  grace_seconds=self.settings.grace_seconds)]
            if self.settings.grace_seconds <= 0:
                notices += self._finish(live, Ending(opponent(color), "disconnect"))
            return notices

    def joined_game(self, sid: str) -> int | None:
        entry = self._sid_games.get(sid)
        return entry[0] if entry else None

    def _leave_previous(self, sid: str, game_id: int) -> list[Notice]:
        entry = self._sid_games.get(sid)
        if entry is None or entry[0] == game_id:
            return []
        return self.leave(sid)

    # --- moves and resignation ------------------------------------------------------------------

    def place_stone(self, game_id: int, user_id: int, row: Any, col: Any) -> list[Notice]:
        if not self.move_limiter.hit(user_id):
            raise ActionError("rate_limited", gettext("Too many moves at once; slow down."))
        live, color = self._player_game(game_id, user_id)
        with live.lock:
            self._check_can_move(live, color)
            now = self.clock()
            flagged = live.clocks.flagged(now) if live.clocks else None
            if flagged:
                error = ActionError("game_over", gettext("Your time ran out."))
                error.notices = self._finish(live, Ending(opponent(flagged), "timeout"))
                raise error
            try:
                outcome = live.rules.place(row, col, color)
            except IllegalMove as exc:
                raise ActionError(exc.code, _move_message(exc)) from exc
            return self._after_move(live, color, row, col, outcome, now)

    def _check_can_move(self, live: LiveGame, color: str) -> None:
        if live.status == "finished":
            raise ActionError("game_over", gettext("The game is over."))
        if live.status == "waiting":
            raise ActionError(
                "conflict", gettext("The game has not started: your opponent is not here."))
        if live.paused:
            raise ActionError("conflict", gettext("The game is paused."))
        if live.rules.to_move != color:
            raise ActionError("not_your_turn", gettext("It is not your turn."))

    def _after_move(self, live: LiveGame, color: str, row: int, col: int, outcome: Any,
                    now: float) -> list[Notice]:
        number = len(live.rules.moves)
        saved_clocks = _copy_clocks(live.clocks)
        if live.clocks:
            live.clocks.after_move(color, now, charged=number > 1)
        started = time.perf_counter()
        try:
            self._save_move(live, number, row, col, color)
        except Exception as exc:
            live.rules.undo(1)
            live.clocks = saved_clocks
            log.exception("move not saved", extra={"fields": {"game_id": live.game_id}})
            message = gettext("The move could not be saved; try again.")
            raise ActionError("conflict", message) from exc
        self.metrics.move_saved(time.perf_counter() - started)
        live.draw_offer = None if live.draw_offer == color else live.draw_offer
        live.undo_request = None
        live.abort_from = now if number == 1 else None
        notices = [self._room(
            "stone_placed", live, row=row, col=col, color=color, move=number,
            to_move=None if outcome else live.rules.to_move, clocks=self._clocks(live),
        )]
        if outcome is not None:
            line = [list(p) for p in outcome.line] if outcome.line else None
            notices += self._finish(live, Ending(outcome.winner, outcome.reason, line))
        return notices

    def _save_move(self, live: LiveGame, number: int, row: int, col: int, color: str) -> None:
        now = utcnow()
        move = {"game_id": live.game_id, "number": number, "row": row, "col": col,
                "color": color, "created_at": now}
        clocks = None if not live.clocks else {
            "game": live.game_id, "black_ms": live.clocks.black_ms,
            "white_ms": live.clocks.white_ms, "turn_started_at": now}
        self._move_writer.write(move, clocks)

    def check_open(self) -> None:
        """Refuse to start a new game during maintenance mode."""
        if self.maintenance:
            raise ActionError("conflict", str(MAINTENANCE_MESSAGE))

    def abort(self, game_id: int) -> list[Notice]:
        """End a game in play with no result and no score change (the host's `abort-game`)."""
        live = self.store.get_game(game_id)
        if live is None:
            raise ActionError("not_found", gettext("No game in play has that id."))
        with live.lock:
            return self._finish(live, Ending(None, "aborted"))

    def resign(self, game_id: int, user_id: int) -> list[Notice]:
        live, color = self._player_game(game_id, user_id)
        with live.lock:
            if live.status == "finished":
                raise ActionError("game_over", gettext("The game is over."))
            return self._finish(live, Ending(opponent(color), "resign"))

    # --- time: forfeits, flags and aborts --------------------------------------------------------

    def tick(self) -> list[Notice]:
        """Everything that happens because time passed; run often by a background task."""
        notices: list[Notice] = []
        for live in self.store.games():
            with live.lock:
                ending = self._due_ending(live, self.clock())
                if ending is not None:
                    notices += self._finish(live, ending)
        return notices

    def _due_ending(self, live: LiveGame, now: float) -> Ending | None:
        if live.status == "finished":
            return None
        grace = self.settings.grace_seconds
        if live.status == "playing":
            overdue = {color: since for color, since in live.away_since.items()
                       if now - since >= grace and live.present.get(color) is None}
            if len(overdue) == 2 and overdue[BLACK] == overdue[WHITE]:
                # Both gone since the same moment (a restart nobody came back from).
                return Ending(None, "aborted")
            if overdue:
                return Ending(opponent(min(overdue, key=overdue.get)), "disconnect")
        if live.status == "waiting" and now - live.created_at >= self.settings.abort_seconds:
            return Ending(None, "aborted")
        if live.abort_from is not None and not live.paused and (
            now - live.abort_from >= self.settings.abort_seconds
        ):
            return Ending(None, "aborted")
        if live.clocks and not live.paused:
            flagged = live.clocks.flagged(now)
            if flagged:
                return Ending(opponent(flagged), "timeout")
        return None

    # --- the end --------------------------------------------------------------------------------

    def _finish(self, live: LiveGame, ending: Ending) -> list[Notice]:
        """Save the result exactly once and announce it. Caller holds the game's lock."""
        if live.status == "finished":
            return []
        now = self.clock()
        clocks = None
        if live.clocks:
            live.clocks.stop(now)
            clocks = live.clocks.snapshot(now)
        result = save_result(live.game_id, live.black.user_id, live.white.user_id, ending,
                             self.settings.rating_k, clocks)
        live.status = "finished"
        self.store.drop_game(live.game_id)
        if result is None:  # another process or path ended it first
            return []
        live.result = result
        self.metrics.game_ended(ending.reason)
        event(log, "game_over", game_id=live.game_id, winner=ending.winner,
              reason=ending.reason)
        notices = [self._room("game_over", live, result=result)]
        return notices + self.games_changed() + self._presence_of(live)

    # --- helpers ---------------------------------------------------------------------------------

    def _player_game(self, game_id: int, user_id: int) -> tuple[LiveGame, str]:
        live = self.store.get_game(game_id)
        if live is None:
            if db.session.get(Game, game_id) is None:
                raise ActionError("not_found", gettext("There is no such game."))
            raise ActionError("game_over", gettext("The game is over."))
        color = live.color_of(user_id)
        if color is None:
            raise ActionError("not_in_game", gettext("You are not a player in this game."))
        return live, color

    def live_games(self) -> list[dict[str, Any]]:
        games = [g for g in self.store.games() if g.status != "finished"]
        return [g.live_summary() for g in sorted(games, key=lambda g: g.game_id)]

    def current_game_of(self, user_id: int) -> int | None:
        return self.store.game_of_user(user_id)

    def games_changed_now(self) -> list[Notice]:
        return [Notice("games_changed", {"games": self.live_games()}, HALL)]

    def _presence_of(self, live: LiveGame) -> list[Notice]:
        return [n for user_id in live.user_ids() for n in self.presence(user_id)]

    def _clocks(self, live: LiveGame) -> dict[str, int] | None:
        return live.clocks.snapshot(self.clock()) if live.clocks else None

    def _spectators(self, live: LiveGame) -> Notice:
        return self._room("spectators", live, count=len(live.spectators))

    @staticmethod
    def _room(name: str, live: LiveGame, **payload: Any) -> Notice:
        return Notice(name, {"game_id": live.game_id, **payload}, GAME, live.game_id)


def _copy_clocks(clocks: Clocks | None) -> Clocks | None:
    if clocks is None:
        return None
    return Clocks(clocks.black_ms, clocks.white_ms, clocks.increment_ms, clocks.running,
                  clocks.since)


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
