"""Challenges: one player asks a named online player for a game.

The challenger waits in the hall; the challenged player may be on any page of the site, so
what they are told goes to all their pages (`USER`), the hall and each page's /site connection.

A challenge from a player the challenged one blocks is kept like any other but never shown to
them (`hidden`): to its sender it is a challenge nobody answers, ended as any other is.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable
from typing import Any

from flask_babel import gettext

from gobang.extensions import db
from gobang.models import Game, User, username_key
from gobang.services.hall.matcher import Matcher, Pairing
from gobang.services.hall.pairings import Pairings
from gobang.services.hall.presence import Presence
from gobang.services.hall.state import Challenge, ChallengeBook
from gobang.services.notices import USER, ActionError, Notice
from gobang.services.openings.stored import check_opening
from gobang.services.play.maintenance import Maintenance
from gobang.services.play.table import GameTable
from gobang.services.pools import NO_OPENING, OMITTED, Pools, wire
from gobang.services.ratelimit import RateLimiter
from gobang.services.social.blocks import Blocks
from gobang.services.validation import ruleset_choice

# What a challenger may ask to play.
CHALLENGER_COLORS = ("black", "white", "random")


class Challenges:
    def __init__(self, table: GameTable, presence: Presence, matcher: Matcher,
                 pairings: Pairings, maintenance: Maintenance, limiter: RateLimiter,
                 rng: random.Random, pools: Pools, book: ChallengeBook, blocks: Blocks) -> None:
        self.table = table
        self.blocks = blocks
        self.pools = pools
        self.presence = presence
        self.matcher = matcher
        self.pairings = pairings
        self.maintenance = maintenance
        self.limiter = limiter
        self.rng = rng
        # The open challenges, shared by every process: ids unique among them all.
        self.book = book

    def send(self, user: User, username: Any, ruleset: Any, clock: Any = OMITTED,
             rated: Any = True, color: Any = "random",
             opening: Any = NO_OPENING) -> tuple[str, list[Notice]]:
        """`clock`: one of the pools' clocks, null for none, or omitted for the default;
        `rated`: False for a casual game; `color`: the challenger's, or random; `opening`: one
        the ruleset allows, or none."""
        ruleset = ruleset_choice(ruleset)
        clock = self.pools.choice(clock)
        opening = check_opening(ruleset, opening)
        if not isinstance(rated, bool):
            raise ActionError("bad_request", gettext("rated is true or false."))
        if color not in CHALLENGER_COLORS:
            raise ActionError("bad_request", gettext("color is black, white or random."))
        if not isinstance(username, str) or not username.strip():
            raise ActionError("bad_request", gettext("Name the player to challenge."))
        self.table.check_free(user.id)
        self.maintenance.check_open()
        check_action_rate(self.limiter, user.id)
        target = self._online_user(username)
        self._check_can_challenge(user, target)
        blocking, blocked = self.blocks.between(user.id, target.id)
        if blocking:
            raise ActionError("blocked", gettext(
                "You have blocked %(name)s: unblock them to challenge them.",
                name=target.username))
        notices = self.drop_from(user.id)
        self.matcher.cancel(user.id)
        challenge = Challenge(self.book.new_id(), user.id, target.id, ruleset, clock, rated,
                              color, opening, hidden=blocked)
        self.book.add(challenge)
        if not blocked:
            notices.append(Notice("challenge_received", {
                "challenge_id": challenge.challenge_id, "from": user.player(),
                "ruleset": ruleset, "clock": wire(clock), "rated": rated, "color": color,
                "opening": opening}, USER, target.id))
        return challenge.challenge_id, notices + self.presence.changed(user.id)

    def answer(self, user: User, challenge_id: Any, accept: Any) -> list[Notice]:
        if not isinstance(challenge_id, str) or not isinstance(accept, bool):
            raise ActionError("bad_request",
                              gettext("Send challenge_id (string) and accept (boolean)."))
        challenge = self.book.get(challenge_id)
        if challenge is None or challenge.to_id != user.id or challenge.hidden:
            raise _no_longer_open()
        if accept:
            self.maintenance.check_open()
            self.table.check_free(user.id)
            self.table.check_free(challenge.from_id)
        if not self.book.take(challenge_id):  # cancelled meanwhile, on another process say
            raise _no_longer_open()
        if not accept:
            return [Notice("challenge_declined", {"challenge_id": challenge_id}, USER,
                           challenge.from_id)]
        self.matcher.cancel(user.id)
        self.matcher.cancel(challenge.from_id)
        notices = self.drop_of(user.id) + self.drop_of(challenge.from_id)
        players = [challenge.from_id, challenge.to_id]  # black first
        if challenge.color == "white" or (challenge.color == "random"
                                          and self.rng.random() < 0.5):
            players.reverse()
        try:
            return notices + self.pairings.start(
                Pairing(players[0], players[1], challenge.ruleset, challenge.clock,
                        challenge.rated, challenge.opening))
        except ActionError as refused:
            refused.notices = notices + refused.notices
            if refused.code == "busy" and not _players_game(user.id, refused.extra):
                # The challenger's game (one the live store had lost): not this player's to
                # go to, so the answer does not carry it.
                theirs = ActionError("busy", gettext("The challenger is playing a game."))
                theirs.notices = refused.notices
                raise theirs from refused
            raise

    def drop_from(self, user_id: int) -> list[Notice]:
        """Cancel the challenges the user sent."""
        return self._drop(lambda c: c.from_id == user_id)

    def drop_of(self, user_id: int) -> list[Notice]:
        """Cancel every challenge the user sent or received."""
        return self._drop(lambda c: user_id in (c.from_id, c.to_id))

    def drop_all(self) -> list[Notice]:
        return self._drop(lambda _challenge: True)

    def drop_between(self, user_id: int, other_id: int) -> list[Notice]:
        """Cancel the challenges between two players (one has just blocked the other)."""
        return self._drop(lambda c: {c.from_id, c.to_id} == {user_id, other_id})

    def _check_can_challenge(self, user: User, target: User) -> None:
        if target.id == user.id:
            raise ActionError("bad_request", gettext("You cannot challenge yourself."))
        if self.table.current_game_of(target.id) is not None:
            raise ActionError("busy", gettext("%(name)s is playing a game.", name=target.username))
        if any(c.from_id == user.id and c.to_id == target.id for c in self.book.all()):
            raise ActionError("conflict", gettext("You have already challenged %(name)s.",
                                                  name=target.username))

    def _online_user(self, username: str) -> User:
        # NFKC, as names are stored: a full-width "ａｌｉｃｅ" finds alice.
        key = username_key(unicodedata.normalize("NFKC", username.strip()))
        user = db.session.query(User).filter(User.username_key == key).one_or_none()
        if user is not None and user.guest:
            raise ActionError("registered_only", gettext(
                "%(name)s is a guest: guests play only the computer.", name=user.username))
        if user is None or not self.presence.is_online(user.id):
            raise ActionError("not_found", gettext("No player of that name is online."))
        return user

    def _drop(self, matches: Callable[[Challenge], bool]) -> list[Notice]:
        notices = []
        for challenge in [c for c in self.book.all() if matches(c)]:
            if not self.book.take(challenge.challenge_id):
                continue  # closed meanwhile: whoever closed it told both players
            payload = {"challenge_id": challenge.challenge_id}
            notices.append(Notice("challenge_cancelled", payload, USER, challenge.from_id))
            if not challenge.hidden:
                notices.append(Notice("challenge_cancelled", payload, USER, challenge.to_id))
        return notices


def _players_game(user_id: int, extra: dict[str, Any]) -> bool:
    """Whether the game a `busy` refusal names is the user's."""
    game = db.session.get(Game, extra["game_id"]) if "game_id" in extra else None
    return game is not None and user_id in (game.black_id, game.white_id)


def _no_longer_open() -> ActionError:
    return ActionError("not_found", gettext("That challenge is no longer open."))


def check_action_rate(limiter: RateLimiter, user_id: int) -> None:
    if not limiter.hit(user_id):
        raise ActionError("rate_limited", gettext("Too many requests; wait a moment."))
