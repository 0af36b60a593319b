"""An opening as the database keeps it and as the wire shows it.

The log is stored as `[[actor, action], ...]` with actor `first` or `second` and action one
of `{"place": [row, col]}`, `{"choose": option}`, `{"offer": [[row, col], ...]}` and
`{"pick": [row, col]}`. Who FIRST is follows from the row: the player in the black seat is
whoever holds black after the log (Opening.black), since a colour choice swaps the seats.
On the wire (docs/protocol.md, "Openings") players are named by user id, as everywhere else.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from gobang.models import Game
from gobang.rules import to_notation
from gobang.rules.openings import (
    FIRST,
    OPENINGS_OF,
    SECOND,
    Action,
    Choose,
    Offer,
    Opening,
    Pick,
    Place,
    Step,
)
from gobang.services.notices import ActionError
from gobang.vocabulary import BLACK

NO_OPENING = "none"


def check_opening(ruleset: str, opening: Any) -> str:
    """The opening if `ruleset` may be played with it; refuses anything else (bad_request)."""
    allowed = OPENINGS_OF.get(ruleset, (NO_OPENING,))
    if opening not in allowed:
        raise ActionError("bad_request", gettext(
            "Opening must be one of %(names)s for %(ruleset)s.",
            names=", ".join(allowed), ruleset=ruleset))
    return opening


def opening_of(row: Game) -> Opening | None:
    """The game's opening rebuilt from its stored log; None for a game without one."""
    if row.opening == NO_OPENING:
        return None
    return Opening(row.opening, [load_entry(entry) for entry in row.opening_log or []])


def dump_log(opening: Opening) -> list[list[Any]]:
    return [[actor, dump_action(action)] for actor, action in opening.log]


def dump_action(action: Action) -> dict[str, Any]:
    if isinstance(action, Place):
        return {"place": list(action.point)}
    if isinstance(action, Choose):
        return {"choose": action.option}
    if isinstance(action, Offer):
        return {"offer": [list(point) for point in action.points]}
    return {"pick": list(action.point)}


def load_entry(entry: list[Any]) -> tuple[str, Action]:
    actor, action = entry
    if actor not in (FIRST, SECOND):
        raise ValueError(f"unknown actor {actor!r} in an opening log")
    (kind, value), = action.items()
    if kind == "place":
        return actor, Place(tuple(value))
    if kind == "choose":
        return actor, Choose(value)
    if kind == "offer":
        return actor, Offer(tuple(tuple(point) for point in value))
    if kind == "pick":
        return actor, Pick(tuple(value))
    raise ValueError(f"unknown opening action {kind!r}")


def first_and_second(row: Game) -> tuple[int, int]:
    """The user ids of who placed the first stone and of the other player."""
    opening = opening_of(row)
    if opening is None:
        return row.black_id, row.white_id
    first = user_of(opening, FIRST, row.black_id, row.white_id)
    return first, row.white_id if first == row.black_id else row.black_id


def user_of(opening: Opening, player: str, black_id: int, white_id: int) -> int:
    """The user who is `player` (FIRST or SECOND), given who sits at black and white now."""
    return black_id if opening.color_of(player) == BLACK else white_id


def opening_state(opening: Opening | None, black_id: int, white_id: int,
                  finished: bool = False) -> dict[str, Any] | None:
    """The contract's OpeningState: the rule, what comes next (`step`, null once over, or
    once the game ended in it) and what was done (`log`), players by user id."""
    if opening is None:
        return None

    def user(player: str) -> int:
        return user_of(opening, player, black_id, white_id)

    return {
        "rule": opening.rule,
        "first": user(FIRST),
        "step": _step_wire(opening.step, user) if opening.step and not finished else None,
        "log": [{"player": user(actor), **_action_wire(action)}
                for actor, action in opening.log],
    }


def _step_wire(step: Step, user) -> dict[str, Any]:
    found: dict[str, Any] = {"player": user(step.actor), "kind": step.kind}
    if step.area is not None:
        found["area"] = step.area
    if step.options:
        found["options"] = list(step.options)
    if step.count:
        found["count"] = step.count
    if step.offers:
        found["offers"] = [list(point) for point in step.offers]
    return found


def _action_wire(action: Action) -> dict[str, Any]:
    if isinstance(action, Place):
        return {"kind": "place", "row": action.point[0], "col": action.point[1]}
    if isinstance(action, Choose):
        return {"kind": "choose", "option": action.option}
    if isinstance(action, Offer):
        return {"kind": "offer", "points": [list(point) for point in action.points]}
    return {"kind": "pick", "row": action.point[0], "col": action.point[1]}


def opening_lines(opening: Opening, black: str, white: str) -> list[str]:
    """The opening in words for a record file (English, as the files are): who placed the
    first stone, then each choice and offer in order, stones in board notation."""
    name = {FIRST: black if opening.color_of(FIRST) == BLACK else white}
    name[SECOND] = white if name[FIRST] == black else black
    lines = [f"Opening: {opening.rule}, first stone by {name[FIRST]}"]
    stones = 0
    for actor, action in opening.log:
        if isinstance(action, Place | Pick):
            stones += 1
            verb = "picked" if isinstance(action, Pick) else "placed"
            lines.append(f"Opening: {name[actor]} {verb} stone {stones} at "
                         f"{to_notation(*action.point)}")
        elif isinstance(action, Choose):
            lines.append(f"Opening: {name[actor]} chose {action.option.replace('_', ' ')}")
        else:
            offered = " ".join(to_notation(*point) for point in action.points)
            lines.append(f"Opening: {name[actor]} offered fifth stones {offered}")
    return lines
