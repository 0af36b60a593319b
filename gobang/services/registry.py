"""One set of service objects per app, reachable from views and namespaces."""

from __future__ import annotations

import random
from dataclasses import dataclass

from flask import Flask, current_app

from gobang.services.accounts import Accounts
from gobang.services.admin import AdminDesk
from gobang.services.clock import Clock, monotonic
from gobang.services.fanout import Fanout
from gobang.services.games import GameSettings, LiveGames
from gobang.services.hall import NAMESPACE as HALL_NAMESPACE
from gobang.services.hall import Hall
from gobang.services.matcher import Matcher
from gobang.services.metrics import Metrics
from gobang.services.passwords import Passwords
from gobang.services.ratelimit import RateLimiter
from gobang.services.store import LiveStore, MemoryStore

EXTENSION_KEY = "gobang"


@dataclass
class Services:
    accounts: Accounts
    auth_limiter: RateLimiter
    clock: Clock
    store: LiveStore
    matcher: Matcher
    games: LiveGames
    hall: Hall
    admin: AdminDesk
    metrics: Metrics

    def tick(self) -> list:
        """Everything time-driven: the host's commands (first, so that maintenance mode stops
        this very round of matching), pairing queued players, forfeits, flags and aborts, and
        the hall broadcasts that had to wait."""
        return (self.admin.tick() + self.hall.run_matcher() + self.games.tick()
                + self.hall.flush())


def _accounts(app: Flask) -> Accounts:
    cfg = app.config
    passwords = Passwords(
        cfg["ARGON2_TIME_COST"], cfg["ARGON2_MEMORY_KIB"], cfg["ARGON2_PARALLELISM"]
    )
    offload = cfg.get("BLOCKING_OFFLOAD")
    if offload:
        return Accounts(passwords, offload, initial_score=cfg["INITIAL_SCORE"])
    return Accounts(passwords, initial_score=cfg["INITIAL_SCORE"])


def _game_settings(app: Flask) -> GameSettings:
    cfg = app.config
    return GameSettings(
        grace_seconds=cfg["FORFEIT_GRACE_SECONDS"],
        abort_seconds=cfg["ABORT_SECONDS"],
        rating_k=cfg["RATING_K"],
        clock_initial_seconds=cfg["CLOCK_INITIAL_SECONDS"],
        clock_increment_seconds=cfg["CLOCK_INCREMENT_SECONDS"],
    )


def build_services(app: Flask) -> Services:
    cfg = app.config
    clock: Clock = cfg.get("CLOCK") or monotonic
    rng: random.Random = cfg.get("RANDOM") or random.Random()
    enabled = cfg["RATELIMIT_ENABLED"]

    def limiter(limit: int, window: float) -> RateLimiter:
        return RateLimiter(limit, window, clock, enabled=enabled)

    store = MemoryStore()
    matcher = Matcher(
        store, clock, rng, cfg["MATCH_GAP_START"], cfg["MATCH_GAP_PER_SECOND"],
        is_connected=lambda user_id: store.connection(HALL_NAMESPACE, user_id) is not None,
    )
    chat_window = (cfg["CHAT_MESSAGES_PER_WINDOW"], cfg["CHAT_WINDOW_SECONDS"])
    metrics = Metrics()
    games = LiveGames(store, clock, _game_settings(app), limiter(*chat_window),
                      limiter(cfg["MOVES_PER_SECOND"], 1), metrics=metrics)
    hall = Hall(store, matcher, games, rng, limiter(*chat_window),
                limiter(cfg["HALL_ACTIONS_PER_MINUTE"], 60),
                Fanout(clock, cfg["HALL_FANOUT_PER_SECOND"], cfg["HALL_FANOUT_BURST"]))
    return Services(
        accounts=_accounts(app),
        auth_limiter=limiter(cfg["AUTH_ATTEMPTS_PER_MINUTE"], 60),
        clock=clock, store=store, matcher=matcher, games=games, hall=hall,
        admin=AdminDesk(clock, hall, games, cfg["ADMIN_POLL_SECONDS"]), metrics=metrics,
    )


def install_services(app: Flask) -> Services:
    found = build_services(app)
    app.extensions[EXTENSION_KEY] = found
    return found


def services() -> Services:
    return current_app.extensions[EXTENSION_KEY]
