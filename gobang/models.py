"""Database models (SQLAlchemy 2 typed columns)."""

from __future__ import annotations

from datetime import UTC, datetime

from flask_login import UserMixin
from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint, false, text, true
from sqlalchemy.orm import Mapped, mapped_column, relationship

from gobang.extensions import db
from gobang.vocabulary import PROVISIONAL_DEVIATION, color_of

DELETED_NAME = "deleted user"


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def username_key(username: str) -> str:
    """Usernames are unique regardless of case, in any script."""
    return username.casefold()


class User(UserMixin, db.Model):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(40))
    # NULL once the account is deleted, which frees the name for someone else.
    username_key: Mapped[str | None] = mapped_column(String(80), unique=True)
    # What the name looks like (its confusables skeleton): a new name that looks
    # like an existing one is refused. Not unique: rows from before the column, or from
    # before capital I was mapped to small l, may collide.
    username_skeleton: Mapped[str | None] = mapped_column(String(80), index=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    score: Mapped[int] = mapped_column(default=1000)
    games: Mapped[int] = mapped_column(default=0)
    wins: Mapped[int] = mapped_column(default=0)
    losses: Mapped[int] = mapped_column(default=0)
    draws: Mapped[int] = mapped_column(default=0)
    banned: Mapped[bool] = mapped_column(default=False)
    # A moderator (granted and taken by the host's `flask moderator`): the /moderation pages.
    moderator: Mapped[bool] = mapped_column(default=False, server_default=false())
    # Chat is refused until then (a moderator's mute); None or past: not muted.
    muted_until: Mapped[datetime | None]
    deleted: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Copied into the session at login; a session holding an older number is over. Bumped
    # by logout, a password change or reset, deletion and a ban: that ends every session.
    session_generation: Mapped[int] = mapped_column(default=0, server_default="0")
    # The player's saved choices (sound, move numbers, board theme...); None until first saved.
    # gobang.auth.preferences owns the keys, their defaults and their validation.
    preferences: Mapped[dict | None] = mapped_column(JSON)
    # Set on the reserved rows that stand for the computer, one per level
    # (gobang.services.computer): they never log in, play rated games or show in the ladder.
    computer_level: Mapped[int | None] = mapped_column(unique=True, index=True)
    # A visitor's account made by "Play the computer as a guest" (gobang.services.guests): a
    # generated name no person can register, no password, unrated games against the computer
    # only. Registering from its session turns this row into a full account, games and all.
    guest: Mapped[bool] = mapped_column(default=False, server_default=false())

    # Read-only here: results change ratings with UPDATEs in their own transaction
    # (gobang.services.ratings.stored).
    ratings: Mapped[list[CategoryRating]] = relationship(
        order_by="CategoryRating.category", viewonly=True)

    @property
    def is_active(self) -> bool:  # Flask-Login refuses inactive users
        return not (self.banned or self.deleted or self.computer_level is not None)

    @property
    def has_profile(self) -> bool:
        """Whether the player has a public page (/u/<name>): deleted accounts, guests and the
        computer have none, so their names are shown without a link."""
        return not (self.deleted or self.guest or self.computer_level is not None)

    def player(self) -> dict:
        return {"id": self.id, "username": self.username, "score": self.score}

    def stats(self) -> dict:
        return {
            "id": self.id,
            "username": self.username,
            "score": self.score,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "ratings": {rating.category: rating.summary() for rating in self.ratings},
        }


class Game(db.Model):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(16), default="freestyle")
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)
    black_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    white_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    winner: Mapped[str | None] = mapped_column(String(8))
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    reason: Mapped[str | None] = mapped_column(String(16))
    line: Mapped[list | None] = mapped_column(JSON)
    black_score_before: Mapped[int | None]
    black_score_after: Mapped[int | None]
    white_score_before: Mapped[int | None]
    white_score_after: Mapped[int | None]
    # Clocks: milliseconds left for each side as of `turn_started_at`.
    clock_initial_ms: Mapped[int | None]
    clock_increment_ms: Mapped[int | None]
    black_ms: Mapped[int | None]
    white_ms: Mapped[int | None]
    turn_started_at: Mapped[datetime | None]
    black_undos: Mapped[int] = mapped_column(default=0)
    white_undos: Mapped[int] = mapped_column(default=0)
    # Indexed: each rematch offer asks whether the game already has one.
    rematch_of: Mapped[int | None] = mapped_column(ForeignKey("games.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None]
    # The computer's level when one side is the computer: such games are unrated.
    computer_level: Mapped[int | None]
    # False for a casual game (a challenge can ask for one) and for every game against the
    # computer: its result moves no score, rating or counter.
    rated: Mapped[bool] = mapped_column(default=True, server_default=true())
    # The rating category it counted in (`renju:blitz`, gobang.services.ratings.categories),
    # set with the result; the players' category ratings before and after (NULL for games
    # that changed none: unrated, aborted, or from before ratings per category).
    category: Mapped[str | None] = mapped_column(String(24))
    black_rating_before: Mapped[float | None]
    black_rating_after: Mapped[float | None]
    white_rating_before: Mapped[float | None]
    white_rating_after: Mapped[float | None]
    black_deviation_after: Mapped[float | None]
    white_deviation_after: Mapped[float | None]
    # The opening rule (gobang.rules.openings: none, swap, swap2, taraguchi-10) and what the
    # players did in it, [[actor, action], ...] (gobang/services/openings/stored.py): its
    # stones are also the game's first moves; its colour choices swap black_id and white_id.
    opening: Mapped[str] = mapped_column(String(16), default="none", server_default="none")
    opening_log: Mapped[list | None] = mapped_column(JSON)
    # Why an aborted game was aborted, {"cause", "color", "seconds"} (services/play/results.py,
    # `aborted`); null for any other game, and for games aborted before it was kept.
    abort_detail: Mapped[dict | None] = mapped_column(JSON)

    black: Mapped[User] = relationship(foreign_keys=[black_id])
    white: Mapped[User] = relationship(foreign_keys=[white_id])
    moves: Mapped[list[Move]] = relationship(
        order_by="Move.number", cascade="all, delete-orphan", back_populates="game"
    )

    def color_of(self, user_id: int | None) -> str | None:
        """The colour `user_id` plays in this game, or None for anyone else."""
        return color_of(self.black_id, self.white_id, user_id)

    def time_control(self) -> tuple[int, int] | None:
        """(initial, increment) seconds the game was created with; None: it has no clock."""
        if self.clock_initial_ms is None:
            return None
        return (self.clock_initial_ms // 1000, (self.clock_increment_ms or 0) // 1000)

    __table_args__ = (
        Index("ix_games_black_id", "black_id"),
        Index("ix_games_white_id", "white_id"),
    )


class CategoryRating(db.Model):
    """A player's Glicko-2 rating in one category (ruleset x speed). A row exists from the
    player's first rated game in the category; before that the player stands at the start."""

    __tablename__ = "ratings"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    category: Mapped[str] = mapped_column(String(24))
    rating: Mapped[float]
    deviation: Mapped[float]
    volatility: Mapped[float]
    games: Mapped[int] = mapped_column(default=0)
    # The last game that changed it: the deviation grows with the time since.
    rated_at: Mapped[datetime] = mapped_column(default=utcnow)

    def summary(self) -> dict:
        """As `/api/me`, `hello.me` and profiles send it (docs/protocol.md, "Ratings")."""
        return {"rating": round(self.rating), "rd": round(self.deviation), "games": self.games,
                "provisional": self.deviation >= PROVISIONAL_DEVIATION}

    __table_args__ = (
        UniqueConstraint("user_id", "category", name="uq_ratings_user_category"),
        Index("ix_ratings_category_rating", "category", "rating"),
    )


class Move(db.Model):
    __tablename__ = "moves"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    number: Mapped[int]
    row: Mapped[int]
    col: Mapped[int]
    color: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship(back_populates="moves")

    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_moves_game_number"),)


class ServerFlag(db.Model):
    """A switch the host flips from the command line (maintenance mode); the running server
    reads it, since the command runs in another process."""

    __tablename__ = "server_flags"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(255))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class AdminCommand(db.Model):
    """Something the host asked of the running server from another process (disconnect a
    banned user, abort a game). The server carries it out on its next poll and stamps
    `done_at`, with what happened in `outcome`."""

    __tablename__ = "admin_commands"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    target_id: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    done_at: Mapped[datetime | None] = mapped_column(index=True)
    outcome: Mapped[str | None] = mapped_column(String(255))


class Report(db.Model):
    """A player's report of another player, a game or a chat line, waiting for a moderator
    (`resolved_at` None) or settled with `outcome`."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(primary_key=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    # Who is reported: the player, the game's other player, or the chat line's author.
    target_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    # The reported chat line as the reporter saw it (chat is not kept in the database).
    chat_text: Mapped[str | None] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(String(16))
    note: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    resolved_at: Mapped[datetime | None] = mapped_column(index=True)
    resolved_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    outcome: Mapped[str | None] = mapped_column(String(255))

    reporter: Mapped[User] = relationship(foreign_keys=[reporter_id])
    target: Mapped[User] = relationship(foreign_keys=[target_id])


class ModerationEntry(db.Model):
    """One moderator's action, with who and why: the audit log. Rows are only ever added;
    no page or service changes or deletes one."""

    __tablename__ = "moderation_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    moderator_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    action: Mapped[str] = mapped_column(String(24))
    target_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    report_id: Mapped[int | None] = mapped_column(ForeignKey("reports.id"))
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)

    moderator: Mapped[User] = relationship(foreign_keys=[moderator_id])
    target: Mapped[User | None] = relationship(foreign_keys=[target_id])


class Follow(db.Model):
    """A player following another: the hall lists those they follow who are online."""

    __tablename__ = "follows"

    id: Mapped[int] = mapped_column(primary_key=True)
    follower_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    # Indexed: a followed player's coming and going is told to their followers.
    followed_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("follower_id", "followed_id", name="uq_follows_follower_followed"),
    )


class Block(db.Model):
    """A player blocking another: no challenge or chat line of the blocked player reaches the
    blocker, and the matcher never pairs the two (gobang/services/social)."""

    __tablename__ = "blocks"

    id: Mapped[int] = mapped_column(primary_key=True)
    blocker_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    # Indexed: each chat line asks who blocks its author.
    blocked_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("blocker_id", "blocked_id", name="uq_blocks_blocker_blocked"),
    )


class AnalysisRequest(db.Model):
    """A game waiting for, or under, its analysis (gobang/services/analysis/requests.py).
    Kept in the database so that every server process works through one queue, one pending
    request per player and the host's capacity hold across them, and a restart or a crash
    loses no request. `owner` is the process analysing it, whose lease it renews; the row
    goes in the same commit as the stored analysis."""

    __tablename__ = "analysis_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    requested_at: Mapped[datetime] = mapped_column(default=utcnow)
    status: Mapped[str] = mapped_column(String(10), default="queued", index=True)
    attempts: Mapped[int] = mapped_column(default=0)
    owner: Mapped[str | None] = mapped_column(String(40))
    lease_until: Mapped[datetime | None] = mapped_column()
    done: Mapped[int] = mapped_column(default=0)
    total: Mapped[int] = mapped_column(default=0)


class GameAnalysis(db.Model):
    """A finished game's computer analysis (gobang/services/analysis), written whole in one
    transaction once every position is done: `moves` the per-move records and `players` the
    per-colour summaries, as docs/protocol.md's Analysis has them."""

    __tablename__ = "game_analyses"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), unique=True)
    engine: Mapped[str] = mapped_column(String(40))
    engine_version: Mapped[str] = mapped_column(String(16))
    moves: Mapped[list] = mapped_column(JSON)
    players: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Puzzle(db.Model):
    """A position from a real game where the side to move (`attacker`) had a forced win and
    did not play it (gobang/services/puzzles): the first `move_number` - 1 moves of the game,
    the win's `kind` (vcf, vct) and its line as verified by the threat search when stored.
    The puzzle's own Glicko-2 rating moves against its solvers'."""

    __tablename__ = "puzzles"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    # The move the player missed the win with; the position is the moves before it.
    move_number: Mapped[int]
    ruleset: Mapped[str] = mapped_column(String(16))
    moves: Mapped[list] = mapped_column(JSON)
    attacker: Mapped[str] = mapped_column(String(8))
    kind: Mapped[str] = mapped_column(String(8))
    line: Mapped[list] = mapped_column(JSON)
    rating: Mapped[float]
    deviation: Mapped[float]
    volatility: Mapped[float]
    attempts: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("game_id", "move_number", name="uq_puzzles_game_move"),
        # Choosing one near a rating, per ruleset.
        Index("ix_puzzles_ruleset_rating", "ruleset", "rating"),
    )


class PuzzleAttempt(db.Model):
    """One player's one try at a puzzle: `playing` while the line goes on (`line` the moves
    of the try so far, the attacker's and the replies), then `solved` or `failed` once, with
    the player's puzzle rating before and after."""

    __tablename__ = "puzzle_attempts"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    puzzle_id: Mapped[int] = mapped_column(ForeignKey("puzzles.id"), index=True)
    status: Mapped[str] = mapped_column(String(8), default="playing")
    line: Mapped[list] = mapped_column(JSON)
    # Moves in `line`: a move is written only where the count is still what was read, so two
    # requests at once cannot both extend or both end the try.
    plies: Mapped[int] = mapped_column(default=0)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None]
    rating_before: Mapped[float | None]
    rating_after: Mapped[float | None]

    __table_args__ = (
        UniqueConstraint("user_id", "puzzle_id", name="uq_puzzle_attempts_user_puzzle"),
    )


class PuzzleRating(db.Model):
    """A player's puzzle rating (Glicko-2, as the games' ratings) and counts. A table of its
    own rather than columns on `users`: most players never solve a puzzle, the users row is
    read on every request and locked by every result, and `ratings` rows are game categories
    that the leaderboards and profiles list. A row exists from the first finished attempt."""

    __tablename__ = "puzzle_ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    rating: Mapped[float]
    deviation: Mapped[float]
    volatility: Mapped[float]
    solved: Mapped[int] = mapped_column(default=0)
    failed: Mapped[int] = mapped_column(default=0)
    rated_at: Mapped[datetime] = mapped_column(default=utcnow)


# The rows the partial unique index on tournaments.created_by_id covers (migration f5a6b7c8d9e0).
UPCOMING_OF_PLAYER = "status = 'scheduled' AND by_player"


class Tournament(db.Model):
    """An event the host scheduled (`flask tournament create`): an arena (`kind` "arena",
    lasting `minutes`) or a Swiss event ("swiss", of `rounds` rounds). Its standings are not
    stored: they are computed from its finished games (gobang/services/arenas and
    gobang/services/swiss), so a result can never count twice."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), default="arena")
    name: Mapped[str] = mapped_column(String(80))
    ruleset: Mapped[str] = mapped_column(String(16))
    # Seconds; both null: games without a clock.
    clock_initial: Mapped[int | None]
    clock_increment: Mapped[int | None]
    opening: Mapped[str] = mapped_column(String(16), default="none")
    rated: Mapped[bool] = mapped_column(default=True)
    starts_at: Mapped[datetime] = mapped_column(index=True)
    # An arena's duration; null for a Swiss event, which lasts its rounds.
    minutes: Mapped[int | None]
    # A Swiss event's number of rounds; null for an arena.
    rounds: Mapped[int | None]
    min_players: Mapped[int] = mapped_column(default=2)
    # scheduled, running, finished or cancelled (gobang/services/arenas/schedule.py).
    status: Mapped[str] = mapped_column(String(16), default="scheduled", index=True)
    created_by: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The account that created it, whatever it is called now; None for the host's
    # `flask tournament create`.
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    # Created by a player under the host's limits (gobang/services/player_events): at most
    # one such event of a player's is scheduled at a time, which the partial unique index
    # below holds even against two requests at once.
    by_player: Mapped[bool] = mapped_column(default=False, server_default=false())

    creator: Mapped[User | None] = relationship()

    __table_args__ = (
        Index("uq_tournaments_player_upcoming", "created_by_id", unique=True,
              sqlite_where=text(UPCOMING_OF_PLAYER), postgresql_where=text(UPCOMING_OF_PLAYER)),
    )

    def time_control(self) -> tuple[int, int] | None:
        if self.clock_initial is None:
            return None
        return (self.clock_initial, self.clock_increment or 0)

    @property
    def creator_name(self) -> str:
        """Who created it as they are called now (the host's events: the name stored)."""
        return self.creator.username if self.creator is not None else self.created_by


class TournamentPlayer(db.Model):
    """A player who joined a tournament; `withdrawn` while they are out of the pairings (they
    keep their points and may join again). `rating` is their rating in the tournament's
    category when they first joined: the standings' tie-break."""

    __tablename__ = "tournament_players"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    rating: Mapped[int]
    withdrawn: Mapped[bool] = mapped_column(default=False)
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)

    user: Mapped[User] = relationship()

    __table_args__ = (
        UniqueConstraint("tournament_id", "user_id", name="uq_tournament_players_entry"),
    )


class TournamentGame(db.Model):
    """A game the tournament paired. Unique per game: a game belongs to one tournament once.
    A Swiss event's game names its board, unique too: a board never gets two games. The link
    is this row, stored in the game's own transaction, rather than a column of the board: a
    game refused at its creation takes this row with it, while a change to the board would
    stay behind pointing at a game never stored."""

    __tablename__ = "tournament_games"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), unique=True)
    swiss_board_id: Mapped[int | None] = mapped_column(
        ForeignKey("swiss_boards.id", name="fk_tournament_games_swiss_board_id"))
    # Who went berserk (not offered yet: docs/tournaments.md).
    black_berserk: Mapped[bool] = mapped_column(default=False)
    white_berserk: Mapped[bool] = mapped_column(default=False)

    game: Mapped[Game] = relationship()

    __table_args__ = (
        UniqueConstraint("swiss_board_id", name="uq_tournament_games_swiss_board_id"),
    )


class SwissBoard(db.Model):
    """One board of a Swiss event's round, as paired: black and white, or a bye (white null).
    A round's boards are stored together, in one transaction, before any of its games is
    made; unique per (tournament, round, board), so a round is never stored twice."""

    __tablename__ = "swiss_boards"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    round: Mapped[int]
    board: Mapped[int]
    black_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    white_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))

    __table_args__ = (
        UniqueConstraint("tournament_id", "round", "board", name="uq_swiss_boards_board"),
    )


class TournamentChatLine(db.Model):
    """A line of an event's chat (gobang/services/player_events/chat.py): kept in the
    database so that every process serves the same lines and a reload shows them again."""

    __tablename__ = "tournament_chat_lines"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    # An event's newest lines, and those after a reader's cursor, read by this index alone.
    __table_args__ = (Index("ix_tournament_chat_lines_tournament_id_id", "tournament_id", "id"),)
