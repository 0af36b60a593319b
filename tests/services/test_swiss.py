"""Swiss events on the server: created and entered as arenas are; the leader's tick starts
them, pairs each round once every game of the last has ended and the pause has passed,
and finishes them; everything read back from the stored boards and games. The wall clock is
the test's, and a game's end is stamped on it (`end_round`)."""

from __future__ import annotations

import copy
import random
from datetime import UTC, datetime

import pytest
from sqlalchemy.exc import IntegrityError

from gobang.extensions import db
from gobang.models import Game, SwissBoard, Tournament, TournamentGame
from gobang.services.arenas.schedule import SWISS, Plan
from gobang.services.notices import ActionError
from gobang.services.swiss.rounds import _points, rounds_of, store_round
from gobang.services.swiss.view import of_player
from gobang.services.tournaments.swiss import Board, RoundPairing
from gobang.services.tournaments.swiss_event import SwissEvent, SwissRound
from gobang.vocabulary import BLACK, WHITE, AbortCause, Reason
from tests.services.conftest import FIVE_FOR_BLACK, events, play, seat, seat_and_win

PAUSE = 20  # SWISS_ROUND_PAUSE_SECONDS's default


@pytest.fixture
def base_overrides(clock, wall):
    return {"CLOCK": clock, "WALL_CLOCK": wall, "RANDOM": random.Random(7)}


def swiss_plan(**changes) -> Plan:
    values = {"name": "Weekly Swiss", "ruleset": "freestyle", "clock": (180, 2),
              "minutes": None, "starts_in_minutes": 5, "min_players": 2, "kind": SWISS,
              "rounds": 3}
    return Plan(**{**values, **changes})


@pytest.fixture
def swiss(env):
    return env.arenas.schedule.create(swiss_plan(), "host")


@pytest.fixture
def entered(env, swiss, users, hall_of):
    """Players who joined the event and have the hall open, before its start."""
    def enter(*names: str):
        players = users(*names)
        for player in players:
            env.arenas.entries.join(player, swiss.id)
        hall_of(*players)
        return players

    return enter


@pytest.fixture
def start(env, swiss, wall):
    """The event's time comes and the leader ticks: round 1 is paired at once."""
    def go():
        wall.advance(5 * 60)
        return env.swiss.director.tick()

    return go


def boards(tournament_id: int, number: int) -> list[SwissBoard]:
    return list(db.session.scalars(db.select(SwissBoard).where(
        SwissBoard.tournament_id == tournament_id, SwissBoard.round == number)
        .order_by(SwissBoard.board)))


def game_of(board: SwissBoard) -> Game | None:
    link = db.session.scalars(db.select(TournamentGame).where(
        TournamentGame.swiss_board_id == board.id)).first()
    return None if link is None else link.game


def games_of(tournament_id: int) -> list[Game]:
    return [link.game for link in db.session.scalars(db.select(TournamentGame).where(
        TournamentGame.tournament_id == tournament_id))]


def pairs(tournament_id: int, number: int) -> set[frozenset[int]]:
    return {frozenset((b.black_id, b.white_id)) for b in boards(tournament_id, number)
            if b.white_id is not None}


def stamp_ended(game_id: int, wall) -> None:
    """Games stamp their end on the real clock: the test's wall clock says when it was."""
    db.session.execute(db.update(Game).where(Game.id == game_id).values(
        ended_at=datetime.fromtimestamp(wall(), UTC).replace(tzinfo=None)))
    db.session.commit()


def end_round(env, tournament_id: int, wall) -> None:
    """Every game of the current round: black makes five, now on the test's clock."""
    number = rounds_of(tournament_id).played
    for board in boards(tournament_id, number):
        game = game_of(board)
        if game is not None and game.status != "finished":
            seat_and_win(env, game)
            stamp_ended(game.id, wall)


def table(env, tournament) -> dict[str, tuple]:
    summary = env.swiss.view.summary(tournament, None)
    return {row["username"]: (row["points"], [mark["outcome"] for mark in row["marks"]])
            for row in summary["standings"]}


def test_a_created_swiss_event_has_its_rounds_and_no_minutes(env, swiss):
    assert (swiss.kind, swiss.rounds, swiss.minutes, swiss.status) == (
        "swiss", 3, None, "scheduled")


@pytest.mark.parametrize("changes", [{"rounds": None}, {"rounds": 0}, {"rounds": 21},
                                     {"kind": "knockout"}])
def test_a_swiss_event_without_a_sound_number_of_rounds_is_refused(env, changes):
    with pytest.raises(ActionError) as refused:
        env.arenas.schedule.create(swiss_plan(**changes), "host")
    assert refused.value.code == "bad_request"
    assert db.session.query(Tournament).count() == 0


@pytest.mark.parametrize("joined, minimum, status", [
    (2, 2, "running"), (1, 2, "cancelled"), (2, 3, "cancelled")])
def test_at_its_time_a_swiss_event_starts_or_is_cancelled_short_of_players(
        env, users, hall_of, wall, joined, minimum, status):
    made = env.arenas.schedule.create(swiss_plan(min_players=minimum), "host")
    for player in hall_of(*users(*[f"player{n}" for n in range(joined)])):
        env.arenas.entries.join(player, made.id)
    wall.advance(5 * 60 - 1)
    env.swiss.director.tick()
    assert made.status == "scheduled"
    wall.advance(1)
    env.swiss.director.tick()
    assert made.status == status


def test_the_arenas_tick_leaves_swiss_events_alone(env, swiss, entered, wall):
    entered("ann", "bob")
    wall.advance(5 * 60)
    env.arenas.director.tick()
    assert swiss.status == "scheduled" and games_of(swiss.id) == []


def test_round_one_is_paired_at_the_start_with_the_events_rules(env, swiss, entered, start):
    ann, bob, cyd, dee = entered("ann", "bob", "cyd", "dee")
    notices = start()
    assert swiss.status == "running"
    assert len(boards(swiss.id, 1)) == 2
    games = games_of(swiss.id)
    assert {(g.ruleset, g.time_control(), g.rated) for g in games} == {
        ("freestyle", (180, 2), True)}
    assert sorted(events(notices)).count("tournament_game") == 4
    assert {p for b in boards(swiss.id, 1) for p in (b.black_id, b.white_id)} == {
        ann.id, bob.id, cyd.id, dee.id}


def test_the_next_round_waits_for_every_game_of_the_round(env, swiss, entered, start, wall):
    entered("ann", "bob", "cyd", "dee")
    start()
    first = game_of(boards(swiss.id, 1)[0])
    seat_and_win(env, first)
    stamp_ended(first.id, wall)
    wall.advance(PAUSE * 2)
    env.swiss.director.tick()
    assert boards(swiss.id, 2) == []


def test_the_next_round_comes_a_pause_after_the_last_game_and_has_no_rematch(
        env, swiss, entered, start, wall):
    entered("ann", "bob", "cyd", "dee")
    start()
    end_round(env, swiss.id, wall)
    wall.advance(PAUSE - 1)
    env.swiss.director.tick()
    assert env.swiss.view.summary(swiss, None)["seconds_to_next_round"] == 1
    assert boards(swiss.id, 2) == []
    wall.advance(1)
    env.swiss.director.tick()
    assert len(boards(swiss.id, 2)) == 2
    assert not pairs(swiss.id, 1) & pairs(swiss.id, 2)
    assert len(games_of(swiss.id)) == 4


def test_after_the_last_round_the_event_is_finished_without_a_pause(env, users, hall_of,
                                                                       wall):
    made = env.arenas.schedule.create(swiss_plan(rounds=1, starts_in_minutes=0), "host")
    players = users("ann", "bob")
    for player in players:
        env.arenas.entries.join(player, made.id)
    hall_of(*players)
    env.swiss.director.tick()
    end_round(env, made.id, wall)
    env.swiss.director.tick()
    assert made.status == "finished"
    summary = env.swiss.view.summary(made, None)
    assert [row["points"] for row in summary["podium"]] == [1.0, 0.0]
    assert summary["seconds_to_next_round"] is None and boards(made.id, 2) == []


def test_an_odd_field_gives_the_lowest_ranked_a_bye_worth_a_point(env, swiss, entered, start):
    entered("ann", "bob", "cyd")
    start()
    bye, = [b for b in boards(swiss.id, 1) if b.white_id is None]
    assert game_of(bye) is None
    # Equal ratings and scores: the pairing order's last word is the id, as text.
    assert bye.black_id == max(rounds_of(swiss.id).ratings, key=str)
    rows = env.swiss.view.summary(swiss, None)["standings"]
    byed = next(row for row in rows if row["id"] == bye.black_id)
    assert (byed["points"], byed["marks"][0]["outcome"]) == (1.0, "bye")


def test_a_late_joiner_gets_zero_for_the_rounds_missed_and_is_paired_next(
        env, swiss, entered, start, wall, users, hall_of):
    entered("ann", "bob")
    start()
    eve, fay = hall_of(*users("eve", "fay"))
    for player in (eve, fay):
        env.arenas.entries.join(player, swiss.id)
    end_round(env, swiss.id, wall)
    wall.advance(PAUSE)
    env.swiss.director.tick()
    assert len(boards(swiss.id, 2)) == 2
    rows = table(env, swiss)
    assert rows["eve"] == (0.0, ["absent", "playing"])


def test_a_withdrawn_player_is_not_paired_again_and_keeps_their_points(
        env, swiss, entered, start, wall):
    ann, bob, cyd, dee = entered("ann", "bob", "cyd", "dee")
    start()
    end_round(env, swiss.id, wall)
    winner = next(b.black_id for b in boards(swiss.id, 1))
    quitter = next(p for p in (ann, bob, cyd, dee) if p.id == winner)
    env.arenas.entries.withdraw(quitter, swiss.id)
    wall.advance(PAUSE)
    env.swiss.director.tick()
    assert all(quitter.id not in (b.black_id, b.white_id) for b in boards(swiss.id, 2))
    assert table(env, swiss)[quitter.username] == (1.0, ["win", "absent"])


def test_a_player_without_a_page_open_is_absent_from_the_round(env, swiss, users, hall_of,
                                                                 start):
    ann, bob, cyd = users("ann", "bob", "cyd")
    for player in (ann, bob, cyd):
        env.arenas.entries.join(player, swiss.id)
    hall_of(ann, bob)
    start()
    assert pairs(swiss.id, 1) == {frozenset((ann.id, bob.id))}
    assert table(env, swiss)["cyd"] == (0.0, ["absent"])


def all_but_the_first_leave(env, players) -> None:
    """The pages `hall_of` opened for players[1:] are closed."""
    for index, player in enumerate(players[1:], start=1):
        env.lobby.hall.disconnect(player.id, f"hall-{player.id}-{index}")


def test_with_fewer_than_two_present_the_event_ends_with_the_rounds_played(
        env, swiss, entered, start, wall):
    players = entered("ann", "bob", "cyd", "dee")
    start()
    end_round(env, swiss.id, wall)
    all_but_the_first_leave(env, players)
    wall.advance(PAUSE)
    env.swiss.director.tick()
    assert swiss.status == "running"  # the round waits one pause more for players
    wall.advance(PAUSE)
    env.swiss.director.tick()
    assert swiss.status == "finished" and boards(swiss.id, 2) == []


def test_a_player_back_within_the_wait_is_paired(env, swiss, entered, start, wall, hall_of):
    players = entered("ann", "bob", "cyd", "dee")
    start()
    end_round(env, swiss.id, wall)
    all_but_the_first_leave(env, players)
    wall.advance(PAUSE)
    env.swiss.director.tick()
    hall_of(*players[1:])
    wall.advance(PAUSE - 1)
    env.swiss.director.tick()
    assert swiss.status == "running" and len(boards(swiss.id, 2)) == 2


def test_a_field_the_absolute_rules_cannot_pair_ends_the_event(env, swiss, entered, start,
                                                               wall):
    entered("ann", "bob")  # three rounds, but they may meet only once
    start()
    end_round(env, swiss.id, wall)
    wall.advance(PAUSE * 2)
    env.swiss.director.tick()
    assert swiss.status == "finished" and boards(swiss.id, 2) == []
    assert sorted(points for points, _marks in table(env, swiss).values()) == [0.0, 1.0]


def test_with_fewer_than_two_present_at_the_start_the_event_is_cancelled(env, swiss, users,
                                                                        hall_of, start, wall):
    ann, bob = users("ann", "bob")
    for player in (ann, bob):
        env.arenas.entries.join(player, swiss.id)
    hall_of(ann)
    start()
    assert swiss.status == "running"  # waiting one pause for a second player
    wall.advance(PAUSE)
    env.swiss.director.tick()
    assert swiss.status == "cancelled" and boards(swiss.id, 1) == []


def test_in_maintenance_mode_no_round_is_paired_until_it_ends(env, swiss, entered, start):
    entered("ann", "bob")
    env.play.maintenance.on = True
    start()
    assert boards(swiss.id, 1) == []
    env.play.maintenance.on = False
    env.swiss.director.tick()
    assert len(boards(swiss.id, 1)) == 1 and len(games_of(swiss.id)) == 1


@pytest.mark.parametrize("reason, detail, winner, expected", [
    (Reason.FIVE, None, "black", (1.0, 0.0)),
    (Reason.TIMEOUT, None, "white", (0.0, 1.0)),
    (Reason.DRAW_AGREED, None, None, (0.5, 0.5)),
    (Reason.ABORTED, {"cause": AbortCause.NO_FIRST_MOVE, "color": BLACK}, None, (0.0, 1.0)),
    (Reason.ABORTED, {"cause": AbortCause.NO_SHOW, "color": WHITE}, None, (1.0, 0.0)),
    (Reason.ABORTED, {"cause": AbortCause.BOTH_LEFT, "color": None}, None, (0.0, 0.0)),
    (Reason.ABORTED, None, None, (0.0, 0.0)),
])
def test_a_boards_result_and_the_aborted_game_rule(reason, detail, winner, expected):
    ids = {"black": 1, "white": 2, None: None}
    assert _points(1, 1, ids[winner], reason, detail) == expected


def test_an_aborted_games_colour_is_the_games_even_when_an_opening_swapped_them():
    # The board's black (1) played white after the opening's swap, and did not move.
    assert _points(1, 2, None, Reason.ABORTED, {"color": WHITE}) == (0.0, 1.0)


def test_a_game_nobody_moved_in_loses_for_the_side_that_did_not_move(env, swiss, entered,
                                                                      start, clock):
    entered("ann", "bob")
    start()
    game = game_of(boards(swiss.id, 1)[0])
    seat(env, game)
    clock.advance(env.play.timekeeper.abort_seconds + 1)
    for _ in env.play.timekeeper.endings():
        pass
    rows = table(env, swiss)
    loser = db.session.get(Game, game.id).black.username  # black had the first move
    assert rows[loser] == (0.0, ["loss"])
    assert sorted(points for points, _marks in rows.values()) == [0.0, 1.0]


def test_a_game_the_host_aborted_is_a_loss_for_both(env, swiss, entered, start):
    entered("ann", "bob")
    start()
    env.play.finisher.abort(game_of(boards(swiss.id, 1)[0]).id)
    assert table(env, swiss) == {"ann": (0.0, ["loss"]), "bob": (0.0, ["loss"])}


def test_a_round_whose_games_were_not_all_made_gets_exactly_the_missing_ones(
        env, swiss, entered, start, monkeypatch):
    """The leader stops between storing the round and making its games (here the factory
    fails): the next tick makes them, once."""
    entered("ann", "bob", "cyd", "dee")
    create_many = env.play.factory.create_many

    def stopped(_games):
        raise RuntimeError("the leader stops here")

    monkeypatch.setattr(env.play.factory, "create_many", stopped)
    with pytest.raises(RuntimeError):
        start()
    db.session.rollback()
    assert len(boards(swiss.id, 1)) == 2 and games_of(swiss.id) == []
    monkeypatch.setattr(env.play.factory, "create_many", create_many)
    env.swiss.director.tick()
    env.swiss.director.tick()
    assert sorted(game_of(b).id for b in boards(swiss.id, 1)) == sorted(
        g.id for g in games_of(swiss.id))
    assert len(games_of(swiss.id)) == 2


def test_a_board_whose_player_is_busy_gets_its_game_once_they_are_free(
        env, swiss, entered, start, users, wall):
    ann, bob, cyd, dee = entered("ann", "bob", "cyd", "dee")
    start()
    end_round(env, swiss.id, wall)
    wall.advance(PAUSE)
    # Between the round's storing and its games (a leader stopped), ann starts a game.
    outsider, = users("zed")
    created = env.play.factory.create_many

    def pair_then_stop(games):
        env.play.factory.create_many = created
        busy, _ = env.play.factory.create(ann, outsider, "freestyle")
        raise RuntimeError("the leader stops here")

    env.play.factory.create_many = pair_then_stop
    with pytest.raises(RuntimeError):
        env.swiss.director.tick()
    db.session.rollback()
    env.swiss.director.tick()
    assert len(games_of(swiss.id)) == 3  # ann's board waits
    live = env.play.table.current_game_of(ann.id)
    env.play.finisher.abort(live)
    env.swiss.director.tick()
    env.swiss.director.tick()
    assert len(games_of(swiss.id)) == 4
    assert all(game_of(b) is not None for b in boards(swiss.id, 2))


def test_a_round_is_stored_once(env, swiss, entered, start):
    entered("ann", "bob")
    start()
    stored = boards(swiss.id, 1)
    again = RoundPairing((Board(stored[0].white_id, stored[0].black_id),))
    with pytest.raises(IntegrityError):
        store_round(swiss.id, 1, again)
    db.session.rollback()
    assert [(b.black_id, b.white_id) for b in boards(swiss.id, 1)] == [
        (stored[0].black_id, stored[0].white_id)]


def pure_pairing(pure: SwissEvent, first_colour: str) -> list[tuple[int, int | None]]:
    """The next round the pure event would pair (left unchanged), as stored: boards, then
    the bye."""
    paired = copy.deepcopy(pure).pair_next((), first_colour)
    return [(board.black, board.white) for board in paired.boards] + (
        [(paired.bye, None)] if paired.bye is not None else [])


def test_the_event_rebuilt_from_storage_is_the_pure_event(env, swiss, entered, start, wall,
                                                          clock, users, hall_of):
    """Five players and a late sixth over three rounds, random results: the standings read
    from the rows equal those of the pure event fed the same rounds, and each stored round is
    the pure pairing of the field as it stood."""
    chance = random.Random(3)
    entered("ann", "bob", "cyd", "dee", "eve")
    start()
    pure = SwissEvent()
    for player, rating in rounds_of(swiss.id).ratings.items():
        pure.join(player, rating)
    for number in (1, 2, 3):
        stored = [(b.black_id, b.white_id) for b in boards(swiss.id, number)]
        assert stored in (pure_pairing(pure, BLACK), pure_pairing(pure, WHITE))
        pure.rounds.append(SwissRound(RoundPairing(
            tuple(Board(b, w) for b, w in stored if w is not None),
            next((b for b, w in stored if w is None), None)), frozenset()))
        for board in boards(swiss.id, number):
            game = game_of(board)
            if game is None:
                continue
            live, black, white = seat(env, game)
            if chance.random() < 0.5:
                play(env, live, black, white, FIVE_FOR_BLACK)
                pure.record(Board(board.black_id, board.white_id), 1.0)
            else:
                env.play.draws.offer(game.id, black.id)
                env.play.draws.answer(game.id, white.id, True)
                pure.record(Board(board.black_id, board.white_id), 0.5)
            stamp_ended(game.id, wall)
        if number == 1:  # joins during the pause: paired from round 2
            fay, = hall_of(*users("fay"))
            env.arenas.entries.join(fay, swiss.id)
            pure.join(fay.id, rounds_of(swiss.id).ratings[fay.id])
        wall.advance(PAUSE)
        clock.advance(PAUSE)  # the players' pace of moves, on the monotonic clock
        env.swiss.director.tick()
    assert swiss.status == "finished"
    assert rounds_of(swiss.id).event().standings() == pure.standings()


def test_a_profile_ranks_a_swiss_event_by_its_own_standings(env, swiss, entered, start, wall):
    ann, bob = entered("ann", "bob")
    start()
    end_round(env, swiss.id, wall)
    winner = boards(swiss.id, 1)[0].black_id
    place, = of_player(winner)
    assert (place["tournament"].id, place["rank"], place["points"]) == (swiss.id, 1, 1.0)


def test_the_summary_shows_the_round_its_boards_and_the_marks(env, swiss, entered, start):
    ann, bob, cyd = entered("ann", "bob", "cyd")
    start()
    summary = env.swiss.view.summary(swiss, ann)
    assert (summary["kind"], summary["round"], summary["rounds"], summary["minutes"],
            summary["ends_at"], summary["seconds_to_end"]) == ("swiss", 1, 3, None, None, None)
    game_board, bye_board = summary["boards"]
    assert (game_board["result"], bye_board["white"], bye_board["game_id"]) == (
        None, None, None)
    assert len(summary["games"]) == 1 and summary["games"][0]["game_id"] == game_board[
        "game_id"]
    assert set(summary["standings"][0]) >= {"rank", "id", "username", "points", "buchholz",
                                            "sonneborn_berger", "rating", "withdrawn",
                                            "marks"}
    in_game = ann.id in (game_board["black"]["id"], game_board["white"]["id"])
    assert summary["me"]["game_id"] == (game_board["game_id"] if in_game else None)
