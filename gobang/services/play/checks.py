"""Refusals that every negotiation in a game shares."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from gobang.services.notices import ActionError
from gobang.services.play.live import LiveGame
from gobang.vocabulary import Status


def require_playing(live: LiveGame) -> None:
    if live.status == Status.FINISHED:
        raise ActionError("game_over", gettext("The game is over."))
    if live.status != Status.PLAYING:
        raise ActionError("conflict", gettext("The game has not started."))


def require_answer(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ActionError("bad_request", gettext("'accept' must be true or false."))
    return value
