"""An arena as a record: who joined, who is free, the games in play and finished; it pairs the
free players when asked (a pairing tick, as often as the caller likes: lichess pairs every
few seconds) and scores games as they finish.

The clock and the random source are passed in. The arena runs from `starts_at` to
`ends_at`: no pairing outside it; a game started before the end still counts when it ends
after (arena.result_counts).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from gobang.rules import BLACK, WHITE

from .arena import (
    ArenaGame,
    ArenaStanding,
    PlayerId,
    Sheet,
    colours,
    mark_of,
    pair_free,
    performance_in,
    ranked,
    result_counts,
)

Clock = Callable[[], float]


@dataclass(frozen=True)
class ArenaBoard:
    """A game the arena started: who plays black (first) and white, and when."""

    black: PlayerId
    white: PlayerId
    started_at: float


class Arena:
    def __init__(self, starts_at: float, ends_at: float, clock: Clock,
                 rng: random.Random) -> None:
        self.starts_at = starts_at
        self.ends_at = ends_at
        self.clock = clock
        self.rng = rng
        self.ratings: dict[PlayerId, int] = {}
        self.free: set[PlayerId] = set()
        self.paused: set[PlayerId] = set()
        self.playing: dict[PlayerId, ArenaBoard] = {}
        self.games: list[ArenaGame] = []  # the games that count, in the order they finished
        self.last_opponents: dict[PlayerId, PlayerId] = {}
        self.colours_played: dict[PlayerId, list[str]] = {}
        # Kept as games finish, not recomputed from them: standings are read at every tick.
        self.sheets: dict[PlayerId, Sheet] = {}
        self.performances: dict[PlayerId, list[int]] = {}

    def join(self, player: PlayerId, rating: int) -> None:
        """Join, or come back after a pause: free to be paired at the next tick."""
        self.ratings.setdefault(player, rating)
        self.paused.discard(player)
        if player not in self.playing:
            self.free.add(player)

    def pause(self, player: PlayerId) -> None:
        """Out of the pairings until the player joins again (a game in play is finished
        first); their points stay."""
        self.free.discard(player)
        self.paused.add(player)

    def is_over(self) -> bool:
        return self.clock() >= self.ends_at

    def pair(self) -> list[ArenaBoard]:
        """A pairing tick: the free players paired, near one another in the standings."""
        now = self.clock()
        if not self.starts_at <= now < self.ends_at or len(self.free) < 2:
            return []
        places = {row.id: row.rank for row in self.standings()}
        boards = []
        for first, second in pair_free(self.free, places, self.last_opponents):
            black, white = colours(first, second, self.colours_played, self.rng)
            board = ArenaBoard(black, white, now)
            boards.append(board)
            self.playing[black] = self.playing[white] = board
            self.free -= {black, white}
        return boards

    def finish(self, game: ArenaGame) -> bool:
        """A game of this arena ended: it counts if it started before the end; its players
        are free again (after the end nobody is paired anyway). Returns whether it counts."""
        board = self.playing.get(game.black)
        if board is None or (board.black, board.white) != (game.black, game.white):
            raise ValueError(f"{game.black} and {game.white} are not playing here")
        for player, opponent, colour in ((game.black, game.white, BLACK),
                                         (game.white, game.black, WHITE)):
            del self.playing[player]
            if player not in self.paused:
                self.free.add(player)
            self.last_opponents[player] = opponent
            self.colours_played.setdefault(player, []).append(colour)
        counts = result_counts(board.started_at, self.ends_at)
        if counts:
            self.games.append(game)
            for player in (game.black, game.white):
                sheet = self.sheets.get(player, Sheet())
                mark = mark_of(player, game, sheet.on_fire)
                self.sheets[player] = Sheet((*sheet.marks, mark))
                self.performances.setdefault(player, []).append(
                    performance_in(player, game, self.ratings))
        return counts

    def waiting(self) -> set[PlayerId]:
        return set(self.free)

    def standings(self) -> list[ArenaStanding]:
        """As arena.standings computes them from `games`."""
        return ranked((player, rating, self.sheets.get(player, Sheet()),
                       self._performance(player)) for player, rating in self.ratings.items())

    def _performance(self, player: PlayerId) -> int | None:
        values = self.performances.get(player)
        return round(sum(values) / len(values)) if values else None
