"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012), with lichess's settings: a new
rating is 1500 with a deviation of 500 and a volatility of 0.09, tau 0.75, the deviation kept
between 45 and 500, every game its own rating period, and the deviation growing with idle time
at 0.21436 rating periods a day.

Written here rather than taken from PyPI: the packages there (glicko2, glicko2-py) fix
Glickman's paper defaults and have no deviation bounds or idle growth, which are most of what
lichess's settings are; the arithmetic is forty lines, checked against the paper's example."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from gobang.vocabulary import PROVISIONAL_DEVIATION

SCALE = 173.7178  # Glicko-2's own scale: (rating - 1500) / SCALE
CENTRE = 1500.0
CONVERGENCE = 0.000001


@dataclass(frozen=True)
class Settings:
    tau: float = 0.75
    start_rating: float = 1500.0
    start_deviation: float = 500.0
    start_volatility: float = 0.09
    min_deviation: float = 45.0
    max_deviation: float = 500.0
    periods_per_day: float = 0.21436
    provisional_from: float = PROVISIONAL_DEVIATION  # a deviation at or above this: "1500?"
    ranked_up_to: float = 75.0  # on a leaderboard only with a deviation at or below this


LICHESS = Settings()


@dataclass(frozen=True)
class Rating:
    rating: float
    deviation: float
    volatility: float

    def provisional(self, settings: Settings = LICHESS) -> bool:
        return self.deviation >= settings.provisional_from

    def ranked(self, settings: Settings = LICHESS) -> bool:
        return self.deviation <= settings.ranked_up_to


@dataclass(frozen=True)
class Result:
    """One game from the rated player's side: the opponent as they stood, and the score
    (1 a win, 0.5 a draw, 0 a loss)."""

    opponent: Rating
    score: float


def new_rating(settings: Settings = LICHESS) -> Rating:
    return Rating(settings.start_rating, settings.start_deviation, settings.start_volatility)


def after_idle(rating: Rating, days: float, settings: Settings = LICHESS) -> Rating:
    """The rating as it stands after `days` without games: the deviation grows (Glickman's
    step 6 for the rating periods that passed), never past the maximum."""
    periods = max(0.0, days) * settings.periods_per_day
    if periods == 0:
        return rating
    phi = rating.deviation / SCALE
    grown = math.sqrt(phi * phi + periods * rating.volatility ** 2) * SCALE
    return Rating(rating.rating, _bounded(grown, settings), rating.volatility)


def rate(player: Rating, results: Sequence[Result], tau: float | None = None,
         settings: Settings = LICHESS) -> Rating:
    """The player's rating after one rating period with these results (lichess: one game per
    period). Without results, only the deviation grows by one period."""
    tau = settings.tau if tau is None else tau
    mu, phi, sigma = _to_glicko2(player)
    if not results:
        grown = math.sqrt(phi * phi + sigma * sigma) * SCALE
        return Rating(player.rating, _bounded(grown, settings), sigma)
    opponents = [(_to_glicko2(r.opponent), r.score) for r in results]
    v = 1.0 / sum(_g(o_phi) ** 2 * _e(mu, o_mu, o_phi) * (1.0 - _e(mu, o_mu, o_phi))
                  for (o_mu, o_phi, _sigma), _score in opponents)
    delta = v * sum(_g(o_phi) * (score - _e(mu, o_mu, o_phi))
                    for (o_mu, o_phi, _sigma), score in opponents)
    sigma_new = _new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * sum(_g(o_phi) * (score - _e(mu, o_mu, o_phi))
                                          for (o_mu, o_phi, _sigma), score in opponents)
    return Rating(mu_new * SCALE + CENTRE, _bounded(phi_new * SCALE, settings), sigma_new)


def _to_glicko2(rating: Rating) -> tuple[float, float, float]:
    return (rating.rating - CENTRE) / SCALE, rating.deviation / SCALE, rating.volatility


def _bounded(deviation: float, settings: Settings) -> float:
    return min(settings.max_deviation, max(settings.min_deviation, deviation))


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, o_mu: float, o_phi: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(o_phi) * (mu - o_mu)))


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Glickman's step 5: the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > CONVERGENCE:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)


# The opponent a seeded rating is settled against: established, and ranked (RD <= 75).
SETTLED_AGAINST = Rating(1500.0, 75.0, 0.06)
# Games after which the deviation has all but settled (RD 71.5; under 1 more per 100 games).
SETTLED_AFTER = 300


def settled(games: int, settings: Settings = LICHESS) -> Rating:
    """The deviation and volatility of a newcomer after `games` drawn games against an
    established player, at the start's rating: how sure a rating seeded from a player's
    history of that many games may be (the migration to ratings per category). 1 game leaves
    it provisional (RD 291), 11 make it established (RD 109), about 40 ranked."""
    rating = new_rating(settings)
    for _ in range(min(games, SETTLED_AFTER)):
        rating = rate(rating, [Result(SETTLED_AGAINST, 0.5)], settings=settings)
    return rating
