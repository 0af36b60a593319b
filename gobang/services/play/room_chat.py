"""Chat in a game's room: the players' channel and the spectators' channel.

Who writes where: the game's two players write in the players' channel, everyone else who
joined the game in the spectators'. Who hears what (docs/protocol.md, "Two chats"):

- the players' channel goes to the whole room, spectators included;
- while the game is played, the spectators' channel goes only to those who hear it: its
  spectators, and players whose preference asks for it. A watcher's "nice block!" must not
  reach the board unasked;
- after the end both go to the whole room, and each player is sent what the spectators said.

Each channel keeps its last lines per game in this process's memory, for a page that joins
or comes back (the join state's `chat` and `spectator_chat`). A line never reaches those who
block its author, live or in the state's history.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from gobang.extensions import db
from gobang.models import Game, User
from gobang.services.events import GameEnded
from gobang.services.moderation.chat_guard import ChatGuard
from gobang.services.notices import GAME, ROOM_USER, SPECTATOR_CHAT, ActionError, Notice
from gobang.services.play.live import room_notice
from gobang.services.play.table import GameTable
from gobang.services.ratelimit import RateLimiter
from gobang.services.social.blocks import Blocks
from gobang.services.store import Recent
from gobang.services.text import check_rate, clean_text, timestamp
from gobang.vocabulary import Status

CHAT_KEPT = 50
# Chat is kept for the most recent games only, so that memory stays flat.
RECENT_GAMES_KEPT = 2000

PLAYERS = "players"
SPECTATORS = "spectators"
CHANNELS = (PLAYERS, SPECTATORS)
SPECTATOR = "spectator"
# The account preference that has a player hear the spectators' chat while they play.
# gobang/auth/preferences.py owns it and its default (off); a stored value that is not
# exactly true reads as off there too.
SPECTATOR_CHAT_PREFERENCE = "spectator_chat"


class Attendance:
    """Which game each /room connection has joined, and as which user; and so who is at a
    game, which a finished game (no longer in the table) learns only from here."""

    def __init__(self) -> None:
        self._by_sid: dict[str, tuple[int, int]] = {}
        self._by_game: dict[int, dict[str, int]] = {}

    def seat(self, sid: str, game_id: int, user_id: int) -> None:
        self.unseat(sid)
        self._by_sid[sid] = (game_id, user_id)
        self._by_game.setdefault(game_id, {})[sid] = user_id

    def unseat(self, sid: str) -> tuple[int, int] | None:
        entry = self._by_sid.pop(sid, None)
        if entry is not None:
            at = self._by_game.get(entry[0], {})
            at.pop(sid, None)
            if not at:
                self._by_game.pop(entry[0], None)
        return entry

    def game_of(self, sid: str) -> int | None:
        entry = self._by_sid.get(sid)
        return entry[0] if entry else None

    def users_at(self, game_id: int) -> list[int]:
        """The user of each connection at the game (a user twice with two connections)."""
        return list(self._by_game.get(game_id, {}).values())


class RoomChat:
    def __init__(self, attendance: Attendance, limiter: RateLimiter, table: GameTable,
                 guard: ChatGuard, blocks: Blocks) -> None:
        self.attendance = attendance
        self.blocks = blocks
        self.guard = guard
        self.table = table
        self.limiter = limiter
        self._logs: dict[str, Recent[int, list[dict[str, Any]]]] = {
            channel: Recent(RECENT_GAMES_KEPT) for channel in CHANNELS}

    def say(self, game_id: int, user: User, sid: str, text: Any,
            channel: Any = None) -> list[Notice]:
        """A line from `user` at the game, in `channel` (None: the sender's own). Refusals:
        bad_request (the text, an unknown channel), not_found, not_in_game (not at the game,
        or the other role's channel), rate_limited, muted; a refused line changes nothing."""
        text = clean_text(text)
        asked = _channel_field(channel)
        role = self._role(game_id, user.id, sid)
        channel = _writable(role, asked)
        check_rate(self.limiter, user.id)
        self.guard.check(user.id, text)
        message = {"game_id": game_id, "channel": channel,
                   "from": {"id": user.id, "username": user.username},
                   "role": role, "text": text, "ts": timestamp()}
        log = self._logs[channel].setdefault(game_id, [])
        log.append(message)
        del log[:-CHAT_KEPT]
        return [self._notice(game_id, message, self.blocks.blocker_ids(user.id))]

    def _notice(self, game_id: int, message: dict[str, Any],
                blockers: tuple[int, ...] = ()) -> Notice:
        """While the game is played here, a players' line is numbered as the game's other
        events, and a spectators' line goes to those who hear that channel, unnumbered: a
        player who does not hear it must not see a gap in the numbers. After the end (or on a
        process that does not play it) a line of either channel is not one of the game's
        events, and goes to the whole room. A line is not sent to those who block its author,
        and is then unnumbered too: a number would leave them a gap to ask the whole state
        for."""
        live = self.table.get(game_id)
        if live is None:
            return Notice("chat", message, GAME, game_id, skip=blockers)
        with live.lock:
            if live.status == Status.FINISHED:
                return Notice("chat", message, GAME, game_id, skip=blockers)
            if message["channel"] == SPECTATORS:
                return Notice("chat", message, SPECTATOR_CHAT, game_id, skip=blockers)
            if blockers:
                return Notice("chat", message, GAME, game_id, skip=blockers)
            return room_notice("chat", live, **message)

    def history(self, game_id: int, channel: str = PLAYERS,
                hidden: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
        """The channel's last lines at the game, without those of the `hidden` authors."""
        return [m for m in self._logs[channel].get(game_id, []) if m["from"]["id"] not in hidden]

    def histories(self, game_id: int, hears_spectators: bool,
                  hidden: frozenset[int] = frozenset()) -> dict[str, Any]:
        """What a join state carries: the players' channel (`chat`), and the spectators'
        (`spectator_chat`) for whoever may read it now, else None; neither with the lines of
        the `hidden` authors."""
        return {"chat": self.history(game_id, PLAYERS, hidden),
                "spectator_chat": (self.history(game_id, SPECTATORS, hidden)
                                   if hears_spectators else None)}

    def hidden_from(self, reader_id: int | None) -> frozenset[int]:
        """The authors whose lines `reader_id` is not shown: those they block (a visitor
        without an account, None, blocks nobody)."""
        return frozenset() if reader_id is None else self.blocks.blocked_ids(reader_id)
    def hears_spectators(self, game_id: int, user_id: int) -> bool:
        """Whether the user, joining the game now, hears its spectators' chat: a spectator
        does; a player of a game in play only with their preference on (read at each join,
        so a changed preference holds from the next); after the end everyone does."""
        live = self.table.get(game_id)
        if live is None or live.color_of(user_id) is None:
            return True
        user = db.session.get(User, user_id)
        return user is not None and wants_spectator_chat(user)

    def game_ended(self, ended: GameEnded) -> list[Notice]:
        """The spectators' chat opens to the players at the end: each is sent what was said
        there while they played (nothing, when nothing was), but for the lines of those they
        block."""
        notices = []
        for user_id in ended.user_ids:
            said = self.history(ended.game_id, SPECTATORS, self.hidden_from(user_id))
            if said:
                opened = {"game_id": ended.game_id, "channel": SPECTATORS, "chat": said}
                notices.append(Notice("chat_opened", opened, ROOM_USER, user_id))
        return notices

    def _role(self, game_id: int, user_id: int, sid: str) -> str:
        row = db.session.get(Game, game_id)
        if row is None:
            raise ActionError("not_found", gettext("There is no such game."))
        color = row.color_of(user_id)
        if color is not None:
            return color
        if self.attendance.game_of(sid) != game_id:
            raise ActionError("not_in_game", gettext("Join the game to chat in it."))
        return SPECTATOR


def wants_spectator_chat(user: User) -> bool:
    preferences = user.preferences
    return isinstance(preferences, dict) and preferences.get(SPECTATOR_CHAT_PREFERENCE) is True


def _channel_field(value: Any) -> str | None:
    if value is None or value in CHANNELS:
        return value
    raise ActionError("bad_request", gettext("'channel' must be \"players\" or \"spectators\"."))


def _writable(role: str, asked: str | None) -> str:
    """The channel a line of this role goes to: its own; naming the other one is refused."""
    own = SPECTATORS if role == SPECTATOR else PLAYERS
    if asked is None or asked == own:
        return own
    if own == SPECTATORS:
        raise ActionError("not_in_game", gettext("Only the players write in the players' chat."))
    raise ActionError("not_in_game", gettext("Players write in the players' chat only."))
