"""Choices a player sends with a request, checked once for every service that takes them."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from gobang.services.notices import ActionError
from gobang.vocabulary import RULESETS

# The clocks a challenge may choose, as (initial seconds, increment seconds).
CLOCK_CHOICES = ((180, 2), (300, 3), (600, 5), (900, 10))


def ruleset_choice(value: Any) -> str:
    if value is None:
        return "freestyle"
    if value not in RULESETS:
        raise ActionError("bad_request", gettext("Ruleset must be one of %(names)s.",
                                                 names=", ".join(RULESETS)))
    return value


def clock_choice(value: Any) -> tuple[int, int] | None:
    """One of CLOCK_CHOICES, as whole seconds: 180.0 or true is not 180 on the wire."""
    if value is None:
        return None
    choice = tuple(value) if isinstance(value, list) else None
    if choice not in CLOCK_CHOICES or any(type(v) is not int for v in choice):
        choices = ", ".join(f"[{a}, {b}]" for a, b in CLOCK_CHOICES)
        raise ActionError("bad_request", gettext("Clock must be one of %(choices)s.",
                                                 choices=choices))
    return choice
