"""bench/ratelimit.py compares like with like: both limiters refuse the same hit."""

from __future__ import annotations

import pytest

from bench.ratelimit import LIMIT, library, ours


@pytest.mark.parametrize("checks", [ours, library], ids=["ours", "limits"])
def test_each_limiter_compared_refuses_the_hit_past_its_limit(checks):
    over = checks()["over"]
    assert [over() for _ in range(LIMIT + 1)] == [True] * LIMIT + [False]
