"""The one place where the services are built and wired: who talks to whom, in one screen.

Each collaborator is handed exactly what it needs. Play never calls the hall: it publishes
`GameEnded`, `GameAdopted` and `PlayerAway` on the bus, and the subscriptions at the end of
`build_services` say who listens.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

import redis
from flask import Flask, current_app
from redis.maint_notifications import MaintNotificationsConfig

from gobang.extensions import db
from gobang.services.accounts.accounts import Accounts
from gobang.services.accounts.passwords import Passwords
from gobang.services.admin import AdminDesk
from gobang.services.analysis.queue import AnalysisQueue, QueueSettings
from gobang.services.analysis.requests import RequestBook
from gobang.services.analysis.service import Analyses
from gobang.services.analysis.stored import save_analysis
from gobang.services.analysis_board.pool import BoardEngines, BoardEngineSettings
from gobang.services.analysis_board.service import AnalysisBoard
from gobang.services.arenas.berserk import Berserk, bare_colours
from gobang.services.arenas.director import Director
from gobang.services.arenas.entries import Entries
from gobang.services.arenas.schedule import Schedule
from gobang.services.arenas.standings import ArenaGames
from gobang.services.arenas.starter import GameStarter
from gobang.services.arenas.view import TournamentView
from gobang.services.clock import Clock, monotonic, wall
from gobang.services.cluster.directory import Directory, RedisDirectory, SoleDirectory
from gobang.services.cluster.hall_state import redis_hall_state
from gobang.services.cluster.leader import Leadership
from gobang.services.cluster.leases import Leases, RedisLeases, SoleLeases
from gobang.services.cluster.redis_queue import RedisQueue
from gobang.services.cluster.redis_store import RedisStore
from gobang.services.cluster.reservations import RedisReservations
from gobang.services.computer.computer import Computer
from gobang.services.computer.engines import (
    EnginePool,
    EngineSettings,
    default_workers,
    parse_command,
    reply_seconds,
)
from gobang.services.events import Bus, GameAdopted, GameEnded, PlayerAway
from gobang.services.guests.guests import Guests
from gobang.services.hall.challenges import Challenges
from gobang.services.hall.chat import CHAT_KEPT, HallChat
from gobang.services.hall.following import FollowingList
from gobang.services.hall.hall import Hall
from gobang.services.hall.matcher import Matcher
from gobang.services.hall.matchmaking import Matchmaking
from gobang.services.hall.pairings import Pairings
from gobang.services.hall.presence import Presence
from gobang.services.hall.state import GameList, HallState, memory_hall_state
from gobang.services.hall.view import HallView, ViewSizes
from gobang.services.metrics import Metrics
from gobang.services.moderation.chat_guard import ChatGuard
from gobang.services.moderation.desk import ModeratorDesk
from gobang.services.moderation.reports import Reports
from gobang.services.notices import Notice
from gobang.services.openings.steps import OpeningSteps
from gobang.services.play.checks import Pace
from gobang.services.play.draws import Draws
from gobang.services.play.factory import GameFactory
from gobang.services.play.finisher import Finisher
from gobang.services.play.hints import Hints
from gobang.services.play.homes import GameHomes
from gobang.services.play.maintenance import Maintenance
from gobang.services.play.move_writer import MoveWriter
from gobang.services.play.moves import Moves, too_many_moves
from gobang.services.play.pauses import Pauses
from gobang.services.play.rematches import Rematches
from gobang.services.play.room_chat import Attendance, RoomChat
from gobang.services.play.seating import Seating
from gobang.services.play.table import GameTable
from gobang.services.play.takebacks import TakeBacks
from gobang.services.play.timekeeper import Timekeeper
from gobang.services.player_events.chat import EventChat
from gobang.services.player_events.hosting import Hosting, HostRules
from gobang.services.pools import Pools
from gobang.services.puzzles.harvest import inline
from gobang.services.puzzles.judge import Budgets
from gobang.services.puzzles.service import Puzzles
from gobang.services.ratelimit import Limiter, RateLimiter, shared_limiter
from gobang.services.social.blocks import Blocks
from gobang.services.social.follows import Follows
from gobang.services.store import (
    LiveStore,
    MatchQueue,
    MemoryQueue,
    MemoryReservations,
    MemoryStore,
    Reservations,
)
from gobang.services.swiss.director import SwissDirector
from gobang.services.swiss.view import SwissView
from gobang.vocabulary import RULESETS, Namespace

EXTENSION_KEY = "gobang"
# The openings an external engine can be asked about: swap2, through SWAP2BOARD.
ENGINE_ASKED_OPENINGS = frozenset({"swap2"})
MAX_UNDOS = 3


@dataclass(frozen=True)
class Play:
    """A game in play, one collaborator per thing that can happen to it."""

    table: GameTable
    factory: GameFactory
    seating: Seating
    moves: Moves
    # The opening's steps other than a placed stone (Moves hands those over).
    openings: OpeningSteps
    finisher: Finisher
    timekeeper: Timekeeper
    draws: Draws
    takebacks: TakeBacks
    pauses: Pauses
    rematches: Rematches
    chat: RoomChat
    maintenance: Maintenance
    hints: Hints
    homes: GameHomes


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
    # Every process's live games; `publish` shares this process's (every tick).
    games: GameList
    pairings: Pairings
    # The online players each hall player follows.
    following: FollowingList


@dataclass(frozen=True)
class Stores:
    """Where the live state is kept: this process's memory, or Redis for several processes."""

    live: LiveStore
    queue: MatchQueue
    # The hall's state, once the table of live games exists.
    hall: Callable[[GameTable], HallState]
    # New games' players, in the live store before the games are committed.
    reservations: Reservations


def make_stores(cfg: Any, client: redis.Redis | None) -> Stores:
    if client is None:
        queue = MemoryQueue()
        memory = MemoryStore(queue)
        return Stores(memory, queue, partial(memory_hall_state, chat_kept=CHAT_KEPT),
                      MemoryReservations(memory))
    store = RedisStore(client, cfg["PROCESS_NAME"], cfg["LEASE_SECONDS"])
    return Stores(store, RedisQueue(client, store.processes.lease_ms),
                  partial(redis_hall_state, store, chat_kept=CHAT_KEPT),
                  RedisReservations(client, store.processes))


@dataclass(frozen=True)
class Moderation:
    """Reports, and what moderators do about them (gobang/services/moderation/)."""

    reports: Reports
    desk: ModeratorDesk


@dataclass(frozen=True)
class Social:
    """Who players follow and whom they block (gobang/services/social/)."""

    follows: Follows
    blocks: Blocks


@dataclass(frozen=True)
class Arenas:
    """Tournaments on the server (gobang/services/arenas/): the host's schedule, the players'
    entries, the leader's tick, and what the pages show."""

    schedule: Schedule
    entries: Entries
    director: Director
    view: TournamentView
    berserk: Berserk


@dataclass(frozen=True)
class PlayerEvents:
    """Tournaments created by players, cancelling them, and each event's chat
    (gobang/services/player_events/)."""

    hosting: Hosting
    chat: EventChat


@dataclass(frozen=True)
class Swiss:
    """Swiss events on the server (gobang/services/swiss/): scheduled and entered as the
    arenas are (`Arenas.schedule`, `Arenas.entries`); the leader's tick that pairs each round,
    and what their pages show."""

    director: SwissDirector
    view: SwissView


@dataclass(frozen=True)
class Services:
    accounts: Accounts
    # Visitors' accounts for playing the computer (limited per client address).
    guests: Guests
    # Per client address, across processes with Redis.
    auth_limiter: Limiter
    # Unknown events, per connection.
    event_limiter: RateLimiter
    clock: Clock
    store: LiveStore
    play: Play
    lobby: Lobby
    computer: Computer
    admin: AdminDesk
    metrics: Metrics
    leadership: Leadership
    moderation: Moderation
    social: Social
    # Finished games' computer analyses, worked out in processes of their own.
    analysis: Analyses
    # Puzzles harvested from those analyses, judged with the threat search.
    puzzles: Puzzles
    # The analysis board's positions, and its engine in processes of its own.
    analysis_board: AnalysisBoard
    arenas: Arenas
    player_events: PlayerEvents
    swiss: Swiss

    def tick(self, hall_sent: bool = True) -> Iterator[list[Notice]]:
        """Everything time-driven, as batches of notices to send one after the other: the
        host's commands (first, so that maintenance mode stops this very round of matching),
        each new pairing, forfeits, flags and aborts, the computer's moves, the arenas' and the
        Swiss events' starts, pairings and ends, and last the hall's batched update, so that
        it already shows this round's changes. With several processes each keeps its own
        games, and only the leader does the rest.
        `hall_sent`: False while the last update is still going out to this process's hall;
        the next waits for it, as the emitter waited while the update was sent inline."""
        leads = self.leadership.hold()
        yield self.admin.tick(leads)
        if leads:
            yield self.play.homes.sweep()
            yield from self.lobby.matchmaking.steps()
        yield from self.play.timekeeper.endings()
        yield self.computer.tick()
        yield self.analysis.queue.tick()
        if leads:
            # Only the leader: two processes must never pair the same players. After the
            # games' flags and aborts, which a failing arena must never hold up.
            yield self.arenas.director.tick()
            yield self.swiss.director.tick()
        if leads and hall_sent:
            yield self.lobby.view.flush()

    def keep_alive(self) -> list[Notice]:
        """With several processes, a few times per lease, apart from the ticks (a long tick
        must not cost a process its connections, games or lead): this process's sign of
        life, its games' leases, its games' summaries for the hall, and the lead if held."""
        self.store.heartbeat()
        notices = self.play.homes.keep()
        self.lobby.games.publish()
        self.leadership.hold()
        return notices


def build_services(app: Flask) -> Services:
    cfg = app.config
    clock: Clock = cfg.get("CLOCK") or monotonic
    rng: random.Random = cfg.get("RANDOM") or random.Random()
    enabled = cfg["RATELIMIT_ENABLED"]

    def limiter(limit: int, window: float) -> RateLimiter:
        return RateLimiter(limit, window, clock, enabled=enabled)

    chat_window = (cfg["CHAT_MESSAGES_PER_WINDOW"], cfg["CHAT_WINDOW_SECONDS"])
    client = (redis_client(cfg["REDIS_URL"], cfg["REDIS_POOL_SIZE"], cfg["REDIS_POOL_TIMEOUT"])
              if cfg["REDIS_URL"] else None)
    stores = make_stores(cfg, client)
    store = stores.live
    leases, directory = _cluster(cfg, client)
    metrics = Metrics()
    bus = Bus()
    pools = Pools.from_settings(cfg["MATCH_POOLS"], cfg["CLOCK_INITIAL_SECONDS"],
                                cfg["CLOCK_INCREMENT_SECONDS"])
    engines = EnginePool(engine_settings(cfg), clock)
    follows = Follows(cfg["FOLLOWS_AT_MOST"], utc_now(cfg))
    social = Social(follows, Blocks(cfg["BLOCKS_AT_MOST"], utc_now(cfg), follows))
    play = _play(app, stores, clock, bus, metrics, limiter, pools, engines.settings.capacity,
                 leases, directory, social.blocks)
    actions = limiter(cfg["HALL_ACTIONS_PER_MINUTE"], 60)
    lobby = _lobby(app, stores, clock, rng, play, limiter(*chat_window), actions,
                   limiter(cfg["HALL_VIEWS_PER_MINUTE"], 60), pools, social)
    computer = Computer(play.table, play.factory, play.moves, play.finisher, engines,
                        play.maintenance, actions, rng, pools, play.openings)
    accounts = _accounts(app)
    bus.subscribe(GameEnded, lobby.presence.game_ended)
    bus.subscribe(GameEnded, play.chat.game_ended)
    bus.subscribe(PlayerAway, lobby.presence.player_away)
    bus.subscribe(GameAdopted, lobby.pairings.game_adopted)
    guests_per_hour = cfg["GUESTS_PER_HOUR_PER_ADDRESS"]
    moderation = Moderation(Reports(limiter(cfg["REPORTS_PER_HOUR"], 3600), utc_now(cfg)),
                            ModeratorDesk(accounts, utc_now(cfg)))
    arenas, swiss = _tournaments(cfg, play, lobby, rng)
    return Services(
        accounts=accounts,
        guests=Guests(shared_limiter(cfg["REDIS_URL"], "guests", limiter(guests_per_hour, 3600)),
                      rng, cfg["INITIAL_SCORE"], guests_per_hour),
        auth_limiter=shared_limiter(cfg["REDIS_URL"], "auth",
                                    limiter(cfg["AUTH_ATTEMPTS_PER_MINUTE"], 60)),
        event_limiter=limiter(cfg["UNKNOWN_EVENTS_PER_MINUTE"], 60),
        clock=clock, store=store, play=play, lobby=lobby, computer=computer,
        admin=AdminDesk(clock, store, lobby.hall, play.maintenance, play.table, play.finisher,
                        cfg["ADMIN_POLL_SECONDS"]),
        metrics=metrics, leadership=Leadership(leases),
        moderation=moderation,
        social=social,
        analysis=Analyses(_analysis_queue(cfg, clock), cfg["ANALYSIS_BY_SPECTATORS"]),
        puzzles=puzzles(cfg, clock, rng),
        analysis_board=AnalysisBoard(
            BoardEngines(analysis_board_settings(cfg)),
            shared_limiter(cfg["REDIS_URL"], "analysis_board",
                           limiter(cfg["ANALYSIS_BOARD_ASKS_PER_MINUTE"], 60))),
        arenas=arenas, swiss=swiss,
        player_events=_player_events(cfg, arenas.schedule, moderation.desk, social.blocks,
                                     limiter),
    )


def _analysis_queue(cfg: Any, clock: Clock) -> AnalysisQueue:
    """This process's share of the one analysis queue in the database. Its name there is
    new at every start, so a process started again never takes its earlier life's claims
    for its own (they lapse, and are taken up again): a name, not a draw, so it comes from
    the system rather than the services' seeded random source."""
    settings = analysis_settings(cfg)
    owner = f"{cfg['PROCESS_NAME'][:30]}-{secrets.token_hex(4)}"
    book = RequestBook(utc_now(cfg), owner, settings.retries)
    return AnalysisQueue(settings, clock, book, save_analysis)


def puzzles(cfg: Any, clock: Clock, rng: random.Random) -> Puzzles:
    """Puzzles' searches run where passwords are hashed (niced native threads under
    eventlet, docs/engines.md "Puzzles"), inline in the threaded mode and in tests."""
    budgets = Budgets(verify=cfg["PUZZLE_VERIFY_NODES"], judge=cfg["PUZZLE_JUDGE_NODES"],
                      seconds=cfg["PUZZLE_SECONDS"])
    return Puzzles(budgets, clock, rng, utc_now(cfg), cfg["PUZZLE_HARVEST_BATCH"],
                   cfg.get("BLOCKING_OFFLOAD") or inline)


def analysis_board_settings(cfg: Any) -> BoardEngineSettings:
    """The analysis board's engine processes, niced as the computer's engines are."""
    return BoardEngineSettings(
        at_once=cfg["ANALYSIS_BOARD_AT_ONCE"], seconds=cfg["ANALYSIS_BOARD_SECONDS"],
        nodes=cfg["ANALYSIS_BOARD_NODES"], nice=cfg["COMPUTER_NICE"])


def analysis_settings(cfg: Any) -> QueueSettings:
    """The analysis queue's settings; its workers are niced as the computer's engines are."""
    return QueueSettings(
        workers=cfg["ANALYSIS_WORKERS"], at_most=cfg["ANALYSIS_QUEUE_AT_MOST"],
        retries=cfg["ANALYSIS_RETRIES"],
        seconds_per_position=cfg["ANALYSIS_SECONDS_PER_POSITION"],
        nodes_per_position=cfg["ANALYSIS_NODES_PER_POSITION"], nice=cfg["COMPUTER_NICE"])


def _tournaments(cfg: Any, play: Play, lobby: Lobby, rng: random.Random
                 ) -> tuple[Arenas, Swiss]:
    """Arenas and Swiss events: one schedule, one way to start their games."""
    now = utc_now(cfg)
    schedule = Schedule(now)
    starter = GameStarter(play.factory, play.homes, lobby.matchmaking.cancel)
    # Each arena's games as last read, shared by its tick and its page.
    games = ArenaGames()
    arenas = Director(play.table, starter, play.maintenance, lobby.presence.is_online, now, rng,
                      games)
    swiss = SwissDirector(arenas, starter, play.maintenance, now, rng,
                          cfg["SWISS_ROUND_PAUSE_SECONDS"])
    return (Arenas(schedule, Entries(schedule), arenas, TournamentView(now, games),
                   Berserk(play.table)),
            Swiss(swiss, SwissView(now, swiss)))


def _player_events(cfg: Any, schedule: Schedule, desk: ModeratorDesk, blocks: Blocks,
                   limiter: Callable[[int, float], RateLimiter]) -> PlayerEvents:
    """An event's chat is written through HTTP, which any process may answer: its rate limit
    is counted in Redis when there is one."""
    now = utc_now(cfg)
    chat_limiter = shared_limiter(cfg["REDIS_URL"], "event_chat", limiter(
        cfg["CHAT_MESSAGES_PER_WINDOW"], cfg["CHAT_WINDOW_SECONDS"]))
    return PlayerEvents(
        Hosting(schedule, HostRules(cfg["PLAYER_TOURNAMENTS"], cfg["TOURNAMENTS_PER_DAY"]),
                chat_guard(cfg), desk, now),
        EventChat(schedule, chat_limiter, chat_guard(cfg), blocks, now))


def utc_now(cfg: Any) -> Callable[[], datetime]:
    """The wall clock as the database's naive UTC datetimes (config WALL_CLOCK in tests)."""
    source: Clock = cfg.get("WALL_CLOCK") or wall
    return lambda: datetime.fromtimestamp(source(), UTC).replace(tzinfo=None)


def chat_guard(cfg: Any) -> ChatGuard:
    return ChatGuard(cfg["CHAT_REFUSED_WORDS"], utc_now(cfg))


def _cluster(cfg: Any, client: redis.Redis | None) -> tuple[Leases, Directory]:
    """One process (no REDIS_URL) holds every lease; several share them in Redis."""
    me = cfg["PROCESS_NAME"]
    if client is None:
        return SoleLeases(me), SoleDirectory()
    return (RedisLeases(client, me, cfg["LEASE_SECONDS"]),
            RedisDirectory(client, me, cfg["PROCESS_SOCKET_PATH"], cfg["LEASE_SECONDS"]))


def redis_client(url: str, pool_size: int, pool_timeout: float) -> redis.Redis:
    """A short socket timeout: a Redis that stops answering must fail a request, not hang the
    hub. A blocking pool: with every connection busy, the next caller waits for one (the
    default pool fails it at once, and a burst of arrivals was refused that way).

    No maintenance notifications (a managed Redis's push messages; ours sends none): with them
    on, the pool hands out a pooled connection without checking that Redis has not closed it
    unless select.poll can tell, and eventlet's patching removes select.poll. Every connection
    left from before a Redis restart then failed its next command, a player's arrival among
    them (tests/cluster/test_redis_pool.py)."""
    pool = redis.BlockingConnectionPool.from_url(
        url, max_connections=pool_size, timeout=pool_timeout, socket_timeout=2,
        socket_connect_timeout=2, health_check_interval=10,
        maint_notifications_config=MaintNotificationsConfig(enabled=False))
    return redis.Redis(connection_pool=pool)


def engine_settings(cfg: Any) -> EngineSettings:
    unknown = set(cfg["ENGINE_OPENINGS"]) - ENGINE_ASKED_OPENINGS
    if unknown:
        raise ValueError(f"ENGINE_OPENINGS may name only {sorted(ENGINE_ASKED_OPENINGS)} "
                         f"(what an external engine can be asked), not {sorted(unknown)}")
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
        openings=frozenset(cfg["ENGINE_OPENINGS"]),
        think_seconds=cfg["COMPUTER_THINK_SECONDS"],
        reply_seconds=reply_seconds(cfg["TICKER_INTERVAL_SECONDS"]),
    )


def _play(app: Flask, stores: Stores, clock: Clock, bus: Bus, metrics: Metrics,
          limiter: Callable[[int, float], RateLimiter], pools: Pools,
          computer_capacity: int, leases: Leases, directory: Directory,
          blocks: Blocks) -> Play:
    cfg = app.config
    negotiations = limiter(cfg["NEGOTIATIONS_PER_MINUTE"], 60)
    grace = cfg["FORFEIT_GRACE_SECONDS"]
    table = GameTable(stores.live, clock, leases, directory, stores.reservations)
    maintenance = Maintenance()
    finisher = Finisher(table, clock, cfg["RATING_K"], metrics, bus)
    factory = GameFactory(table, clock, pools.default, finisher, cfg["ABORT_SECONDS"],
                          wall=cfg.get("WALL_CLOCK") or wall, bare=bare_colours)
    attendance = Attendance()
    chat = RoomChat(attendance, limiter(cfg["CHAT_MESSAGES_PER_WINDOW"],
                                        cfg["CHAT_WINDOW_SECONDS"]), table, chat_guard(cfg),
                    blocks)
    rematches = Rematches(table, factory, maintenance, computer_capacity, blocks)
    # One pace for stones and the opening's other steps: a player's actions on the board.
    move_limiter = limiter(cfg["MOVES_PER_SECOND"], 1)
    openings = OpeningSteps(table, clock, Pace(move_limiter, too_many_moves), finisher)
    moves = Moves(table, clock, move_limiter, MoveWriter(lambda: db.engine), finisher, metrics,
                  openings)
    return Play(
        table=table, factory=factory, openings=openings,
        seating=Seating(table, clock, grace, attendance, finisher, chat, rematches,
                        limiter(cfg["SPECTATOR_JOINS_PER_MINUTE"], 60), bus),
        moves=moves,
        finisher=finisher,
        timekeeper=Timekeeper(table, clock, grace, cfg["ABORT_SECONDS"], finisher),
        draws=Draws(table, finisher, negotiations),
        takebacks=TakeBacks(table, clock, MAX_UNDOS, negotiations),
        pauses=Pauses(table, clock, negotiations), rematches=rematches, chat=chat,
        maintenance=maintenance, hints=Hints(table),
        homes=GameHomes(table, factory, moves, leases, directory, shared=bool(cfg["REDIS_URL"]),
                        clock=clock, sweep_seconds=cfg["LEASE_SECONDS"], bus=bus),
    )


def _lobby(app: Flask, stores: Stores, clock: Clock, rng: random.Random, play: Play,
           chat_limiter: RateLimiter, action_limiter: RateLimiter, view_limiter: RateLimiter,
           pools: Pools, social: Social) -> Lobby:
    cfg = app.config
    table, maintenance = play.table, play.maintenance
    store, state = stores.live, stores.hall(table)
    matcher = Matcher(stores.queue, clock, rng, cfg["MATCH_GAP_START"], cfg["MATCH_GAP_PER_SECOND"],
                      connected=lambda users: store.connected_among(Namespace.HALL, users),
                      apart=social.blocks.apart)
    presence = Presence(store, table, matcher, play.seating.absence, state.presence,
                        state.games, pools.categories(RULESETS))
    following = FollowingList(social.follows, presence, store)
    view = HallView(presence, state.games, matcher, clock,
                    ViewSizes(cfg["HALL_LIST_SIZE"], cfg["HALL_GAMES_SIZE"]),
                    cfg["HALL_UPDATE_SECONDS"], pools, state.view, following)
    pairings = Pairings(play.factory, play.homes)
    challenges = Challenges(table, presence, matcher, pairings, maintenance, action_limiter,
                            rng, pools, state.challenges, social.blocks)
    chat = HallChat(chat_limiter, state.chat, chat_guard(app.config), social.blocks)
    return Lobby(
        hall=Hall(table, presence, view, matcher, challenges, chat, maintenance, pools,
                  view_limiter),
        presence=presence, matcher=matcher,
        matchmaking=Matchmaking(table, matcher, presence, challenges, pairings, maintenance,
                                action_limiter, pools, cfg["MATCH_BATCH_GAMES"]),
        challenges=challenges, chat=chat, view=view, pools=pools, games=state.games,
        pairings=pairings, following=following,
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

