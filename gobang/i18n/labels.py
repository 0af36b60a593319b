"""Words for the codes the pages show (colours, rulesets, results, reasons), in the request's
language. The codes themselves stay English everywhere else: URLs, the API, records."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext, lazy_gettext
from flask_babel.speaklater import LazyString

from gobang.services.pools import TimeControl, clock_label

COLORS = {"black": lazy_gettext("black"), "white": lazy_gettext("white")}
RULESETS = {
    "freestyle": lazy_gettext("freestyle"),
    "standard": lazy_gettext("standard"),
    "renju": lazy_gettext("renju"),
}
# An opening rule (gobang.rules.openings): the rules' own names, which players use as they are.
OPENINGS = {
    "none": lazy_gettext("no opening rule"),
    "swap": lazy_gettext("Swap"),
    "swap2": lazy_gettext("Swap2"),
    "taraguchi-10": lazy_gettext("Taraguchi-10"),
}
# A rating category's speed (gobang.services.ratings.categories).
SPEEDS = {
    "bullet": lazy_gettext("bullet"),
    "blitz": lazy_gettext("blitz"),
    "rapid": lazy_gettext("rapid"),
    "classical": lazy_gettext("classical"),
    "untimed": lazy_gettext("untimed"),
}
# As a player saw the game (services.players.outcome_for).
OUTCOMES = {
    "win": lazy_gettext("win"),
    "loss": lazy_gettext("loss"),
    "draw": lazy_gettext("draw"),
    "aborted": lazy_gettext("aborted"),
}
# How a game ended; the same words as the room page's scripts use.
REASONS = {
    "five": lazy_gettext("five in a row"),
    "resign": lazy_gettext("resignation"),
    "disconnect": lazy_gettext("player left"),
    "timeout": lazy_gettext("out of time"),
    "draw_agreed": lazy_gettext("draw agreed"),
    "board_full": lazy_gettext("board full"),
    "aborted": lazy_gettext("aborted"),
}
# Why a game was aborted, for the causes that need no colour or time (abort_label).
ABORT_CAUSES = {
    "both_left": lazy_gettext("Both players left the game."),
    "host": lazy_gettext("The server's host aborted the game."),
    "not_started": lazy_gettext("The game could not be started."),
}
# The replay's headline: who won, from the game's winner column.
RESULTS = {
    "black": lazy_gettext("black wins"),
    "white": lazy_gettext("white wins"),
    None: lazy_gettext("draw"),
}


def _label(table: dict[str, LazyString], code: str | None) -> str:
    """The word for a known code; an unknown one is shown as it is."""
    word = table.get(code or "")
    return str(word) if word is not None else code or ""


def color_label(color: str | None) -> str:
    return _label(COLORS, color)


def ruleset_label(ruleset: str | None) -> str:
    return _label(RULESETS, ruleset)


def opening_label(opening: str | None) -> str:
    return _label(OPENINGS, opening)


def category_label(category: str | None) -> str:
    """`renju:blitz` -> "renju blitz" in the request's language."""
    ruleset, _, speed = (category or "").partition(":")
    return f"{ruleset_label(ruleset)} {_label(SPEEDS, speed)}".strip()


def outcome_label(outcome: str | None) -> str:
    return _label(OUTCOMES, outcome)


def reason_label(reason: str | None) -> str:
    return _label(REASONS, reason)


def abort_label(detail: dict[str, Any] | None) -> str:
    """Why a game was aborted (a Result's `abort`), as a sentence; "" when it is not known (a
    game aborted before the server kept the cause)."""
    if not detail:
        return ""
    cause, color, seconds = detail.get("cause"), detail.get("color"), detail.get("seconds")
    if cause == "no_first_move":
        return (gettext("White did not move in %(seconds)s s.", seconds=seconds)
                if color == "white" else
                gettext("Black did not move in %(seconds)s s.", seconds=seconds))
    if cause == "no_show":
        if color is None:
            return gettext("Neither player came to the game in %(seconds)s s.", seconds=seconds)
        return (gettext("White did not come to the game in %(seconds)s s.", seconds=seconds)
                if color == "white" else
                gettext("Black did not come to the game in %(seconds)s s.", seconds=seconds))
    return str(ABORT_CAUSES.get(cause or "", ""))


def time_control_label(clock: TimeControl) -> str:
    """"10+5" for (600, 5), as the hall's grid names it; "No clock" for a game without one."""
    return clock_label(clock) or gettext("No clock")


def result_label(winner: str | None, reason: str | None) -> str:
    if reason == "aborted":
        return str(OUTCOMES["aborted"])
    return str(RESULTS.get(winner, RESULTS[None]))
