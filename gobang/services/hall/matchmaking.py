"""The Match button: queueing, cancelling, and pairing the queue on every tick."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from gobang.extensions import db
from gobang.logs import event
from gobang.models import User
from gobang.services.hall.challenges import Challenges, check_action_rate
from gobang.services.hall.matcher import Matcher, Pairing
from gobang.services.hall.pairings import Pairings
from gobang.services.hall.presence import Presence
from gobang.services.notices import ActionError, Notice
from gobang.services.play.maintenance import Maintenance
from gobang.services.play.table import GameTable
from gobang.services.pools import NO_OPENING, OMITTED, Pools
from gobang.services.ratelimit import RateLimiter
from gobang.services.ratings.categories import category_of
from gobang.services.ratings.stored import standing
from gobang.services.validation import ruleset_choice

log = logging.getLogger("gobang.hall")


class Matchmaking:
    def __init__(self, table: GameTable, matcher: Matcher, presence: Presence,
                 challenges: Challenges, pairings: Pairings, maintenance: Maintenance,
                 limiter: RateLimiter, pools: Pools, batch_games: int) -> None:
        self.table = table
        # Games made per step (one transaction each): few enough that a step stays short.
        self.batch_games = max(1, batch_games)
        self.pools = pools
        self.matcher = matcher
        self.presence = presence
        self.challenges = challenges
        self.pairings = pairings
        self.maintenance = maintenance
        self.limiter = limiter

    def start(self, user: User, ruleset: Any, clock: Any = OMITTED,
              opening: Any = NO_OPENING) -> list[Notice]:
        """Queue in the pool of that ruleset, clock (null: no clock; omitted: the default
        clock) and opening (one of the host's pools with an opening, or none)."""
        pool = self.pools.pool(ruleset_choice(ruleset), clock, opening)
        self.table.check_free(user.id)
        self.maintenance.check_open()
        check_action_rate(self.limiter, user.id)
        notices = self.challenges.drop_from(user.id)
        rating, provisional = standing(user.id, category_of(pool.ruleset, pool.clock))
        if self.matcher.enqueue(user.id, rating, pool.ruleset, pool.clock, provisional,
                                pool.opening):
            event(log, "queued", user_id=user.id, pool=pool.name)
            notices += self.presence.changed(user.id)
        return notices

    def cancel(self, user_id: int) -> list[Notice]:
        return self.presence.changed(user_id) if self.matcher.cancel(user_id) else []

    def run(self) -> list[Notice]:
        """Pair whoever can be paired now, all at once (every `match_found` first)."""
        return _matches_first([n for step in self.steps() for n in step])

    def steps(self) -> Iterator[list[Notice]]:
        """Pair whoever can be paired now, a batch of games at a time (one query for their
        players, one transaction for their games), so that the caller can send each batch's
        notices and let others run before the next: a crowd pressing Match at once must not
        hold up the games in play. A player who got a game by another path since queueing
        (a rematch) is skipped: one live game per player."""
        pairings, _dropped = self.matcher.tick()
        for start in range(0, len(pairings), self.batch_games):
            taken = self.matcher.take(pairings[start:start + self.batch_games])
            if taken:
                yield self._start(taken)

    def _start(self, taken: list[Pairing]) -> list[Notice]:
        notices: list[Notice] = []
        for pairing, made in zip(taken, self.pairings.start_many(taken), strict=True):
            if isinstance(made, ActionError):
                event(log, "pairing_refused", black=pairing.black, white=pairing.white,
                      error=made.code)
                notices += self._requeue_free(pairing)
                # A game made settles its pair itself, with its commit (GameTable.confirm).
                self.matcher.settle(pairing)
            else:
                notices += made
        return _matches_first(notices)

    def _requeue_free(self, pairing: Pairing) -> list[Notice]:
        """The partner of a busy player goes back to the queue's end (rare: see `run`)."""
        notices: list[Notice] = []
        for user_id in (pairing.black, pairing.white):
            if self.table.current_game_of(user_id) is None:
                if db.session.get(User, user_id) is not None:
                    rating, provisional = standing(
                        user_id, category_of(pairing.ruleset, pairing.clock))
                    self.matcher.enqueue(user_id, rating, pairing.ruleset, pairing.clock,
                                         provisional, pairing.opening)
            notices += self.presence.changed(user_id)
        return notices


def _matches_first(notices: list[Notice]) -> list[Notice]:
    """One tick's notices with every `match_found` first: when a crowd is paired at once the
    players wait on those, and the rest can follow."""
    found = [n for n in notices if n.event == "match_found"]
    return found + [n for n in notices if n.event != "match_found"]
