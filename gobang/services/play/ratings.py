"""Elo ratings, zero-sum: what one player gains the other loses."""

from __future__ import annotations


def expected(score: int, opponent: int) -> float:
    return 1.0 / (1.0 + 10 ** ((opponent - score) / 400))


def elo(black: int, white: int, black_points: float, k: int) -> tuple[int, int]:
    """New (black, white) scores after a game in which black scored `black_points`
    (1 win, 0.5 draw, 0 loss). Rounded once, so the sum of scores never drifts."""
    change = round(k * (black_points - expected(black, white)))
    return black + change, white - change
