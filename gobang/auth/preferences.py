"""A player's preferences: what each one is, its default, and what a valid value looks like.

They are kept in `User.preferences` as a JSON object. What is stored is read leniently (a key
from an older version, or a value that no longer fits, falls back to the default) and what
arrives is checked strictly (an unknown key or a wrong type is refused, nothing is saved).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from flask_babel import gettext

from gobang.extensions import db
from gobang.models import User

THEMES = ("wood", "plain")
SWITCHES = ("sound", "numbers", "forbidden", "spectator_chat")


class PreferenceError(ValueError):
    """Values that cannot be saved; `problems` says what is wrong with each, in words."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Preferences:
    sound: bool = True
    numbers: bool = False
    # None leaves it to the device: the page turns it on for touch screens, where a mistap
    # is easy and cannot be taken back without the opponent's consent.
    confirm: bool | None = None
    forbidden: bool = False
    theme: str = THEMES[0]
    # Hear the spectators' chat while playing (read only: players write in their own).
    # gobang/services/play/room_chat.py reads it by this name when a player joins a game.
    spectator_chat: bool = False

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


DEFAULTS = Preferences()


def _problem(key: str, value: object) -> str | None:
    if key in SWITCHES:
        return None if isinstance(value, bool) else gettext("%(key)s must be on or off.", key=key)
    if key == "confirm":
        return None if value is None or isinstance(value, bool) else gettext(
            "confirm must be on, off or automatic.")
    if key == "theme":
        return None if value in THEMES else gettext("Choose one of the offered board themes.")
    return gettext("%(key)s is not a preference.", key=key)


def changed(current: Preferences, changes: Mapping[str, object]) -> Preferences:
    """`current` with `changes` applied; PreferenceError lists every bad key or value."""
    problems = [p for key, value in changes.items() if (p := _problem(key, value))]
    if problems:
        raise PreferenceError(problems)
    return replace(current, **changes)


def stored(raw: object) -> Preferences:
    """What a user row holds, with the defaults wherever it says nothing usable."""
    if not isinstance(raw, Mapping):
        return DEFAULTS
    usable = {key: value for key, value in raw.items() if isinstance(key, str)
              and key in DEFAULTS.as_json() and _problem(key, value) is None}
    return replace(DEFAULTS, **usable)


def of(user: User) -> Preferences:
    return stored(user.preferences)


def save(user: User, preferences: Preferences) -> None:
    user.preferences = preferences.as_json()
    db.session.commit()
