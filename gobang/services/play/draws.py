"""What players ask of each other in a game: draws, take-backs, pauses, rematches, and chat.

A mixin of `LiveGames`, kept apart so each file reads as one subject.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask_babel import gettext
from sqlalchemy import delete, select, update

from gobang.extensions import db
from gobang.models import Game, Move, User
from gobang.rules import BLACK, WHITE, opponent
from gobang.services.chat import check_rate, clean_text, timestamp
from gobang.services.live import LiveGame
from gobang.services.notices import ActionError, Notice
from gobang.services.results import Ending

if TYPE_CHECKING:
    from gobang.services.games import LiveGames

CHAT_KEPT = 50


def _require_playing(live: LiveGame) -> None:
    if live.status == "finished":
        raise ActionError("game_over", gettext("The game is over."))
    if live.status != "playing":
        raise ActionError("conflict", gettext("The game has not started."))


def _require_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ActionError("bad_request", gettext("'accept' must be true or false."))
    return value


class Negotiations:
    # --- draw -------------------------------------------------------------------------------

    def offer_draw(self: LiveGames, game_id: int, user_id: int) -> list[Notice]:
        live, color = self._player_game(game_id, user_id)
        with live.lock:
            _require_playing(live)
            if live.draw_offer == color:
                raise ActionError("conflict", gettext("You have already offered a draw."))
            if live.draw_offer == opponent(color):
                return self._finish(live, Ending(None, "draw_agreed"))
            live.draw_offer = color
            return [self._room("draw_offered", live, by=color)]

    def answer_draw(self: LiveGames, game_id: int, user_id: int, accept: Any) -> list[Notice]:
        accept = _require_bool(accept)
        live, color = self._player_game(game_id, user_id)
        with live.lock:
            _require_playing(live)
            if live.draw_offer != opponent(color):
                raise ActionError("conflict", gettext("There is no draw offer to answer."))
            live.draw_offer = None
            if accept:
                return self._finish(live, Ending(None, "draw_agreed"))
            return [self._room("draw_declined", live, by=color)]

    # --- take-back --------------------------------------------------------------------------

    def request_undo(self: LiveGames, game_id: int, user_id: int) -> list[Notice]:
        live, color = self._player_game(game_id, user_id)
        with live.lock:
            _require_playing(live)
            if live.undo_request is not None:
                raise ActionError("conflict", gettext("A take-back is already asked for."))
            if self._moves_to_take_back(live, color) == 0:
                raise ActionError("conflict", gettext("You have no move to take back."))
            if live.undos[color] >= self.settings.max_undos:
                raise ActionError(
                    "conflict", gettext("You have used all your take-backs in this game."))
            live.undo_request = color
            return [self._room("undo_requested", live, by=color)]

    def answer_undo(self: LiveGames, game_id: int, user_id: int, accept: Any) -> list[Notice]:
        accept = _require_bool(accept)
        live, color = self._player_game(game_id, user_id)
        with live.lock:
            _require_playing(live)
            requester = live.undo_request
            if requester != opponent(color):
                raise ActionError("conflict", gettext("There is no take-back request to answer."))
            live.undo_request = None
            if not accept:
                return [self._room("undo_declined", live, by=color)]
            return self._take_back(live, requester)

    @staticmethod
    def _moves_to_take_back(live: LiveGame, color: str) -> int:
        """The requester's last move, and the opponent's reply after it if there is one."""
        count = len(live.rules.moves)
        mine = [i for i in range(count) if (BLACK if i % 2 == 0 else WHITE) == color]
        return count - mine[-1] if mine else 0

    def _take_back(self: LiveGames, live: LiveGame, requester: str) -> list[Notice]:
        count = self._moves_to_take_back(live, requester)
        live.rules.undo(count)
        remaining = len(live.rules.moves)
        now = self.clock()
        if live.clocks:
            live.clocks.stop(now)
            if remaining:
                live.clocks.start(requester, now)
        live.abort_from = now if remaining < 2 else None
        live.undos[requester] += 1
        live.draw_offer = None
        db.session.execute(delete(Move).where(Move.game_id == live.game_id,
                                              Move.number > remaining))
        db.session.execute(update(Game).where(Game.id == live.game_id).values(
            **{f"{requester}_undos": live.undos[requester]}, **self._clock_columns(live)))
        db.session.commit()
        return [self._room("undone", live, moves=[list(m) for m in live.rules.moves],
                           to_move=live.rules.to_move, clocks=self._clocks(live))]

    # --- pause ------------------------------------------------------------------------------

    def request_pause(self: LiveGames, game_id: int, user_id: int) -> list[Notice]:
        live, color = self._player_game(game_id, user_id)
        with live.lock:
            _require_playing(live)
            if live.paused:
                raise ActionError("conflict", gettext("The game is already paused."))
            if live.pause_request is not None:
                raise ActionError("conflict", gettext("A pause is already asked for."))
            live.pause_request = color
            return [self._room("pause_requested", live, by=color)]

    def answer_pause(self: LiveGames, game_id: int, user_id: int, accept: Any) -> list[Notice]:
        accept = _require_bool(accept)
        live, color = self._player_game(game_id, user_id)
        with live.lock:
            _require_playing(live)
            if live.pause_request != opponent(color):
                raise ActionError("conflict", gettext("There is no pause request to answer."))
            live.pause_request = None
            if not accept:
                return [self._room("pause_declined", live, by=color)]
            live.paused = True
            live.resume_votes = set()
            now = self.clock()
            if live.clocks:
                live.pause_running = live.clocks.running
                live.clocks.stop(now)
            return [self._room("paused", live, clocks=self._clocks(live))]

    def resume(self: LiveGames, game_id: int, user_id: int) -> list[Notice]:
        live, color = self._player_game(game_id, user_id)
        with live.lock:
            _require_playing(live)
            if not live.paused:
                raise ActionError("conflict", gettext("The game is not paused."))
            live.resume_votes.add(color)
            if live.resume_votes != {BLACK, WHITE}:
                return [self._room("resume_requested", live, by=color)]
            live.paused = False
            now = self.clock()
            if live.clocks and live.pause_running:
                live.clocks.start(live.pause_running, now)
            if live.abort_from is not None:
                live.abort_from = now
            return [self._room("resumed", live, clocks=self._clocks(live))]

    # --- rematch ----------------------------------------------------------------------------

    def rematch(self: LiveGames, game_id: int, user_id: int) -> list[Notice]:
        self.check_open()
        row = db.session.get(Game, game_id)
        if row is None:
            raise ActionError("not_found", gettext("There is no such game."))
        colors = {row.black_id: BLACK, row.white_id: WHITE}
        color = colors.get(user_id)
        if color is None:
            raise ActionError("not_in_game", gettext("You are not a player in this game."))
        if row.status != "finished":
            raise ActionError(
                "conflict", gettext("A rematch can be offered once the game is over."))
        if db.session.scalar(select(Game.id).where(Game.rematch_of == row.id)) is not None:
            raise ActionError("conflict", gettext("The rematch has already started."))
        for other in (row.black_id, row.white_id):
            if self.current_game_of(other) is not None:
                raise ActionError("busy", gettext("A player is already in another game."))
        offers = self.rematch_offers.setdefault(row.id, set())
        offers.add(color)
        if offers != {BLACK, WHITE}:
            return [Notice("rematch_offered", {"game_id": row.id, "by": color}, "game", row.id)]
        return self._start_rematch(row)

    def _start_rematch(self: LiveGames, row: Game) -> list[Notice]:
        self.rematch_offers.pop(row.id, None)
        black, white = db.session.get(User, row.white_id), db.session.get(User, row.black_id)
        clock = None
        if row.clock_initial_ms is not None:
            clock = (row.clock_initial_ms // 1000, (row.clock_increment_ms or 0) // 1000)
        live, notices = self.create(black, white, row.ruleset, rematch_of=row.id,
                                    clock_seconds=clock)
        return notices + [Notice("rematch_ready", {"game_id": live.game_id}, "game", row.id)]

    # --- chat -------------------------------------------------------------------------------

    def chat(self: LiveGames, game_id: int, user: User, sid: str, text: Any) -> list[Notice]:
        text = clean_text(text)
        role = self._chat_role(game_id, user.id, sid)
        check_rate(self.chat_limiter, user.id)
        message = {"game_id": game_id, "from": {"id": user.id, "username": user.username},
                   "role": role, "text": text, "ts": timestamp()}
        self.chat_logs.setdefault(game_id, []).append(message)
        del self.chat_logs[game_id][:-CHAT_KEPT]
        return [Notice("chat", message, "game", game_id)]

    def _chat_role(self: LiveGames, game_id: int, user_id: int, sid: str) -> str:
        row = db.session.get(Game, game_id)
        if row is None:
            raise ActionError("not_found", gettext("There is no such game."))
        color = {row.black_id: BLACK, row.white_id: WHITE}.get(user_id)
        if color is not None:
            return color
        if self.joined_game(sid) != game_id:
            raise ActionError("not_in_game", gettext("Join the game to chat in it."))
        return "spectator"

    def _clock_columns(self: LiveGames, live: LiveGame) -> dict[str, Any]:
        if not live.clocks:
            return {}
        return {"black_ms": live.clocks.black_ms, "white_ms": live.clocks.white_ms}

    def _chat_history(self: LiveGames, game_id: int) -> list[dict[str, Any]]:
        return list(self.chat_logs.get(game_id, []))
