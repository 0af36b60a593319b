"""The hall: who is online, the match queue, challenges and chat."""

from __future__ import annotations

import itertools
import logging
import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from gobang.extensions import db
from gobang.logs import event
from gobang.models import User
from gobang.rules import RULESETS
from gobang.services.chat import check_rate, clean_text, timestamp
from gobang.services.fanout import Fanout
from gobang.services.games import MAINTENANCE_MESSAGE, LiveGames
from gobang.services.matcher import Matcher, Pairing
from gobang.services.notices import HALL, HALL_USER, ActionError, Notice
from gobang.services.ratelimit import RateLimiter
from gobang.services.store import LiveStore

log = logging.getLogger("gobang.hall")
NAMESPACE = "/hall"
CHAT_KEPT = 50
# The subject of a broadcast of the live games' list (other subjects are user ids).
GAMES = "games"
# The clocks a challenge may choose, as (initial seconds, increment seconds).
CLOCK_CHOICES = ((180, 2), (300, 3), (600, 5), (900, 10))


@dataclass(frozen=True)
class Challenge:
    challenge_id: str
    from_id: int
    to_id: int
    ruleset: str
    clock: tuple[int, int] | None


class Hall:
    def __init__(
        self, store: LiveStore, matcher: Matcher, games: LiveGames, rng: random.Random,
        chat_limiter: RateLimiter, action_limiter: RateLimiter, fanout: Fanout,
    ) -> None:
        self.store = store
        self.matcher = matcher
        self.games = games
        self.rng = rng
        self.chat_limiter = chat_limiter
        self.action_limiter = action_limiter
        self.chat_log: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self.challenges: dict[str, Challenge] = {}
        # Player objects of the users in the hall: {"id", "username", "score"}.
        self._players: dict[int, dict[str, Any]] = {}
        self._ids = itertools.count(1)
        self.fanout = fanout
        games.presence = self.presence_notices
        games.games_changed = lambda: self._broadcast(GAMES)

    # --- presence ---------------------------------------------------------------------------

    def status(self, user_id: int) -> str:
        if self.games.current_game_of(user_id) is not None:
            return "playing"
        return "queued" if self.matcher.is_queued(user_id) else "idle"

    def presence_notices(self, user_id: int) -> list[Notice]:
        """What the hall is told when a user's status (or score) changed: nothing unless they
        are in the hall, and perhaps not yet (see `Fanout`)."""
        if self.store.connection(NAMESPACE, user_id) is None:
            return []
        user = db.session.get(User, user_id)
        if user is None:
            return []
        self._players[user_id] = user.player()
        return self._broadcast(user_id)

    def flush(self) -> list[Notice]:
        """The broadcasts that had to wait and may go out now, each in its current state."""
        return [self._notice_about(subject) for subject in self.fanout.due(self._hall_size())]

    def _broadcast(self, subject: int | str) -> list[Notice]:
        if self.fanout.offer(subject, self._hall_size()):
            return [self._notice_about(subject)]
        return []

    def _notice_about(self, subject: int | str) -> Notice:
        if subject == GAMES:
            return self.games.games_changed_now()[0]
        player = self._players.get(subject)
        if player is None or self.store.connection(NAMESPACE, subject) is None:
            return Notice("presence_gone", {"id": subject}, HALL)
        return Notice("presence", {"user": {**player, "status": self.status(subject)}}, HALL)

    def _hall_size(self) -> int:
        return self.store.connection_count(NAMESPACE)

    def _online(self) -> list[dict[str, Any]]:
        """Everyone in the hall. Each arrival lists them all, so the players already known here
        come from memory (kept fresh by every presence notice) rather than from one query of
        thousands of rows per arrival; only those connected elsewhere are read."""
        online_ids = self.store.connected_users(NAMESPACE)
        missing = [i for i in online_ids if i not in self._players]
        if missing:
            for user in db.session.query(User).filter(User.id.in_(missing)).all():
                self._players[user.id] = user.player()
        return [{**self._players[i], "status": self.status(i)}
                for i in sorted(online_ids) if i in self._players]

    def connect(self, user: User, sid: str) -> tuple[str | None, dict[str, Any], list[Notice]]:
        replaced = self.store.claim_connection(NAMESPACE, user.id, sid)
        self._players[user.id] = user.player()
        hello = {
            "me": user.stats(),
            "current_game": self.games.current_game_of(user.id),
            "online": self._online(),
            "games": self.games.live_games(),
            "chat": list(self.chat_log),
            "rulesets": list(RULESETS),
            "maintenance": self.games.maintenance,
        }
        return replaced, hello, self.presence_notices(user.id)

    def disconnect(self, user_id: int, sid: str) -> list[Notice]:
        if not self.store.release_connection(NAMESPACE, user_id, sid):
            return []  # replaced by a newer connection: the user is still here
        self._players.pop(user_id, None)
        self.matcher.cancel(user_id)
        return self._drop_challenges_of(user_id) + self._broadcast(user_id)

    # --- matching ---------------------------------------------------------------------------

    def start_match(self, user: User, ruleset: Any) -> list[Notice]:
        ruleset = _ruleset(ruleset)
        self._check_not_busy(user.id)
        self.games.check_open()
        self._check_rate(user.id)
        notices = self._drop_challenges_from(user.id)
        if self.matcher.enqueue(user.id, user.score, ruleset):
            event(log, "queued", user_id=user.id, ruleset=ruleset)
            notices += self.presence_notices(user.id)
        return notices

    def cancel_match(self, user_id: int) -> list[Notice]:
        return self.presence_notices(user_id) if self.matcher.cancel(user_id) else []

    def run_matcher(self) -> list[Notice]:
        pairings, _dropped = self.matcher.tick()
        notices: list[Notice] = []
        for pairing in pairings:
            notices += self._start_game(pairing, announce=False)
        return _matches_first(notices + (self._broadcast(GAMES) if pairings else []))

    def _start_game(self, pairing: Pairing, clock: tuple[int, int] | None = None,
                    announce: bool = True) -> list[Notice]:
        black = db.session.get(User, pairing.black)
        white = db.session.get(User, pairing.white)
        live, notices = self.games.create(black, white, pairing.ruleset, clock_seconds=clock,
                                          announce=announce)
        for color, me, other in (("black", black, white), ("white", white, black)):
            notices.append(Notice("match_found", {
                "game_id": live.game_id, "color": color, "opponent": other.player(),
                "ruleset": pairing.ruleset}, HALL_USER, me.id))
        event(log, "matched", game_id=live.game_id, black=black.id, white=white.id)
        return notices

    def _check_not_busy(self, user_id: int) -> None:
        game_id = self.games.current_game_of(user_id)
        if game_id is not None:
            raise ActionError("busy", gettext("You have a game in progress."), game_id=game_id)

    def _check_rate(self, user_id: int) -> None:
        if not self.action_limiter.hit(user_id):
            raise ActionError("rate_limited", gettext("Too many requests; wait a moment."))

    # --- maintenance ------------------------------------------------------------------------

    def set_maintenance(self, on: bool) -> list[Notice]:
        """Maintenance mode: no new games (matching, challenges, rematches) while the games in
        play finish, so that the server can then restart without cutting any of them."""
        if on == self.games.maintenance:
            return []
        self.games.maintenance = on
        event(log, "maintenance", on=on)
        # To every hall connection at once: in the server's language, English.
        message = str(MAINTENANCE_MESSAGE) if on else gettext("New games can start again.")
        notices = [Notice("maintenance", {"on": on, "message": message}, HALL)]
        if on:
            for entry in self.store.queue_entries():
                self.matcher.cancel(entry.user_id)
                notices += self.presence_notices(entry.user_id)
            notices += self._drop(lambda _challenge: True)
        return notices

    # --- challenges -------------------------------------------------------------------------

    def challenge(self, user: User, username: Any, ruleset: Any,
                  clock: Any = None) -> tuple[str, list[Notice]]:
        ruleset = _ruleset(ruleset)
        clock_choice = _clock(clock)
        if not isinstance(username, str) or not username.strip():
            raise ActionError("bad_request", gettext("Name the player to challenge."))
        self._check_not_busy(user.id)
        self.games.check_open()
        self._check_rate(user.id)
        target = self._online_user(username)
        if target.id == user.id:
            raise ActionError("bad_request", gettext("You cannot challenge yourself."))
        if self.games.current_game_of(target.id) is not None:
            raise ActionError("busy", gettext("%(name)s is playing a game.", name=target.username))
        if any(c.from_id == user.id and c.to_id == target.id for c in self.challenges.values()):
            raise ActionError("conflict", gettext("You have already challenged %(name)s.",
                                                  name=target.username))
        notices = self._drop_challenges_from(user.id)
        self.matcher.cancel(user.id)
        challenge = Challenge(f"c{next(self._ids)}", user.id, target.id, ruleset, clock_choice)
        self.challenges[challenge.challenge_id] = challenge
        notices.append(Notice("challenge_received", {
            "challenge_id": challenge.challenge_id, "from": user.player(), "ruleset": ruleset,
            "clock": _clock_payload(clock_choice)}, HALL_USER, target.id))
        return challenge.challenge_id, notices + self.presence_notices(user.id)

    def answer_challenge(self, user: User, challenge_id: Any, accept: Any) -> list[Notice]:
        if not isinstance(challenge_id, str) or not isinstance(accept, bool):
            raise ActionError("bad_request",
                              gettext("Send challenge_id (string) and accept (boolean)."))
        challenge = self.challenges.get(challenge_id)
        if challenge is None or challenge.to_id != user.id:
            raise ActionError("not_found", gettext("That challenge is no longer open."))
        if accept:
            self.games.check_open()
            self._check_not_busy(user.id)
            self._check_not_busy(challenge.from_id)
        del self.challenges[challenge_id]
        if not accept:
            return [Notice("challenge_declined", {"challenge_id": challenge_id}, HALL_USER,
                           challenge.from_id)]
        self.matcher.cancel(user.id)
        self.matcher.cancel(challenge.from_id)
        notices = self._drop_challenges_of(user.id) + self._drop_challenges_of(challenge.from_id)
        players = [challenge.from_id, challenge.to_id]
        self.rng.shuffle(players)
        return notices + self._start_game(
            Pairing(players[0], players[1], challenge.ruleset), challenge.clock)

    def _online_user(self, username: str) -> User:
        from gobang.models import username_key

        user = db.session.query(User).filter(
            User.username_key == username_key(username.strip())).one_or_none()
        if user is None or self.store.connection(NAMESPACE, user.id) is None:
            raise ActionError("not_found", gettext("No player of that name is online."))
        return user

    def _drop_challenges_from(self, user_id: int) -> list[Notice]:
        return self._drop(lambda c: c.from_id == user_id)

    def _drop_challenges_of(self, user_id: int) -> list[Notice]:
        return self._drop(lambda c: user_id in (c.from_id, c.to_id))

    def _drop(self, matches) -> list[Notice]:
        notices = []
        for challenge in [c for c in self.challenges.values() if matches(c)]:
            del self.challenges[challenge.challenge_id]
            payload = {"challenge_id": challenge.challenge_id}
            notices += [Notice("challenge_cancelled", payload, HALL_USER, challenge.from_id),
                        Notice("challenge_cancelled", payload, HALL_USER, challenge.to_id)]
        return notices

    # --- chat -------------------------------------------------------------------------------

    def chat(self, user: User, text: Any) -> list[Notice]:
        text = clean_text(text)
        check_rate(self.chat_limiter, user.id)
        message = {"from": {"id": user.id, "username": user.username}, "text": text,
                   "ts": timestamp()}
        self.chat_log.append(message)
        return [Notice("chat", message, HALL)]


def _matches_first(notices: list[Notice]) -> list[Notice]:
    """One tick's notices with every `match_found` first: when a crowd is paired at once the
    players wait on those, and the presence and game-list broadcasts can follow."""
    found = [n for n in notices if n.event == "match_found"]
    return found + [n for n in notices if n.event != "match_found"]


def _ruleset(value: Any) -> str:
    if value is None:
        return "freestyle"
    if value not in RULESETS:
        raise ActionError("bad_request", gettext("Ruleset must be one of %(names)s.",
                                                 names=", ".join(RULESETS)))
    return value


def _clock(value: Any) -> tuple[int, int] | None:
    if value is None:
        return None
    choice = tuple(value) if isinstance(value, list) else None
    if choice not in CLOCK_CHOICES or any(isinstance(v, bool) for v in choice):
        choices = ", ".join(f"[{a}, {b}]" for a, b in CLOCK_CHOICES)
        raise ActionError("bad_request", gettext("Clock must be one of %(choices)s.",
                                                 choices=choices))
    return choice


def _clock_payload(clock: tuple[int, int] | None) -> list[int] | None:
    return list(clock) if clock else None
