"""Time controls and pools: the clocks the host offers (config MATCH_POOLS), one matching pool
per ruleset and clock, the same clocks for challenges, and the pools of one ruleset played with
an opening rule (an object item of MATCH_POOLS).

A time control is `(initial seconds, increment seconds)`, or None for a game without a clock.
On the wire it is `[initial, increment]` or null; a pool's name is `<ruleset>/<initial>+<inc>`
or `<ruleset>/none`, followed by `/<opening>` for a pool with an opening (docs/protocol.md).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from gobang.rules.openings import OPENINGS_OF
from gobang.services.notices import ActionError
from gobang.services.ratings.categories import Speed, category_of
from gobang.vocabulary import RULESETS

TimeControl = tuple[int, int] | None
NO_CLOCK = "none"
NO_OPENING = "none"


class Omitted(enum.Enum):
    """A request that named no clock gets the host's default, which may be a clock or none:
    so "not sent" needs a value of its own, apart from null."""

    OMITTED = "omitted"


OMITTED = Omitted.OMITTED


def clock_name(clock: TimeControl) -> str:
    return NO_CLOCK if clock is None else f"{clock[0]}+{clock[1]}"


def pool_name(ruleset: str, clock: TimeControl, opening: str = NO_OPENING) -> str:
    """`freestyle/300+3`, `renju/none`; `freestyle/600+5/swap2` for a pool with an opening."""
    name = f"{ruleset}/{clock_name(clock)}"
    return name if opening == NO_OPENING else f"{name}/{opening}"


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
class Pool:
    """Where Match queues a player: the matcher pairs only within one."""

    ruleset: str
    clock: TimeControl
    opening: str = NO_OPENING

    @property
    def name(self) -> str:
        return pool_name(self.ruleset, self.clock, self.opening)

    def wire(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "clock": wire(self.clock), "opening": self.opening}


@dataclass(frozen=True)
class Pools:
    """The clocks on offer, in the host's order, and the one a request gets when it names none
    (config CLOCK_INITIAL_SECONDS and CLOCK_INCREMENT_SECONDS; 0 seconds: no clock). The
    default is always on offer, added at the end if the list lacks it. Every ruleset has a
    pool per clock, without an opening; `openings` are the pools of one ruleset, clock and
    opening rule, in the host's order."""

    clocks: tuple[TimeControl, ...]
    default: TimeControl
    openings: tuple[Pool, ...] = ()

    @classmethod
    def from_settings(cls, listed: Iterable[Any], initial: int, increment: int) -> Pools:
        clocks: list[TimeControl] = []
        openings: list[Pool] = []
        for item in listed:
            if isinstance(item, dict):
                pool = _opening_setting(item)
                if pool in openings:
                    raise ValueError(f"MATCH_POOLS lists {item!r} twice")
                openings.append(pool)
                continue
            clock = _setting(item)
            if clock in clocks:
                raise ValueError(f"MATCH_POOLS lists {item!r} twice")
            clocks.append(clock)
        default = (initial, increment) if initial > 0 else None
        if default not in clocks:
            clocks.append(default)
        return cls(tuple(clocks), default, tuple(openings))

    def choice(self, value: Any) -> TimeControl:
        """The clock a request asked for: one on offer, as whole seconds (180.0 or true is not
        180 on the wire), null for no clock, or the default when it sent none."""
        if value is OMITTED:
            return self.default
        choice = _wire_clock(value)
        if choice is _NOT_A_CLOCK or choice not in self.clocks:
            raise ActionError("bad_request", gettext("Clock must be one of %(choices)s.",
                                                     choices=self.described()))
        return choice

    def pool(self, ruleset: str, clock: Any, opening: Any = NO_OPENING) -> Pool:
        """The pool a `start_match` asks for: without an opening, the ruleset's pool of a clock
        on offer (`choice`); with one, one of the opening pools, its clock named as in
        `choice` (omitted: the default clock)."""
        if opening == NO_OPENING:
            return Pool(ruleset, self.choice(clock))
        chosen = self.default if clock is OMITTED else _wire_clock(clock)
        wanted = Pool(ruleset, chosen, opening) if chosen is not _NOT_A_CLOCK else None
        if wanted not in self.openings:
            raise ActionError("bad_request", gettext(
                "No pool plays that ruleset and clock with that opening; the pools with an "
                "opening are %(names)s.", names=", ".join(p.name for p in self.openings) or "-"))
        return wanted

    def described(self) -> str:
        return ", ".join("null" if c is None else f"[{c[0]}, {c[1]}]" for c in self.clocks)

    def names(self, rulesets: Iterable[str]) -> list[str]:
        """Every pool's name, ruleset by ruleset, clocks in the host's order, then the pools
        with an opening."""
        return ([pool_name(ruleset, clock) for ruleset in rulesets for clock in self.clocks]
                + [pool.name for pool in self.openings])

    def categories(self, rulesets: Sequence[str]) -> tuple[str, ...]:
        """The rating categories of the games the pools and challenges offer (a ruleset and a
        clock on offer, or an opening pool's), ruleset by ruleset, fastest first: the hall's
        online list shows these ratings."""
        found = ({category_of(ruleset, clock) for ruleset in rulesets for clock in self.clocks}
                 | {category_of(pool.ruleset, pool.clock) for pool in self.openings})
        speeds = list(Speed)
        return tuple(c.key for c in sorted(found, key=lambda c: (rulesets.index(c.ruleset),
                                                                 speeds.index(c.speed))))


class _NotAClock(enum.Enum):
    NOT_A_CLOCK = "not a clock"


_NOT_A_CLOCK = _NotAClock.NOT_A_CLOCK


def _wire_clock(value: Any) -> TimeControl | _NotAClock:
    """A clock as the wire writes it, `[initial, increment]` in whole seconds or null."""
    if value is None:
        return None
    if (isinstance(value, list) and len(value) == 2
            and all(type(v) is int for v in value)):
        return (value[0], value[1])
    return _NOT_A_CLOCK


def _setting(item: Any) -> TimeControl:
    """One entry of MATCH_POOLS: [initial, increment] in seconds (a tuple will do) or None."""
    if item is None:
        return None
    if (isinstance(item, list | tuple) and len(item) == 2
            and all(type(v) is int for v in item) and item[0] > 0 and item[1] >= 0):
        return (item[0], item[1])
    raise ValueError(f"MATCH_POOLS entries are [initial seconds, increment seconds] with "
                     f"initial > 0, or None for no clock; not {item!r}")


OPENING_POOL_KEYS = {"ruleset", "clock", "opening"}


def _opening_setting(item: dict[str, Any]) -> Pool:
    """An object entry of MATCH_POOLS: {"ruleset", "clock", "opening"}, a pool of one ruleset
    played with an opening rule its ruleset allows (gobang.rules.openings.OPENINGS_OF)."""
    if set(item) != OPENING_POOL_KEYS:
        raise ValueError(f"MATCH_POOLS object entries have exactly the keys ruleset, clock and "
                         f"opening; not {item!r}")
    ruleset, opening = item["ruleset"], item["opening"]
    if ruleset not in RULESETS:
        raise ValueError(f"MATCH_POOLS: unknown ruleset {ruleset!r} in {item!r} "
                         f"(rulesets: {', '.join(RULESETS)})")
    allowed = [name for name in OPENINGS_OF.get(ruleset, ()) if name != NO_OPENING]
    if opening not in allowed:
        raise ValueError(f"MATCH_POOLS: {ruleset} is not played with the opening {opening!r} "
                         f"in {item!r} (its openings: {', '.join(allowed)}; a pool without "
                         f"an opening is a clock entry)")
    return Pool(ruleset, _setting(item["clock"]), opening)
