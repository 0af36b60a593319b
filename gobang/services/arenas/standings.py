"""An arena's standings, derived each time from its stored games: the finished ones, in the
order they ended, fed to the pure scoring (gobang.services.tournaments.arena). Nothing is
counted as a result comes in, so a result can never count twice, and a restart loses none.

Every stored game of the tournament counts: the director pairs only before the end, so each
started before it (arena.result_counts), and one still in play at the end counts when it
ends. An aborted game (nobody moved in time) counts for nobody."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from gobang.extensions import db
from gobang.models import Game, Move, TournamentGame, TournamentPlayer
from gobang.services.tournaments.arena import ArenaGame, ArenaStanding, standings
from gobang.vocabulary import BLACK, WHITE, Reason, Status


@dataclass(frozen=True)
class Played:
    """A stored game of the tournament, finished or not."""

    game_id: int
    black: int
    white: int
    status: str
    counted: ArenaGame | None  # None while in play, and for an aborted game


def played(tournament_id: int) -> list[Played]:
    """The tournament's games: the finished ones in the order they ended, then those in play
    in the order they started."""
    stones = (select(func.count(Move.id)).where(Move.game_id == Game.id)
              .correlate(Game).scalar_subquery())
    rows = db.session.execute(
        select(Game.id, Game.black_id, Game.white_id, Game.winner_id, Game.status, Game.reason,
               stones, TournamentGame.black_berserk, TournamentGame.white_berserk)
        .join(TournamentGame, TournamentGame.game_id == Game.id)
        .where(TournamentGame.tournament_id == tournament_id)
        .order_by(Game.status != Status.FINISHED, Game.ended_at, Game.id))
    return [_played(*row) for row in rows]


def _played(game_id: int, black: int, white: int, winner: int | None, status: str,
            reason: str | None, stones: int, black_berserk: bool,
            white_berserk: bool) -> Played:
    counted = None
    if status == Status.FINISHED and reason != Reason.ABORTED:
        berserk = frozenset(player for player, went in ((black, black_berserk),
                                                         (white, white_berserk)) if went)
        counted = ArenaGame(black, white, winner, stones, float(game_id), berserk)
    return Played(game_id, black, white, status, counted)


def ratings_of(tournament_id: int) -> dict[int, int]:
    """Each player's rating when they joined, withdrawn players too: they keep their points."""
    return {user_id: rating for user_id, rating in db.session.execute(
        select(TournamentPlayer.user_id, TournamentPlayer.rating)
        .where(TournamentPlayer.tournament_id == tournament_id))}


def table_of(tournament_id: int, games: list[Played] | None = None) -> list[ArenaStanding]:
    games = played(tournament_id) if games is None else games
    return standings(ratings_of(tournament_id),
                     [game.counted for game in games if game.counted is not None])


def history_of(games: list[Played]) -> tuple[dict[int, int], dict[int, list[str]]]:
    """Each player's last opponent and the colours they played, from the games in order:
    what the pairing and the colours go by."""
    last: dict[int, int] = {}
    colours: dict[int, list[str]] = {}
    for game in games:
        last[game.black], last[game.white] = game.white, game.black
        colours.setdefault(game.black, []).append(BLACK)
        colours.setdefault(game.white, []).append(WHITE)
    return last, colours
