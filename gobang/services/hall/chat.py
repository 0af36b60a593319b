"""Hall chat: everyone in the hall hears it; the last messages greet each arrival. A line never
reaches those who block its author, live or in the greeting (its author is not told)."""

from __future__ import annotations

import json
from typing import Any

from gobang.models import User
from gobang.services.hall.state import ChatLog
from gobang.services.moderation.chat_guard import ChatGuard
from gobang.services.notices import HALL, Notice
from gobang.services.ratelimit import RateLimiter
from gobang.services.social.blocks import Blocks
from gobang.services.text import check_rate, clean_text, timestamp

CHAT_KEPT = 50
# Hall chat in `hello` is bounded in bytes, not only in messages (docs/protocol.md).
HELLO_CHAT_BYTES = 6 * 1024


class HallChat:
    def __init__(self, limiter: RateLimiter, log: ChatLog, guard: ChatGuard,
                 blocks: Blocks) -> None:
        self.limiter = limiter
        self.blocks = blocks
        self.guard = guard
        # The last CHAT_KEPT messages, oldest first.
        self.log = log

    def say(self, user: User, text: Any) -> list[Notice]:
        text = clean_text(text)
        check_rate(self.limiter, user.id)
        self.guard.check(user.id, text)
        message = {"from": {"id": user.id, "username": user.username}, "text": text,
                   "ts": timestamp()}
        self.log.append(message)
        return [Notice("chat", message, HALL, skip=self.blocks.blocker_ids(user.id))]

    def recent(self, reader_id: int | None = None,
               budget: int = HELLO_CHAT_BYTES) -> list[dict[str, Any]]:
        """The newest messages, oldest first, that fit in `budget` bytes of JSON as sent (the
        wire escapes non-ASCII text, six bytes a character): `hello` stays small however
        long the messages were. Without the lines of those `reader_id` blocks."""
        hidden = self.blocks.blocked_ids(reader_id) if reader_id is not None else frozenset()
        kept: list[dict[str, Any]] = []
        for message in reversed(self.log.messages()):
            if message["from"]["id"] in hidden:
                continue
            budget -= len(json.dumps(message))
            if budget < 0:
                break
            kept.append(message)
        return kept[::-1]
