"""What the services want told, and to whom; the namespaces decide how to send it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Targets: everyone in a game's room, everyone in the hall, one user in the hall or in /room,
# or one connection.
GAME = "game"
# Who hears a game's spectators' chat while it is played: its spectators, and the players who
# asked to (docs/protocol.md, "Two chats"). Keyed by the game's id.
SPECTATOR_CHAT = "spectator_chat"
HALL = "hall"
HALL_USER = "hall_user"
# One user wherever they are: their hall connection and every page's /site connection.
USER = "user"
ROOM_USER = "room_user"
SID = "sid"
# One user's live connections in both namespaces: each is sent the event, then closed.
DISCONNECT_USER = "disconnect_user"


@dataclass(frozen=True)
class Notice:
    event: str
    payload: dict[str, Any]
    target: str
    key: int | str | None = None
    # Users whose connections in the target's namespace are left out: those who block the
    # author of a chat line (gobang/services/social/blocks.py).
    skip: tuple[int, ...] = ()


class ActionError(Exception):
    """A refused request: `code` is one of the contract's error codes."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra
        # Notices that must still go out although the request was refused (a flag fell).
        self.notices: list[Notice] = []

    def ack(self) -> dict[str, Any]:
        return {"ok": False, "error": self.code, "message": self.message, **self.extra}
