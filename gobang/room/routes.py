from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask_login import login_required

from gobang.extensions import db
from gobang.models import Game

bp = Blueprint("room", __name__)


@bp.route("/game/<int:game_id>")
@login_required
def game(game_id: int) -> str:
    if db.session.get(Game, game_id) is None:
        abort(404)
    return render_template("room/room.html", game_id=game_id)
