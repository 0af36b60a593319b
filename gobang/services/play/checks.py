"""Refusals that every negotiation in a game shares."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from gobang.services.notices import ActionError
from gobang.services.play.live import LiveGame
from gobang.services.ratelimit import RateLimiter
from gobang.vocabulary import Status


def require_playing(live: LiveGame) -> None:
    if live.status == Status.FINISHED:
        raise ActionError("game_over", gettext("The game is over."))
    if live.status != Status.PLAYING:
        raise ActionError("conflict", gettext("The game has not started."))


def require_pace(limiter: RateLimiter, user_id: int) -> None:
    """Asking the opponent something (a draw, a take-back, a pause) pushes a prompt to them:
    a player may not do it without end."""
    if not limiter.hit(user_id):
        raise ActionError("rate_limited", gettext("You are asking too often; wait a moment."))


def require_answer(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ActionError("bad_request", gettext("'accept' must be true or false."))
    return value


def require_person_opponent(live: LiveGame, refusal: str) -> None:
    """Offers that only a person answers (draws, pauses) are refused against the computer."""
    if live.computer_color() is not None:
        raise ActionError("conflict", refusal)
