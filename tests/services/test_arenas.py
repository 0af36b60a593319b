"""Arenas on the server: the schedule, entries, and the tick on a clock the test moves."""

from __future__ import annotations

import random
from functools import partial

import pytest
from sqlalchemy import update

from gobang.extensions import db
from gobang.models import Game, Tournament, TournamentGame
from gobang.services.arenas.schedule import Plan, parse_clock
from gobang.services.arenas.standings import ArenaGames, played
from gobang.services.notices import ActionError
from gobang.services.play.factory import NewGame
from tests.services.conftest import FIVE_FOR_BLACK, WALL_START, events, play, seat, seat_and_win


@pytest.fixture
def base_overrides(clock, wall):
    return {"CLOCK": clock, "WALL_CLOCK": wall, "RANDOM": random.Random(7)}


def plan(**changes) -> Plan:
    values = {"name": "Weekly arena", "ruleset": "freestyle", "clock": (180, 2), "minutes": 60,
              "starts_in_minutes": 5, "min_players": 2}
    return Plan(**{**values, **changes})


@pytest.fixture
def arena(env):
    return env.arenas.schedule.create(plan(), "host")


@pytest.fixture
def running(env, arena, users, hall_of, wall):
    """A running arena with ann and bo joined and in the hall."""
    players = users("ann", "bob")
    for player in players:
        env.arenas.entries.join(player, arena.id)
    hall_of(*players)
    wall.advance(5 * 60)
    return arena, players


def linked_games(tournament_id: int) -> list[Game]:
    return [link.game for link in db.session.scalars(
        db.select(TournamentGame).where(TournamentGame.tournament_id == tournament_id)
        .order_by(TournamentGame.id))]


def points(env, tournament) -> dict[str, int]:
    summary = env.arenas.view.summary(tournament, None)
    return {row["username"]: row["points"] for row in summary["standings"]}


def test_a_created_arena_is_scheduled_at_its_time(env, arena):
    assert (arena.status, arena.kind, arena.ruleset, arena.time_control()) == (
        "scheduled", "arena", "freestyle", (180, 2))
    assert arena.starts_at.timestamp() == pytest.approx(WALL_START + 300, abs=1)


@pytest.mark.parametrize("changes", [
    {"name": "  "}, {"name": "x" * 81}, {"ruleset": "chess"}, {"minutes": 0},
    {"minutes": 24 * 60 + 1}, {"starts_in_minutes": -1}, {"min_players": 1},
    {"opening": "swap2", "ruleset": "renju"}, {"starts_in_minutes": float("nan")},
    {"starts_in_minutes": float("inf")}, {"starts_in_minutes": 367 * 24 * 60},
])
def test_a_bad_plan_is_refused_and_nothing_is_stored(env, changes):
    with pytest.raises(ActionError) as refused:
        env.arenas.schedule.create(plan(**changes), "host")
    assert refused.value.code == "bad_request"
    assert db.session.query(Tournament).count() == 0


@pytest.mark.parametrize("text, clock", [("180+2", (180, 2)), ("none", None),
                                         ("600+0", (600, 0))])
def test_clocks_are_read_as_seconds_plus_increment(text, clock):
    assert parse_clock(text) == clock


@pytest.mark.parametrize("text", ["3", "a+b", "0+2", "60+-1"])
def test_a_bad_clock_is_refused(text):
    with pytest.raises(ActionError):
        parse_clock(text)


def test_withdrawing_before_the_start_removes_the_entry(env, arena, users):
    ann, = users("ann")
    env.arenas.entries.join(ann, arena.id)
    env.arenas.entries.withdraw(ann, arena.id)
    assert env.arenas.view.summary(arena, ann)["me"] == {
        "joined": False, "withdrawn": False, "game_id": None}


def test_withdrawing_while_running_keeps_the_player_and_joining_again_brings_them_back(
        env, running):
    arena, (ann, bo) = running
    env.arenas.director.tick()
    env.arenas.entries.withdraw(ann, arena.id)
    assert env.arenas.view.summary(arena, ann)["me"]["withdrawn"] is True
    env.arenas.entries.join(ann, arena.id)
    assert env.arenas.view.summary(arena, ann)["me"]["joined"] is True


def test_a_guest_may_not_join(env, arena):
    guest = env.guests.create("127.0.0.1")
    with pytest.raises(ActionError) as refused:
        env.arenas.entries.join(guest, arena.id)
    assert refused.value.code == "registered_only"


@pytest.mark.parametrize("status", ["finished", "cancelled"])
def test_nobody_joins_an_arena_that_is_over(env, arena, users, status):
    ann, = users("ann")
    arena.status = status
    db.session.commit()
    with pytest.raises(ActionError) as refused:
        env.arenas.entries.join(ann, arena.id)
    assert refused.value.code == "conflict"


def test_an_unknown_arena_is_not_found(env, users):
    ann, = users("ann")
    with pytest.raises(ActionError) as refused:
        env.arenas.entries.join(ann, 999)
    assert refused.value.code == "not_found"


@pytest.mark.parametrize("joined, minimum, status", [
    (2, 2, "running"), (3, 2, "running"), (1, 2, "cancelled"), (2, 3, "cancelled")])
def test_at_its_time_an_arena_starts_or_is_cancelled_short_of_players(
        env, users, wall, joined, minimum, status):
    arena = env.arenas.schedule.create(plan(min_players=minimum), "host")
    for player in users(*[f"player{n}" for n in range(joined)]):
        env.arenas.entries.join(player, arena.id)
    wall.advance(5 * 60 - 1)
    env.arenas.director.tick()
    assert arena.status == "scheduled"
    wall.advance(1)
    env.arenas.director.tick()
    assert arena.status == status


def test_the_tick_pairs_the_free_players_with_the_arenas_rules(env, running):
    arena, (ann, bo) = running
    notices = env.arenas.director.tick()
    game, = linked_games(arena.id)
    assert {game.black_id, game.white_id} == {ann.id, bo.id}
    assert (game.ruleset, game.time_control(), game.rated) == ("freestyle", (180, 2), True)
    assert sorted(events(notices)) == ["match_found", "match_found", "tournament_game",
                                       "tournament_game"]
    assert env.arenas.view.summary(arena, ann)["me"]["game_id"] == game.id


def test_a_player_in_another_game_is_not_paired(env, running, users, hall_of):
    arena, (ann, bo) = running
    cy, dee = hall_of(*users("cyd", "dee"))
    env.arenas.entries.join(cy, arena.id)
    env.play.factory.create(cy, dee, "freestyle")  # a game of their own, outside the arena
    assert env.arenas.director.free_players([ann.id, bo.id, cy.id]) == [ann.id, bo.id]
    env.arenas.director.tick()
    game, = linked_games(arena.id)
    assert {game.black_id, game.white_id} == {ann.id, bo.id}


def test_a_player_without_a_page_open_is_not_paired(env, arena, users, hall_of, wall):
    ann, bo = users("ann", "bob")
    for player in (ann, bo):
        env.arenas.entries.join(player, arena.id)
    hall_of(ann)
    wall.advance(5 * 60)
    env.arenas.director.tick()
    assert linked_games(arena.id) == []


def test_a_win_counts_two_points_once_however_often_the_standings_are_read(env, running):
    arena, (ann, bo) = running
    env.arenas.director.tick()
    game, = linked_games(arena.id)
    seat_and_win(env, game)
    winner = db.session.get(Game, game.id).winner_id
    for _ in range(3):
        env.arenas.director.tick()
    expected = {"ann": 2 if winner == ann.id else 0, "bob": 2 if winner == bo.id else 0}
    assert points(env, arena) == expected


def test_finished_players_are_paired_again_and_not_with_their_last_opponent(
        env, running, users, hall_of):
    arena, (ann, bo) = running
    env.arenas.director.tick()
    first, = linked_games(arena.id)
    seat_and_win(env, first)
    env.arenas.director.tick()
    assert len(linked_games(arena.id)) == 1  # only each other free: they wait
    cy, = hall_of(*users("cyd"))
    env.arenas.entries.join(cy, arena.id)
    env.arenas.director.tick()
    assert len(linked_games(arena.id)) == 2


def test_at_the_end_the_arena_finishes_and_pairs_nobody(env, running, wall):
    arena, _players = running
    wall.advance(60 * 60)
    env.arenas.director.tick()
    assert arena.status == "finished"
    assert linked_games(arena.id) == []


def test_a_game_ending_after_the_end_still_counts(env, running, wall):
    arena, (ann, bo) = running
    env.arenas.director.tick()
    game, = linked_games(arena.id)
    wall.advance(60 * 60)
    env.arenas.director.tick()
    assert arena.status == "finished"
    seat_and_win(env, game)
    assert sorted(points(env, arena).values()) == [0, 2]
    assert env.arenas.view.summary(arena, None)["podium"][0]["points"] == 2


def test_an_aborted_game_counts_for_nobody(env, running):
    arena, (ann, bo) = running
    env.arenas.director.tick()
    game, = linked_games(arena.id)
    env.play.finisher.abort(game.id)
    assert points(env, arena) == {"ann": 0, "bob": 0}
    assert env.arenas.view.summary(arena, None)["standings"][0]["marks"] == []


def test_a_cancelled_arena_stops_pairing(env, running):
    arena, _players = running
    env.arenas.schedule.cancel(arena.id)
    env.arenas.director.tick()
    assert linked_games(arena.id) == []


def test_a_game_and_its_record_in_the_arena_are_stored_together_or_not_at_all(
        env, arena, users):
    ann, bo, cy, dee, eve = users("ann", "bob", "cyd", "dee", "eve")
    env.play.factory.create(ann, cy, "freestyle")  # ann is busy when the batch is reserved
    link = partial(TournamentGame, tournament_id=arena.id)
    made = env.play.factory.create_many([
        NewGame(ann, bo, "freestyle", linked=lambda game_id: link(game_id=game_id)),
        NewGame(dee, eve, "freestyle", linked=lambda game_id: link(game_id=game_id))])
    assert isinstance(made[0], ActionError)
    assert [(g.black_id, g.white_id) for g in linked_games(arena.id)] == [(dee.id, eve.id)]


def test_in_maintenance_mode_nobody_is_paired_until_it_ends(env, running):
    arena, _players = running
    env.play.maintenance.on = True
    env.arenas.director.tick()
    assert linked_games(arena.id) == []
    env.play.maintenance.on = False
    env.arenas.director.tick()
    assert len(linked_games(arena.id)) == 1


def test_a_player_queued_for_match_leaves_the_queue_when_the_arena_pairs_them(env, running):
    arena, (ann, bo) = running
    env.lobby.matchmaking.start(ann, "freestyle")
    env.arenas.director.tick()
    assert len(linked_games(arena.id)) == 1
    assert not env.lobby.matcher.is_queued(ann.id)


# Black wins with their eighth stone, the game's fifteenth: long enough for berserk's point.
LONG_FIVE_FOR_BLACK = [(0, 0), (14, 0), (0, 4), (14, 3), (0, 8), (14, 6), (7, 3), (14, 9),
                       (7, 4), (14, 12), (7, 5), (10, 0), (7, 6), (10, 3), (7, 7)]


def test_berserk_halves_the_clock_and_drops_the_increment_in_play_and_stored(env, running):
    arena, _players = running
    env.arenas.director.tick()
    game, = linked_games(arena.id)
    live, black, white = seat(env, game)
    env.arenas.berserk.go(black, game.id)
    assert (live.clocks.black_ms, live.clocks.white_ms) == (90_000, 180_000)
    db.session.expire_all()
    stored = db.session.get(Game, game.id)
    link = db.session.scalars(db.select(TournamentGame)).one()
    assert (stored.black_ms, stored.white_ms, link.black_berserk, link.white_berserk) == (
        90_000, 180_000, True, False)
    play(env, live, black, white, [(7, 7), (8, 8), (7, 8)])
    assert (live.clocks.black_ms, live.clocks.white_ms) == (90_000, 182_000)


@pytest.mark.parametrize("case, code, message", [
    ("not an arena's game", "not_found", "Berserk is offered only in arena games."),
    ("after a stone", "conflict", "Berserk is only before your first stone."),
    ("twice", "conflict", "You already went berserk."),
])
def test_berserk_is_refused_with_a_reason_and_changes_nothing(env, running, users, case, code,
                                                              message):
    arena, _players = running
    env.arenas.director.tick()
    game, = linked_games(arena.id)
    live, black, white = seat(env, game)
    if case == "not an arena's game":
        cy, dee = users("cyd", "dee")
        live, _ = env.play.factory.create(cy, dee, "freestyle", time_control=(180, 2))
        black = cy
    elif case == "after a stone":
        play(env, live, black, white, [(7, 7)])
    else:
        env.arenas.berserk.go(black, game.id)
    before = (live.clocks.black_ms, live.clocks.bare)
    with pytest.raises(ActionError) as refused:
        env.arenas.berserk.go(black, live.game_id)
    assert (refused.value.code, refused.value.message) == (code, message)
    assert (live.clocks.black_ms, live.clocks.bare) == before


@pytest.mark.parametrize("moves, expected", [(LONG_FIVE_FOR_BLACK, 3), (FIVE_FOR_BLACK, 2)])
def test_a_berserk_win_of_at_least_14_stones_earns_a_point_more(env, running, moves, expected):
    arena, _players = running
    env.arenas.director.tick()
    game, = linked_games(arena.id)
    live, black, white = seat(env, game)
    env.arenas.berserk.go(black, game.id)
    play(env, live, black, white, moves)
    assert points(env, arena)[black.username] == expected


def test_after_a_restart_a_berserker_still_plays_without_increment(env, running, app):
    from gobang.services.registry import build_services

    arena, _players = running
    env.arenas.director.tick()
    game, = linked_games(arena.id)
    live, black, white = seat(env, game)
    env.arenas.berserk.go(black, game.id)
    play(env, live, black, white, [(7, 7), (8, 8)])
    restarted = build_services(app)
    assert restarted.play.factory.restore() == 1
    clocks = restarted.play.table.get(game.id).clocks
    assert (clocks.bare, clocks.black_ms, clocks.white_ms) == (frozenset({"black"}), 90_000,
                                                               182_000)


def test_the_games_kept_between_reads_are_the_games_read_afresh(env, running, users, hall_of):
    arena, players = running
    for player in hall_of(*users("cyd", "dee")):
        env.arenas.entries.join(player, arena.id)
    kept = ArenaGames()
    env.arenas.director.tick()
    first, second = linked_games(arena.id)
    assert kept.played(arena.id) == played(arena.id)  # two in play
    seat_and_win(env, second)
    assert kept.played(arena.id) == played(arena.id)  # one of them finished
    seat_and_win(env, first)
    env.arenas.director.tick()
    assert len(linked_games(arena.id)) == 4
    assert kept.played(arena.id) == played(arena.id)  # two finished, two new in play


def test_a_pairing_stored_behind_a_read_past_its_id_is_still_read(env, arena, users):
    cy, dee, eve, fay = users("cyd", "dee", "eve", "fay")
    kept = ArenaGames()

    def linked_as(link_id: int):
        return partial(TournamentGame, id=link_id, tournament_id=arena.id)

    env.play.factory.create_many([NewGame(cy, dee, "freestyle",
                                          linked=lambda game_id: linked_as(3)(game_id=game_id))])
    assert len(kept.played(arena.id)) == 1
    # Committed after the read of link 3, as a slower transaction's could be.
    env.play.factory.create_many([NewGame(eve, fay, "freestyle",
                                          linked=lambda game_id: linked_as(2)(game_id=game_id))])
    assert kept.played(arena.id) == played(arena.id)
    assert len(played(arena.id)) == 2


def test_a_finished_game_is_read_once_however_often_the_arena_is_read(env, running):
    arena, _players = running
    env.arenas.director.tick()
    game, = linked_games(arena.id)
    seat_and_win(env, game)
    kept = ArenaGames()
    before = kept.played(arena.id)
    # Changed behind the arena's back (nothing in the server changes a finished game): the
    # kept read does not ask for it again.
    db.session.execute(update(Game).where(Game.id == game.id).values(winner_id=None))
    db.session.commit()
    assert kept.played(arena.id) == before != played(arena.id)


def test_only_the_arenas_read_last_are_kept(env, running):
    arena, _players = running
    env.arenas.director.tick()
    game, = linked_games(arena.id)
    seat_and_win(env, game)
    kept = ArenaGames()
    kept.played(arena.id)
    for _ in range(ArenaGames.KEPT):
        kept.played(env.arenas.schedule.create(plan(), "host").id)
    db.session.execute(update(Game).where(Game.id == game.id).values(winner_id=None))
    db.session.commit()
    assert kept.played(arena.id) == played(arena.id)  # read in full again
