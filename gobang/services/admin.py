"""What the host asks of the running server from the command line.

`flask --app app ban NAME` and the other commands run in their own process, so they cannot
reach the server's memory. They write to the database instead: `users.banned` (which every
request checks, so a ban locks the user out at once), the `server_flags` table (maintenance
mode) and the `admin_commands` table (disconnect a user, abort a game). The server reads those
about once a second from its ticker (`AdminDesk.tick`), carries the commands out, and stamps
each one done with its outcome, which the command line waits for and prints.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select, update

from gobang.extensions import db
from gobang.logs import event
from gobang.models import AdminCommand, ServerFlag, utcnow
from gobang.services.clock import Clock
from gobang.services.hall.hall import Hall
from gobang.services.notices import DISCONNECT_USER, ActionError, Notice
from gobang.services.play.finisher import Finisher
from gobang.services.play.maintenance import Maintenance
from gobang.services.play.table import GameTable
from gobang.services.store import LiveStore
from gobang.vocabulary import Namespace

log = logging.getLogger("gobang.admin")

MAINTENANCE_FLAG = "maintenance"
# When the server last polled: after a crash, how long the side to move had been thinking.
ALIVE_FLAG = "alive_at"
DISCONNECT = "disconnect_user"
ABORT = "abort_game"
# Carries nothing out: its outcome tells the command line that maintenance mode is applied,
# because every poll reads the flag before the commands.
CONFIRM_MAINTENANCE = "confirm_maintenance"
KINDS = (DISCONNECT, ABORT, CONFIRM_MAINTENANCE)


# --- the command line's side -------------------------------------------------------------------


def set_flag(name: str, value: str) -> None:
    flag = db.session.get(ServerFlag, name)
    if flag is None:
        db.session.add(ServerFlag(name=name, value=value))
    else:
        flag.value = value
    db.session.commit()


def flag_value(name: str) -> str | None:
    return db.session.scalar(select(ServerFlag.value).where(ServerFlag.name == name))


def last_alive() -> datetime | None:
    """The server's last poll before this start, if it ever polled."""
    value = flag_value(ALIVE_FLAG)
    return datetime.fromisoformat(value) if value else None


def set_maintenance(on: bool) -> None:
    set_flag(MAINTENANCE_FLAG, "on" if on else "off")


def maintenance_on() -> bool:
    return flag_value(MAINTENANCE_FLAG) == "on"


def queue_command(kind: str, target_id: int) -> int:
    if kind not in KINDS:
        raise ValueError(f"unknown admin command {kind!r}")
    command = AdminCommand(kind=kind, target_id=target_id)
    db.session.add(command)
    db.session.commit()
    return command.id


def command_outcome(command_id: int) -> str | None:
    """What the server did, or None while the command waits for it."""
    db.session.expire_all()  # read what the server wrote since, not what this session cached
    row = db.session.get(AdminCommand, command_id)
    return row.outcome if row is not None and row.done_at is not None else None


# --- the server's side -------------------------------------------------------------------------


@dataclass(frozen=True)
class PendingCommand:
    id: int
    kind: str
    target_id: int
    created_at: datetime


class AdminDesk:
    """Carries out, in the server, what the command line left in the database."""

    def __init__(self, clock: Clock, store: LiveStore, hall: Hall, maintenance: Maintenance,
                 table: GameTable, finisher: Finisher, interval: float) -> None:
        self.clock = clock
        self.store = store
        self.hall = hall
        self.maintenance = maintenance
        self.table = table
        self.finisher = finisher
        self.interval = interval
        self._last_poll: float | None = None
        self._handlers: dict[str, Callable[[int], tuple[str, list[Notice]]]] = {
            DISCONNECT: self._disconnect, ABORT: self._abort,
            CONFIRM_MAINTENANCE: self._confirm_maintenance}

    def tick(self, leads: bool) -> list[Notice]:
        """Poll at most once per `interval`: the ticker runs far more often than that."""
        now = self.clock()
        if self._last_poll is not None and now - self._last_poll < self.interval:
            return []
        self._last_poll = now
        return self.poll(leads)

    def poll(self, leads: bool) -> list[Notice]:
        """The leader (the one process, without Redis) applies maintenance mode and tells the
        halls, and carries out the commands. Every other process applies maintenance mode
        quietly, so that it too refuses new games, and aborts the games it plays itself."""
        if leads:
            notices = self.hall.set_maintenance(maintenance_on())
            set_flag(ALIVE_FLAG, utcnow().isoformat())  # commits, ending the read transaction
        else:
            notices = []
            self.maintenance.on = maintenance_on()
            db.session.commit()
        for command in self._pending():
            if not self._carries_out(command, leads):
                continue
            outcome, more = self._carry_out(command)
            notices += more
            # The first process to answer a command has the last word: the leader's "no game
            # in play" must not overwrite the playing process's "aborted" (or the reverse).
            db.session.execute(update(AdminCommand).where(
                AdminCommand.id == command.id, AdminCommand.done_at.is_(None))
                .values(done_at=utcnow(), outcome=outcome))
            db.session.commit()
            event(log, "admin_command", id=command.id, kind=command.kind,
                  target=command.target_id, outcome=outcome)
        return notices

    def _pending(self) -> list[PendingCommand]:
        rows = db.session.execute(
            select(AdminCommand.id, AdminCommand.kind, AdminCommand.target_id,
                   AdminCommand.created_at)
            .where(AdminCommand.done_at.is_(None)).order_by(AdminCommand.id)).all()
        return [PendingCommand(*row) for row in rows]

    def _carries_out(self, command: PendingCommand, leads: bool) -> bool:
        """An abort belongs to the process playing the game; anything else, and an abort of a
        game no process plays (answered "no game in play"), to the leader."""
        if command.kind != ABORT:
            return leads
        if self.table.get(command.target_id) is not None:
            return True
        if not leads:
            return False
        try:
            self.table.check_not_elsewhere(command.target_id)
        except ActionError:  # another process plays it, or is taking it over
            return False
        # The process playing it lets its lease go as it aborts, before it records the
        # outcome: answered at once, the leader could say "no game in play" in between. It
        # answers once the playing process has had two polls to do it.
        return utcnow() - command.created_at >= timedelta(seconds=2 * self.interval)

    def _carry_out(self, command: PendingCommand) -> tuple[str, list[Notice]]:
        handler = self._handlers.get(command.kind)
        if handler is None:
            return "unknown command", []
        try:
            return handler(command.target_id)
        except ActionError as error:
            db.session.rollback()
            return str(error.message).rstrip("."), []
        except Exception:  # noqa: BLE001 - one bad command must not block the ones after it
            db.session.rollback()
            log.exception("admin command failed", extra={"fields": {"id": command.id}})
            return "failed: see the server log", []

    def _disconnect(self, user_id: int) -> tuple[str, list[Notice]]:
        # In the hall or on any other page (presence knows the /site connections), or in a room.
        in_room = self.store.connection(Namespace.ROOM, user_id) is not None
        if not in_room and not self.hall.presence.is_online(user_id):
            return "not connected", []
        notice = Notice("session_ended", {"reason": "banned"}, DISCONNECT_USER, user_id)
        return "disconnected", [notice]

    def _abort(self, game_id: int) -> tuple[str, list[Notice]]:
        return "aborted", self.finisher.abort(game_id)

    def _confirm_maintenance(self, _target: int) -> tuple[str, list[Notice]]:
        return f"maintenance mode {'on' if self.hall.maintenance.on else 'off'}", []
