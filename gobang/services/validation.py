"""Choices a player sends with a request, checked once for every service that takes them
(clocks: `Pools.choice` in services/pools.py, as the host sets which are on offer)."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from gobang.services.notices import ActionError
from gobang.vocabulary import RULESETS


def ruleset_choice(value: Any) -> str:
    if value is None:
        return "freestyle"
    if value not in RULESETS:
        raise ActionError("bad_request", gettext("Ruleset must be one of %(names)s.",
                                                 names=", ".join(RULESETS)))
    return value

