"""What a moderator may do, each action written to the audit log (`moderation_log`) with who
and why in the same transaction: settle a report, mute and unmute, ban, close an account,
abort a game, and (through `note`) cancel someone's tournament. The log is only ever added
to."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from flask_babel import gettext

from gobang.extensions import db
from gobang.models import Game, ModerationEntry, Report, User
from gobang.services import admin
from gobang.services.accounts.accounts import Accounts
from gobang.services.notices import ActionError, Notice
from gobang.vocabulary import Status

# Longest mute a moderator may give at once: a month. Longer is a ban.
MUTE_MINUTES_MAX = 30 * 24 * 60
REASON_MAX = 500


class ModeratorDesk:
    def __init__(self, accounts: Accounts, now: Callable[[], datetime]) -> None:
        self.accounts = accounts
        self.now = now

    def resolve(self, moderator: User, report_id: int, reason: str) -> None:
        report = db.session.get(Report, report_id)
        if report is None:
            raise ActionError("not_found", gettext("There is no such report."))
        if report.resolved_at is not None:
            raise ActionError("conflict", gettext("The report is already settled."))
        why = _reason(reason)
        report.resolved_at, report.resolved_by, report.outcome = self.now(), moderator.id, why
        self._log(moderator, "resolve_report", why, target=report.target,
                  report_id=report.id)

    def mute(self, moderator: User, target: User, minutes: int, reason: str) -> None:
        if type(minutes) is not int or not 1 <= minutes <= MUTE_MINUTES_MAX:
            raise ActionError("bad_request", gettext(
                "A mute lasts 1 to %(most)d minutes.", most=MUTE_MINUTES_MAX))
        why = _reason(reason)
        _check_target(moderator, target)
        now = self.now()
        target.muted_until = now + timedelta(minutes=minutes)
        self._log(moderator, "mute", f"{minutes} min: {why}", target=target, at=now)

    def unmute(self, moderator: User, target: User, reason: str) -> None:
        why = _reason(reason)
        target.muted_until = None
        self._log(moderator, "unmute", why, target=target)

    def ban(self, moderator: User, target: User, reason: str) -> list[Notice]:
        """Locked out at once: sessions ended, live connections closed."""
        why = _reason(reason)
        _check_target(moderator, target)
        target.banned = True
        self._log(moderator, "ban", why, target=target)
        admin.queue_command(admin.DISCONNECT, target.id)
        return self.accounts.end_sessions(target, "banned")

    def close_account(self, moderator: User, target: User, reason: str) -> list[Notice]:
        """The account anonymised as a deletion does; its games stay, under "(deleted)"."""
        why = _reason(reason)
        _check_target(moderator, target)
        self._log(moderator, "close_account", f"{target.username}: {why}", target=target)
        return self.accounts.close(target)

    def abort_game(self, moderator: User, game_id: int, reason: str) -> None:
        """Ended with no result by the server that plays it, on its next poll."""
        why = _reason(reason)
        game = db.session.get(Game, game_id)
        if game is None:
            raise ActionError("not_found", gettext("There is no such game."))
        if game.status == Status.FINISHED:
            raise ActionError("game_over", gettext("The game is over."))
        self._log(moderator, "abort_game", why, game_id=game_id, commit=False)
        admin.queue_command(admin.ABORT, game_id)

    def note(self, moderator: User, action: str, reason: str | None, about: str,
             target: User | None = None) -> None:
        """An action another service carries out (cancelling a player's tournament), added to
        the log in that service's transaction: its commit saves both, a refusal neither.
        `about` names what was acted on; the reason is checked as every other action's."""
        self._log(moderator, action, f"{about}: {_reason(reason)}", target=target,
                  commit=False)

    def _log(self, moderator: User, action: str, reason: str, target: User | None = None,
             game_id: int | None = None, report_id: int | None = None,
             commit: bool = True, at: datetime | None = None) -> None:
        db.session.add(ModerationEntry(
            moderator_id=moderator.id, action=action, target_id=target.id if target else None,
            game_id=game_id, report_id=report_id, reason=reason, created_at=at or self.now()))
        if commit:
            db.session.commit()


def _reason(value: object) -> str:
    if not isinstance(value, str) or not 1 <= len(value.strip()) <= REASON_MAX:
        raise ActionError("bad_request", gettext(
            "Say why, in 1 to %(max)d characters.", max=REASON_MAX))
    return value.strip()


def _check_target(moderator: User, target: User) -> None:
    if target.id == moderator.id or target.moderator:
        raise ActionError("conflict", gettext(
            "Moderators cannot act on themselves or on another moderator."))
    if target.computer_level is not None or target.deleted:
        raise ActionError("not_found", gettext("There is no such player."))
