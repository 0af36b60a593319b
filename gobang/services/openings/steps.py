"""The opening in play: each step checked as the referee checks a move, saved, then told.

A step is judged by gobang.rules.openings; here it becomes the game's: a placed stone (or the
picked fifth) is the game's next move, a colour choice that hands black to the other player
swaps the seats (the players keep their clocks), and the clock of whoever acts next runs.
Everything a step changes is worked out first and written in one transaction; only then does
the game in memory change, so a refused write leaves the game as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext, lazy_gettext
from sqlalchemy import insert, update

from gobang.extensions import db
from gobang.models import Game, Move, utcnow
from gobang.rules import Game as RulesGame
from gobang.rules import IllegalMove
from gobang.rules.openings import Action, Choose, Offer, Opening, OpeningRefused, Pick, Place
from gobang.services.clock import Clock
from gobang.services.notices import ActionError, Notice
from gobang.services.openings.stored import dump_log, opening_state
from gobang.services.play.checks import Pace, check_can_move, require_on_the_board
from gobang.services.play.finisher import Finisher
from gobang.services.play.live import Clocks, LiveGame, room_notice
from gobang.services.play.table import GameTable
from gobang.vocabulary import BLACK, WHITE, Status

_REFUSALS = {
    "outside_area": lazy_gettext("That stone goes within the marked central square."),
    "not_offered": lazy_gettext("Pick one of the offered fifth stones."),
    "repeated_offer": lazy_gettext("Each fifth stone may be offered once."),
    "symmetric_offer": lazy_gettext(
        "Two of the offered fifth stones are symmetric in this position."),
    "out_of_range": lazy_gettext("That point is off the board."),
    "occupied": lazy_gettext("That point is already taken."),
}


@dataclass
class _After:
    """What a step leaves behind, before any of it is applied to the game."""

    opening: Opening
    swapped: bool
    clocks: Clocks | None
    stone: tuple[int, int] | None


class OpeningSteps:
    def __init__(self, table: GameTable, clock: Clock, pace: Pace, finisher: Finisher) -> None:
        self.table = table
        self.clock = clock
        self.pace = pace
        self.finisher = finisher

    def choose(self, game_id: int, user_id: int, option: Any) -> list[Notice]:
        if not isinstance(option, str):
            raise ActionError("bad_request", gettext("'option' must be a string."))
        return self._by_player(game_id, user_id, Choose(option))

    def offer(self, game_id: int, user_id: int, points: list[tuple[int, int]]) -> list[Notice]:
        return self._by_player(game_id, user_id, Offer(tuple(points)))

    def pick(self, game_id: int, user_id: int, row: int, col: int) -> list[Notice]:
        return self._by_player(game_id, user_id, Pick((row, col)))

    def _by_player(self, game_id: int, user_id: int, action: Action) -> list[Notice]:
        with self.table.acting(game_id, user_id, self.pace, check_can_act) as (live, color):
            return self.act(live, color, action)

    def act(self, live: LiveGame, color: str, action: Action) -> list[Notice]:
        """`color`'s seat does `action` in the opening; the caller holds the game's lock and
        has checked that it is that seat's turn (check_can_act). A placed stone comes here
        from Moves."""
        now = self.clock()
        self.finisher.refuse_if_flagged(live, now)
        opening = live.opening
        assert opening is not None
        try:
            changed = opening.apply(opening.player_of(color), action)
        except OpeningRefused as exc:
            raise ActionError(exc.code, str(_REFUSALS.get(exc.code, exc))) from exc
        except IllegalMove as exc:
            raise ActionError(exc.code, str(_REFUSALS.get(exc.code, exc))) from exc
        stone = _stone(action)
        if stone is not None:
            try:
                live.rules.place(*stone)
            except IllegalMove as exc:
                raise ActionError(exc.code, str(_REFUSALS.get(exc.code, exc))) from exc
        after = _After(changed, changed.black != opening.black,
                       _clocks_after(live, color, changed, now), stone)
        try:
            self._save(live, after)
        except Exception:
            if stone is not None:
                live.rules.undo(1)
            raise
        _apply(live, after)
        return [_notice(live, color, action, after, now)]

    def _save(self, live: LiveGame, after: _After) -> None:
        moment = utcnow()
        values: dict[str, Any] = {"opening_log": dump_log(after.opening),
                                  "turn_started_at": moment}
        if after.clocks is not None:
            values.update(black_ms=after.clocks.black_ms, white_ms=after.clocks.white_ms)
        if after.swapped:
            # Who sits at black is who holds black: the log is read against the seats.
            values.update(black_id=live.white.user_id, white_id=live.black.user_id)
        try:
            if after.stone is not None:
                number = len(live.rules.moves)
                db.session.execute(insert(Move).values(
                    game_id=live.game_id, number=number, row=after.stone[0],
                    col=after.stone[1], color=RulesGame.color_of_move(number - 1),
                    created_at=moment))
            db.session.execute(update(Game).where(
                Game.id == live.game_id, Game.status != Status.FINISHED).values(**values))
            db.session.commit()
        except Exception as exc:
            db.session.rollback()
            raise ActionError("conflict", gettext(
                "The move could not be saved; try again.")) from exc


def check_can_act(live: LiveGame, color: str) -> None:
    """An opening step other than a stone: as a move (check_can_move), while the opening
    lasts."""
    require_on_the_board(live)
    if not live.in_opening():
        raise ActionError("conflict", gettext("The opening is over."))
    check_can_move(live, color)


def _stone(action: Action) -> tuple[int, int] | None:
    if isinstance(action, Place | Pick):
        return action.point
    return None


def _clocks_after(live: LiveGame, color: str, changed: Opening, now: float) -> Clocks | None:
    """The actor is charged (with the increment) unless it is the game's first step, as a
    first move is not; a swap hands each player their own clock at their new seat; then the
    clock of whoever acts next runs."""
    if live.clocks is None:
        return None
    clocks = live.clocks.copy()
    if len(changed.log) > 1:
        clocks.stop(now)
        if color == BLACK:
            clocks.black_ms += clocks.increment_ms
        else:
            clocks.white_ms += clocks.increment_ms
    else:
        clocks.running = None
    if changed.black != live.opening.black:  # type: ignore[union-attr]
        clocks.black_ms, clocks.white_ms = clocks.white_ms, clocks.black_ms
    following = changed.to_act if not changed.over else live.rules.to_move
    if following is not None:
        clocks.start(following, now)
    return clocks


def _apply(live: LiveGame, after: _After) -> None:
    live.opening = after.opening
    live.clocks = after.clocks
    live.abort_from = None
    if after.swapped:
        live.black, live.white = live.white, live.black
        for by_color in (live.present, live.away_since, live.undos, live.draw_declined_at):
            _swap_keys(by_color)


def _swap_keys(by_color: dict[str, Any]) -> None:
    held = {color: by_color.pop(color) for color in (BLACK, WHITE) if color in by_color}
    for color, value in held.items():
        by_color[_other(color)] = value


def _notice(live: LiveGame, color: str, action: Action, after: _After, now: float) -> Notice:
    state = opening_state(live.opening, live.black.user_id, live.white.user_id)
    clocks = live.clocks.snapshot(now) if live.clocks else None
    player = live.seat(color if not after.swapped else _other(color)).user_id
    common = {"opening": state, "to_move": live.to_move(), "clocks": clocks}
    if after.stone is not None:
        number = len(live.rules.moves)
        return room_notice("stone_placed", live, row=after.stone[0], col=after.stone[1],
                           color=RulesGame.color_of_move(number - 1), move=number, **common)
    if isinstance(action, Choose):
        return room_notice("opening_chosen", live, player=player, option=action.option,
                           black=live.black.player(), white=live.white.player(), **common)
    assert isinstance(action, Offer)
    return room_notice("fifth_offered", live, player=player,
                       points=[list(point) for point in action.points], **common)


def _other(color: str) -> str:
    return WHITE if color == BLACK else BLACK
