"""One game in play, held in memory while it lasts: rules state, clocks and who is present."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from gobang.rules import BLACK, WHITE, Game, opponent
from gobang.rules.openings import Opening
from gobang.services.notices import GAME, Notice
from gobang.services.openings.stored import opening_state
from gobang.vocabulary import Status, color_of

# Stands for the computer's connection in `LiveGame.present`: it is always at its games.
COMPUTER_PRESENT = "computer"


@dataclass(frozen=True)
class Seat:
    user_id: int
    username: str
    score: int
    # The computer's level when this seat is the computer's.
    computer: int | None = None
    # A person's rating in the game's category as the game began (an extension).
    rating: int | None = None

    def player(self) -> dict[str, Any]:
        found: dict[str, Any] = {"id": self.user_id, "username": self.username,
                                 "score": self.score}
        if self.computer is not None:
            found["computer"] = self.computer  # an extension: pages show a thinking sign
        if self.rating is not None:
            found["rating"] = self.rating
        return found


@dataclass
class Clocks:
    """Chess clocks in milliseconds; `running` is charged from `since` (a clock reading)."""

    black_ms: int
    white_ms: int
    increment_ms: int
    running: str | None = None
    since: float = 0.0
    # The colours that get no increment (an arena's berserk: gobang/services/arenas/berserk.py).
    bare: frozenset[str] = frozenset()

    def left(self, color: str, now: float) -> int:
        stored = self.black_ms if color == BLACK else self.white_ms
        if self.running == color:
            stored -= int((now - self.since) * 1000)
        return max(0, stored)

    def snapshot(self, now: float) -> dict[str, int]:
        return {"black_ms": self.left(BLACK, now), "white_ms": self.left(WHITE, now)}

    def flagged(self, now: float) -> str | None:
        if self.running and self.left(self.running, now) <= 0:
            return self.running
        return None

    def stop(self, now: float) -> None:
        if self.running:
            self._store(self.running, self.left(self.running, now))
        self.running = None

    def start(self, color: str, now: float) -> None:
        self.running, self.since = color, now

    def after_move(self, mover: str, now: float, charged: bool) -> None:
        """Charge the mover (plus the increment) and start the opponent's clock."""
        if charged:
            bonus = 0 if mover in self.bare else self.increment_ms
            self._store(mover, self.left(mover, now) + bonus)
        self.start(opponent(mover), now)

    def copy(self) -> Clocks:
        return Clocks(self.black_ms, self.white_ms, self.increment_ms, self.running, self.since,
                      self.bare)

    def cut(self, color: str, ms: int, bare: bool) -> None:
        """Take `ms` off `color`'s time, running or not, and its increment if `bare`."""
        stored = self.black_ms if color == BLACK else self.white_ms
        self._store(color, max(0, stored - ms))
        if bare:
            self.bare = self.bare | {color}

    def _store(self, color: str, value: int) -> None:
        if color == BLACK:
            self.black_ms = value
        else:
            self.white_ms = value


@dataclass
class LiveGame:
    game_id: int
    ruleset: str
    black: Seat
    white: Seat
    rules: Game
    clocks: Clocks | None
    created_at: float
    # The time control the game was created with, (initial, increment) seconds; None: no clock.
    time_control: tuple[int, int] | None = None
    # False for a casual game or one against the computer: its end changes no rating.
    rated: bool = True
    # The opening rule and what the players did in it (gobang.rules.openings); None for a
    # game played without one. While it is not over, its step says who acts.
    opening: Opening | None = None
    status: str = Status.WAITING
    present: dict[str, str | None] = field(default_factory=lambda: {BLACK: None, WHITE: None})
    away_since: dict[str, float] = field(default_factory=dict)
    spectators: set[str] = field(default_factory=set)
    # Start of the window in which the side to move must make its first move, else abort.
    abort_from: float | None = None
    # How long that window lasts (config ABORT_SECONDS); only to tell the players.
    abort_seconds: float = 0.0
    draw_offer: str | None = None
    # The number of moves on the board when each colour's last draw offer was declined:
    # Draws refuses a new offer from it for a while (not kept across a restart).
    draw_declined_at: dict[str, int] = field(default_factory=dict)
    undo_request: str | None = None
    undos: dict[str, int] = field(default_factory=lambda: {BLACK: 0, WHITE: 0})
    paused: bool = False
    pause_request: str | None = None
    resume_votes: set[str] = field(default_factory=set)
    # Whose clock was running when the game was paused, to restart it on resume.
    pause_running: str | None = None
    result: dict[str, Any] | None = None
    # The number of the game's last room event (`v`, docs/protocol.md): room_notice counts
    # it up. A game loaded from the database starts above any number it had before
    # (first_version), so that a client can tell that it missed events across a restart.
    version: int = 0
    lock: threading.RLock = field(default_factory=threading.RLock)

    def __post_init__(self) -> None:
        computer = self.computer_color()
        if computer is not None:
            self.present[computer] = COMPUTER_PRESENT

    def computer_color(self) -> str | None:
        """The colour the computer plays here, or None in a game between people."""
        for color in (BLACK, WHITE):
            if self.seat(color).computer is not None:
                return color
        return None

    def computer_level(self) -> int | None:
        color = self.computer_color()
        return None if color is None else self.seat(color).computer

    def seat(self, color: str) -> Seat:
        return self.black if color == BLACK else self.white

    def color_of(self, user_id: int | None) -> str | None:
        return color_of(self.black.user_id, self.white.user_id, user_id)

    def user_ids(self) -> tuple[int, int]:
        return self.black.user_id, self.white.user_id

    def people_ids(self) -> tuple[int, ...]:
        """The players who are people: the computer plays many games at once."""
        return tuple(seat.user_id for seat in (self.black, self.white) if seat.computer is None)

    def to_move(self) -> str | None:
        """The colour of the seat whose turn it is: in the opening, whoever acts next (who may
        place a stone of the other colour, or choose), else the side to move."""
        if self.status == Status.FINISHED:
            return None
        if self.in_opening():
            return self.opening.to_act  # type: ignore[union-attr]
        return self.rules.to_move

    def in_opening(self) -> bool:
        return self.opening is not None and not self.opening.over

    def abort_window_open(self) -> bool:
        """Whether the side to move must make its first move in time, else the game is
        aborted: not while paused, and never for the computer, which is always there."""
        return (self.abort_from is not None and not self.paused
                and self.status == Status.PLAYING and self.to_move() != self.computer_color())

    def abort_left(self, now: float) -> float | None:
        """Seconds the side to move has left to make its first move before the game is
        aborted; None when no such window is open (or while paused, when it stands still)."""
        if self.abort_from is None or not self.abort_window_open():
            return None
        return round(max(0.0, self.abort_seconds - (now - self.abort_from)), 1)

    def live_summary(self) -> dict[str, Any]:
        """A game in the hall's list. `rated` only on an unrated game (casual, or against the
        computer): the list's size is bounded (docs/protocol.md), and most games are rated.
        `clock`: the time control, [initial, increment] seconds or None."""
        return {
            "game_id": self.game_id,
            "black": self.black.player(),
            "white": self.white.player(),
            "moves": len(self.rules.moves),
            "ruleset": self.ruleset,
            # The hall's view leaves it out for the default clock (hall/view.py).
            "clock": list(self.time_control) if self.time_control else None,
            **({} if self.rated else {"rated": False}),
            **({"opening": self.opening.rule} if self.opening else {}),
        }

    def state(self, you: str, now: float) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "ruleset": self.ruleset,
            "status": self.status,
            "black": self.black.player(),
            "white": self.white.player(),
            "moves": [list(m) for m in self.rules.moves],
            "to_move": self.to_move(),
            "you": you,
            "clocks": self.clocks.snapshot(now) if self.clocks else None,
            "clock": list(self.time_control) if self.time_control else None,
            "rated": self.rated,
            "opening": opening_state(self.opening, self.black.user_id, self.white.user_id,
                                     finished=self.status == Status.FINISHED),
            "result": self.result,
            "paused": self.paused,
            "draw_offer": self.draw_offer,
            "undo_request": self.undo_request,
            "pause_request": self.pause_request,
            "resume_votes": sorted(self.resume_votes),
            "spectators": len(self.spectators),
            "players_in_room": [c for c in (BLACK, WHITE) if self.present[c] is not None],
            "abort_seconds": self.abort_left(now),
            "v": self.version,
        }


def room_notice(name: str, live: LiveGame, **payload: Any) -> Notice:
    """An event for everyone in the game's room, numbered one after the game's previous
    event. The caller holds the game's lock (GameTable.acting), so that numbers follow the
    order in which the game's state changed."""
    live.version += 1
    return numbered_notice(name, live, live.version, **payload)


def numbered_notice(name: str, live: LiveGame, version: int, **payload: Any) -> Notice:
    return Notice(name, {"game_id": live.game_id, "v": version, **payload}, GAME, live.game_id)


def first_version(wall_seconds: float) -> int:
    """The number a game's events start from when it is loaded (made, restored, or taken
    over from another process): the wall clock in milliseconds. The game's events before
    were numbered from an earlier load and are fewer than a thousand a second, so the
    numbers go on rising across processes whose clocks agree within a lease (seconds)."""
    return int(wall_seconds * 1000)
