"""Results are written once, whatever races happen; live games survive a rebuild."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gobang.extensions import db
from gobang.models import Game, User
from gobang.services.play.results import Ending, save_result
from gobang.services.registry import build_services
from tests.support.clock import FakeClock
from tests.support.threads import at_once


@pytest.fixture
def two_users(app):
    with app.app_context():
        users = [User(username=n, username_key=n, password_hash="x") for n in ("bo", "wu")]
        db.session.add_all(users)
        db.session.commit()
        return [u.id for u in users]


@pytest.fixture
def game_id(app, two_users):
    with app.app_context():
        game = Game(black_id=two_users[0], white_id=two_users[1], status="playing")
        db.session.add(game)
        db.session.commit()
        return game.id


def counters(app, user_id):
    with app.app_context():
        user = db.session.get(User, user_id)
        return user.score, user.games, user.wins, user.losses, user.draws


def test_second_ending_changes_nothing(app, two_users, game_id):
    with app.app_context():
        first = save_result(game_id, *two_users, Ending("black", "five"), 60, None)
        second = save_result(game_id, *two_users, Ending("white", "timeout"), 60, None)
    assert first["scores"]["black"] == {"before": 1000, "after": 1030}
    assert second is None
    assert counters(app, two_users[0]) == (1030, 1, 1, 0, 0)
    assert counters(app, two_users[1]) == (970, 1, 0, 1, 0)


def test_racing_endings_count_exactly_once(app, two_users, game_id):
    outcomes = at_once(
        app, lambda winner: save_result(game_id, *two_users, Ending(winner, "five"), 60, None),
        [("black",), ("white",)] * 4)
    assert sum(o is not None for o in outcomes) == 1
    black, white = counters(app, two_users[0]), counters(app, two_users[1])
    assert black[1] == white[1] == 1
    assert black[0] + white[0] == 2000


def test_aborted_game_changes_no_score_and_counts_no_game(app, two_users, game_id):
    with app.app_context():
        result = save_result(game_id, *two_users, Ending(None, "aborted"), 60, None)
    assert result["scores"]["white"] == {"before": 1000, "after": 1000}
    assert counters(app, two_users[0]) == (1000, 0, 0, 0, 0)


def test_unfinished_games_are_restored_with_their_moves(app, two_users):
    clock = FakeClock()
    app.config["CLOCK"] = clock
    first = build_services(app)
    with app.app_context():
        black, white = (db.session.get(User, i) for i in two_users)
        live, _ = first.play.factory.create(black, white, "renju")
        first.play.seating.join(live.game_id, black.id, "sid-b")
        first.play.seating.join(live.game_id, white.id, "sid-w")
        for user, (row, col) in [(black, (7, 7)), (white, (7, 8)), (black, (6, 6))]:
            clock.advance(3)
            first.play.moves.place_stone(live.game_id, user.id, row, col)
        clocks_before = live.clocks.snapshot(clock())
    clock.advance(500)  # the server is down for a while
    second = build_services(app)
    with app.app_context():
        assert second.play.factory.restore() == 1
        restored = second.store.get_game(live.game_id)
        assert restored.rules.moves == [(7, 7), (7, 8), (6, 6)]
        assert restored.ruleset == "renju"
        assert restored.rules.to_move == "white"
        assert restored.clocks.snapshot(clock()) == clocks_before
        second.play.seating.join(live.game_id, two_users[1], "sid-w2")
        state = second.play.seating.state(live.game_id, two_users[1])
        assert state["status"] == "playing"


def test_a_game_without_a_clock_is_restored_without_one(app, two_users):
    clock = FakeClock()
    app.config["CLOCK"] = clock
    first = build_services(app)
    with app.app_context():
        black, white = (db.session.get(User, i) for i in two_users)
        untimed, _ = first.play.factory.create(black, white, "freestyle", time_control=None)
    second = build_services(app)
    with app.app_context():
        assert second.play.factory.restore() == 1
        restored = second.store.get_game(untimed.game_id)
        second.play.seating.join(untimed.game_id, two_users[0], "sid-b")
        state = second.play.seating.state(untimed.game_id, two_users[0])
    assert (restored.clocks, restored.time_control) == (None, None)
    assert (state["clocks"], state["clock"]) == (None, None)


def test_finished_games_are_not_restored(app, two_users, game_id):
    with app.app_context():
        save_result(game_id, *two_users, Ending("black", "resign"), 60, None)
        services = build_services(app)
        assert services.play.factory.restore() == 0
        assert db.session.scalar(select(Game.status)) == "finished"


def test_two_games_of_one_player_ending_at_once_lose_no_score(app):
    """Each ending reads the shared player's score only after locking it, so neither
    overwrites the other's change (zero-sum: the three scores still add up)."""
    with app.app_context():
        users = [User(username=n, username_key=n, password_hash="x") for n in ("an", "bo", "cy")]
        db.session.add_all(users)
        db.session.commit()
        ann, *others = (u.id for u in users)
        games = [Game(black_id=ann, white_id=other, status="playing") for other in others]
        db.session.add_all(games)
        db.session.commit()
        pairs = [(game.id, game.white_id) for game in games]
    at_once(app, lambda game_id, white_id: save_result(game_id, ann, white_id,
                                                       Ending("black", "five"), 60, None),
            pairs)
    scores = [counters(app, user_id)[0] for user_id in (ann, *others)]
    assert sum(scores) == 3000
    assert counters(app, ann)[1:3] == (2, 2)


def restored_after_two_moves(app, two_users, clock):
    """A game with two moves played, then the server rebuilt (a restart) and restored."""
    app.config["CLOCK"] = clock
    first = build_services(app)
    with app.app_context():
        black, white = (db.session.get(User, i) for i in two_users)
        live, _ = first.play.factory.create(black, white, "freestyle")
        first.play.seating.join(live.game_id, black.id, "sid-b")
        first.play.seating.join(live.game_id, white.id, "sid-w")
        first.play.moves.place_stone(live.game_id, black.id, 7, 7)
        first.play.moves.place_stone(live.game_id, white.id, 7, 8)
    second = build_services(app)
    with app.app_context():
        second.play.factory.restore()
    return second, live.game_id


def ending_after_grace(app, services, clock):
    with app.app_context():
        clock.advance(30)
        notices = services.play.timekeeper.tick()
    return next(n.payload["result"] for n in notices if n.event == "game_over")


def test_restored_game_nobody_returns_to_is_aborted(app, two_users):
    clock = FakeClock()
    services, _game_id = restored_after_two_moves(app, two_users, clock)
    result = ending_after_grace(app, services, clock)
    assert (result["winner"], result["reason"]) == (None, "aborted")
    assert result["abort"] == {"cause": "both_left", "color": None, "seconds": None}
    assert counters(app, two_users[0]) == (1000, 0, 0, 0, 0)


def test_restored_game_only_one_returns_to_is_won_by_them(app, two_users):
    clock = FakeClock()
    services, game_id = restored_after_two_moves(app, two_users, clock)
    with app.app_context():
        services.play.seating.join(game_id, two_users[1], "sid-w2")
    result = ending_after_grace(app, services, clock)
    assert (result["winner"], result["reason"]) == ("white", "disconnect")
