"""Finished games: the replay page and the record downloads."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template

from gobang.extensions import db
from gobang.i18n.labels import abort_label, reason_label, result_label
from gobang.models import Game
from gobang.services.analysis.stored import stored_analysis
from gobang.services.history import record_files

bp = Blueprint("records", __name__)


def _finished_or_404(game_id: int) -> Game:
    game = db.get_or_404(Game, game_id)
    if game.status != "finished":
        abort(404)
    return game


@bp.route("/game/<int:game_id>/replay")
def replay(game_id: int) -> str:
    game = db.get_or_404(Game, game_id)
    if game.status != "finished":
        return render_template("records/in_play.html", game=game)
    return render_template(
        "records/replay.html",
        game=game,
        moves=[[move.row, move.col] for move in game.moves],
        result=result_label(game.winner, game.reason),
        # An abort's line says why, when that is known; "Aborted" alone says no more.
        reason=abort_label(game.abort_detail) if game.reason == "aborted"
        else reason_label(game.reason),
    )


def _attachment(text: str, filename: str) -> Response:
    response = Response(text, mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.route("/game/<int:game_id>/record.txt")
def record_txt(game_id: int) -> Response:
    game = _finished_or_404(game_id)
    text = record_files.record_txt(game, stored_analysis(game.id))
    return _attachment(text, record_files.download_name(game, "txt"))


@bp.route("/game/<int:game_id>/record.psq")
def record_psq(game_id: int) -> Response:
    game = _finished_or_404(game_id)
    return _attachment(record_files.record_psq(game), record_files.download_name(game, "psq"))
