"""Time controls: the clocks the host offers (config MATCH_POOLS), one matching pool per ruleset
and clock, and the same choices for challenges.

A time control is `(initial seconds, increment seconds)`, or None for a game without a clock.
On the wire it is `[initial, increment]` or null; a pool's name is `<ruleset>/<initial>+<inc>`
or `<ruleset>/none` (docs/protocol.md).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from gobang.services.notices import ActionError

TimeControl = tuple[int, int] | None
NO_CLOCK = "none"


class Omitted(enum.Enum):
    """A request that named no clock gets the host's default, which may be a clock or none:
    so "not sent" needs a value of its own, apart from null."""

    OMITTED = "omitted"


OMITTED = Omitted.OMITTED


def clock_name(clock: TimeControl) -> str:
    return NO_CLOCK if clock is None else f"{clock[0]}+{clock[1]}"


def pool_name(ruleset: str, clock: TimeControl) -> str:
    return f"{ruleset}/{clock_name(clock)}"


def clock_label(clock: TimeControl) -> str | None:
    """What players call it: minutes + seconds a move, "5+3" for (300, 3), "1.5+0" for
    (90, 0); under a minute in seconds, "20s+0", not "0.333333+0". None for no clock.
    static/js/pools.js clockLabel says the same."""
    if clock is None:
        return None
    initial, increment = clock
    if initial < 60:
        return f"{initial}s+{increment}"
    return f"{round(initial / 60, 2):g}+{increment}"


def wire(clock: TimeControl) -> list[int] | None:
    return None if clock is None else list(clock)


@dataclass(frozen=True)
class Pools:
    """The clocks on offer, in the host's order, and the one a request gets when it names none
    (config CLOCK_INITIAL_SECONDS and CLOCK_INCREMENT_SECONDS; 0 seconds: no clock). The
    default is always on offer, added at the end if the list lacks it."""

    clocks: tuple[TimeControl, ...]
    default: TimeControl

    @classmethod
    def from_settings(cls, listed: Iterable[Any], initial: int, increment: int) -> Pools:
        clocks: list[TimeControl] = []
        for item in listed:
            clock = _setting(item)
            if clock in clocks:
                raise ValueError(f"MATCH_POOLS lists {item!r} twice")
            clocks.append(clock)
        default = (initial, increment) if initial > 0 else None
        if default not in clocks:
            clocks.append(default)
        return cls(tuple(clocks), default)

    def choice(self, value: Any) -> TimeControl:
        """The clock a request asked for: one on offer, as whole seconds (180.0 or true is not
        180 on the wire), null for no clock, or the default when it sent none."""
        if value is OMITTED:
            return self.default
        if value is None and None in self.clocks:
            return None
        choice = tuple(value) if isinstance(value, list) else None
        if choice not in self.clocks or choice is None or any(type(v) is not int for v in choice):
            raise ActionError("bad_request", gettext("Clock must be one of %(choices)s.",
                                                     choices=self.described()))
        return choice

    def described(self) -> str:
        return ", ".join("null" if c is None else f"[{c[0]}, {c[1]}]" for c in self.clocks)

    def names(self, rulesets: Iterable[str]) -> list[str]:
        """Every pool's name, ruleset by ruleset, clocks in the host's order."""
        return [pool_name(ruleset, clock) for ruleset in rulesets for clock in self.clocks]


def _setting(item: Any) -> TimeControl:
    """One entry of MATCH_POOLS: [initial, increment] in seconds (a tuple will do) or None."""
    if item is None:
        return None
    if (isinstance(item, list | tuple) and len(item) == 2
            and all(type(v) is int for v in item) and item[0] > 0 and item[1] >= 0):
        return (item[0], item[1])
    raise ValueError(f"MATCH_POOLS entries are [initial seconds, increment seconds] with "
                     f"initial > 0, or None for no clock; not {item!r}")
