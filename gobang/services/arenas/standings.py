"""An arena's standings, derived each time from its stored games: the finished ones, in the
order they ended, fed to the pure scoring (gobang.services.tournaments.arena). Nothing is
counted as a result comes in, so a result can never count twice, and a restart loses none.

Every stored game of the tournament counts: the director pairs only before the end, so each
started before it (arena.result_counts), and one still in play at the end counts when it
ends. An aborted game (nobody moved in time) counts for nobody."""

from __future__ import annotations

from bisect import insort
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Select, func, or_, select

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
    rows = db.session.execute(_games_of(tournament_id).order_by(
        Game.status != Status.FINISHED, Game.ended_at, Game.id))
    return [_played(*row[1:-1]) for row in rows]


def _games_of(tournament_id: int) -> Select:
    """(link id, the fields of `_played`, ended_at) of each of the tournament's games."""
    stones = (select(func.count(Move.id)).where(Move.game_id == Game.id)
              .correlate(Game).scalar_subquery())
    return (select(TournamentGame.id, Game.id, Game.black_id, Game.white_id, Game.winner_id,
                   Game.status, Game.reason, stones, TournamentGame.black_berserk,
                   TournamentGame.white_berserk, Game.ended_at)
            .join(TournamentGame, TournamentGame.game_id == Game.id)
            .where(TournamentGame.tournament_id == tournament_id))


class ArenaGames:
    """`played`, kept between reads: the director reads a running arena's games every tick
    and its page every second, and a finished game never changes, so each read asks the
    database only for the games paired since the last one and those that were in play then
    (reading all of them each time cost 10-16 ms at 1,100 games, and grew with every game:
    docs/performance.md, "An arena of 200 players"). A count of the links checks that no
    pairing was committed behind one read already past its id; if one was, the arena's games
    are read again in full. Only the KEPT arenas read last are kept (those running, and the
    pages being looked at): an older one is read in full again when asked for."""

    KEPT = 8

    def __init__(self) -> None:
        self._read: OrderedDict[int, _Read] = OrderedDict()

    def played(self, tournament_id: int) -> list[Played]:
        last = self._read.pop(tournament_id, None) or _Read()
        query = _games_of(tournament_id)
        read = last.updated(db.session.execute(query.where(or_(
            TournamentGame.id > last.last_link, Game.id.in_(last.in_play)))))
        if read.links != _links(tournament_id):
            read = _Read().updated(db.session.execute(query))
        # Replaced whole, never changed in place: a read that waited on the database meanwhile
        # still holds the one it began from.
        self._read[tournament_id] = read
        while len(self._read) > self.KEPT:
            self._read.popitem(last=False)
        return read.games()


@dataclass(frozen=True)
class _Read:
    """What was read of one arena: the finished games in the order they ended (with that
    order's key), those in play by id, the highest link id seen and how many links."""

    finished: tuple[tuple[datetime, int, Played], ...] = ()
    playing: dict[int, Played] = field(default_factory=dict)
    last_link: int = 0
    links: int = 0

    @property
    def in_play(self) -> list[int]:
        return list(self.playing)

    def updated(self, rows: Iterable[Sequence]) -> _Read:
        finished, playing = list(self.finished), {}
        last_link, links = self.last_link, self.links
        for row in rows:
            link, game, ended_at = row[0], _played(*row[1:-1]), row[-1]
            if link > self.last_link:
                links += 1
                last_link = max(last_link, link)
            if game.status == Status.FINISHED:
                insort(finished, (ended_at or datetime.min, game.game_id, game))
            else:
                playing[game.game_id] = game
        return _Read(tuple(finished), playing, last_link, links)

    def games(self) -> list[Played]:
        return ([game for _ended, _id, game in self.finished]
                + [self.playing[game_id] for game_id in sorted(self.playing)])


def _links(tournament_id: int) -> int:
    return db.session.scalar(select(func.count(TournamentGame.id)).where(
        TournamentGame.tournament_id == tournament_id)) or 0


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
