"""A Swiss event's rounds as stored, and the pure event rebuilt from them.

Each round is its boards (`swiss_boards`: black, white or none for the bye), written together
in one transaction when the round is paired; each board's game is linked by its
`tournament_games` row, written in the game's own transaction. Nothing else is stored: who
was absent in a round (entered, but on none of its boards: away, withdrawn, or not yet
joined), the results, the points and the tie-breaks are read from these rows and the games
every time, so a result never counts twice and a restart loses none.

A board's result, from its game once finished: the winner's 1 against 0, a draw's half
point each. An aborted game (nobody moved in time) still gives its board a result: the side
the abort names (the colour that did not move, or did not come) loses and the other wins; an
abort that names no side (both stayed away, the host's abort) is a loss for both."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from gobang.extensions import db
from gobang.models import Game, SwissBoard, TournamentGame, TournamentPlayer
from gobang.services.tournaments.swiss import Board, RoundPairing
from gobang.services.tournaments.swiss_event import DOUBLE_LOSS, SwissEvent, SwissRound
from gobang.vocabulary import BLACK, WHITE, Reason, Status

Points = tuple[float, float]  # the board's black's and white's


@dataclass(frozen=True)
class StoredBoard:
    id: int
    round: int
    board: int
    black: int
    white: int | None  # None: the bye, `black` its player
    game_id: int | None  # None until its game is made (and for the bye)
    points: Points | None  # once its game has ended
    ended_at: datetime | None

    @property
    def bye(self) -> bool:
        return self.white is None

    @property
    def waiting(self) -> bool:
        """Paired, but its game is not made yet."""
        return not self.bye and self.game_id is None

    @property
    def done(self) -> bool:
        return self.bye or self.points is not None

    def players(self) -> tuple[int, ...]:
        return (self.black,) if self.white is None else (self.black, self.white)


@dataclass(frozen=True)
class Rounds:
    """Everything stored of an event: its entries (user id: rating when joined, withdrawn
    players too) and its boards, round by round."""

    ratings: dict[int, int]
    boards: list[StoredBoard]

    @property
    def played(self) -> int:
        """The rounds paired so far (the last may be in play)."""
        return max((board.round for board in self.boards), default=0)

    def of_round(self, number: int) -> list[StoredBoard]:
        return [board for board in self.boards if board.round == number]

    def current(self) -> list[StoredBoard]:
        return self.of_round(self.played)

    def waiting(self) -> list[StoredBoard]:
        """The current round's boards without their game (a leader stopped between storing
        the round and making its games, or a player was busy)."""
        return [board for board in self.current() if board.waiting]

    def round_over(self) -> bool:
        return all(board.done for board in self.current())

    def last_ended(self) -> datetime | None:
        """When the current round's last game ended (None: a round of byes only, or none)."""
        return max((b.ended_at for b in self.current() if b.ended_at is not None), default=None)

    def event(self) -> SwissEvent:
        """The pure event, every round replayed with its results so far."""
        event = SwissEvent()
        for player, rating in self.ratings.items():
            event.join(player, rating)
        for number in range(1, self.played + 1):
            boards = self.of_round(number)
            on_board = {player for board in boards for player in board.players()}
            bye = next((board.black for board in boards if board.bye), None)
            pairing = RoundPairing(tuple(Board(b.black, b.white) for b in boards if not b.bye),
                                   bye)
            event.rounds.append(SwissRound(pairing, frozenset(set(self.ratings) - on_board)))
            for board in boards:
                if board.points is not None:
                    event.record(Board(board.black, board.white), *board.points)
        return event


def rounds_of(tournament_id: int) -> Rounds:
    ratings = {user_id: rating for user_id, rating in db.session.execute(
        select(TournamentPlayer.user_id, TournamentPlayer.rating)
        .where(TournamentPlayer.tournament_id == tournament_id)
        .order_by(TournamentPlayer.id))}
    rows = db.session.execute(
        select(SwissBoard.id, SwissBoard.round, SwissBoard.board, SwissBoard.black_id,
               SwissBoard.white_id, Game.id, Game.status, Game.black_id, Game.winner_id,
               Game.reason, Game.abort_detail, Game.ended_at)
        .outerjoin(TournamentGame, TournamentGame.swiss_board_id == SwissBoard.id)
        .outerjoin(Game, Game.id == TournamentGame.game_id)
        .where(SwissBoard.tournament_id == tournament_id)
        .order_by(SwissBoard.round, SwissBoard.board))
    return Rounds(ratings, [_board(*row) for row in rows])


def _board(board_id: int, number: int, board: int, black: int, white: int | None,
           game_id: int | None, status: str | None, game_black: int | None,
           winner: int | None, reason: str | None, abort: dict[str, Any] | None,
           ended_at: datetime | None) -> StoredBoard:
    points = None
    if status == Status.FINISHED:
        points = _points(black, game_black, winner, reason, abort)
    return StoredBoard(board_id, number, board, black, white, game_id, points,
                       ended_at if points is not None else None)


def _points(black: int, game_black: int | None, winner: int | None, reason: str | None,
            abort: dict[str, Any] | None) -> Points:
    """The board's result by player, not by the game's colours: an opening rule's colour
    choice may have swapped them."""
    if reason == Reason.ABORTED:
        failed = (abort or {}).get("color")
        if failed not in (BLACK, WHITE):
            return DOUBLE_LOSS
        black_failed = (failed == BLACK) == (game_black == black)
        return (0.0, 1.0) if black_failed else (1.0, 0.0)
    if winner is None:
        return (0.5, 0.5)
    return (1.0, 0.0) if winner == black else (0.0, 1.0)


def store_round(tournament_id: int, number: int, pairing: RoundPairing) -> list[SwissBoard]:
    """The round's boards, and the bye as the last board, in one transaction; raises
    IntegrityError (nothing stored) if the round was stored already."""
    rows = [SwissBoard(tournament_id=tournament_id, round=number, board=place,
                       black_id=board.black, white_id=board.white)
            for place, board in enumerate(pairing.boards, start=1)]
    if pairing.bye is not None:
        rows.append(SwissBoard(tournament_id=tournament_id, round=number,
                               board=len(rows) + 1, black_id=pairing.bye, white_id=None))
    db.session.add_all(rows)
    db.session.commit()
    return rows
