"""lichess's arena: the scoring of a player's games, the standings, which games count, and
the pairing of the players who are free. docs/tournaments.md states the rules and cites
lichess's arena FAQ.

Scoring: a win 2, a draw 1, a loss 0; after two wins in a row the player is on fire and
every game scores double (a win 4, a draw 2) until one is not won; berserk adds a point to a
win of at least 14 stones (7 moves by each side, as lichess counts a move); a draw of fewer
than 20 stones (10 moves by each side) scores nothing for either player and ends the fire.

Pure: a game is a value (`ArenaGame`), the sheet and the standings are computed from the
games; the pairing takes the free players, their places and their last opponents, and a
random source for the colours when nothing else decides them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from gobang.rules import BLACK, WHITE

from .matching import UNMATCHED, maximum_matching

WIN, DRAW, LOSS = "win", "draw", "loss"
BERSERK_MIN_STONES = 14  # lichess: the berserk point needs 7 moves, 14 plies
QUICK_DRAW_STONES = 20  # lichess: a draw before 10 moves each, 20 plies, scores nothing
PERFORMANCE_STEP = 500  # lichess: a win counts the opponent's rating + 500, a loss - 500
STREAK = 2  # wins in a row that light the fire

PlayerId = int | str


@dataclass(frozen=True)
class ArenaGame:
    """A finished game. `winner` is None for a draw; `stones` is how many stones were
    placed (plies); `berserk` holds the players who went berserk in it."""

    black: PlayerId
    white: PlayerId
    winner: PlayerId | None
    stones: int
    started_at: float
    berserk: frozenset[PlayerId] = frozenset()

    def opponent_of(self, player: PlayerId) -> PlayerId:
        return self.white if player == self.black else self.black

    def outcome_for(self, player: PlayerId) -> str:
        if self.winner is None:
            return DRAW
        return WIN if self.winner == player else LOSS

    def quick_draw(self) -> bool:
        return self.winner is None and self.stones < QUICK_DRAW_STONES


@dataclass(frozen=True)
class Mark:
    """One game on a player's sheet."""

    points: int
    outcome: str
    on_fire: bool  # played on a streak: counted double
    berserk_point: bool


@dataclass(frozen=True)
class Sheet:
    marks: tuple[Mark, ...] = ()

    @property
    def total(self) -> int:
        return sum(mark.points for mark in self.marks)

    @property
    def on_fire(self) -> bool:
        """Whether the next game counts double: the last two games were won."""
        return _wins_at_end(self.marks) >= STREAK

    def row(self) -> str:
        """The marks as a row, oldest first: "2 4 4 0 1"."""
        return " ".join(str(mark.points) for mark in self.marks)


def sheet_of(player: PlayerId, games: Iterable[ArenaGame]) -> Sheet:
    """The player's sheet from the games in the order they finished (others' are skipped)."""
    marks: list[Mark] = []
    for game in games:
        if player in (game.black, game.white):
            marks.append(mark_of(player, game, _wins_at_end(marks) >= STREAK))
    return Sheet(tuple(marks))


def mark_of(player: PlayerId, game: ArenaGame, on_fire: bool) -> Mark:
    outcome = game.outcome_for(player)
    factor = 2 if on_fire else 1
    if outcome == WIN:
        bonus = player in game.berserk and game.stones >= BERSERK_MIN_STONES
        return Mark(2 * factor + bonus, WIN, on_fire, bonus)
    if outcome == DRAW and not game.quick_draw():
        return Mark(factor, DRAW, on_fire, False)
    return Mark(0, outcome, on_fire, False)


def _wins_at_end(marks: Sequence[Mark]) -> int:
    count = 0
    for mark in reversed(marks):
        if mark.outcome != WIN:
            break
        count += 1
    return count


def result_counts(started_at: float, ends_at: float) -> bool:
    """Whether a game's result counts: every game that started before the arena's end
    finishes and counts, however late it ends (lichess, unlike this, counts only the
    games that end in time: docs/tournaments.md)."""
    return started_at < ends_at


def berserk_clock(seconds: float, increment: float) -> tuple[float, float] | None:
    """The clock of a player who goes berserk: half the time and no increment; None where
    berserk is not offered (no initial time). As lichess, a clock whose time is under 40
    increments (1+2) keeps its time and loses only the increment."""
    if seconds <= 0:
        return None
    if seconds < 40 * increment:
        return seconds, 0.0
    return seconds / 2, 0.0


@dataclass(frozen=True)
class ArenaStanding:
    rank: int
    id: PlayerId
    points: int
    performance: int | None  # None before a first game
    rating: int
    sheet: Sheet


def standings(ratings: Mapping[PlayerId, int], games: Sequence[ArenaGame]
              ) -> list[ArenaStanding]:
    """Points, then performance (a player without games is placed by their rating, as
    lichess does), then rating, then the id; best first."""
    own: dict[PlayerId, list[ArenaGame]] = {player: [] for player in ratings}
    for game in games:
        own[game.black].append(game)
        own[game.white].append(game)
    return ranked((player, rating, sheet_of(player, own[player]),
                   performance_of(player, own[player], ratings))
                  for player, rating in ratings.items())


def ranked(rows: Iterable[tuple[PlayerId, int, Sheet, int | None]]) -> list[ArenaStanding]:
    """Standings from each player's (id, rating, sheet, performance), in the order above."""
    ordered = sorted(rows, key=lambda row: (-row[2].total, -(row[1] if row[3] is None
                                                             else row[3]), -row[1], str(row[0])))
    return [ArenaStanding(rank, player, sheet.total, performance, rating, sheet)
            for rank, (player, rating, sheet, performance) in enumerate(ordered, start=1)]


def performance_of(player: PlayerId, games: Iterable[ArenaGame],
                   ratings: Mapping[PlayerId, int]) -> int | None:
    """lichess's tournament performance: the mean over the player's games of the opponent's
    rating, plus 500 for a win, minus 500 for a loss."""
    values = [performance_in(player, game, ratings) for game in games
              if player in (game.black, game.white)]
    return round(sum(values) / len(values)) if values else None


def performance_in(player: PlayerId, game: ArenaGame, ratings: Mapping[PlayerId, int]) -> int:
    step = {WIN: PERFORMANCE_STEP, DRAW: 0, LOSS: -PERFORMANCE_STEP}[game.outcome_for(player)]
    return ratings[game.opponent_of(player)] + step


def pair_free(free: Iterable[PlayerId], places: Mapping[PlayerId, int],
              last_opponents: Mapping[PlayerId, PlayerId]) -> list[tuple[PlayerId, PlayerId]]:
    """Pair the free players, each with the nearest free player below them in the standings
    (`places`: 1 the leader) whom they did not just play. Two players one of whom just
    played the other never meet (lichess): they wait for someone else. As many pairs as the
    free players allow: the pairs the nearest-first pass leaves out are recovered through
    augmenting paths, so two free players who may meet are never both left waiting."""
    order = sorted(free, key=lambda player: (places[player], str(player)))

    def may_meet(first: int, second: int) -> bool:
        one, other = order[first], order[second]
        return last_opponents.get(one) != other and last_opponents.get(other) != one

    match = [UNMATCHED] * len(order)
    for first in range(len(order)):
        if match[first] != UNMATCHED:
            continue
        for second in range(first + 1, len(order)):
            if match[second] == UNMATCHED and may_meet(first, second):
                match[first], match[second] = second, first
                break
    if match.count(UNMATCHED) >= 2:
        adjacent = [[other for other in range(len(order)) if other != vertex
                     and may_meet(vertex, other)] for vertex in range(len(order))]
        match = maximum_matching(adjacent, match=match)
    return [(order[first], order[second]) for first, second in enumerate(match)
            if first < second]


def colours(first: PlayerId, second: PlayerId, history: Mapping[PlayerId, Sequence[str]],
            rng: random.Random) -> tuple[PlayerId, PlayerId]:
    """(black, white) for a pair, as lichess gives colours in an arena: black, which moves
    first, to the player leaning less to it, by the run of the same colour they are on, then
    by their balance of colours; a coin when both lean alike."""
    lean_first = _lean(history.get(first, ()))
    lean_second = _lean(history.get(second, ()))
    if lean_first == lean_second:
        first_gets_black = rng.random() < 0.5
    else:
        first_gets_black = lean_first < lean_second
    return (first, second) if first_gets_black else (second, first)


def _lean(played: Sequence[str]) -> tuple[int, int]:
    """(strike, balance): the run of the last colour, positive for black; blacks less
    whites."""
    strike = 0
    for colour in reversed(played):
        if played[-1] != colour:
            break
        strike += 1 if colour == BLACK else -1
    balance = sum(1 if colour == BLACK else -1 for colour in played if colour in (BLACK, WHITE))
    return strike, balance
