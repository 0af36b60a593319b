"""Chat messages: checked, rate limited, kept as plain text."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask_babel import gettext

from gobang.services.notices import ActionError
from gobang.services.ratelimit import Limiter

MAX_CHARS = 300


def clean_text(text: Any) -> str:
    if not isinstance(text, str):
        raise ActionError("bad_request", gettext("Chat text must be a string."))
    text = text.strip()
    if not 1 <= len(text) <= MAX_CHARS:
        raise ActionError("bad_request", gettext("A message has 1 to %(max)d characters.",
                                                 max=MAX_CHARS))
    return text


def check_rate(limiter: Limiter, user_id: int) -> None:
    if not limiter.hit(user_id):
        raise ActionError("rate_limited",
                          gettext("You are sending messages too fast; wait a moment."))


def timestamp() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
