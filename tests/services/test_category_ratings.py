"""A rated game's result moves both players' Glicko-2 rating in the game's category (ruleset x
speed), in the result's transaction: once, whatever races, and nowhere else."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from gobang.extensions import db
from gobang.models import CategoryRating, Game, User, utcnow
from gobang.services.play.results import Ending, save_result
from gobang.services.play.stored import stored_result
from gobang.services.ratings.glicko2 import Rating, Result, after_idle, new_rating, rate
from tests.support.threads import at_once

BLITZ_MS = (180_000, 2_000)  # 180 + 40 x 2 = 260 estimated seconds: blitz


@pytest.fixture
def players(app):
    with app.app_context():
        users = [User(username=n, username_key=n, password_hash="x") for n in ("bo", "wu", "cy")]
        db.session.add_all(users)
        db.session.commit()
        return [u.id for u in users]


def new_game(black_id: int, white_id: int, ruleset: str = "freestyle",
             clock_ms: tuple[int, int] | None = BLITZ_MS, **columns) -> int:
    game = Game(black_id=black_id, white_id=white_id, status="playing", ruleset=ruleset,
                clock_initial_ms=clock_ms[0] if clock_ms else None,
                clock_increment_ms=clock_ms[1] if clock_ms else None, **columns)
    db.session.add(game)
    db.session.commit()
    return game.id


def ratings_of(user_id: int) -> dict[str, tuple[float, float, int]]:
    rows = db.session.execute(select(CategoryRating).where(
        CategoryRating.user_id == user_id)).scalars()
    return {row.category: (row.rating, row.deviation, row.games) for row in rows}


def test_a_first_rated_game_rates_both_players_from_the_start(app, players):
    black, white, _ = players
    with app.app_context():
        result = save_result(new_game(black, white), black, white, Ending("black", "five"),
                             60, None)
        stored = {user_id: ratings_of(user_id) for user_id in (black, white)}
    start = new_rating()
    won, lost = rate(start, [Result(start, 1.0)]), rate(start, [Result(start, 0.0)])
    assert stored[black]["freestyle:blitz"] == pytest.approx((won.rating, won.deviation, 1))
    assert stored[white]["freestyle:blitz"] == pytest.approx((lost.rating, lost.deviation, 1))
    assert result["ratings"] == {
        "category": "freestyle:blitz",
        "black": {"before": 1500, "after": round(won.rating), "rd": round(won.deviation),
                  "provisional": True},
        "white": {"before": 1500, "after": round(lost.rating), "rd": round(lost.deviation),
                  "provisional": True},
    }


def test_the_game_keeps_the_ratings_it_showed(app, players):
    black, white, _ = players
    with app.app_context():
        game_id = new_game(black, white)
        live = save_result(game_id, black, white, Ending(None, "draw"), 60, None)
        db.session.expire_all()
        game = db.session.get(Game, game_id)
        assert game.category == "freestyle:blitz"
        assert stored_result(game)["ratings"] == live["ratings"]


@pytest.mark.parametrize(("ruleset", "clock_ms", "category"), [
    ("freestyle", None, "freestyle:untimed"),
    ("renju", (60_000, 0), "renju:bullet"),
    ("standard", (600_000, 5_000), "standard:rapid"),
    ("renju", (1_800_000, 0), "renju:classical"),
])
def test_a_game_counts_in_its_ruleset_and_speed_only(app, players, ruleset, clock_ms,
                                                     category):
    black, white, _ = players
    with app.app_context():
        save_result(new_game(black, white, ruleset, clock_ms), black, white,
                    Ending("white", "resign"), 60, None)
        assert set(ratings_of(black)) == set(ratings_of(white)) == {category}


def test_a_second_ending_rates_nothing_more(app, players):
    black, white, _ = players
    with app.app_context():
        game_id = new_game(black, white)
        save_result(game_id, black, white, Ending("black", "five"), 60, None)
        first = ratings_of(black)
        assert save_result(game_id, black, white, Ending("white", "timeout"), 60, None) is None
        assert ratings_of(black) == first


@pytest.mark.parametrize(("ending", "columns"), [
    (Ending(None, "aborted"), {}),
    (Ending("black", "five"), {"computer_level": 3}),
])
def test_unrated_and_aborted_games_rate_no_one(app, players, ending, columns):
    black, white, _ = players
    with app.app_context():
        game_id = new_game(black, white, **columns)
        result = save_result(game_id, black, white, ending, 60, None,
                             rated="computer_level" not in columns)
        assert result["ratings"] is None
        assert ratings_of(black) == ratings_of(white) == {}
        game = db.session.get(Game, game_id)
        assert (game.black_rating_after, game.white_rating_after) == (None, None)


def test_the_deviation_grows_with_the_days_since_the_last_game(app, players):
    black, white, _ = players
    with app.app_context():
        save_result(new_game(black, white), black, white, Ending("black", "five"), 60, None)
        db.session.execute(update(CategoryRating).values(
            rated_at=utcnow() - timedelta(days=100)))
        db.session.commit()
        stored = {row.user_id: Rating(row.rating, row.deviation, row.volatility)
                  for row in db.session.scalars(select(CategoryRating))}
        result = save_result(new_game(black, white), black, white, Ending("black", "five"),
                             60, None)
    grown = {user_id: after_idle(rating, 100) for user_id, rating in stored.items()}
    assert grown[black].deviation > stored[black].deviation
    won = rate(grown[black], [Result(grown[white], 1.0)])
    assert result["ratings"]["black"] == {
        "before": round(stored[black].rating), "after": round(won.rating),
        "rd": round(won.deviation), "provisional": True}


def test_racing_endings_rate_once(app, players):
    black, white, _ = players
    with app.app_context():
        game_id = new_game(black, white)
    outcomes = at_once(
        app, lambda winner: save_result(game_id, black, white, Ending(winner, "five"), 60, None),
        [("black",), ("white",)] * 4)
    assert sum(outcome is not None for outcome in outcomes) == 1
    with app.app_context():
        assert ratings_of(black)["freestyle:blitz"][2] == 1
        assert ratings_of(white)["freestyle:blitz"][2] == 1


def test_two_first_games_of_one_player_ending_at_once_both_rate(app, players):
    """Both endings find the player's new row missing; neither fails on the unique key, and
    the second rates from where the first left the row."""
    ann, *others = players
    with app.app_context():
        games = [(new_game(ann, other), other) for other in others]
    outcomes = at_once(
        app, lambda game_id, other: save_result(game_id, ann, other, Ending("black", "five"),
                                                60, None), games)
    assert all(outcome is not None for outcome in outcomes)
    with app.app_context():
        assert ratings_of(ann)["freestyle:blitz"][2] == 2
    befores = sorted(outcome["ratings"]["black"]["before"] for outcome in outcomes)
    assert befores[0] == 1500 and befores[1] > 1500
