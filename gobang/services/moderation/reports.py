"""Players report a player, a game or a chat line with a reason; moderators settle them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from flask_babel import gettext
from sqlalchemy import select

from gobang.extensions import db
from gobang.models import Game, Report, User, username_key
from gobang.services.notices import ActionError
from gobang.services.ratelimit import RateLimiter
from gobang.services.text import clean_text

REASONS = ("abuse", "cheating", "spam", "other")
NOTE_MAX = 500


class Reports:
    def __init__(self, limiter: RateLimiter, now: Callable[[], datetime]) -> None:
        self.limiter = limiter
        self.now = now

    def file(self, reporter: User, data: dict[str, Any]) -> Report:
        """A report from `reporter`: `reason` (one of REASONS) and one of `username` (a
        player), `game_id` (a game: the reporter's opponent in it, or `username` among its
        players) or `chat` (`{"username", "text"}`: a line as the reporter saw it); `note`
        optional. Refusals: bad_request, not_found, rate_limited."""
        reason = data.get("reason")
        if reason not in REASONS:
            raise ActionError("bad_request", gettext(
                "Reason must be one of %(names)s.", names=", ".join(REASONS)))
        note = _optional_text(data.get("note"))
        game, chat_text, name = _subject(data)
        target = _target(reporter, name, game)
        if not self.limiter.hit(reporter.id):
            raise ActionError("rate_limited", gettext(
                "You have sent many reports lately; wait a while."))
        report = Report(reporter_id=reporter.id, target_id=target.id,
                        game_id=game.id if game else None, chat_text=chat_text,
                        reason=reason, note=note, created_at=self.now())
        db.session.add(report)
        db.session.commit()
        return report

    def open_reports(self, limit: int = 100) -> list[Report]:
        """Reports waiting for a moderator, oldest first: first come, first looked at."""
        return list(db.session.scalars(select(Report).where(Report.resolved_at.is_(None))
                                       .order_by(Report.id).limit(limit)))


def _optional_text(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value.strip()) > NOTE_MAX:
        raise ActionError("bad_request", gettext(
            "A note is text of at most %(max)d characters.", max=NOTE_MAX))
    return value.strip() or None


def _subject(data: dict[str, Any]) -> tuple[Game | None, str | None, Any]:
    game, chat_text, name = None, None, data.get("username")
    if data.get("game_id") is not None:
        game_id = data["game_id"]
        game = db.session.get(Game, game_id) if type(game_id) is int else None
        if game is None:
            raise ActionError("not_found", gettext("There is no such game."))
    chat = data.get("chat")
    if chat is not None:
        if not isinstance(chat, dict):
            raise ActionError("bad_request", gettext(
                "'chat' must be an object with username and text."))
        name, chat_text = chat.get("username"), clean_text(chat.get("text"))
    return game, chat_text, name


def _target(reporter: User, name: Any, game: Game | None) -> User:
    if name is None and game is not None:
        other = game.white_id if game.black_id == reporter.id else game.black_id
        if reporter.id not in (game.black_id, game.white_id):
            raise ActionError("bad_request", gettext("Name the player you report."))
        target = db.session.get(User, other)
    elif isinstance(name, str):
        target = db.session.scalar(select(User).where(User.username_key == username_key(name)))
    else:
        raise ActionError("bad_request", gettext("Name the player you report."))
    if target is None or target.deleted or target.computer_level is not None:
        raise ActionError("not_found", gettext("There is no such player."))
    if target.id == reporter.id:
        raise ActionError("bad_request", gettext("You cannot report yourself."))
    return target
