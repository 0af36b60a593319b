from __future__ import annotations

from flask import Blueprint, abort, jsonify
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from gobang.services.analysis.service import Viewer
from gobang.services.analysis.stored import stored_analysis
from gobang.services.notices import ActionError
from gobang.services.registry import services

bp = Blueprint("api", __name__)

# HTTP statuses of the analysis endpoints' refusals (docs/protocol.md, "Analysis").
REFUSAL_STATUS = {"unauthorized": 401, "forbidden": 403, "bad_request": 400, "not_found": 404,
                  "conflict": 409, "unavailable": 503}


@bp.route("/api/me")
@login_required
def me() -> Response:
    # `guest` (an extension): a guest's account (docs/protocol.md, "Guests").
    return jsonify({**current_user.stats(), "guest": current_user.guest})


@bp.route("/healthz")
def healthz() -> Response:
    return jsonify(status="ok")


@bp.route("/api/games/<int:game_id>")
def game_record(game_id: int) -> Response:
    from gobang.services.play.stored import game_record as build

    record = build(game_id)
    if record is None:
        abort(404)
    # `analysis` (an extension): the stored computer analysis, null when none.
    return jsonify({**record, "analysis": stored_analysis(game_id)})


def _viewer() -> Viewer:
    if not current_user.is_authenticated:
        return Viewer(None)
    return Viewer(current_user.id, guest=current_user.guest)


def _refused(error: ActionError) -> tuple[Response, int]:
    body = {"error": error.code, "message": error.message}
    return jsonify(body), REFUSAL_STATUS.get(error.code, 400)


@bp.get("/api/games/<int:game_id>/analysis")
def analysis(game_id: int) -> Response | tuple[Response, int]:
    try:
        return jsonify(services().analysis.view(game_id, _viewer()))
    except ActionError as error:
        return _refused(error)


@bp.post("/api/games/<int:game_id>/analysis")
def request_analysis(game_id: int) -> tuple[Response, int]:
    try:
        found, queued = services().analysis.request(game_id, _viewer())
    except ActionError as error:
        return _refused(error)
    return jsonify(found), 202 if queued else 200
