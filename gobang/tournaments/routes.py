"""Tournament pages: the list, an arena's or a Swiss event's page with its live standings,
joining and withdrawing, and `GET /api/tournaments/<id>`, which the page polls
(docs/protocol.md, "Tournaments"). Thin: gobang/services/arenas and gobang/services/swiss do
the work."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user
from werkzeug.wrappers import Response

from gobang.auth.guests import registered_required
from gobang.models import Tournament, User
from gobang.rules.openings import OPENINGS
from gobang.services.arenas.schedule import (
    ARENA,
    KINDS,
    OPEN,
    RUNNING,
    SCHEDULED,
    SWISS,
    Plan,
    parse_clock,
)
from gobang.services.arenas.view import TournamentView
from gobang.services.notices import ActionError
from gobang.services.registry import services
from gobang.services.swiss.view import SwissView
from gobang.tournaments.events import chat_lines, page_parts

bp = Blueprint("tournaments", __name__)

# What the form starts with: an hour of blitz arena, an hour from now (or 5 Swiss rounds).
FORM_DEFAULTS = {"kind": ARENA, "name": "", "ruleset": "freestyle", "clock": "180+2",
                 "minutes": "60", "rounds": "5", "starts_in": "60", "min_players": "2",
                 "rated": "on", "opening": "none"}


def _viewer() -> User | None:
    return current_user if current_user.is_authenticated else None


def _view(tournament: Tournament) -> TournamentView | SwissView:
    found = services()
    return found.swiss.view if tournament.kind == SWISS else found.arenas.view


def _found(tournament_id: int) -> Tournament:
    try:
        return services().arenas.schedule.get(tournament_id)
    except ActionError:
        abort(404)


@bp.route("/tournaments")
def index() -> str:
    schedule = services().arenas.schedule
    return render_template("tournaments/index.html", running=schedule.of_status(RUNNING),
                           upcoming=schedule.of_status(SCHEDULED), recent=schedule.recent(),
                           may_create=services().player_events.hosting.may_create(_viewer()))


@bp.route("/tournaments/new", methods=["GET", "POST"])
@registered_required
def new() -> Response | str | tuple[str, int]:
    """Moderators schedule an arena or a Swiss event here as the host does with
    `flask tournament create`; players too where the host allows it, within limits
    (gobang/services/player_events)."""
    if not services().player_events.hosting.may_create(current_user):
        abort(403)
    values = ({**FORM_DEFAULTS, "rated": "", **request.form} if request.method == "POST"
              else FORM_DEFAULTS)
    if request.method == "POST":
        try:
            made = services().player_events.hosting.create(current_user, _plan(request.form))
        except ActionError as refused:
            flash(refused.message, "error")
            return render_template("tournaments/new.html", values=values, openings=OPENINGS,
                                   kinds=KINDS), 400
        return redirect(url_for("tournaments.page", tournament_id=made.id))
    return render_template("tournaments/new.html", values=values, openings=OPENINGS,
                           kinds=KINDS)


def _plan(form: dict[str, str]) -> Plan:
    """The form's fields; an arena's minutes or a Swiss event's rounds, the other ignored."""
    kind = form.get("kind", ARENA)
    length = "rounds" if kind == SWISS else "minutes"
    try:
        numbers = [int(form.get(key, "")) for key in (length, "min_players")]
        starts_in = float(form.get("starts_in", ""))
    except ValueError:
        raise ActionError("bad_request", gettext(
            "Rounds, the start and the minimum of players are numbers.") if kind == SWISS
            else gettext("Minutes, the start and the minimum of players are numbers.")
        ) from None
    return Plan(form.get("name", ""), form.get("ruleset", ""),
                parse_clock(form.get("clock", "")), None if kind == SWISS else numbers[0],
                starts_in, numbers[1], rated=form.get("rated") == "on",
                opening=form.get("opening", "none"), kind=kind,
                rounds=numbers[0] if kind == SWISS else None)


@bp.route("/tournaments/<int:tournament_id>")
def page(tournament_id: int) -> str:
    tournament = _found(tournament_id)
    summary = _view(tournament).summary(tournament, _viewer())
    return render_template("tournaments/page.html", tournament=tournament, summary=summary,
                           is_open=tournament.status in OPEN,
                           **page_parts(tournament, _viewer()))


@bp.route("/api/tournaments/<int:tournament_id>")
def summary(tournament_id: int) -> Response | tuple[Response, int]:
    """With the event's chat: its newest lines, or with `chat_after` only the new ones."""
    try:
        tournament = services().arenas.schedule.get(tournament_id)
    except ActionError as refused:
        return jsonify(error=refused.code, message=refused.message), 404
    try:
        chat = chat_lines(tournament, _viewer(), request.args.get("chat_after"))
    except ActionError as refused:
        return jsonify(error=refused.code, message=refused.message), 400
    return jsonify({**_view(tournament).summary(tournament, _viewer()), "chat": chat})


@bp.context_processor
def _player_limits() -> dict[str, object]:
    """The limits of a player's event, for the form's note (no database read)."""
    return {"player_limits": services().player_events.hosting.limits()}


@bp.route("/tournaments/<int:tournament_id>/join", methods=["POST"])
@registered_required
def join(tournament_id: int) -> Response:
    done = (gettext("You joined: you will be paired from the next round.")
            if _found(tournament_id).kind == SWISS
            else gettext("You joined: you will be paired as soon as someone is free."))
    return _act(tournament_id, lambda: services().arenas.entries.join(current_user,
                                                                      tournament_id), done)


@bp.route("/tournaments/<int:tournament_id>/withdraw", methods=["POST"])
@registered_required
def withdraw(tournament_id: int) -> Response:
    return _act(tournament_id, lambda: services().arenas.entries.withdraw(current_user,
                                                                          tournament_id),
                gettext("You withdrew: you will not be paired again unless you join."))


@bp.route("/tournaments/games/<int:game_id>/berserk", methods=["POST"])
@registered_required
def berserk(game_id: int) -> Response:
    """From the room of an arena's game (a form: the page reloads with the halved clock)."""
    try:
        services().arenas.berserk.go(current_user, game_id)
    except ActionError as refused:
        flash(refused.message, "error")
    else:
        flash(gettext("Berserk: half your time and no increment, a point more for a win."),
              "info")
    return redirect(url_for("play.room", game_id=game_id))


def _act(tournament_id: int, action: Callable[[], object], done: str) -> Response:
    _found(tournament_id)
    try:
        action()
    except ActionError as refused:
        flash(refused.message, "error")
    else:
        flash(done, "info")
    return redirect(url_for("tournaments.page", tournament_id=tournament_id))
