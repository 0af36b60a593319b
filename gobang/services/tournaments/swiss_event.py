"""A Swiss event as a record: who entered (and when), each round's pairing and results; from
it, the players as the next pairing needs them, and the standings with their tie-breaks.

Plain values, so that storage can rebuild an event from its rows and the server can drive
it: `join` a player (before any round, or late: the rounds missed count as absences, zero
points), `pair_next` (who is absent this round is said here), `record` each board's result,
`standings` at any time.

Tie-breaks, in order (docs/tournaments.md gives the formulas): points; Buchholz, the sum of
the opponents' scores; Sonneborn-Berger, the sum of the opponents' scores weighted by the
result against each; rating. A round without a game (a bye, an absence, a round before the
player joined) counts in both as a game against a virtual opponent with the player's own
score, as FIDE's tie-break rules (C.07) count unplayed rounds; scored as the round was (a
bye 1, an absence 0).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from gobang.rules import BLACK, WHITE

from .swiss import (
    ABSENT,
    BYE,
    BYE_POINTS,
    Board,
    PlayerId,
    RoundPairing,
    SwissPlayer,
    pair_round,
)

RESULTS = (0.0, 0.5, 1.0)  # black's points on a board: a loss, a draw, a win
# Both lose: a game nobody played (docs/tournaments.md, "Aborted games"); white's points are
# otherwise 1 less black's.
DOUBLE_LOSS = (0.0, 0.0)


class RoundNotFinished(Exception):
    """The next round cannot be paired while a board of this one has no result."""


@dataclass
class SwissRound:
    pairing: RoundPairing
    absent: frozenset[PlayerId]
    results: dict[Board, float] = field(default_factory=dict)  # black's points per board
    # White's points where they are not 1 less black's (a double loss).
    white_results: dict[Board, float] = field(default_factory=dict)

    def finished(self) -> bool:
        return len(self.results) == len(self.pairing.boards)


@dataclass(frozen=True)
class Standing:
    rank: int
    id: PlayerId
    points: float
    buchholz: float
    sonneborn_berger: float
    rating: int


@dataclass(frozen=True)
class _Game:
    """One round from one player's side: the opponent (None without a game) and the points."""

    opponent: PlayerId | None
    points: float
    entry: str  # BLACK, WHITE, BYE or ABSENT


class SwissEvent:
    def __init__(self) -> None:
        self.ratings: dict[PlayerId, int] = {}
        self.rounds: list[SwissRound] = []

    def join(self, player: PlayerId, rating: int) -> None:
        """Enter a player before the next round is paired; rounds already paired count for
        them as absences, with no points."""
        if player in self.ratings:
            raise ValueError(f"{player} has already joined")
        self.ratings[player] = rating

    def pair_next(self, absent: Iterable[PlayerId] = (), first_colour: str = BLACK
                  ) -> RoundPairing:
        """Pair the next round among the players not absent; raises NoPairing (nothing is
        recorded then) or RoundNotFinished."""
        if self.rounds and not self.rounds[-1].finished():
            raise RoundNotFinished(f"round {len(self.rounds)} has boards without a result")
        away = frozenset(absent)
        present = [player for player in self.players() if player.id not in away]
        pairing = pair_round(present, first_colour)
        self.rounds.append(SwissRound(pairing, away))
        return pairing

    def record(self, board: Board, black_points: float, white_points: float | None = None
               ) -> None:
        """The result of a board of the round in play: black's points, 1, 0.5 or 0; white's
        are 1 less, unless given as 0 beside black's 0: a double loss."""
        if black_points not in RESULTS:
            raise ValueError(f"black's points must be one of {RESULTS}")
        if white_points is not None and (black_points, white_points) != DOUBLE_LOSS \
                and white_points != 1.0 - black_points:
            raise ValueError("white's points are 1 less black's, or 0 beside black's 0")
        current = self.rounds[-1] if self.rounds else None
        if current is None or board not in current.pairing.boards:
            raise ValueError(f"{board} is not a board of the round in play")
        current.results[board] = black_points
        if white_points is not None and white_points != 1.0 - black_points:
            current.white_results[board] = white_points

    def players(self) -> list[SwissPlayer]:
        """Everyone as the next pairing sees them: results recorded so far."""
        return [self._player(player) for player in self.ratings]

    def standings(self) -> list[Standing]:
        """Points, Buchholz, Sonneborn-Berger, rating, then the id, best first."""
        rows = {player: self._games(player) for player in self.ratings}
        points = {player: sum(game.points for game in games) for player, games in rows.items()}
        unranked = [Standing(0, player, points[player], _buchholz(games, player, points),
                             _sonneborn_berger(games, player, points), self.ratings[player])
                    for player, games in rows.items()]
        unranked.sort(key=lambda s: (-s.points, -s.buchholz, -s.sonneborn_berger, -s.rating,
                                     str(s.id)))
        return [Standing(rank, s.id, s.points, s.buchholz, s.sonneborn_berger, s.rating)
                for rank, s in enumerate(unranked, start=1)]

    def _player(self, player: PlayerId) -> SwissPlayer:
        games = self._games(player)
        return SwissPlayer(
            player, self.ratings[player], sum(game.points for game in games),
            tuple(game.opponent for game in games if game.opponent is not None),
            tuple(game.entry for game in games))

    def _games(self, player: PlayerId) -> list[_Game]:
        """One entry per round with a recorded result (or a bye, or an absence)."""
        return [game for played in self.rounds
                if (game := _game_of(player, played)) is not None]


def _game_of(player: PlayerId, played: SwissRound) -> _Game | None:
    """The player's round; None for a board still being played."""
    if played.pairing.bye == player:
        return _Game(None, BYE_POINTS, BYE)
    for board in played.pairing.boards:
        if player in (board.black, board.white):
            if board not in played.results:
                return None
            black_points = played.results[board]
            if player == board.black:
                return _Game(board.white, black_points, BLACK)
            return _Game(board.black, played.white_results.get(board, 1.0 - black_points),
                         WHITE)
    return _Game(None, 0.0, ABSENT)  # absent this round, or not yet joined


def _buchholz(games: list[_Game], player: PlayerId, points: dict[PlayerId, float]) -> float:
    """The opponents' scores; a round without a game counts the player's own score."""
    return sum(points[player if game.opponent is None else game.opponent] for game in games)


def _sonneborn_berger(games: list[_Game], player: PlayerId,
                      points: dict[PlayerId, float]) -> float:
    """Each opponent's score times the points scored against them; a round without a game
    counts the player's own score times the points it gave (a bye 1, an absence 0)."""
    return sum(game.points * points[player if game.opponent is None else game.opponent]
               for game in games)
