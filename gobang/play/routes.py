from __future__ import annotations

from flask import Blueprint, render_template
from flask_login import current_user, login_required

from gobang.services.players import hall_summary

bp = Blueprint("hall", __name__)


@bp.route("/hall")
@login_required
def hall() -> str:
    return render_template(
        "hall/hall.html", me=current_user.stats(), **hall_summary(current_user.id)
    )
