from __future__ import annotations

import pytest

from gobang.services.play.ratings import elo


@pytest.mark.parametrize(
    ("black", "white", "points", "expected"),
    [
        (1000, 1000, 1.0, (1030, 970)),
        (1000, 1000, 0.0, (970, 1030)),
        (1000, 1000, 0.5, (1000, 1000)),
        (1400, 1000, 1.0, (1405, 995)),
        (1000, 1400, 1.0, (1055, 1345)),
        (1200, 1000, 0.5, (1184, 1016)),
    ],
)
def test_elo_with_k_60(black, white, points, expected):
    assert elo(black, white, points, 60) == expected


@pytest.mark.parametrize("points", [0.0, 0.5, 1.0])
def test_elo_is_zero_sum(points):
    after = elo(1234, 987, points, 60)
    assert sum(after) == 1234 + 987
