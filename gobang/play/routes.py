from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from flask_login import current_user, login_required
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from gobang.ai import LEVELS
from gobang.extensions import db
from gobang.models import Game
from gobang.rules.openings import OPENINGS, OPENINGS_OF
from gobang.services.arenas.berserk import berserk_of, link_of
from gobang.services.arenas.schedule import RUNNING, SCHEDULED
from gobang.services.history.players import computer_games, hall_summary
from gobang.services.notices import ActionError
from gobang.services.pools import clock_label, clock_name
from gobang.services.registry import services
from gobang.sockets.base import publish
from gobang.vocabulary import Status

bp = Blueprint("play", __name__)

# A guest's page lists their latest finished games against the computer (they have no profile).
GUEST_GAMES_SHOWN = 5
HALL_TOURNAMENTS = 3


def _clocks() -> list[dict[str, Any]]:
    """One entry per clock on offer: the quick-pairing grid, the challenge's clock choice and
    the computer's."""
    pools = services().lobby.pools
    return [{"name": clock_name(clock), "label": clock_label(clock),
             "default": clock == pools.default} for clock in pools.clocks]


def _openings() -> list[tuple[str, list[str]]]:
    """Each opening rule, with the rulesets that allow it."""
    return [(opening, [ruleset for ruleset, allowed in OPENINGS_OF.items()
                       if opening in allowed]) for opening in OPENINGS]


@bp.route("/hall")
@login_required
def hall() -> Response | str:
    if current_user.guest:
        # Guests play the computer from their own page; the room's "New opponent" query
        # (?computer=...) chooses the same game there.
        flash(gettext("Guests play the computer. Register to meet people in the hall."), "info")
        return redirect(url_for("play.computer", **request.args))
    pools = services().lobby.pools
    # The pools with an opening, each a button of its own; the challenge's opening choice,
    # each option with the rulesets that allow it.
    opening_pools = [{"name": pool.name, "ruleset": pool.ruleset, "opening": pool.opening,
                      "clock": clock_name(pool.clock), "label": clock_label(pool.clock)}
                     for pool in pools.openings]
    return render_template(
        "play/hall.html", me=current_user.stats(), clocks=_clocks(), opening_pools=opening_pools,
        openings=_openings(), levels=sorted(LEVELS), **hall_summary(current_user.id),
        # Running first, then the next to start: a small card, drawn with the page.
        tournaments=services().arenas.schedule.of_status(RUNNING, SCHEDULED)[:HALL_TOURNAMENTS],
    )


@bp.route("/game/<int:game_id>")
def room(game_id: int) -> str:
    """Open to anyone: a visitor without an account watches (the room's viewer,
    docs/protocol.md "Guests")."""
    if db.session.get(Game, game_id) is None:
        abort(404)
    # The room's "Back to hall" says how long a player who leaves has to come back.
    return render_template("play/room.html", game_id=game_id,
                           grace_seconds=current_app.config["FORFEIT_GRACE_SECONDS"],
                           berserk=_berserk_offered(game_id))


def _berserk_offered(game_id: int) -> bool:
    """An arena's player who may still go berserk sees the button (the service refuses
    what the page could not know: a stone placed since)."""
    if not current_user.is_authenticated:
        return False
    game = db.session.get(Game, game_id)
    link = link_of(game_id)
    color = game.color_of(current_user.id) if game is not None else None
    return (link is not None and color is not None and game.status != Status.FINISHED
            and not berserk_of(link, color) and game.opening == "none"
            and game.clock_initial_ms is not None)


@bp.route("/computer", methods=["GET", "POST"])
@login_required
def computer() -> Response | str | tuple[str, int]:
    """A game against the computer from a plain form: a guest's page (a guest has no hall),
    open to every player. `?computer=<level>&ruleset=&clock=&color=&opening=` (the room's
    "New opponent") chooses the same game's terms, to start with one press."""
    if request.method == "GET":
        return _computer_page(_chosen_from_address(request.args))
    form = request.form
    try:
        game_id, notices = services().computer.start(
            current_user, _level(form.get("level")), form.get("color"), form.get("ruleset"),
            _clock(form.get("clock")), form.get("opening"))
    except ActionError as refused:
        db.session.rollback()
        if refused.code == "busy" and "game_id" in refused.extra:
            flash(refused.message, "info")
            return redirect(url_for("play.room", game_id=refused.extra["game_id"]))
        flash(refused.message, "error")
        return _computer_page(form), 429 if refused.code == "rate_limited" else 400
    publish(notices)
    return redirect(url_for("play.room", game_id=game_id))


def _computer_page(chosen: MultiDict[str, str]) -> str:
    found = services()
    return render_template(
        "play/computer.html", clocks=_clocks(), openings=_openings(), levels=sorted(LEVELS),
        chosen=chosen,
        current_game=found.play.table.current_game_of(current_user.id),
        games=computer_games(current_user.id, GUEST_GAMES_SHOWN))


def _chosen_from_address(args: MultiDict[str, str]) -> MultiDict[str, str]:
    """The room's query, as the form's fields: `clock` 300+3 is the option 300,3."""
    clock = args.get("clock", "")
    return MultiDict({"level": args.get("computer", ""), "color": args.get("color", ""),
                      "ruleset": args.get("ruleset", ""), "opening": args.get("opening", ""),
                      "clock": "" if clock == "none" else clock.replace("+", ",")})


def _level(value: str | None) -> Any:
    """A whole number as the service takes it; anything else as sent, for it to refuse."""
    return int(value) if value and value.isascii() and value.isdigit() else value


def _clock(value: str | None) -> Any:
    """`300,3` is [300, 3]; empty is no clock; anything else as sent, for the service to
    refuse."""
    if not value:
        return None
    parts = value.split(",")
    if len(parts) == 2 and all(part.isascii() and part.isdigit() for part in parts):
        return [int(part) for part in parts]
    return value
