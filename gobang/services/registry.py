"""The one place where the services are built and wired: who talks to whom, in one screen.

Each collaborator is handed exactly what it needs. Play never calls the hall: it publishes
`GameStarted` and `GameEnded` on the bus, and the subscriptions at the end of `build_services`
say who listens.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app

from gobang.extensions import db
from gobang.services.accounts.accounts import Accounts
from gobang.services.accounts.passwords import Passwords
from gobang.services.admin import AdminDesk
from gobang.services.clock import Clock, monotonic
from gobang.services.computer.computer import Computer
from gobang.services.computer.engines import (
    EnginePool,
    EngineSettings,
    default_workers,
    parse_command,
    reply_seconds,
)
from gobang.services.events import Bus, GameEnded, GameStarted, PlayerAway
from gobang.services.hall.challenges import Challenges
from gobang.services.hall.chat import HallChat
from gobang.services.hall.hall import Hall
from gobang.services.hall.matcher import Matcher
from gobang.services.hall.matchmaking import Matchmaking
from gobang.services.hall.pairings import Pairings
from gobang.services.hall.presence import Presence
from gobang.services.hall.view import HallView, ViewSizes
from gobang.services.metrics import Metrics
from gobang.services.notices import Notice
from gobang.services.play.draws import Draws
from gobang.services.play.factory import GameFactory
from gobang.services.play.finisher import Finisher
from gobang.services.play.hints import Hints
from gobang.services.play.maintenance import Maintenance
from gobang.services.play.move_writer import MoveWriter
from gobang.services.play.moves import Moves
from gobang.services.play.pauses import Pauses
from gobang.services.play.rematches import Rematches
from gobang.services.play.room_chat import Attendance, RoomChat
from gobang.services.play.seating import Seating
from gobang.services.play.table import GameTable
from gobang.services.play.takebacks import TakeBacks
from gobang.services.play.timekeeper import Timekeeper
from gobang.services.pools import Pools
from gobang.services.ratelimit import RateLimiter
from gobang.services.store import LiveStore, MemoryStore
from gobang.vocabulary import Namespace

EXTENSION_KEY = "gobang"
MAX_UNDOS = 3


@dataclass(frozen=True)
class Play:
    """A game in play, one collaborator per thing that can happen to it."""

    table: GameTable
    factory: GameFactory
    seating: Seating
    moves: Moves
    finisher: Finisher
    timekeeper: Timekeeper
    draws: Draws
    takebacks: TakeBacks
    pauses: Pauses
    rematches: Rematches
    chat: RoomChat
    maintenance: Maintenance
    hints: Hints


@dataclass(frozen=True)
class Lobby:
    """The hall's services."""

    hall: Hall
    presence: Presence
    matcher: Matcher
    matchmaking: Matchmaking
    challenges: Challenges
    chat: HallChat
    view: HallView
    pools: Pools


@dataclass(frozen=True)
class Services:
    accounts: Accounts
    auth_limiter: RateLimiter
    # Unknown events, per connection.
    event_limiter: RateLimiter
    clock: Clock
    store: LiveStore
    play: Play
    lobby: Lobby
    computer: Computer
    admin: AdminDesk
    metrics: Metrics

    def tick(self) -> Iterator[list[Notice]]:
        """Everything time-driven, as batches of notices to send one after the other: the
        host's commands (first, so that maintenance mode stops this very round of matching),
        each new pairing, forfeits, flags and aborts, the computer's moves, and last the
        hall's batched update, so that it already shows this round's changes."""
        yield self.admin.tick()
        yield from self.lobby.matchmaking.steps()
        yield self.play.timekeeper.tick()
        yield self.computer.tick()
        yield self.lobby.view.flush()


def build_services(app: Flask) -> Services:
    cfg = app.config
    clock: Clock = cfg.get("CLOCK") or monotonic
    rng: random.Random = cfg.get("RANDOM") or random.Random()
    enabled = cfg["RATELIMIT_ENABLED"]

    def limiter(limit: int, window: float) -> RateLimiter:
        return RateLimiter(limit, window, clock, enabled=enabled)

    chat_window = (cfg["CHAT_MESSAGES_PER_WINDOW"], cfg["CHAT_WINDOW_SECONDS"])
    store = MemoryStore()
    metrics = Metrics()
    bus = Bus()
    pools = Pools.from_settings(cfg["MATCH_POOLS"], cfg["CLOCK_INITIAL_SECONDS"],
                                cfg["CLOCK_INCREMENT_SECONDS"])
    engines = EnginePool(engine_settings(cfg), clock)
    play = _play(app, store, clock, bus, metrics, limiter, pools, engines.settings.capacity)
    actions = limiter(cfg["HALL_ACTIONS_PER_MINUTE"], 60)
    lobby = _lobby(app, store, clock, rng, play, limiter(*chat_window), actions, pools)
    computer = Computer(play.table, play.factory, play.moves, play.finisher, engines,
                        play.maintenance, actions, rng, pools)
    bus.subscribe(GameStarted, lobby.matchmaking.game_started)
    bus.subscribe(GameEnded, lobby.presence.game_ended)
    bus.subscribe(PlayerAway, lobby.presence.player_away)
    return Services(
        accounts=_accounts(app),
        auth_limiter=limiter(cfg["AUTH_ATTEMPTS_PER_MINUTE"], 60),
        event_limiter=limiter(cfg["UNKNOWN_EVENTS_PER_MINUTE"], 60),
        clock=clock, store=store, play=play, lobby=lobby, computer=computer,
        admin=AdminDesk(clock, store, lobby.hall, play.finisher, cfg["ADMIN_POLL_SECONDS"]),
        metrics=metrics,
    )


def engine_settings(cfg: Any) -> EngineSettings:
    options = cfg["ENGINE_LEVEL_OPTIONS"] or {}
    if isinstance(options, str):
        options = json.loads(options)
    return EngineSettings(
        workers=cfg["COMPUTER_WORKERS"] or default_workers(),
        games_per_worker=cfg["COMPUTER_GAMES_PER_WORKER"],
        command=parse_command(cfg["ENGINE_COMMAND"]),
        level_options={int(number): {key: str(value) for key, value in found.items()}
                       for number, found in options.items()},
        nice=cfg["COMPUTER_NICE"],
        think_seconds=cfg["COMPUTER_THINK_SECONDS"],
        reply_seconds=reply_seconds(cfg["TICKER_INTERVAL_SECONDS"]),
    )


def _play(app: Flask, store: LiveStore, clock: Clock, bus: Bus, metrics: Metrics,
          limiter: Callable[[int, float], RateLimiter], pools: Pools,
          computer_capacity: int) -> Play:
    cfg = app.config
    negotiations = limiter(cfg["NEGOTIATIONS_PER_MINUTE"], 60)
    grace = cfg["FORFEIT_GRACE_SECONDS"]
    table = GameTable(store, clock)
    maintenance = Maintenance()
    finisher = Finisher(table, clock, cfg["RATING_K"], metrics, bus)
    factory = GameFactory(
        table, clock, pools.default, bus, finisher, cfg["ABORT_SECONDS"])
    attendance = Attendance()
    chat = RoomChat(attendance, limiter(cfg["CHAT_MESSAGES_PER_WINDOW"],
                                        cfg["CHAT_WINDOW_SECONDS"]))
    rematches = Rematches(table, factory, maintenance, computer_capacity)
    return Play(
        table=table, factory=factory,
        seating=Seating(table, clock, grace, attendance, finisher, chat, rematches,
                        limiter(cfg["SPECTATOR_JOINS_PER_MINUTE"], 60), bus),
        moves=Moves(table, clock, limiter(cfg["MOVES_PER_SECOND"], 1),
                    MoveWriter(lambda: db.engine), finisher, metrics),
        finisher=finisher,
        timekeeper=Timekeeper(table, clock, grace, cfg["ABORT_SECONDS"], finisher),
        draws=Draws(table, finisher, negotiations),
        takebacks=TakeBacks(table, clock, MAX_UNDOS, negotiations),
        pauses=Pauses(table, clock, negotiations), rematches=rematches, chat=chat,
        maintenance=maintenance, hints=Hints(table),
    )


def _lobby(app: Flask, store: LiveStore, clock: Clock, rng: random.Random, play: Play,
           chat_limiter: RateLimiter, action_limiter: RateLimiter, pools: Pools) -> Lobby:
    cfg = app.config
    table, maintenance = play.table, play.maintenance
    matcher = Matcher(store, clock, rng, cfg["MATCH_GAP_START"], cfg["MATCH_GAP_PER_SECOND"],
                      is_connected=lambda user_id: store.connection(Namespace.HALL, user_id)
                      is not None)
    presence = Presence(store, table, matcher, play.seating.absence)
    view = HallView(presence, table, matcher, clock,
                    ViewSizes(cfg["HALL_LIST_SIZE"], cfg["HALL_GAMES_SIZE"]),
                    cfg["HALL_UPDATE_SECONDS"], pools)
    pairings = Pairings(play.factory)
    challenges = Challenges(table, presence, matcher, pairings, maintenance, action_limiter,
                            rng, pools)
    chat = HallChat(chat_limiter)
    return Lobby(
        hall=Hall(table, presence, view, matcher, challenges, chat, maintenance, pools),
        presence=presence, matcher=matcher,
        matchmaking=Matchmaking(table, matcher, presence, challenges, pairings, maintenance,
                                action_limiter, pools),
        challenges=challenges, chat=chat, view=view, pools=pools,
    )


def _accounts(app: Flask) -> Accounts:
    cfg = app.config
    passwords = Passwords(
        cfg["ARGON2_TIME_COST"], cfg["ARGON2_MEMORY_KIB"], cfg["ARGON2_PARALLELISM"]
    )
    offload = cfg.get("BLOCKING_OFFLOAD")
    if offload:
        return Accounts(passwords, offload, initial_score=cfg["INITIAL_SCORE"])
    return Accounts(passwords, initial_score=cfg["INITIAL_SCORE"])


def install_services(app: Flask) -> Services:
    found = build_services(app)
    app.extensions[EXTENSION_KEY] = found
    return found


def services() -> Services:
    """The app's services, for views and commands (namespaces are handed theirs)."""
    return current_app.extensions[EXTENSION_KEY]
