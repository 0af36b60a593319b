"""Settings for Gobang.

Every attribute of `Config` can be overridden, in increasing order of precedence, by
`instance/config.py` and by an environment variable named `GOBANG_<NAME>`.
"""

from __future__ import annotations


class Config:
    # None means: generate one on first start and keep it in instance/secret_key.
    SECRET_KEY: str | None = None
    # None means: SQLite at instance/gobang.sqlite3.
    DATABASE_URL: str | None = None
    # Apply database migrations when the app starts, so `python app.py` is all a host runs.
    AUTO_MIGRATE: bool = True

    SESSION_COOKIE_HTTPONLY: bool = True
    SESSION_COOKIE_SAMESITE: str = "Lax"
    SESSION_COOKIE_SECURE: bool = False
    REMEMBER_COOKIE_HTTPONLY: bool = True
    REMEMBER_COOKIE_SAMESITE: str = "Lax"
    REMEMBER_COOKIE_DURATION: int = 30 * 24 * 3600

    RATELIMIT_ENABLED: bool = True
    # Login and registration attempts per client address per minute.
    AUTH_ATTEMPTS_PER_MINUTE: int = 10
    # Chat messages per user per window.
    CHAT_MESSAGES_PER_WINDOW: int = 5
    CHAT_WINDOW_SECONDS: int = 10
    # Words chat refuses (whole words, any case), in the hall and the rooms. As an
    # environment variable, JSON: GOBANG_CHAT_REFUSED_WORDS='["badword", "worse"]'.
    CHAT_REFUSED_WORDS: list[str] = []
    # Reports (of a player, a game or a chat line) per user per hour.
    REPORTS_PER_HOUR: int = 10
    # How many players one may follow, and block (each a row of the database; the hall
    # looks through them as its players come and go).
    FOLLOWS_AT_MOST: int = 500
    BLOCKS_AT_MOST: int = 500
    # Tournaments created by players (docs/tournaments.md, "Players' events"): whether a
    # registered player may create an arena from /tournaments/new (moderators always may,
    # without limits), and how many each may create in 24 hours (at most one of them upcoming
    # at a time). Off by default: each such event is public text and a call on everyone's
    # time, for the host's moderators to look after.
    PLAYER_TOURNAMENTS: bool = False
    TOURNAMENTS_PER_DAY: int = 3
    # Guest accounts ("Play the computer as a guest") made per client address per hour; 0
    # offers no guest play. Watching games needs no account whatever this says.
    GUESTS_PER_HOUR_PER_ADDRESS: int = 10
    # Match requests and challenges per user per minute.
    HALL_ACTIONS_PER_MINUTE: int = 30
    # Whole hall views (`hall_view`) per user per minute. A page asks for one only when it
    # missed a `hall_update` (at most one a HALL_UPDATE_SECONDS), so it stays under 60; keep
    # this above 60 / HALL_UPDATE_SECONDS.
    HALL_VIEWS_PER_MINUTE: int = 120
    # Moves per user per second, far above any human pace.
    MOVES_PER_SECOND: int = 10
    # Draw offers, take-back and pause requests per user (each one is pushed to the opponent).
    NEGOTIATIONS_PER_MINUTE: int = 10
    # Games a user may join as a spectator (each join and leave is pushed to the players).
    SPECTATOR_JOINS_PER_MINUTE: int = 30
    # Events a connection may send that the server does not know, before `rate_limited`.
    UNKNOWN_EVENTS_PER_MINUTE: int = 10

    # argon2id cost; the defaults follow RFC 9106's second recommended profile.
    ARGON2_TIME_COST: int = 3
    ARGON2_MEMORY_KIB: int = 65536
    ARGON2_PARALLELISM: int = 4

    FORFEIT_GRACE_SECONDS: int = 30
    RATING_K: int = 60
    INITIAL_SCORE: int = 1000
    # The clock a game gets when its players name none: seconds, and seconds added per move
    # (0 initial seconds: no clock). It is always one of the MATCH_POOLS.
    CLOCK_INITIAL_SECONDS: int = 600
    CLOCK_INCREMENT_SECONDS: int = 5
    # The time controls on offer: Match has one pool per ruleset and clock, and a challenge may
    # choose any of them. [initial seconds, increment seconds], or None for no clock. An object
    # {"ruleset", "clock", "opening"} adds a pool of that ruleset and clock played with an
    # opening rule the ruleset allows (gobang.rules.openings.OPENINGS_OF). As an environment
    # variable, JSON: GOBANG_MATCH_POOLS='[[180, 2], [300, 3], null,
    # {"ruleset": "freestyle", "clock": [600, 5], "opening": "swap2"}]'.
    MATCH_POOLS: list[list[int] | dict | None] = [
        [180, 2], [300, 3], [600, 5], [900, 10], None,
        {"ruleset": "freestyle", "clock": [600, 5], "opening": "swap2"},
        {"ruleset": "renju", "clock": [600, 5], "opening": "taraguchi-10"},
    ]
    ABORT_SECONDS: int = 30
    # A Swiss event's pause between rounds: its next round is paired this long after the
    # round's last game ended (players see the final table, and those who left a game's page
    # come back). Above 0.
    SWISS_ROUND_PAUSE_SECONDS: float = 20.0

    # The background ticker: every TICKER_INTERVAL_SECONDS it pairs queued players, checks
    # clocks, forfeits and aborts, polls the host's commands and sends the hall's batched update.
    # (Called MATCHER_ENABLED and MATCHER_INTERVAL_SECONDS before; those names still work for
    # this release, with a warning in the log.)
    TICKER_ENABLED: bool = True
    TICKER_INTERVAL_SECONDS: float = 0.2
    # Matcher: the allowed score gap starts at MATCH_GAP_START and grows by
    # MATCH_GAP_PER_SECOND for every second the longer-waiting player has waited.
    MATCH_GAP_START: int = 50
    MATCH_GAP_PER_SECOND: int = 50
    # Games the matcher makes in one transaction before the ticker may let others run: a
    # crowd's 500 games cost a commit each otherwise, and one batch holds the hub briefly.
    # With REDIS_URL too: a batch's players are in their games in Redis before its commit
    # (gobang/services/cluster/reservations.py).
    MATCH_BATCH_GAMES: int = 50
    # The hall view everyone shares: at most HALL_LIST_SIZE online players (highest score
    # first) and HALL_GAMES_SIZE live games (highest-rated first); what changed in it goes to
    # the whole hall as one update at most every HALL_UPDATE_SECONDS (docs/protocol.md).
    HALL_LIST_SIZE: int = 50
    HALL_GAMES_SIZE: int = 20
    HALL_UPDATE_SECONDS: float = 1.0
    # The hall's events are let in one per turn of the event loop, at most this many at
    # once (gobang/sockets/turnstile.py): a burst of presses cannot hold up the games' moves.
    HALL_EVENTS_AT_ONCE: int = 4
    # Sockets read per poll of the event loop before waiting handlers run (app.py); 0: all.
    READY_SOCKETS_PER_POLL: int = 64

    # "threading" for `flask run` and tests; app.py switches to "eventlet".
    SOCKETIO_ASYNC_MODE: str = "threading"
    SOCKETIO_PING_INTERVAL: int = 5
    SOCKETIO_PING_TIMEOUT: int = 5
    SOCKETIO_MAX_MESSAGE_BYTES: int = 16 * 1024
    # `python app.py`: connections served at once (each needs a file descriptor; the soft
    # RLIMIT_NOFILE is raised to fit), and the listening socket's backlog (capped by
    # net.core.somaxconn) so that a crowd reconnecting at once is not refused.
    MAX_CONNECTIONS: int = 10_000
    LISTEN_BACKLOG: int = 2048
    # Hostile clients (docs/security.md). Frames of any opcode a websocket may send: a bucket of
    # SOCKET_FRAME_BURST refilled at SOCKET_FRAMES_PER_SECOND, far above any real client's
    # pace; a connection that runs it dry is closed (no budget with RATELIMIT_ENABLED off, as
    # for load tests). A connection must join a namespace within
    # NAMESPACE_CONNECT_SECONDS (0: no limit).
    SOCKET_FRAMES_PER_SECOND: int = 50
    SOCKET_FRAME_BURST: int = 200
    NAMESPACE_CONNECT_SECONDS: float = 10.0
    # `python app.py`: seconds a client may take to send each part of a request (and to take
    # each part of the answer), and to start its next request on a kept-alive connection.
    REQUEST_TIMEOUT_SECONDS: float = 10.0
    # `python app.py`: seconds from the first byte of a request line to the end of the
    # headers, however the client paces them; the connection is closed when they pass.
    REQUEST_HEADER_SECONDS: float = 10.0
    # `python app.py`: connections one client address may hold at once (0: no cap). Behind a
    # proxy (PROXY_FIX > 0) every connection comes from the proxy, so this cap is off and the
    # proxy's own (nginx's limit_conn, deploy/nginx/) takes its place; off too with
    # RATELIMIT_ENABLED off (load tests connect thousands of players from one address).
    MAX_CONNECTIONS_PER_ADDRESS: int = 100

    # Playing the computer (docs/engines.md). At most COMPUTER_WORKERS engine processes (0:
    # cores - 1, at least 1), shared by all computer games, search at COMPUTER_NICE lower
    # priority; a computer move is answered within its level's backstop + 1 s of its turn.
    # A new computer game is admitted while the games' loads fit in the workers: a game at
    # level L takes c_L / (c_L + COMPUTER_THINK_SECONDS) of a worker, c_L the level's
    # expected engine seconds per move and COMPUTER_THINK_SECONDS how long people think per
    # move; and while there are fewer than COMPUTER_GAMES_PER_WORKER games per worker.
    # Beyond that a game is refused as busy. ENGINE_COMMAND: the argv of an external Gomocup
    # engine to play instead of the built-in one ("{level}" in it becomes the level);
    # ENGINE_LEVEL_OPTIONS: JSON, per level the engine's INFO settings, e.g.
    # {"8": {"timeout_turn": 5000, "max_memory": 83886080}} (timeout_turn, in milliseconds,
    # is the turn limit when the move did not queue; also the level's cost, c_L, above).
    COMPUTER_WORKERS: int = 0
    COMPUTER_GAMES_PER_WORKER: int = 25
    COMPUTER_THINK_SECONDS: float = 8.0
    COMPUTER_NICE: int = 10
    ENGINE_COMMAND: str | None = None
    ENGINE_LEVEL_OPTIONS: str | None = None
    # The opening rules that external engine plays: only "swap2" can be asked of one (the
    # Gomocup SWAP2BOARD extension, docs/engines.md). Games against it with any other opening
    # are refused. As an environment variable, JSON: GOBANG_ENGINE_OPENINGS='["swap2"]'.
    ENGINE_OPENINGS: list[str] = []

    # Computer analysis of finished games (docs/engines.md, "Analysis"). At most
    # ANALYSIS_WORKERS processes (niced by COMPUTER_NICE) analyse at once, one game each;
    # ANALYSIS_QUEUE_AT_MOST requests may wait or run in all (more are refused as
    # `unavailable`), one per player. Each position gets ANALYSIS_NODES_PER_POSITION search
    # nodes, ANALYSIS_SECONDS_PER_POSITION at most on a slow machine. A worker that dies is
    # tried again ANALYSIS_RETRIES times before the request counts as failed.
    # ANALYSIS_BY_SPECTATORS: whether people other than the two players may ask.
    ANALYSIS_WORKERS: int = 1
    ANALYSIS_QUEUE_AT_MOST: int = 20
    ANALYSIS_RETRIES: int = 2
    ANALYSIS_NODES_PER_POSITION: int = 6000
    ANALYSIS_SECONDS_PER_POSITION: float = 1.0
    ANALYSIS_BY_SPECTATORS: bool = False
    # Puzzles from analysed games (docs/engines.md, "Puzzles"). Each missed win is verified
    # with PUZZLE_VERIFY_NODES threat-search nodes before it is kept; each solver's move is
    # judged (and the defence's reply found) within PUZZLE_JUDGE_NODES; PUZZLE_SECONDS is the
    # clock's backstop for either. A request for the next puzzle first looks at up to
    # PUZZLE_HARVEST_BATCH analyses stored since the last look. Nodes are refused above
    # 100000 (seconds of CPU per request), and below 100 (nothing could be verified).
    PUZZLE_VERIFY_NODES: int = 20_000
    PUZZLE_JUDGE_NODES: int = 6_000
    PUZZLE_SECONDS: float = 0.5
    PUZZLE_HARVEST_BATCH: int = 5

    # The analysis board (/analysis, docs/engines.md "Analysis board"): its engine answers at
    # most ANALYSIS_BOARD_AT_ONCE asks at once, each in a worker process (niced by
    # COMPUTER_NICE) with ANALYSIS_BOARD_NODES search nodes and ANALYSIS_BOARD_SECONDS at
    # most; more at once are refused as `unavailable`. A player or guest may ask
    # ANALYSIS_BOARD_ASKS_PER_MINUTE times a minute (`rate_limited` past that).
    ANALYSIS_BOARD_AT_ONCE: int = 2
    ANALYSIS_BOARD_NODES: int = 20000
    ANALYSIS_BOARD_SECONDS: float = 0.8
    ANALYSIS_BOARD_ASKS_PER_MINUTE: int = 20

    # Several processes (docs/deploy.md, "Several processes"). REDIS_URL switches it on
    # (redis://host:6379/0): Socket.IO's emits travel between processes through Redis, the
    # live state the processes share (connections, the match queue, who owns which game) is
    # kept there, one process at a time (the leader, by a lease) runs the matcher and the
    # hall's fan-out, and each live game is owned by one process (a lease its ticker renews).
    # None: one process holding everything in memory, the default.
    REDIS_URL: str | None = None
    # This process's name in the cluster (leases, /metrics' `process` label); None: host:port
    # under `python app.py` (a restart on the same port takes its games back at once), else
    # host:pid.
    PROCESS_NAME: str | None = None
    # The public Socket.IO path that reaches this very process through the proxy, e.g.
    # "/p2/socket.io" (deploy/nginx/): a room connection that reached a process which does
    # not own its game is answered `moved` with the owner's path. None: no routing.
    PROCESS_SOCKET_PATH: str | None = None
    # Connections one process keeps open to a database server (not SQLite) and to Redis.
    # Every green thread waiting on one holds one, so a burst of arrivals can want many: one
    # that finds them all busy waits up to the timeout, then is refused (`unavailable` on a
    # connect, `conflict` on an event), never failed with a traceback.
    DATABASE_POOL_SIZE: int = 10
    DATABASE_POOL_OVERFLOW: int = 30
    DATABASE_POOL_TIMEOUT: float = 10.0
    REDIS_POOL_SIZE: int = 100
    REDIS_POOL_TIMEOUT: float = 5.0
    # With REDIS_URL, Socket.IO's emits travel through Redis to every process. Off only for
    # one process on the Redis store (the socket tests: Flask-SocketIO's test client cannot
    # use a message queue).
    REDIS_MESSAGE_QUEUE: bool = True
    # Seconds a game's owner, the leader and a process's liveness hold without being renewed:
    # how long a dead process's games and leadership wait before another process takes them.
    LEASE_SECONDS: float = 3.0

    LOG_LEVEL: str = "INFO"
    WTF_CSRF_TIME_LIMIT: int | None = None

    # How many reverse proxies in front of the app to trust for X-Forwarded-For/-Proto/-Host
    # (werkzeug's ProxyFix). 0: none, the peer address is the client. 1 behind one nginx.
    PROXY_FIX: int = 0
    # /metrics answers local addresses, and anyone sending `Authorization: Bearer <token>`.
    METRICS_TOKEN: str | None = None
    # SQLite copies its write-ahead log into the database once the log holds this many pages
    # (4 KB each), inside the commit that crosses it, waiting for the disk. SQLite's own
    # default, 1,000, made that wait about a tenth of a busy server's time; 10,000 (a log of
    # up to 40 MB) gave a fifth more moves a second (docs/performance.md).
    SQLITE_CHECKPOINT_PAGES: int = 10_000
    # How often the server reads what `flask --app app <command>` asked of it (bans, aborts,
    # maintenance mode) from the database.
    ADMIN_POLL_SECONDS: float = 1.0


class TestConfig(Config):
    TESTING = True
    SECRET_KEY = "test-secret-key"
    TICKER_ENABLED = False
    ARGON2_TIME_COST = 1
    ARGON2_MEMORY_KIB = 1024
    ARGON2_PARALLELISM = 1
