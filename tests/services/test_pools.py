"""How the pages name a time control (gobang/services/pools.py; static/js/pools.js says the
same, tests/browser/test_hall_pools.py)."""

from __future__ import annotations

import pytest

from gobang.services.pools import clock_label
from tests.support.pools import CLOCK_LABELS


@pytest.mark.parametrize(("clock", "label"), CLOCK_LABELS)
def test_a_clock_is_named_in_minutes_or_under_a_minute_in_seconds(clock, label):
    assert clock_label(clock) == label


def test_no_clock_has_no_label():
    assert clock_label(None) is None
