"""The hall as a connection sees it: the greeting on arrival, what leaving cancels, finding a
player by name, and maintenance mode, which stops matching and challenges while games in play
finish."""

from __future__ import annotations

import logging
from typing import Any

from flask_babel import gettext

from gobang.logs import event
from gobang.models import User
from gobang.services.hall.challenges import Challenges
from gobang.services.hall.chat import HallChat
from gobang.services.hall.matcher import Matcher
from gobang.services.hall.presence import Presence
from gobang.services.hall.view import HallView
from gobang.services.notices import HALL, ActionError, Notice
from gobang.services.play.maintenance import MAINTENANCE_MESSAGE, Maintenance
from gobang.services.play.table import GameTable
from gobang.services.pools import Pools, wire
from gobang.services.ratelimit import RateLimiter
from gobang.vocabulary import RULESETS

log = logging.getLogger("gobang.hall")

# `find_players`: at most this many answers, for a prefix of at most this many characters
# (the longest username).
FOUND_PLAYERS = 20
PREFIX_CHARACTERS = 20


class Hall:
    def __init__(self, table: GameTable, presence: Presence, view: HallView, matcher: Matcher,
                 challenges: Challenges, chat: HallChat, maintenance: Maintenance,
                 pools: Pools, view_limiter: RateLimiter) -> None:
        self.table = table
        self.pools = pools
        self.presence = presence
        self.view = view
        self.matcher = matcher
        self.challenges = challenges
        self.chat = chat
        self.maintenance = maintenance
        # `hall_view` answers with the whole view: a client may not ask for it without end.
        self.view_limiter = view_limiter

    def connect(self, user: User, sid: str) -> tuple[str | None, dict[str, Any]]:
        """The connection it replaces, and the `hello` greeting. The others hear of the
        arrival in the next `hall_update`."""
        replaced = self.presence.arrive(user, sid)
        hello = {
            **self.presence.personal(user),
            "current_game": self.table.current_game_of(user.id),
            "chat": self.chat.recent(user.id),
            "rulesets": list(RULESETS),
            "clocks": [wire(clock) for clock in self.pools.clocks],
            "default_clock": wire(self.pools.default),
            "opening_pools": [pool.wire() for pool in self.pools.openings],
            "rating_categories": list(self.presence.categories),
            "maintenance": self.maintenance.on,
        }
        # The view last, and sent with nothing in between that waits: the connection already
        # hears `hall_update`s, and one that came after an older view was read would be
        # dropped before `hello` by the client, a gap that costs a resync.
        hello["view"] = self.view.snapshot()
        return replaced, hello

    def disconnect(self, user_id: int, sid: str) -> list[Notice]:
        """Leaving the hall ends the challenges one sent (a challenger waits in the hall for
        the answer) and, if no other page of the site is open, the ones received."""
        if not self.presence.depart(user_id, sid):
            return []
        self.matcher.cancel(user_id)
        if self.presence.is_online(user_id):
            return self.challenges.drop_from(user_id)
        return self.challenges.drop_of(user_id)

    def visit(self, user: User, sid: str) -> None:
        """Another page of the site connected (/site): its player can be challenged there."""
        self.presence.visit(user, sid)

    def leave_page(self, user_id: int, sid: str) -> list[Notice]:
        """A /site connection closed: the last page of the site gone ends what was received."""
        if not self.presence.leave_page(user_id, sid) or self.presence.is_here(user_id):
            return []
        return self.challenges.drop_of(user_id)

    def whole_view(self, user_id: int) -> dict[str, Any]:
        """The view as last sent, for a client that missed an update (`hall_view`)."""
        if not self.view_limiter.hit(user_id):
            raise ActionError("rate_limited", gettext("Too many requests; wait a moment."))
        return self.view.snapshot()

    def find_players(self, prefix: Any) -> list[dict[str, Any]]:
        """Online players by name prefix: how to reach someone the bounded view leaves out."""
        if not isinstance(prefix, str) or not 0 < len(prefix.strip()) <= PREFIX_CHARACTERS:
            raise ActionError("bad_request", gettext(
                "Type from 1 to %(count)d characters of the name.", count=PREFIX_CHARACTERS))
        return self.presence.find(prefix.strip(), FOUND_PLAYERS)

    def set_maintenance(self, on: bool) -> list[Notice]:
        """No new games (matching, challenges, rematches) while the games in play finish, so
        that the server can then restart without cutting any of them."""
        if on == self.maintenance.on:
            return []
        self.maintenance.on = on
        event(log, "maintenance", on=on)
        # To every hall connection at once: in the server's language, English.
        message = str(MAINTENANCE_MESSAGE) if on else gettext("New games can start again.")
        notices = [Notice("maintenance", {"on": on, "message": message}, HALL)]
        if on:
            for entry in self.matcher.queued():
                self.matcher.cancel(entry.user_id)
                notices += self.presence.changed(entry.user_id)
            notices += self.challenges.drop_all()
        return notices
