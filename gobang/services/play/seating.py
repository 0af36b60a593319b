"""Who is at a game: players arriving, leaving and coming back, and spectators."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from flask_babel import gettext
from sqlalchemy import select, update

from gobang.extensions import db
from gobang.models import Game, utcnow
from gobang.services.clock import Clock
from gobang.services.events import Bus, PlayerAway
from gobang.services.notices import GAME, ActionError, Notice
from gobang.services.play.finisher import Finisher
from gobang.services.play.live import LiveGame, room_notice
from gobang.services.play.rematches import Rematches
from gobang.services.play.results import Ending
from gobang.services.play.room_chat import Attendance, RoomChat
from gobang.services.play.stored import stored_state
from gobang.services.play.table import GameTable
from gobang.services.ratelimit import RateLimiter
from gobang.vocabulary import BLACK, WHITE, Reason, Status, opponent


class Seating:
    def __init__(self, table: GameTable, clock: Clock, grace_seconds: float,
                 attendance: Attendance, finisher: Finisher, chat: RoomChat,
                 rematches: Rematches, spectator_limiter: RateLimiter, bus: Bus) -> None:
        self.table = table
        self.clock = clock
        self.grace_seconds = grace_seconds
        self.attendance = attendance
        self.finisher = finisher
        self.chat = chat
        self.rematches = rematches
        self.spectator_limiter = spectator_limiter
        self.bus = bus

    def join(self, game_id: int, user_id: int | None, sid: str,
             pace_key: Hashable | None = None) -> list[Notice]:
        """Seat this connection at the game, as player or spectator (`user_id` None: a viewer
        without an account, always a spectator); a connection that was at another game leaves
        it. Joining games as a spectator is paced per `pace_key` (by default the user). Its
        state is read apart, by `state`, once nothing is left to wait on: see the room
        namespace's join."""
        self._check_spectator_pace(game_id, user_id, sid,
                                   user_id if pace_key is None else pace_key)
        notices = self._leave_previous(sid, game_id)
        live = self.table.get(game_id)
        if live is None:
            row = _finished_row(game_id)
            self.attendance.seat(sid, game_id, user_id)
            if row.status != Status.FINISHED:
                return notices
            if row.color_of(user_id) is None:
                return [*notices, self._finished_spectators(row)]
            return [*notices, self._players_in_room(row)]
        with live.lock:
            color = live.color_of(user_id)
            self.attendance.seat(sid, game_id, user_id)
            if color is None:
                live.spectators.add(sid)
                return [*notices, _spectators(live)]
            return notices + self._player_arrives(live, color, sid)

    def state(self, game_id: int, user_id: int | None,
              hears_spectators: bool | None = None) -> dict[str, Any]:
        """The game as this user sees it now. What is read from memory is read last, with
        nothing after it that waits on I/O, so that no event can be sent between the reading
        and the answer: the database is done with first. `hears_spectators`: whether the user
        hears the spectators' chat (RoomChat.hears_spectators, asked when None)."""
        if hears_spectators is None:
            hears_spectators = self.chat.hears_spectators(game_id, user_id)
        live = self.table.get(game_id)
        state = self._stored(game_id, user_id) if live is None else {}
        hidden = self.chat.hidden_from(user_id)
        # Handing the connection back to the pool waits on the database.
        db.session.close()
        if live is not None:
            with live.lock:
                state = live.state(live.color_of(user_id) or "spectator", self.clock())
        # A game that ended meanwhile is open to all: its players were sent its spectators'
        # chat (RoomChat.game_ended), and a state without it must not hide it again.
        ended = state["status"] == Status.FINISHED
        state.update(self.chat.histories(game_id, hears_spectators or ended, hidden))
        state["rematch_offers"] = self.rematches.open_offers(game_id)
        return state

    def leave(self, sid: str) -> list[Notice]:
        """A /room connection went away (closed, or left for another game)."""
        entry = self.attendance.unseat(sid)
        if entry is None:
            return []
        live = self.table.get(entry[0])
        if live is None:
            return self._left_finished(*entry)
        with live.lock:
            if sid in live.spectators:
                live.spectators.discard(sid)
                return [_spectators(live)]
            color = live.color_of(entry[1])
            if color is None or live.present.get(color) != sid:
                return []
            live.present[color] = None
            if live.status != Status.PLAYING:
                return []
            return self._player_left(live, color)

    def _left_finished(self, game_id: int, user_id: int | None) -> list[Notice]:
        """A connection left the room of a game that is over (or that this process does not
        play): its spectators are counted here too."""
        row = db.session.get(Game, game_id)
        if row is None or row.status != Status.FINISHED:
            return []
        if row.color_of(user_id) is None:
            return [self._finished_spectators(row)]
        self.rematches.withdraw(game_id)
        return [self._players_in_room(row)]

    def _finished_spectators(self, row: Game) -> Notice:
        """The spectator count of a finished game: not one of its numbered events."""
        return Notice("spectators", {"game_id": row.id, "count": self._watching(row)},
                      GAME, row.id)

    def _players_in_room(self, row: Game) -> Notice:
        """After the end, who can still answer a rematch: not one of its numbered events."""
        return Notice("players_in_room", {"game_id": row.id, "colors": self._in_room(row)},
                      GAME, row.id)

    def _in_room(self, row: Game) -> list[str]:
        """The colours of the players with a connection at the finished game; the computer
        is always there."""
        here = set(self.attendance.users_at(row.id))
        seats = ((BLACK, row.black_id, row.black), (WHITE, row.white_id, row.white))
        return [color for color, user_id, user in seats
                if user_id in here or user.computer_level is not None]

    def _watching(self, row: Game) -> int:
        players = (row.black_id, row.white_id)
        return sum(1 for user_id in self.attendance.users_at(row.id) if user_id not in players)

    def _stored(self, game_id: int, user_id: int | None) -> dict[str, Any]:
        row = _finished_row(game_id)
        state = stored_state(row)
        state["you"] = row.color_of(user_id) or "spectator"
        if row.status == Status.FINISHED:
            state["spectators"] = self._watching(row)
            state["players_in_room"] = self._in_room(row)
            # A page opened after the rematch began goes there instead of offering one.
            state["rematch_game_id"] = db.session.scalar(
                select(Game.id).where(Game.rematch_of == row.id))
        return state

    def _check_spectator_pace(self, game_id: int, user_id: int | None, sid: str,
                              pace_key: Hashable) -> None:
        """Each spectator arriving or leaving is pushed to the players: joining games as a
        spectator over and over is limited (players rejoining their own game never are),
        finished games too."""
        live = self.table.get(game_id)
        if live is not None:
            watching = live.color_of(user_id) is None
        else:
            row = db.session.get(Game, game_id)
            watching = row is not None and row.color_of(user_id) is None
        if watching and self.attendance.game_of(sid) != game_id and (
                not self.spectator_limiter.hit(pace_key)):
            raise ActionError("rate_limited",
                              gettext("You are joining games too fast; wait a moment."))

    def joined_game(self, sid: str) -> int | None:
        return self.attendance.game_of(sid)

    def absence(self, user_id: int) -> dict[str, Any] | None:
        """`{"game_id", "seconds_left"}` while the user is away from their game in play: the
        seconds left to come back before it is forfeited. None when they are at it (or have
        none), so that their other pages can say how long they have."""
        game_id = self.table.current_game_of(user_id)
        live = self.table.get(game_id) if game_id is not None else None
        if live is None or live.status != Status.PLAYING:
            return None
        color = live.color_of(user_id)
        since = live.away_since.get(color) if color else None
        if since is None or live.present.get(color) is not None:
            return None
        left = max(0.0, self.grace_seconds - (self.clock() - since))
        return {"game_id": game_id, "seconds_left": round(left, 1)}

    def _player_left(self, live: LiveGame, color: str) -> list[Notice]:
        live.away_since[color] = self.clock()
        notices = [room_notice("opponent_left", live, color=color,
                               grace_seconds=self.grace_seconds)]
        if self.grace_seconds <= 0:
            return notices + self.finisher.finish(live, Ending(opponent(color), Reason.DISCONNECT))
        return notices + self.bus.publish(PlayerAway(live.game_id, live.seat(color).user_id))

    def _leave_previous(self, sid: str, game_id: int) -> list[Notice]:
        previous = self.attendance.game_of(sid)
        if previous is None or previous == game_id:
            return []
        return self.leave(sid)

    def _player_arrives(self, live: LiveGame, color: str, sid: str) -> list[Notice]:
        live.present[color] = sid
        notices = []
        if live.away_since.pop(color, None) is not None and live.status == Status.PLAYING:
            notices.append(room_notice("opponent_back", live, color=color))
            notices += self.bus.publish(PlayerAway(live.game_id, live.seat(color).user_id))
        if live.status == Status.WAITING and all(live.present.values()):
            notices += self._start(live)
        return notices

    def _start(self, live: LiveGame) -> list[Notice]:
        db.session.execute(update(Game).where(Game.id == live.game_id).values(
            status=Status.PLAYING, started_at=utcnow()))
        db.session.commit()
        live.status = Status.PLAYING
        live.abort_from = now = self.clock()
        return [room_notice("game_ready", live, black=live.black.player(),
                            white=live.white.player(), to_move=BLACK,
                            clocks=self.table.clocks(live), abort_seconds=live.abort_left(now))]


def _finished_row(game_id: int) -> Game:
    row = db.session.get(Game, game_id)
    if row is None:
        raise ActionError("not_found", gettext("There is no such game."))
    return row


def _spectators(live: LiveGame) -> Notice:
    return room_notice("spectators", live, count=len(live.spectators))
