"""Finished games: the replay page, the record downloads and the picture of a position."""

from __future__ import annotations

import re

from flask import Blueprint, Response, abort, render_template, request, url_for
from flask_babel import gettext

from gobang.extensions import db
from gobang.i18n.labels import (
    abort_label,
    opening_label,
    reason_label,
    result_label,
    ruleset_label,
    time_control_label,
)
from gobang.models import Game, User
from gobang.rules import to_notation
from gobang.services.analysis.stored import stored_analysis
from gobang.services.history import board_image, record_files

bp = Blueprint("records", __name__)

# The picture of a finished game never changes: caches may keep it for a year, and the ETag
# (which carries the drawing's version) lets them ask again cheaply after that.
IMAGE_MAX_AGE = 365 * 24 * 3600
_WHOLE_NUMBER = re.compile(r"[0-9]{1,4}")


class BadMove(ValueError):
    """A `move` query value that names no position of the game."""


def _finished_or_404(game_id: int) -> Game:
    game = db.get_or_404(Game, game_id)
    if game.status != "finished":
        abort(404)
    return game


def _moves_shown(raw: str | None, total: int) -> int:
    """`?move=N`: the position after the first N moves (0 is the empty board); none given is
    the final position. Raises BadMove with the reason, in the reader's language."""
    if raw is None:
        return total
    if not _WHOLE_NUMBER.fullmatch(raw) or int(raw) > total:
        raise BadMove(gettext("The move must be a whole number from 0 to %(total)s.",
                              total=total))
    return int(raw)


def _name(user: User) -> str:
    return gettext("deleted user") if user.deleted else user.username


@bp.route("/game/<int:game_id>/replay")
def replay(game_id: int) -> str:
    game = db.get_or_404(Game, game_id)
    if game.status != "finished":
        return render_template("records/in_play.html", game=game)
    moves = [[move.row, move.col] for move in game.moves]
    try:
        shown = _moves_shown(request.args.get("move"), len(moves))
    except BadMove:
        shown = len(moves)  # a mistyped link still shows the game, from its end
    # The move in the link, which the preview's picture and the page open on; none: the end.
    move_arg = shown if shown != len(moves) else None
    result = result_label(game.winner, game.reason)
    return render_template(
        "records/replay.html",
        game=game,
        moves=moves,
        shown=shown,
        result=result,
        # An abort's line says why, when that is known; "Aborted" alone says no more.
        reason=abort_label(game.abort_detail) if game.reason == "aborted"
        else reason_label(game.reason),
        notations=[to_notation(row, col) for row, col in moves],
        details=_details(game),
        black_name=_name(game.black),
        white_name=_name(game.white),
        # Absolute: a chat app reads them from the page without knowing where it came from.
        replay_url=url_for("records.replay", game_id=game.id, _external=True),
        share_url=url_for("records.replay", game_id=game.id, move=move_arg, _external=True),
        image_url=url_for("records.position_png", game_id=game.id, move=move_arg,
                          _external=True),
        image_pixels=board_image.PIXELS,
    )


def _details(game: Game) -> list[str]:
    """The game in a few words, as the hall names a pool: ruleset, clock, opening rule."""
    words = [ruleset_label(game.ruleset), time_control_label(game.time_control()),
             opening_label(game.opening)]
    # Only the first letter: "Swap2" and "10+5" keep the rest as they are.
    return [word[:1].upper() + word[1:] for word in words]


@bp.route("/game/<int:game_id>/position.png")
def position_png(game_id: int) -> Response:
    # Only finished games: a game in play must not show a spectator more than the room does.
    game = _finished_or_404(game_id)
    moves = [(move.row, move.col) for move in game.moves]
    try:
        shown = _moves_shown(request.args.get("move"), len(moves))
    except BadMove as exc:
        return Response(str(exc), status=400, mimetype="text/plain")
    position = board_image.position_after(moves, game.line, shown)
    tag = board_image.etag(position)
    if request.if_none_match.contains_weak(tag):
        response = Response(status=304)  # the cache has it: no need to draw it again
    else:
        response = Response(board_image.render_png(position), mimetype="image/png")
    response.set_etag(tag)
    response.cache_control.public = True
    response.cache_control.max_age = IMAGE_MAX_AGE
    return response


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
