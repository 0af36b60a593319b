"""Games come into play: new ones from a pairing, a challenge or a rematch, and after a restart
the unfinished ones from the database."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import gettext
from sqlalchemy import select

from gobang.extensions import db
from gobang.logs import event
from gobang.models import Game, User
from gobang.rules import Game as RulesGame
from gobang.services.clock import Clock
from gobang.services.notices import ActionError, Notice
from gobang.services.openings.stored import check_opening, opening_of
from gobang.services.play.finisher import Finisher
from gobang.services.play.live import Clocks, LiveGame, Seat, first_version
from gobang.services.play.results import Ending, aborted, save_result
from gobang.services.play.table import GameTable
from gobang.services.pools import OMITTED, Omitted, TimeControl
from gobang.services.ratings.categories import category_of
from gobang.services.ratings.stored import standings_of
from gobang.vocabulary import BLACK, RULESETS, WHITE, AbortCause, Status

log = logging.getLogger("gobang.games")


@dataclass(frozen=True)
class NewGame:
    """A game to make: its players, ruleset and clock (omitted: the host's default)."""

    black: User
    white: User
    ruleset: str
    time_control: TimeControl | Omitted = OMITTED
    rematch_of: int | None = None
    rated: bool = True  # False: casual (a game against the computer never is)
    opening: str = "none"  # gobang.rules.openings.OPENINGS_OF[ruleset]
    # Another row to store with the game, in the same transaction, made from the game's id
    # (a tournament's record of its game): both are stored or neither is.
    linked: Callable[[int], Any] | None = None


# A game made (with the notices its start brings), or why it was not.
Made = tuple[LiveGame, list[Notice]] | ActionError


class GameFactory:
    def __init__(self, table: GameTable, clock: Clock, default_clock: TimeControl,
                 finisher: Finisher, abort_seconds: float, wall: Clock,
                 bare: Callable[[int], frozenset[str]] = lambda _game_id: frozenset()) -> None:
        self.table = table
        # The colours of a game that play without increment (an arena's berserkers), which
        # the games table does not hold: asked when a game is brought back.
        self.bare = bare
        self.wall = wall
        self.abort_seconds = abort_seconds
        self.clock = clock
        self.default_clock = default_clock
        self.finisher = finisher

    def create(
        self, black: User, white: User, ruleset: str, rematch_of: int | None = None,
        time_control: TimeControl | Omitted = OMITTED, rated: bool = True,
        opening: str = "none",
    ) -> tuple[LiveGame, list[Notice]]:
        """A new game, waiting for both players to join, with the given clock (None: no clock;
        omitted: the host's default); `rated` False for a casual one; `black` places the first
        stone of the `opening`."""
        made = self.create_many(
            [NewGame(black, white, ruleset, time_control, rematch_of, rated, opening)])[0]
        if isinstance(made, ActionError):
            raise made
        return made

    def create_many(self, games: Sequence[NewGame]) -> list[Made]:
        """Many new games in one transaction: one flush and one commit for all, since a
        commit each was most of a crowd's pairing. Each game's result is in its place: the
        game and its notices, or the refusal (a player busy, an unknown ruleset) of that
        game alone."""
        refusals = _refusals(games)
        planned = [(game, _row(game, self.default_clock)) for game, refused
                   in zip(games, refusals, strict=True) if refused is None]
        made: list[Made] = []
        if planned:
            db.session.add_all([row for _game, row in planned])
            # The ids and the seats before the commit, which expires every loaded attribute:
            # read after it, each was a query again (three a game).
            db.session.flush()
            links = {row.id: game.linked(row.id) for game, row in planned if game.linked}
            db.session.add_all(links.values())
            ratings = standings_of(pair for game, _row in planned
                                   for pair in _people_in(game, self.default_clock))
            lives = [self._live(game, row, ratings) for game, row in planned]
            by_id = self._commit(lives, [row for _game, row in planned], links)
            made = [by_id[live.game_id] for live in lives]
        results = iter(made)
        return [refused if refused is not None else next(results) for refused in refusals]

    def _commit(self, lives: list[LiveGame], rows: list[Game],
                links: dict[int, Any]) -> dict[int, Made]:
        """The players are in their games in the live store before the commit, never after
        (several processes: cluster/reservations.py says why); a player busy by now refuses
        that game alone. Each game by id: started, or why not."""
        try:
            busy = self.table.reserve(lives)
        except Exception:
            db.session.rollback()
            raise
        for row in rows:
            if row.id in busy:
                if row.id in links:
                    db.session.delete(links[row.id])
                db.session.delete(row)
        kept = [live.game_id for live in lives if live.game_id not in busy]
        try:
            db.session.commit()
        except Exception:
            db.session.rollback()
            self.table.release(kept)
            raise
        revoked = self._abort_revoked(lives, self.table.confirm(kept))
        refused = {**busy, **revoked}
        self.table.add_many([live for live in lives if live.game_id not in refused],
                            reserved=True)
        return {live.game_id: refused.get(live.game_id) or self._started(live)
                for live in lives}

    def _abort_revoked(self, lives: list[LiveGame], game_ids: list[int]) -> dict[int, Made]:
        """Committed after this process had stalled past its lease, by which time another had
        found the reservation stale and freed its players: the game is aborted unplayed."""
        revoked: dict[int, Made] = {}
        for live in lives:
            if live.game_id in game_ids:
                log.warning("game aborted: its players were freed while it was made",
                            extra={"fields": {"game_id": live.game_id}})
                save_result(live.game_id, live.black.user_id, live.white.user_id,
                            aborted(AbortCause.NOT_STARTED), 0, None, rated=False)
                revoked[live.game_id] = ActionError("conflict", gettext(
                    "The game could not be started; try again."))
        return revoked

    def _live(self, game: NewGame, row: Game, ratings: dict[tuple[int, str], int]) -> LiveGame:
        chosen = _chosen(game, self.default_clock)
        key = category_of(game.ruleset, chosen).key
        return LiveGame(
            game_id=row.id, ruleset=game.ruleset, black=_seat(game.black, ratings, key),
            white=_seat(game.white, ratings, key), rules=RulesGame(game.ruleset),
            clocks=_clocks(chosen), time_control=chosen, rated=row.rated,
            opening=opening_of(row), created_at=self.clock(), abort_seconds=self.abort_seconds,
            version=first_version(self.wall()),
        )

    def _started(self, live: LiveGame) -> tuple[LiveGame, list[Notice]]:
        event(log, "game_created", game_id=live.game_id, black=live.black.user_id,
              white=live.white.user_id, ruleset=live.ruleset)
        # Nothing to tell anyone yet: the callers tell the players (match_found, the rematch),
        # and the hall's next update lists the game.
        return live, []

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
        live = _from_row(row, self.clock(), last_alive, first_version(self.wall()))
        live.abort_seconds = self.abort_seconds
        if live.clocks is not None:
            live.clocks.bare = self.bare(row.id)
        self.table.add(live)
        outcome = live.rules.outcome
        if outcome is not None:
            line = [list(p) for p in outcome.line] if outcome.line else None
            with live.lock:
                self.finisher.finish(live, Ending(outcome.winner, outcome.reason, line))
        return live


def _refusals(games: Sequence[NewGame]) -> list[ActionError | None]:
    """Why each game cannot be made, or None: an unknown ruleset, or a player named twice in
    the batch (who gets only the first of those games). A player busy with another game is
    refused when the batch's players are reserved (`GameTable.reserve`), atomically."""
    seen: set[int] = set()
    refusals: list[ActionError | None] = []
    for game in games:
        try:
            _check(game, seen)
        except ActionError as refused:
            refusals.append(refused)
            continue
        refusals.append(None)
        seen.update(user.id for user in (game.black, game.white)
                    if user.computer_level is None)
    return refusals


def _check(game: NewGame, seen: set[int]) -> None:
    if game.ruleset not in RULESETS:
        raise ActionError("bad_request", gettext("Unknown ruleset %(name)r.", name=game.ruleset))
    check_opening(game.ruleset, game.opening)
    for user in (game.black, game.white):
        # The computer plays many games at once.
        if user.computer_level is None and user.id in seen:
            raise ActionError("busy", gettext("You have a game in progress."))


def _chosen(game: NewGame, default: TimeControl) -> TimeControl:
    return default if game.time_control is OMITTED else game.time_control


def _row(game: NewGame, default_clock: TimeControl) -> Game:
    black, white = game.black, game.white
    return Game(ruleset=game.ruleset, status=Status.WAITING, black_id=black.id,
                white_id=white.id, rematch_of=game.rematch_of,
                computer_level=black.computer_level or white.computer_level,
                rated=game.rated and not (black.computer_level or white.computer_level),
                opening=game.opening, opening_log=[] if game.opening != "none" else None,
                **_clock_columns(_chosen(game, default_clock)))


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


def _from_row(row: Game, now: float, last_alive: datetime | None, version: int) -> LiveGame:
    rules = RulesGame.replay([(m.row, m.col) for m in row.moves], row.ruleset)
    clocks = None
    if row.black_ms is not None and row.white_ms is not None:
        clocks = Clocks(row.black_ms, row.white_ms, row.clock_increment_ms or 0)
    key = category_of(row.ruleset, row.time_control()).key
    ratings = standings_of((user.id, key) for user in (row.black, row.white)
                           if user.computer_level is None and row.rated)
    opening = opening_of(row)
    live = LiveGame(
        game_id=row.id, ruleset=row.ruleset,
        black=_seat(row.black, ratings, key), white=_seat(row.white, ratings, key),
        rules=rules, clocks=clocks, time_control=row.time_control(), created_at=now,
        status=row.status, version=version, rated=row.rated, opening=opening,
    )
    acted = len(opening.log) if opening is not None else len(row.moves)
    to_move = live.to_move()
    if clocks is not None and acted >= 1 and to_move is not None:
        clocks.start(to_move, now - _used_before_stop(row, last_alive))
    if row.status == Status.PLAYING:
        # Both players must come back (the computer is always back); each gets the grace
        # period from the restart.
        live.away_since = {color: now for color in (BLACK, WHITE)
                           if live.seat(color).computer is None}
        if acted < (2 if opening is None else 1):
            live.abort_from = now
    return live


def _seat(user: User, ratings: dict[tuple[int, str], int], key: str) -> Seat:
    """A player's seat, with their rating in the game's category (`key`), for a person."""
    return Seat(user.id, user.username, user.score, user.computer_level,
                ratings.get((user.id, key)))


def _people_in(game: NewGame, default_clock: TimeControl) -> list[tuple[int, str]]:
    """(user id, category key) of the people in a new rated game: whose ratings its seats
    show (a casual game shows the scores, as a game against the computer does)."""
    if not game.rated:
        return []
    key = category_of(game.ruleset, _chosen(game, default_clock)).key
    return [(user.id, key) for user in (game.black, game.white) if user.computer_level is None]


def _used_before_stop(row: Game, last_alive: datetime | None) -> float:
    """Seconds the side to move had thought between its turn starting and the server's last
    sign of life: charged to it, as the time after that is the server's fault."""
    if last_alive is None or row.turn_started_at is None:
        return 0.0
    return max(0.0, (last_alive - row.turn_started_at).total_seconds())
