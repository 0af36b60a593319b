"""What chat refuses before anyone hears it: guests' lines, a muted player's lines, and lines
with a word the host listed (config CHAT_REFUSED_WORDS). Both chats, the hall's and the
rooms', ask here."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import datetime

from flask_babel import gettext
from sqlalchemy import select

from gobang.extensions import db
from gobang.models import User
from gobang.services.notices import ActionError


class ChatGuard:
    def __init__(self, words: Iterable[str], now: Callable[[], datetime]) -> None:
        listed = sorted({word.strip().casefold() for word in words if word.strip()})
        # Whole words, any case: "class" is not refused for a listed "ass".
        self._words = (re.compile(r"\b(?:" + "|".join(map(re.escape, listed)) + r")\b")
                       if listed else None)
        self.now = now

    def check(self, user_id: int, text: str) -> None:
        """Refuses (ActionError) a line from a guest (`registered_only`: guests do not chat),
        from a muted player (`muted`, with `until`), or one with a refused word
        (`bad_request`); returns otherwise. Both are read from the database on every line: a
        moderator's mute holds at once on every process, and a guest who registers may chat
        at once."""
        guest, until = self._standing(user_id)
        if guest:
            raise ActionError("registered_only", gettext(
                "Guests cannot chat. Register to chat with other players."))
        self._refuse_muted(until)
        if self.refused(text):
            raise ActionError("bad_request", gettext(
                "Your message has a word this server does not allow in chat."))

    def check_muted(self, user_id: int) -> None:
        """Refuses (`muted`, with `until`) a player a moderator has muted: what else they
        would write for everyone to read (a tournament's name) waits for the mute's end too."""
        self._refuse_muted(self._standing(user_id)[1])

    def refused(self, text: str) -> bool:
        """Whether the text has a word the host listed."""
        return self._words is not None and self._words.search(text.casefold()) is not None

    def _standing(self, user_id: int) -> tuple[bool, datetime | None]:
        found = db.session.execute(
            select(User.guest, User.muted_until).where(User.id == user_id)).first()
        return (found[0], found[1]) if found is not None else (False, None)

    def _refuse_muted(self, until: datetime | None) -> None:
        if until is not None and until > self.now():
            raise ActionError("muted", gettext(
                "A moderator has muted you until %(until)s UTC.",
                until=until.strftime("%Y-%m-%d %H:%M")), until=until.isoformat() + "Z")
