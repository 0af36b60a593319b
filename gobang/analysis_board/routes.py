"""The analysis board: the page at /analysis, its two JSON endpoints and the line's .psq
download (docs/protocol.md, "Analysis board"). Thin views over services/analysis_board."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user
from werkzeug.wrappers import Response as BaseResponse

from gobang.i18n.labels import ruleset_label
from gobang.rules import RULESETS
from gobang.services.analysis_board.position import (
    Position,
    checked_ruleset,
    finished_game,
    line_psq,
    position_from_query,
)
from gobang.services.notices import ActionError
from gobang.services.registry import services

bp = Blueprint("analysis_board", __name__)

REFUSAL_STATUS = {"unauthorized": 401, "bad_request": 400, "not_found": 404, "conflict": 409,
                  "rate_limited": 429, "unavailable": 503}


def _status(error: ActionError) -> int:
    return REFUSAL_STATUS.get(error.code, 400)


def _refused(error: ActionError) -> tuple[Response, int]:
    return jsonify({"error": error.code, "message": error.message}), _status(error)


@bp.get("/analysis")
def board() -> str | BaseResponse | tuple[str, int]:
    """`?ruleset=&moves=h8,i9` the position to open on; `?game=<id>&move=<n>` a finished
    game's position, sent on to the first form so that its address is the one to share."""
    ruleset = request.args.get("ruleset")
    try:
        if "game" in request.args:
            return redirect(_game_address(request.args["game"], request.args.get("move")))
        found = position_from_query(ruleset, request.args.get("moves"))
    except ActionError as error:
        return _page(None, error.message, ruleset), _status(error)
    return _page(found, None, found.ruleset)


def _game_address(raw_id: str, move: str | None) -> str:
    if not raw_id.isascii() or not raw_id.isdigit() or len(raw_id) > 12:
        raise ActionError("bad_request", gettext("The game must be a game's number."))
    found = finished_game(int(raw_id), move)
    return url_for("analysis_board.board", ruleset=found.ruleset, moves=found.notation() or None)


def _page(found: Position | None, refusal: str | None, ruleset: str | None) -> str:
    chosen = ruleset if ruleset in RULESETS else checked_ruleset(None)
    return render_template(
        "analysis/board.html", position=found.as_dict() if found else None, refusal=refusal,
        ruleset=chosen, rulesets=[(name, ruleset_label(name)) for name in RULESETS],
        # Visitors may use the board but not the engine (docs/protocol.md).
        can_ask=current_user.is_authenticated)


@bp.get("/analysis/line.psq")
def line_download() -> Response:
    try:
        found = position_from_query(request.args.get("ruleset"), request.args.get("moves"))
    except ActionError as error:
        return Response(error.message, status=_status(error), mimetype="text/plain")
    response = Response(line_psq(found), mimetype="text/plain")
    response.headers["Content-Disposition"] = 'attachment; filename="gobang-analysis.psq"'
    return response


@bp.get("/api/analysis/position")
def position_api() -> Response | tuple[Response, int]:
    try:
        return jsonify(services().analysis_board.position(request.args.get("ruleset"),
                                                          request.args.get("moves")))
    except ActionError as error:
        return _refused(error)


@bp.post("/api/analysis/engine")
def engine_api() -> Response | tuple[Response, int]:
    # Per account: a guest's too (guests are made per address within a limit).
    asker = ("user", current_user.id) if current_user.is_authenticated else None
    try:
        return jsonify(services().analysis_board.engine(asker, request.get_json(silent=True)))
    except ActionError as error:
        return _refused(error)
