"""`/puzzles` and its API (docs/protocol.md, "Puzzles"). The views read the request, call the
service and send what it gives; a refusal is `{"error", "message"}` with the code's status."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, request
from flask_login import current_user
from werkzeug.wrappers import Response

from gobang.i18n.labels import ruleset_label
from gobang.services.notices import ActionError
from gobang.services.registry import services
from gobang.vocabulary import RULESETS

bp = Blueprint("puzzles", __name__)

REFUSAL_STATUS = {"unauthorized": 401, "bad_request": 400, "forbidden_move": 400,
                  "not_found": 404, "conflict": 409}


def _user_id() -> int | None:
    return current_user.id if current_user.is_authenticated else None


def _refused(error: ActionError) -> tuple[Response, int]:
    return (jsonify({"error": error.code, "message": error.message}),
            REFUSAL_STATUS.get(error.code, 400))


@bp.get("/puzzles")
def page() -> str:
    return render_template(
        "puzzles/puzzles.html", standing=services().puzzles.standing(_user_id()),
        rulesets=[(name, ruleset_label(name)) for name in RULESETS])


@bp.get("/api/puzzles/next")
def next_puzzle() -> Response | tuple[Response, int]:
    ruleset = request.args.get("ruleset") or None
    try:
        return jsonify(services().puzzles.next(_user_id(), None if ruleset == "any" else ruleset))
    except ActionError as error:
        return _refused(error)


@bp.post("/api/puzzles/<int:puzzle_id>/move")
def move(puzzle_id: int) -> Response | tuple[Response, int]:
    body: Any = request.get_json(silent=True)
    if not isinstance(body, dict):
        body = {}
    try:
        return jsonify(services().puzzles.move(_user_id(), puzzle_id, body.get("moves"),
                                               body.get("move")))
    except ActionError as error:
        return _refused(error)
