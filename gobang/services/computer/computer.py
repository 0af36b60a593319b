"""Games against the computer: starting one, and playing the computer's moves.

The computer plays like any player through `Moves.play`, so the referee, the clocks, saving
and the room's events are the same as between people. Its moves come from `EnginePool`,
which thinks in other processes; `tick` (run by the background ticker) queues a move
whenever the computer is to move and plays the answers that have come in, after checking
that the position is still the one the engine was given (a take-back or the game's end may
have come first)."""

from __future__ import annotations

import logging
import random
from typing import Any

from flask_babel import gettext

from gobang.ai import NoLegalMove
from gobang.ai.levels import LEVELS
from gobang.ai.openings import decide
from gobang.models import User
from gobang.rules import Game as RulesGame
from gobang.rules.openings import Action
from gobang.services.computer.capacity import admits
from gobang.services.computer.engines import EnginePool, Thought
from gobang.services.computer.players import computer_user
from gobang.services.notices import ActionError, Notice
from gobang.services.openings.steps import OpeningSteps
from gobang.services.openings.stored import NO_OPENING, check_opening
from gobang.services.play.factory import GameFactory
from gobang.services.play.finisher import Finisher
from gobang.services.play.live import LiveGame
from gobang.services.play.maintenance import Maintenance
from gobang.services.play.moves import Moves
from gobang.services.play.results import Ending
from gobang.services.play.table import GameTable
from gobang.services.pools import Pools
from gobang.services.ratelimit import RateLimiter
from gobang.services.validation import ruleset_choice
from gobang.vocabulary import BLACK, COLORS, Reason, Status, opponent

log = logging.getLogger("gobang.computer")

RANDOM = "random"


class Computer:
    def __init__(self, table: GameTable, factory: GameFactory, moves: Moves,
                 finisher: Finisher, engines: EnginePool, maintenance: Maintenance,
                 limiter: RateLimiter, rng: random.Random, pools: Pools,
                 openings: OpeningSteps) -> None:
        self.table = table
        self.openings = openings
        self.factory = factory
        self.moves = moves
        self.finisher = finisher
        self.engines = engines
        self.maintenance = maintenance
        self.limiter = limiter
        self.rng = rng
        self.pools = pools

    def start(self, user: User, number: Any, color: Any = None, ruleset: Any = None,
              clock: Any = None, opening: Any = None) -> tuple[int, list[Notice]]:
        """A new game of `user` against the computer at level `number`, untimed unless a
        clock is chosen, with an opening rule if one is named (`color` black: the user
        places the first stone); refused as `busy` while the computer plays all the games
        it can."""
        self.maintenance.check_open()
        number, color = _level_choice(number), self._color_choice(color)
        # Untimed unless a clock is named: the pools' clocks, not their default.
        ruleset = ruleset_choice(ruleset)
        opening = check_opening(ruleset, NO_OPENING if opening is None else opening)
        if not self.engines.settings.plays_opening(opening):
            # An external engine is asked only about the openings the host says it plays
            # (ENGINE_OPENINGS); it would otherwise play on from an opening it never chose.
            raise ActionError("conflict", gettext(
                "This server's computer engine does not play the %(opening)s opening.",
                opening=opening))
        time_control = None if clock is None else self.pools.choice(clock)
        if not self.limiter.hit(user.id):
            raise ActionError("rate_limited", gettext("Too many requests; wait a moment."))
        self.table.check_free(user.id)
        in_play = self._levels_in_play()
        if not admits(in_play, number, self.engines.settings):
            raise ActionError("busy", gettext(
                "The computer is playing as many games as it can; try again in a moment."))
        machine = computer_user(number)
        black, white = (user, machine) if color == BLACK else (machine, user)
        live, notices = self.factory.create(black, white, ruleset, time_control=time_control,
                                            opening=opening)
        # An engine starts now, in the background, while the player sits down: a start takes
        # about a second of CPU, which the first move's wall-clock budget cannot spare.
        self.engines.prepare(len(in_play) + 1, number)
        return live.game_id, notices

    def _levels_in_play(self) -> list[int]:
        """The computer's level in each of its games in play or about to start."""
        return [live.computer_level() or 1 for live in self.table.all()
                if live.computer_color() is not None and live.status != Status.FINISHED]

    def tick(self) -> list[Notice]:
        """Play the answers that came in; start engines up to one per game in play (at most
        the workers) for games that came into play without `start` (a restart, a rematch);
        then start thinking where the computer is to move. Moves still queued for games that
        ended are forgotten."""
        notices: list[Notice] = []
        for thought in self.engines.answers():
            notices += self._play(thought)
        games = [live for live in self.table.all() if live.computer_color() is not None]
        in_play = {live.game_id: live.computer_level() or 1 for live in games}
        self.engines.keep_only(set(in_play))
        if in_play:  # before any move is queued: engines, and the fallback with the first,
            # start here in the background, not inside a move's own thread and time
            self.engines.prepare(len(in_play), next(iter(in_play.values())))
        for live in games:
            with live.lock:
                if _computer_to_act(live) and live.in_opening():
                    notices += self._opening_step(live)
                elif _computer_to_act(live) and not self.engines.thinking(live.game_id):
                    copy = RulesGame.replay(list(live.rules.moves), live.ruleset)
                    self.engines.think(live.game_id, live.computer_level() or 1, copy)
        return notices

    def _play(self, thought: Thought) -> list[Notice]:
        live = self.table.get(thought.game_id)
        if live is None:
            return []
        with live.lock:
            if (not _computer_to_act(live) or live.in_opening() != thought.opening
                    or tuple(live.rules.moves) != thought.moves):
                return []  # taken back, ended or otherwise moved on meanwhile
            if thought.opening:
                return self._play_opening(live, thought)
            color = live.computer_color() or BLACK
            try:
                point = self._point(live, thought)
            except NoLegalMove:
                # No legal point at all (renju black with only forbidden points left).
                return self.finisher.finish(live, Ending(opponent(color), Reason.RESIGN))
            if point is None:
                return []  # the next tick asks again
            try:
                return self.moves.play(live, color, *point)
            except ActionError as error:  # the database refused: the next tick asks again
                log.warning("computer move not played", extra={"fields": {
                    "game_id": live.game_id, "error": error.code}})
                return error.notices

    def _opening_step(self, live: LiveGame) -> list[Notice]:
        """The computer's step in the opening: asked of an external engine that plays it
        (its answer comes through `answers`), else chosen here, in a few milliseconds
        (docs/engines.md, "Openings")."""
        opening = live.opening
        assert opening is not None
        if self.engines.settings.asks_engine(opening):
            if not self.engines.thinking(live.game_id):
                copy = RulesGame.replay(list(live.rules.moves), live.ruleset)
                self.engines.think_opening(live.game_id, live.computer_level() or 1, copy,
                                           opening)
            return []
        return self._take_steps(live, [decide(opening, live.ruleset,
                                              live.computer_level() or 1, self.rng)])

    def _take_steps(self, live: LiveGame, actions: list[Action],
                    move: tuple[int, int] | None = None) -> list[Notice]:
        """The computer's opening `actions` in order, then `move` (the first stone in play,
        when an engine took white in swap2) if it is then the computer's to play."""
        notices: list[Notice] = []
        try:
            for action in actions:
                notices += self.openings.act(live, live.computer_color() or BLACK, action)
            if move is not None and _computer_to_act(live) and not live.in_opening():
                notices += self.moves.play(live, live.computer_color() or BLACK, *move)
        except ActionError as error:  # the database refused: the next tick tries again
            log.warning("computer opening step not taken", extra={"fields": {
                "game_id": live.game_id, "error": error.code}})
            notices += error.notices
        return notices

    def _play_opening(self, live: LiveGame, thought: Thought) -> list[Notice]:
        """An engine's answer about the opening; none (it refused or failed, logged by the
        pool): the server chooses this step."""
        if thought.swap2 is None:
            opening = live.opening
            assert opening is not None
            return self._take_steps(live, [decide(opening, live.ruleset,
                                                  live.computer_level() or 1, self.rng)])
        return self._take_steps(live, list(thought.swap2.actions), thought.swap2.move)

    def _point(self, live: LiveGame, thought: Thought) -> tuple[int, int] | None:
        """Where the computer plays: the engine's answer or, when there is none (an engine
        path failed in a way nobody foresaw), the cheap level's move, logged; None when not
        even the cheap level could say. NoLegalMove only when the side to move has no legal
        point: an engine's failure never resigns a game."""
        if thought.move is not None:
            return thought.move.row, thought.move.col
        try:
            return self.engines.cheap_move(live.game_id, live.computer_level() or 1,
                                           live.rules, f"no answer: {thought.problem}")
        except NoLegalMove:
            raise
        except Exception as exc:  # noqa: BLE001 - logged; the next tick asks again
            log.warning("no computer move", extra={"fields": {
                "game_id": live.game_id, "problem": f"{type(exc).__name__}: {exc}"[:200]}})
            return None

    def _color_choice(self, value: Any) -> str:
        """The colour the player takes."""
        if value is None or value == RANDOM:
            return self.rng.choice(COLORS)
        if value not in COLORS:
            raise ActionError("bad_request", gettext(
                "Colour must be black, white or random."))
        return value


def _level_choice(value: Any) -> int:
    if type(value) is not int or value not in LEVELS:
        raise ActionError("bad_request", gettext(
            "Level must be a whole number from %(low)d to %(high)d.",
            low=min(LEVELS), high=max(LEVELS)))
    return value


def _computer_to_act(live: LiveGame) -> bool:
    return (live.status == Status.PLAYING and not live.paused
            and live.to_move() is not None and live.to_move() == live.computer_color())
