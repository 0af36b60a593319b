"""Pauses: asked by one player, agreed by the other; play resumes when both say so."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from gobang.services.clock import Clock
from gobang.services.notices import ActionError, Notice
from gobang.services.play.checks import Pace, require_answer, require_person_opponent
from gobang.services.play.live import room_notice
from gobang.services.play.table import GameTable
from gobang.services.ratelimit import RateLimiter
from gobang.vocabulary import BLACK, WHITE, opponent


class Pauses:
    def __init__(self, table: GameTable, clock: Clock, limiter: RateLimiter) -> None:
        self.table = table
        self.clock = clock
        self.pace = Pace(limiter)

    def request(self, game_id: int, user_id: int) -> list[Notice]:
        with self.table.acting(game_id, user_id, self.pace) as (live, color):
            require_person_opponent(live, gettext("A game against the computer is not paused."))
            if live.paused:
                raise ActionError("conflict", gettext("The game is already paused."))
            if live.pause_request is not None:
                raise ActionError("conflict", gettext("A pause is already asked for."))
            live.pause_request = color
            return [room_notice("pause_requested", live, by=color)]

    def answer(self, game_id: int, user_id: int, accept: Any) -> list[Notice]:
        accept = require_answer(accept)
        with self.table.acting(game_id, user_id) as (live, color):
            if live.pause_request != opponent(color):
                raise ActionError("conflict", gettext("There is no pause request to answer."))
            live.pause_request = None
            if not accept:
                return [room_notice("pause_declined", live, by=color)]
            live.paused = True
            live.resume_votes = set()
            if live.clocks:
                live.pause_running = live.clocks.running
                live.clocks.stop(self.clock())
            return [room_notice("paused", live, clocks=self.table.clocks(live))]

    def resume(self, game_id: int, user_id: int) -> list[Notice]:
        with self.table.acting(game_id, user_id) as (live, color):
            if not live.paused:
                raise ActionError("conflict", gettext("The game is not paused."))
            live.resume_votes.add(color)
            if live.resume_votes != {BLACK, WHITE}:
                return [room_notice("resume_requested", live, by=color)]
            live.paused = False
            now = self.clock()
            if live.clocks and live.pause_running:
                live.clocks.start(live.pause_running, now)
            if live.abort_from is not None:
                live.abort_from = now
            return [room_notice("resumed", live, clocks=self.table.clocks(live),
                                abort_seconds=live.abort_left(now))]
