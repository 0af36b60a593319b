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
from gobang.vocabulary import BLACK, WHITE

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


def user_of(opening: Opening, player: str, black_id: int, white_id: int) -> int:
    """The user who is `player` (FIRST or SECOND), given who sits at black and white now."""
    return black_id if opening.color_of(player) == BLACK else white_id


def opening_state(opening: Opening | None, black_id: int, white_id: int) -> dict[str, Any] | None:
    """The contract's OpeningState: the rule, what comes next (`step`, null once over) and
    what was done (`log`), players by user id."""
    if opening is None:
        return None

    def user(player: str) -> int:
        return user_of(opening, player, black_id, white_id)

    return {
        "rule": opening.rule,
        "first": user(FIRST),
        "step": _step_wire(opening.step, user) if opening.step else None,
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


def colors_of(opening: Opening | None) -> tuple[str, str]:
    """(colour of FIRST, colour of SECOND) now."""
    if opening is None:
        return BLACK, WHITE
    return opening.color_of(FIRST), opening.color_of(SECOND)
