"""Players' events on the tournament pages: cancelling one (its creator before the start, a
moderator with a reason), and its chat: `POST /api/tournaments/<id>/chat`, and the lines
each poll of `GET /api/tournaments/<id>` carries (docs/protocol.md, "Tournaments"). Thin:
gobang/services/player_events does the work."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, request, url_for
from flask_babel import gettext
from flask_login import current_user
from werkzeug.wrappers import Response

from gobang.auth.guests import registered_required
from gobang.models import Tournament, User
from gobang.services.notices import ActionError
from gobang.services.registry import services

bp = Blueprint("tournament_events", __name__)

REFUSAL_STATUS = {"unauthorized": 401, "bad_request": 400, "registered_only": 403,
                  "muted": 403, "forbidden": 403, "not_found": 404, "conflict": 409,
                  "rate_limited": 429}
# A chat cursor is a line's id: digits, few enough for the database's integers.
CURSOR = re.compile(r"[0-9]{1,18}")


@bp.post("/tournaments/<int:tournament_id>/cancel")
@registered_required
def cancel(tournament_id: int) -> Response:
    try:
        services().player_events.hosting.cancel(current_user, tournament_id,
                                                request.form.get("reason"))
    except ActionError as refused:
        if refused.code == "not_found":
            abort(404)
        flash(refused.message, "error")
    else:
        flash(gettext("The tournament is cancelled."), "info")
    return redirect(url_for("tournaments.page", tournament_id=tournament_id))


@bp.post("/api/tournaments/<int:tournament_id>/chat")
def say(tournament_id: int) -> tuple[Response, int]:
    """JSON `{"text"}` with the CSRF token in `X-CSRFToken`: `201 {"line"}`, or a refusal."""
    if not current_user.is_authenticated:
        return _refused(ActionError("unauthorized", gettext("Log in to chat.")))
    body = request.get_json(silent=True)
    try:
        line = services().player_events.chat.say(
            current_user, tournament_id, body.get("text") if isinstance(body, dict) else None)
    except ActionError as refused:
        return _refused(refused)
    return jsonify(line=line), 201


def chat_lines(tournament: Tournament, viewer: User | None, after: str | None) -> dict[str, Any]:
    """The `chat` part of the summary: the newest lines, or those after `chat_after`."""
    if after is not None and not CURSOR.fullmatch(after):
        raise ActionError("bad_request", gettext(
            "chat_after is the id of a chat line: a whole number."))
    return services().player_events.chat.lines(
        tournament, viewer.id if viewer else None, int(after) if after is not None else None)


def page_parts(tournament: Tournament, viewer: User | None) -> dict[str, Any]:
    """What the event's page shows of players' events: who may cancel it and how
    (`cancel_right`), and why the viewer may not write in its chat, if so (`chat_closed`)."""
    found = services().player_events
    return {"cancel_right": found.hosting.who_cancels(viewer, tournament),
            "chat_closed": _why_closed(found.chat.is_open(tournament), viewer)}


def _why_closed(is_open: bool, viewer: User | None) -> str | None:
    if not is_open:
        return gettext("This tournament's chat is closed.")
    if viewer is None:
        return gettext("Log in to chat.")
    if viewer.guest:
        return gettext("Guests cannot chat. Register to chat with other players.")
    return None


def _refused(error: ActionError) -> tuple[Response, int]:
    return (jsonify({"error": error.code, "message": error.message, **error.extra}),
            REFUSAL_STATUS.get(error.code, 400))
