"""Glicko-2 with lichess's settings (gobang/services/ratings/glicko2.py), and the category a
game counts in (categories.py): pure arithmetic, no database."""

from __future__ import annotations

import pytest

from gobang.services.ratings.categories import Speed, category_of, speed_of
from gobang.services.ratings.glicko2 import (
    LICHESS,
    Rating,
    Result,
    after_idle,
    new_rating,
    rate,
)


def test_glickmans_worked_example():
    """Glickman, "Example of the Glicko-2 system" (2012): 1500/200/0.06, tau 0.5, beats
    1400/30, loses to 1550/100 and to 1700/300."""
    player = Rating(1500, 200, 0.06)
    results = [Result(Rating(1400, 30, 0.06), 1), Result(Rating(1550, 100, 0.06), 0),
               Result(Rating(1700, 300, 0.06), 0)]
    after = rate(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_new_rating_is_lichess_s():
    assert new_rating() == Rating(1500, 500, 0.09)


@pytest.mark.parametrize(("score", "direction"), [(1, 1), (0.5, 0), (0, -1)])
def test_between_two_new_players_a_win_gains_what_a_loss_loses(score, direction):
    winner = rate(new_rating(), [Result(new_rating(), score)])
    loser = rate(new_rating(), [Result(new_rating(), 1 - score)])
    assert (winner.rating > 1500) - (winner.rating < 1500) == direction
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)


def test_a_first_game_moves_a_new_rating_far_and_narrows_it():
    after = rate(new_rating(), [Result(new_rating(), 1)])
    assert 1700 < after.rating < 1800  # 1741.6: new ratings move far on their first game
    assert 300 < after.deviation < 500  # 396.8


def test_beating_a_much_weaker_established_player_gains_little():
    strong = Rating(2000, 60, 0.06)
    after = rate(strong, [Result(Rating(1400, 60, 0.06), 1)])
    assert 0 < after.rating - 2000 < 2


def test_a_deviation_that_would_fall_below_45_stays_at_45():
    steady = Rating(1800, 45, 0.01)  # so steady that one more game would narrow it to 44.7
    assert rate(steady, [Result(Rating(1800, 45, 0.01), 0.5)]).deviation == 45


def test_a_deviation_narrows_with_each_game_above_its_minimum():
    after = rate(Rating(1800, 200, 0.06), [Result(Rating(1800, 45, 0.06), 0.5)])
    assert 45 < after.deviation < 200


def test_a_period_without_games_widens_the_deviation_by_its_volatility():
    rating = Rating(1600, 100, 0.06)
    after = rate(rating, [])
    assert after.rating == 1600
    assert after.deviation == pytest.approx(((100 / 173.7178) ** 2 + 0.06 ** 2) ** 0.5 * 173.7178)


@pytest.mark.parametrize(("days", "grows"), [(0, False), (1, True), (30, True)])
def test_idle_days_widen_the_deviation(days, grows):
    rating = Rating(1600, 60, 0.06)
    after = after_idle(rating, days)
    assert (after.deviation > 60) == grows
    assert after.rating == 1600


def test_idle_growth_is_0_21436_periods_a_day():
    rating = Rating(1600, 60, 0.06)
    year = after_idle(rating, 365)
    periods = 365 * 0.21436
    expected = ((60 / 173.7178) ** 2 + periods * 0.06 ** 2) ** 0.5 * 173.7178
    assert year.deviation == pytest.approx(expected)


def test_idle_growth_stops_at_the_maximum():
    assert after_idle(Rating(1600, 400, 0.09), 100_000).deviation == 500


@pytest.mark.parametrize(("deviation", "provisional", "ranked"), [
    (500, True, False), (110, True, False), (109.9, False, False), (75.1, False, False),
    (75, False, True), (45, False, True),
])
def test_provisional_and_ranked_by_deviation(deviation, provisional, ranked):
    rating = Rating(1500, deviation, 0.06)
    assert (rating.provisional(), rating.ranked()) == (provisional, ranked)


def test_lichess_settings():
    assert (LICHESS.tau, LICHESS.min_deviation, LICHESS.max_deviation) == (0.75, 45, 500)


@pytest.mark.parametrize(("time_control", "speed"), [
    (None, Speed.UNTIMED),
    ((60, 0), Speed.BULLET),
    ((120, 1), Speed.BULLET),       # 160 s
    ((60, 3), Speed.BLITZ),         # 180 s: not under 180
    ((300, 3), Speed.BLITZ),        # 420 s
    ((300, 5), Speed.RAPID),        # 500 s
    ((600, 0), Speed.RAPID),
    ((900, 15), Speed.CLASSICAL),   # 1,500 s: not under 1,500
    ((1800, 0), Speed.CLASSICAL),
])
def test_speed_from_the_estimated_duration(time_control, speed):
    assert speed_of(time_control) == speed


def test_a_category_is_a_ruleset_and_a_speed():
    assert category_of("renju", (300, 3)).key == "renju:blitz"
