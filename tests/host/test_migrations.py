"""Schema changes come as migrations that upgrade an existing database and keep its data.

Run on SQLite, and on PostgreSQL when GOBANG_TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import event, inspect, text
from sqlalchemy.exc import IntegrityError

from gobang import ROOT
from gobang.extensions import db, migrate

FIRST_REVISION = "54c7763d4935"
WHEN = datetime(2026, 1, 2, 3, 4, 5)


@pytest.fixture
def migration_app(databases, tmp_path: Path) -> Iterator[Flask]:
    """Only the database and the migrations: the full app would need the newest schema."""
    url = databases.empty(tmp_path)
    app = Flask("migrations", instance_path=str(tmp_path))
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    with app.app_context():
        yield app
        db.session.remove()
        db.engine.dispose()
    databases.drop(url)


def fill_first_revision() -> None:
    """Two players and a finished game with moves, written as the first schema had them."""
    user = text(
        "INSERT INTO users (id, username, username_key, password_hash, score, games, wins,"
        " losses, draws, banned, deleted, created_at, last_seen_at) VALUES (:id, :name, :name,"
        " 'hash', :score, 1, :wins, :losses, 0, :banned, false, :when, :when)")
    db.session.execute(user, [
        {"id": 1, "name": "ann", "score": 1030, "wins": 1, "losses": 0, "banned": False,
         "when": WHEN},
        {"id": 2, "name": "bo", "score": 970, "wins": 0, "losses": 1, "banned": True,
         "when": WHEN}])
    db.session.execute(text(
        "INSERT INTO games (id, ruleset, status, black_id, white_id, winner, winner_id, reason,"
        " black_undos, white_undos, created_at, started_at, ended_at) VALUES (7, 'renju',"
        " 'finished', 1, 2, 'black', 1, 'resign', 0, 0, :when, :when, :when)"), {"when": WHEN})
    db.session.execute(text(
        "INSERT INTO moves (game_id, number, row, col, color, created_at)"
        " VALUES (7, :number, :row, 7, :color, :when)"),
        [{"number": n, "row": n, "color": "black" if n % 2 else "white", "when": WHEN}
         for n in (1, 2, 3)])
    db.session.commit()


def test_upgrade_from_the_first_revision_keeps_the_data(migration_app):
    upgrade(revision=FIRST_REVISION)
    fill_first_revision()
    upgrade()
    users = db.session.execute(text(
        "SELECT id, username, score, wins, losses, banned FROM users ORDER BY id")).all()
    assert [tuple(row) for row in users] == [
        (1, "ann", 1030, 1, 0, False), (2, "bo", 970, 0, 1, True)]
    game = db.session.execute(text(
        "SELECT ruleset, status, winner_id, reason, ended_at FROM games WHERE id = 7")).one()
    assert tuple(game[:4]) == ("renju", "finished", 1, "resign")
    assert str(game.ended_at) == str(WHEN)  # SQLite hands raw SQL a string, PostgreSQL a datetime
    moves = db.session.execute(text(
        "SELECT number, row, color FROM moves WHERE game_id = 7 ORDER BY number")).all()
    assert [tuple(m) for m in moves] == [(1, 1, "black"), (2, 2, "white"), (3, 3, "black")]


def test_upgrade_keeps_the_data_with_foreign_keys_enforced(migration_app):
    """As the server migrates at start-up: SQLite with foreign keys on for every connection
    (gobang/database.py). A migration that rebuilds a table others refer to (SQLite's way of
    altering a column) must not trip over the rows that refer to it."""
    foreign_keys_on()
    upgrade(revision=FIRST_REVISION)
    fill_first_revision()
    upgrade()
    assert db.session.execute(text("SELECT count(*) FROM moves WHERE game_id = 7")).scalar() == 3
    if db.engine.dialect.name == "sqlite":  # and they are on again for what comes next
        assert db.session.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_head_has_the_admin_tables(migration_app):
    upgrade()
    tables = set(inspect(db.engine).get_table_names())
    assert {"users", "games", "moves", "server_flags", "admin_commands"} <= tables


def test_models_and_migrations_agree(migration_app):
    """A model change without its migration would show up here as a difference."""
    upgrade()
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []


def test_every_migration_can_be_undone_and_redone(migration_app):
    upgrade()
    downgrade(revision="base")
    assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
    upgrade()
    assert "admin_commands" in inspect(db.engine).get_table_names()


BEFORE_RATINGS = "f3a4b5c6d7e8"
BLITZ = {"clock_initial_ms": 180_000, "clock_increment_ms": 2_000}
UNTIMED = {"clock_initial_ms": None, "clock_increment_ms": None}


def fill_before_ratings() -> None:
    """ann (Elo 1100) and bo (900) with a rated renju game without a clock, a rated blitz
    freestyle game, an aborted one and one in play; ann against the computer too."""
    db.session.execute(text(
        "INSERT INTO users (id, username, username_key, password_hash, score, games, wins,"
        " losses, draws, banned, deleted, created_at, last_seen_at, session_generation,"
        " computer_level) VALUES (:id, :name, :name, 'hash', :score, 0, 0, 0, 0, false, false,"
        " :when, :when, 0, :level)"), [
        {"id": 1, "name": "ann", "score": 1100, "level": None, "when": WHEN},
        {"id": 2, "name": "bo", "score": 900, "level": None, "when": WHEN},
        {"id": 3, "name": "computer-3", "score": 1000, "level": 3, "when": WHEN}])
    games = [(1, "renju", "finished", "resign", 2, None, UNTIMED),
             (2, "freestyle", "finished", "five", 2, None, BLITZ),
             (3, "freestyle", "finished", "aborted", 2, None, BLITZ),
             (4, "freestyle", "playing", None, 2, None, BLITZ),
             (5, "freestyle", "finished", "five", 3, 3, BLITZ)]
    db.session.execute(text(
        "INSERT INTO games (id, ruleset, status, reason, black_id, white_id, computer_level,"
        " clock_initial_ms, clock_increment_ms, black_undos, white_undos, created_at,"
        " started_at, ended_at) VALUES (:id, :ruleset, :status, :reason, 1, :white, :level,"
        " :clock_initial_ms, :clock_increment_ms, 0, 0, :when, :when, :when)"),
        [{"id": game_id, "ruleset": ruleset, "status": status, "reason": reason,
          "white": white, "level": level, "when": WHEN, **clock}
         for game_id, ruleset, status, reason, white, level, clock in games])
    db.session.commit()


def test_ratings_per_category_are_seeded_from_the_elo_score(migration_app):
    from gobang.services.ratings.glicko2 import settled

    upgrade(revision=BEFORE_RATINGS)
    fill_before_ratings()
    upgrade()
    ratings = db.session.execute(text(
        "SELECT user_id, category, rating, deviation, games FROM ratings"
        " ORDER BY user_id, category")).all()
    one_game = round(settled(1).deviation, 6)
    assert [(*row[:3], round(row.deviation, 6), row.games) for row in ratings] == [
        (1, "freestyle:blitz", 1600.0, one_game, 1), (1, "renju:untimed", 1600.0, one_game, 1),
        (2, "freestyle:blitz", 1400.0, one_game, 1), (2, "renju:untimed", 1400.0, one_game, 1)]
    categories = db.session.execute(text(
        "SELECT id, category, black_rating_after FROM games ORDER BY id")).all()
    assert [tuple(row) for row in categories] == [
        (1, "renju:untimed", None), (2, "freestyle:blitz", None), (3, None, None),
        (4, None, None), (5, None, None)]


@pytest.mark.parametrize(("games", "provisional", "ranked"), [
    (1, True, False), (10, True, False), (11, False, False), (50, False, True)])
def test_a_seeded_deviation_narrows_with_the_games_behind_it(games, provisional, ranked):
    from gobang.services.ratings.glicko2 import settled

    rating = settled(games)
    assert (rating.provisional(), rating.ranked()) == (provisional, ranked)


def test_games_against_the_computer_become_unrated_and_the_rest_stay_rated(migration_app):
    upgrade(revision=BEFORE_RATINGS)
    fill_before_ratings()
    upgrade()
    rated = db.session.execute(text("SELECT id, rated FROM games ORDER BY id")).all()
    assert [(game_id, bool(flag)) for game_id, flag in rated] == [
        (1, True), (2, True), (3, True), (4, True), (5, False)]


def test_games_from_before_openings_were_played_without_one(migration_app):
    upgrade(revision=BEFORE_RATINGS)
    fill_before_ratings()
    upgrade()
    openings = db.session.execute(text("SELECT opening, opening_log FROM games")).all()
    assert openings and set(openings) == {("none", None)}


BEFORE_FOLLOWS = "d0e1f2a3b4c5"


def test_follows_and_blocks_come_empty_and_keep_one_row_per_pair(migration_app):
    upgrade(revision=BEFORE_FOLLOWS)
    fill_first_revision()  # "ann" and "bo"
    upgrade()
    assert db.session.execute(text("SELECT COUNT(*) FROM follows")).scalar() == 0
    row = {"a": 1, "b": 2, "when": WHEN}
    for table, columns in (("follows", "follower_id, followed_id"),
                           ("blocks", "blocker_id, blocked_id")):
        insert = text(f"INSERT INTO {table} ({columns}, created_at) VALUES (:a, :b, :when)")
        db.session.execute(insert, row)
        db.session.execute(insert, {**row, "a": 2, "b": 1})  # the other way round is another
        db.session.commit()
        with pytest.raises(IntegrityError):
            db.session.execute(insert, row)
        db.session.rollback()
    downgrade(revision=BEFORE_FOLLOWS)
    assert not {"follows", "blocks"} & set(inspect(db.engine).get_table_names())


BEFORE_GUESTS = "e2f3a4b5c6d7"


def test_accounts_from_before_guests_are_registered_ones(migration_app):
    upgrade(revision=BEFORE_GUESTS)
    fill_before_ratings()
    upgrade()
    guests = db.session.execute(text("SELECT id, guest FROM users ORDER BY id")).all()
    assert [(user_id, bool(flag)) for user_id, flag in guests] == [
        (1, False), (2, False), (3, False)]


def test_games_aborted_before_the_cause_was_kept_have_none(migration_app):
    upgrade(revision=BEFORE_RATINGS)
    fill_before_ratings()
    upgrade()
    details = db.session.execute(text(
        "SELECT id, reason, abort_detail FROM games ORDER BY id")).all()
    assert [(game_id, detail) for game_id, _reason, detail in details] == [
        (1, None), (2, None), (3, None), (4, None), (5, None)]
    assert details[2].reason == "aborted"


BEFORE_ANALYSES = "a5b6c7d8e9f0"


def test_game_analyses_come_empty_and_keep_one_row_per_game(migration_app):
    upgrade(revision=BEFORE_ANALYSES)
    fill_first_revision()  # game 7, finished
    upgrade()
    assert db.session.execute(text("SELECT COUNT(*) FROM game_analyses")).scalar() == 0
    insert = text(
        "INSERT INTO game_analyses (game_id, engine, engine_version, moves, players, created_at)"
        " VALUES (7, 'gobang-analysis', '1', :moves, :players, :when)")
    row = {"moves": '[{"number": 1}]', "players": '{"black": {}}', "when": WHEN}
    db.session.execute(insert, row)
    db.session.commit()
    stored = db.session.execute(text("SELECT game_id, engine FROM game_analyses")).all()
    assert [tuple(r) for r in stored] == [(7, "gobang-analysis")]
    with pytest.raises(IntegrityError):  # one analysis per game
        db.session.execute(insert, row)
    db.session.rollback()
    downgrade(revision=BEFORE_ANALYSES)
    assert "game_analyses" not in inspect(db.engine).get_table_names()


BEFORE_REQUESTS = "b6c7d8e9f0a1"


def test_analysis_requests_come_empty_and_keep_one_row_per_game(migration_app):
    upgrade(revision=BEFORE_REQUESTS)
    fill_first_revision()  # game 7 and its players
    upgrade()
    assert db.session.execute(text("SELECT COUNT(*) FROM analysis_requests")).scalar() == 0
    player = db.session.execute(text("SELECT black_id FROM games WHERE id = 7")).scalar()
    insert = text(
        "INSERT INTO analysis_requests (game_id, user_id, requested_at, status, attempts,"
        " done, total) VALUES (7, :user, :when, 'queued', 0, 0, 0)")
    db.session.execute(insert, {"user": player, "when": WHEN})
    db.session.commit()
    with pytest.raises(IntegrityError):  # one request per game
        db.session.execute(insert, {"user": player, "when": WHEN})
    db.session.rollback()
    downgrade(revision=BEFORE_REQUESTS)
    assert "analysis_requests" not in inspect(db.engine).get_table_names()


BEFORE_PUZZLES = "e9f0a1b2c3d4"


def test_puzzles_come_empty_and_keep_one_per_game_move_and_one_try_per_player(migration_app):
    upgrade(revision=BEFORE_PUZZLES)
    fill_first_revision()  # "ann" and "bo", game 7
    upgrade()
    for table in ("puzzles", "puzzle_attempts", "puzzle_ratings"):
        assert db.session.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar() == 0
    puzzle = text(
        "INSERT INTO puzzles (id, game_id, move_number, ruleset, moves, attacker, kind, line,"
        " rating, deviation, volatility, attempts, created_at) VALUES (:id, 7, 3, 'renju',"
        " '[[1, 7], [2, 7]]', 'black', 'vcf', '[[3, 7]]', 1500, 350, 0.09, 0, :when)")
    db.session.execute(puzzle, {"id": 1, "when": WHEN})
    attempt = text(
        "INSERT INTO puzzle_attempts (user_id, puzzle_id, status, line, plies, started_at)"
        " VALUES (:user, 1, 'playing', '[]', 0, :when)")
    db.session.execute(attempt, {"user": 1, "when": WHEN})
    db.session.execute(attempt, {"user": 2, "when": WHEN})
    db.session.commit()
    for insert, row in ((puzzle, {"id": 2, "when": WHEN}), (attempt, {"user": 1, "when": WHEN})):
        with pytest.raises(IntegrityError):
            db.session.execute(insert, row)
        db.session.rollback()
    downgrade(revision=BEFORE_PUZZLES)
    assert not {"puzzles", "puzzle_attempts", "puzzle_ratings"} & set(
        inspect(db.engine).get_table_names())


BEFORE_TOURNAMENTS = "c7d8e9f0a1b2"


def test_tournaments_come_empty_and_a_game_belongs_to_one_of_them(migration_app):
    upgrade(revision=BEFORE_TOURNAMENTS)
    fill_first_revision()  # "ann" and "bo", and their game 7
    upgrade()
    assert db.session.execute(text("SELECT COUNT(*) FROM tournaments")).scalar() == 0
    db.session.execute(text(
        "INSERT INTO tournaments (id, kind, name, ruleset, opening, rated, starts_at, minutes,"
        " min_players, status, created_by, created_at) VALUES (1, 'arena', 'Weekly',"
        " 'freestyle', 'none', true, :when, 60, 2, 'scheduled', 'host', :when)"),
        {"when": WHEN})
    db.session.execute(text(
        "INSERT INTO tournament_players (tournament_id, user_id, rating, withdrawn, joined_at)"
        " VALUES (1, 1, 1500, false, :when)"), {"when": WHEN})
    link = text("INSERT INTO tournament_games (tournament_id, game_id, black_berserk,"
                " white_berserk) VALUES (1, 7, false, false)")
    db.session.execute(link)
    db.session.commit()
    with pytest.raises(IntegrityError):
        db.session.execute(link)
    db.session.rollback()
    downgrade(revision=BEFORE_TOURNAMENTS)
    assert not {"tournaments", "tournament_players", "tournament_games"} & set(
        inspect(db.engine).get_table_names())


BEFORE_SWISS = "d8e9f0a1b2c3"
ARENA_ROW = text(
    "INSERT INTO tournaments (id, kind, name, ruleset, opening, rated, starts_at, minutes,"
    " min_players, status, created_by, created_at) VALUES (1, 'arena', 'Weekly', 'freestyle',"
    " 'none', true, :when, 60, 2, 'finished', 'host', :when)")


def test_swiss_boards_come_empty_an_arena_keeps_its_minutes_and_a_board_gets_one_game(
        migration_app):
    upgrade(revision=BEFORE_SWISS)
    fill_first_revision()  # "ann" and "bo", and their game 7
    db.session.execute(ARENA_ROW, {"when": WHEN})
    db.session.commit()
    upgrade()
    arena = db.session.execute(text(
        "SELECT kind, minutes, rounds FROM tournaments WHERE id = 1")).one()
    assert tuple(arena) == ("arena", 60, None)
    assert db.session.execute(text("SELECT COUNT(*) FROM swiss_boards")).scalar() == 0
    db.session.execute(text(
        "INSERT INTO tournaments (id, kind, name, ruleset, opening, rated, starts_at, minutes,"
        " rounds, min_players, status, created_by, created_at) VALUES (2, 'swiss', 'Swiss',"
        " 'freestyle', 'none', true, :when, NULL, 5, 2, 'running', 'host', :when)"),
        {"when": WHEN})
    board = text("INSERT INTO swiss_boards (id, tournament_id, round, board, black_id,"
                 " white_id) VALUES (:id, 2, 1, 1, 1, 2)")
    db.session.execute(board, {"id": 1})
    link = text("INSERT INTO tournament_games (tournament_id, game_id, swiss_board_id,"
                " black_berserk, white_berserk) VALUES (2, :game, 1, false, false)")
    db.session.execute(link, {"game": 7})
    db.session.execute(text(
        "INSERT INTO games (id, ruleset, status, black_id, white_id, black_undos, white_undos,"
        " created_at, started_at) VALUES (8, 'freestyle', 'playing', 1, 2, 0, 0, :when,"
        " :when)"), {"when": WHEN})
    db.session.commit()
    for refused, row in ((board, {"id": 2}), (link, {"game": 8})):
        with pytest.raises(IntegrityError):  # the same board again; a second game for it
            db.session.execute(refused, row)
        db.session.rollback()
    downgrade(revision=BEFORE_SWISS)
    assert "swiss_boards" not in inspect(db.engine).get_table_names()
    kept = db.session.execute(text("SELECT id, kind, minutes FROM tournaments")).all()
    assert [tuple(row) for row in kept] == [(1, "arena", 60)]
    assert db.session.execute(text("SELECT COUNT(*) FROM tournament_games")).scalar() == 0
BEFORE_PLAYERS_EVENTS = "e0f1a2b3c4d5"


def foreign_keys_on() -> None:
    """As the server migrates SQLite (gobang/database.py): with its foreign keys enforced, so
    that a migration copying a table that others refer to fails here as it would there."""
    if db.engine.dialect.name != "sqlite":
        return
    db.session.remove()
    db.engine.dispose()
    event.listen(db.engine, "connect",
                 lambda connection, _record: connection.execute("PRAGMA foreign_keys=ON"))


def test_events_from_before_are_the_host_s_and_a_player_has_one_upcoming(migration_app):
    upgrade(revision=BEFORE_PLAYERS_EVENTS)
    fill_first_revision()  # "ann" (1) and "bo" (2)
    tournament = text(
        "INSERT INTO tournaments (id, kind, name, ruleset, opening, rated, starts_at, minutes,"
        " min_players, status, created_by, created_at) VALUES (:id, 'arena', 'Weekly',"
        " 'freestyle', 'none', true, :when, 60, 2, :status, 'host', :when)")
    db.session.execute(tournament, {"id": 1, "status": "running", "when": WHEN})
    db.session.execute(text(
        "INSERT INTO tournament_players (tournament_id, user_id, rating, withdrawn, joined_at)"
        " VALUES (1, 1, 1500, false, :when)"), {"when": WHEN})
    db.session.commit()
    foreign_keys_on()
    upgrade()
    row = db.session.execute(text(
        "SELECT created_by, created_by_id, by_player FROM tournaments WHERE id = 1")).one()
    assert (row.created_by, row.created_by_id, bool(row.by_player)) == ("host", None, False)
    assert db.session.execute(text("SELECT COUNT(*) FROM tournament_players")).scalar() == 1
    players = text(
        "INSERT INTO tournaments (id, kind, name, ruleset, opening, rated, starts_at, minutes,"
        " min_players, status, created_by, created_at, created_by_id, by_player) VALUES (:id,"
        " 'arena', 'Mine', 'freestyle', 'none', true, :when, 60, 2, :status, 'ann', :when, 1,"
        " :by_player)")
    db.session.execute(players, {"id": 2, "status": "scheduled", "by_player": True, "when": WHEN})
    db.session.commit()
    with pytest.raises(IntegrityError):  # a second upcoming event of ann's
        db.session.execute(players, {"id": 3, "status": "scheduled", "by_player": True,
                                     "when": WHEN})
    db.session.rollback()
    for number, (status, by_player) in enumerate([("running", True), ("scheduled", False)]):
        db.session.execute(players, {"id": 4 + number, "status": status, "by_player": by_player,
                                     "when": WHEN})
    db.session.execute(text(
        "INSERT INTO tournament_chat_lines (tournament_id, user_id, text, created_at)"
        " VALUES (2, 1, 'hello', :when)"), {"when": WHEN})
    db.session.commit()
    assert db.session.execute(text("SELECT text FROM tournament_chat_lines")).scalar() == "hello"
    db.session.execute(text("DELETE FROM tournament_chat_lines"))
    db.session.execute(text("DELETE FROM tournaments WHERE id > 1"))
    db.session.commit()
    downgrade(revision=BEFORE_PLAYERS_EVENTS)
    assert "tournament_chat_lines" not in inspect(db.engine).get_table_names()
    assert not {"created_by_id", "by_player"} & {
        column["name"] for column in inspect(db.engine).get_columns("tournaments")}
    assert db.session.execute(text("SELECT name FROM tournaments")).scalars().all() == ["Weekly"]
