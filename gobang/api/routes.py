from __future__ import annotations

from flask import Blueprint, abort, jsonify
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

bp = Blueprint("api", __name__)


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
    return jsonify(record)
