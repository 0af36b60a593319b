"""What the analysis board's views ask: a position checked, and the engine's view of it for
those who may ask (docs/protocol.md, "Analysis board")."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from flask_babel import gettext

from gobang.rules import SIZE
from gobang.services.analysis_board.pool import BoardEngines, EngineBusy, EngineFailed
from gobang.services.analysis_board.position import (
    Point,
    Position,
    bad_request,
    checked_ruleset,
    parse_moves,
    position,
)
from gobang.services.notices import ActionError
from gobang.services.ratelimit import Limiter


class AnalysisBoard:
    def __init__(self, engines: BoardEngines, limiter: Limiter) -> None:
        self.engines = engines
        # Asks of the engine per asker (a player's or a guest's account).
        self._limiter = limiter

    def position(self, ruleset: str | None, moves: str | None) -> dict[str, Any]:
        """GET /api/analysis/position: the query's ruleset and moves (`h8,i9`) checked."""
        return position(checked_ruleset(ruleset), parse_moves(moves)).as_dict()

    def engine(self, asker: Hashable | None, body: Any) -> dict[str, Any]:
        """POST /api/analysis/engine: `asker` None for a visitor, who may not ask; `body`
        the request's JSON, {"ruleset", "moves"} (pairs or `h8,i9` text)."""
        if asker is None:
            raise ActionError("unauthorized", gettext(
                "Log in, or play the computer as a guest, to ask the engine."))
        found = _body_position(body)
        if found.over:
            return _settled(found)
        if not self._limiter.hit(asker):
            raise ActionError("rate_limited", gettext(
                "You asked the engine often in a short time. Wait a minute and try again."))
        try:
            return self.engines.ask(found.ruleset, found.moves)
        except EngineBusy:
            raise ActionError("unavailable", gettext(
                "The engine is busy with other positions. Try again in a moment.")) from None
        except EngineFailed:
            raise ActionError("unavailable", gettext(
                "The engine did not answer in time. Try again in a moment.")) from None


def _body_position(body: Any) -> Position:
    if not isinstance(body, dict):
        raise bad_request(gettext("Send the position as JSON: {\"ruleset\", \"moves\"}."))
    ruleset = body.get("ruleset")
    if ruleset is not None and not isinstance(ruleset, str):
        raise bad_request(gettext("The ruleset must be a name."))
    raw = body.get("moves", [])
    moves = parse_moves(raw) if isinstance(raw, str) else _pairs(raw)
    return position(checked_ruleset(ruleset), moves)


def _pairs(raw: Any) -> list[Point]:
    """[[row, col]...] with whole numbers on the board; `position` checks the rest."""
    if not isinstance(raw, list) or len(raw) > SIZE * SIZE:
        raise bad_request(gettext("The moves must be a list of [row, column] pairs."))
    points = []
    for item in raw:
        if (not isinstance(item, list) or len(item) != 2
                or not all(type(n) is int and 0 <= n < SIZE for n in item)):
            raise bad_request(gettext("The moves must be a list of [row, column] pairs."))
        points.append((item[0], item[1]))
    return points


def _settled(found: Position) -> dict[str, Any]:
    """A position the game has left (a five or a full board): nothing to search."""
    chance = 0.0 if found.winner is None else (1.0 if found.winner == "black" else -1.0)
    return {"win_chance": chance, "best": None, "line": []}
