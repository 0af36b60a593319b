"""Which rating a game counts in: its ruleset and its speed. The speed follows lichess's rule
on a game's estimated duration, the initial time plus 40 increments: a clock game of under
3 minutes is bullet, under 8 blitz, under 25 rapid, and longer classical. A game without a
clock is its own speed, `untimed`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gobang.vocabulary import RULESETS

# Moves a game is expected to last, for its duration: lichess's figure for chess.
EXPECTED_MOVES = 40


class Speed(StrEnum):
    BULLET = "bullet"
    BLITZ = "blitz"
    RAPID = "rapid"
    CLASSICAL = "classical"
    UNTIMED = "untimed"


# (estimated seconds under which, speed), fastest first.
_LIMITS = ((180, Speed.BULLET), (480, Speed.BLITZ), (1500, Speed.RAPID))


def speed_of(time_control: tuple[int, int] | None) -> Speed:
    """`time_control`: (initial seconds, increment seconds), or None for no clock."""
    if time_control is None:
        return Speed.UNTIMED
    initial, increment = time_control
    estimate = initial + EXPECTED_MOVES * increment
    return next((speed for limit, speed in _LIMITS if estimate < limit), Speed.CLASSICAL)


@dataclass(frozen=True)
class Category:
    ruleset: str
    speed: Speed

    @property
    def key(self) -> str:
        """As stored and as sent: `renju:blitz`."""
        return f"{self.ruleset}:{self.speed}"


def category_of(ruleset: str, time_control: tuple[int, int] | None) -> Category:
    return Category(ruleset, speed_of(time_control))


def is_category(key: str) -> bool:
    """Whether `key` names a category (`renju:blitz`) of a ruleset the server plays."""
    ruleset, _, speed = key.partition(":")
    return ruleset in RULESETS and speed in set(Speed)
