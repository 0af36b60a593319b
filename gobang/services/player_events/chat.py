"""An event's own chat, on its page (docs/tournaments.md, "The event's chat"): registered
players write, whether they joined or not; whoever views the page reads it, without the
lines of the players they block. The lines are rows of the database, so every process of a
cluster serves the same ones and a reload shows them again; the page reads them with its
poll of `GET /api/tournaments/<id>`, the new ones after a cursor.

The hall's rules, by the same pieces: length (`clean_text`), a rate limit (`check_rate`),
no guests, no muted players and no refused words (`ChatGuard`). Writing closes
OPEN_AFTER_END after the event's end, and at once when it is cancelled; reading never."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from flask_babel import gettext
from sqlalchemy import select

from gobang.extensions import db
from gobang.models import Tournament, TournamentChatLine, User
from gobang.services.arenas.schedule import CANCELLED, OPEN, Now, Schedule, ends_at
from gobang.services.moderation.chat_guard import ChatGuard
from gobang.services.notices import ActionError
from gobang.services.ratelimit import Limiter
from gobang.services.social.blocks import Blocks
from gobang.services.text import check_rate, clean_text

# The lines a page is given at first, and at most per poll.
KEPT = 50
# Time to say "well played" once it is over.
OPEN_AFTER_END = timedelta(minutes=30)


class EventChat:
    def __init__(self, schedule: Schedule, limiter: Limiter, guard: ChatGuard, blocks: Blocks,
                 now: Now) -> None:
        self.schedule = schedule
        # Per player, shared by every process with Redis: a page's posts reach any of them.
        self.limiter = limiter
        self.guard = guard
        self.blocks = blocks
        self.now = now

    def say(self, user: User, tournament_id: int, text: Any) -> dict[str, Any]:
        """The stored line, as `lines` gives it. Refusals: not_found, conflict (the chat is
        closed), bad_request (not text, empty, too long, a refused word), rate_limited,
        registered_only (a guest), muted."""
        tournament = self.schedule.get(tournament_id)
        if not self.is_open(tournament):
            raise ActionError("conflict", gettext("This tournament's chat is closed."))
        text = clean_text(text)
        check_rate(self.limiter, user.id)
        self.guard.check(user.id, text)
        line = TournamentChatLine(tournament_id=tournament.id, user_id=user.id, text=text,
                                  created_at=self.now())
        db.session.add(line)
        db.session.commit()
        return _shown(line.id, user.id, user.username, text, line.created_at)

    def lines(self, tournament: Tournament, reader_id: int | None,
              after: int | None = None) -> dict[str, Any]:
        """`lines`: the newest KEPT, oldest first, or only those after the line `after`;
        never those of players the reader blocks. `last_id`: the newest line looked at, shown
        or not, for the next call's `after`. `open`: whether writing is still open."""
        query = (select(TournamentChatLine.id, TournamentChatLine.user_id, User.username,
                        TournamentChatLine.text, TournamentChatLine.created_at)
                 .join(User, User.id == TournamentChatLine.user_id)
                 .where(TournamentChatLine.tournament_id == tournament.id))
        if after is not None:
            query = query.where(TournamentChatLine.id > after)
        rows = db.session.execute(query.order_by(TournamentChatLine.id.desc())
                                  .limit(KEPT)).all()[::-1]
        # An idle poll (nothing new) costs one read of the index, not the reader's blocks too.
        hidden = (self.blocks.blocked_ids(reader_id) if rows and reader_id is not None
                  else frozenset())
        return {"lines": [_shown(*row) for row in rows if row.user_id not in hidden],
                "last_id": rows[-1].id if rows else after, "open": self.is_open(tournament)}

    def is_open(self, tournament: Tournament) -> bool:
        if tournament.status == CANCELLED:
            return False
        end = ends_at(tournament)
        if end is None:  # a Swiss event has no set end: open until its last round is over
            return tournament.status in OPEN
        return self.now() < end + OPEN_AFTER_END


def _shown(line_id: int, user_id: int, username: str, text: str,
           when: datetime) -> dict[str, Any]:
    """The hall chat's shape (`from`, `text`, `ts`) and the line's id."""
    return {"id": line_id, "from": {"id": user_id, "username": username}, "text": text,
            "ts": when.isoformat(timespec="seconds") + "Z"}
