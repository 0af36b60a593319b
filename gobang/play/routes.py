from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template
from flask_login import current_user, login_required

from gobang.extensions import db
from gobang.models import Game
from gobang.rules.openings import OPENINGS, OPENINGS_OF
from gobang.services.history.players import hall_summary
from gobang.services.pools import clock_label, clock_name
from gobang.services.registry import services

bp = Blueprint("play", __name__)


@bp.route("/hall")
@login_required
def hall() -> str:
    pools = services().lobby.pools
    # The quick-pairing grid and the challenge's clock choice: one entry per clock on offer.
    clocks = [{"name": clock_name(clock), "label": clock_label(clock),
               "default": clock == pools.default} for clock in pools.clocks]
    # The pools with an opening, each a button of its own; the challenge's opening choice,
    # each option with the rulesets that allow it.
    opening_pools = [{"name": pool.name, "ruleset": pool.ruleset, "opening": pool.opening,
                      "clock": clock_name(pool.clock), "label": clock_label(pool.clock)}
                     for pool in pools.openings]
    openings = [(opening, [ruleset for ruleset, allowed in OPENINGS_OF.items()
                           if opening in allowed]) for opening in OPENINGS]
    return render_template(
        "play/hall.html", me=current_user.stats(), clocks=clocks, opening_pools=opening_pools,
        openings=openings, **hall_summary(current_user.id)
    )


@bp.route("/game/<int:game_id>")
@login_required
def room(game_id: int) -> str:
    if db.session.get(Game, game_id) is None:
        abort(404)
    # The room's "Back to hall" says how long a player who leaves has to come back.
    return render_template("play/room.html", game_id=game_id,
                           grace_seconds=current_app.config["FORFEIT_GRACE_SECONDS"])
