"""Refusals that every negotiation in a game shares."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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


# What an action requires of its game's state, checked under the game's lock: it refuses
# (ActionError) or returns. Given the game and the acting player's colour.
Check = Callable[[LiveGame, str], None]


def in_play(live: LiveGame, _color: str) -> None:
    require_playing(live)


def check_can_move(live: LiveGame, color: str) -> None:
    """A stone (or an opening's step) may be played by the seat whose turn it is, in a game
    that has started, is not over and is not paused."""
    require_on_the_board(live)
    if live.to_move() != color:
        raise ActionError("not_your_turn", gettext("It is not your turn."))


def require_on_the_board(live: LiveGame) -> None:
    if live.status == Status.FINISHED:
        raise ActionError("game_over", gettext("The game is over."))
    if live.status == Status.WAITING:
        raise ActionError(
            "conflict", gettext("The game has not started: your opponent is not here."))
    if live.paused:
        raise ActionError("conflict", gettext("The game is paused."))


def past_the_opening(live: LiveGame, _color: str) -> None:
    """Offers about the game (a draw, a take-back) wait until the opening is over: its
    stones and choices are the start both players agreed to."""
    require_playing(live)
    if live.in_opening():
        raise ActionError("conflict", gettext("Not during the opening."))


def not_over(live: LiveGame, _color: str) -> None:
    if live.status == Status.FINISHED:
        raise ActionError("game_over", gettext("The game is over."))


def asking_too_often() -> str:
    return gettext("You are asking too often; wait a moment.")


@dataclass(frozen=True)
class Pace:
    """How often a player may do something. Asking the opponent something (a draw, a
    take-back, a pause) pushes a prompt to them: a player may not do it without end."""

    limiter: RateLimiter
    # The refusal's text, translated when it is said (the request's language).
    refusal: Callable[[], str] = asking_too_often

    def check(self, user_id: int) -> None:
        if not self.limiter.hit(user_id):
            raise ActionError("rate_limited", self.refusal())


def require_answer(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ActionError("bad_request", gettext("'accept' must be true or false."))
    return value


def require_person_opponent(live: LiveGame, refusal: str) -> None:
    """Offers that only a person answers (draws, pauses) are refused against the computer."""
    if live.computer_color() is not None:
        raise ActionError("conflict", refusal)
