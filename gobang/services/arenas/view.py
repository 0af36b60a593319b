"""A tournament as its page and `GET /api/tournaments/<id>` show it (docs/protocol.md,
"Tournaments"): the rules, the times, the standings with each player's row of marks, the
games in play, and for the player asking, whether they joined and their game in play."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select

from gobang.extensions import db
from gobang.models import Tournament, TournamentPlayer, User
from gobang.services.arenas.schedule import Now, ends_at
from gobang.services.arenas.standings import ArenaGames, Played, table_of
from gobang.services.pools import clock_label, wire
from gobang.services.tournaments.arena import ArenaStanding
from gobang.vocabulary import Status

PODIUM = 3


class TournamentView:
    def __init__(self, now: Now, games: ArenaGames) -> None:
        self.now = now
        self.games = games

    def summary(self, tournament: Tournament, user: User | None) -> dict[str, Any]:
        games = self.games.played(tournament.id)
        entries = {entry.user_id: entry for entry in db.session.scalars(
            select(TournamentPlayer).where(TournamentPlayer.tournament_id == tournament.id))}
        names = names_of({*entries, *(p for g in games for p in (g.black, g.white))})
        table = [_row(row, names, entries) for row in table_of(tournament.id, games)]
        return {
            **rules_of(tournament), "status": tournament.status,
            "seconds_to_start": seconds_until(tournament.starts_at, self.now()),
            "seconds_to_end": seconds_until(ends_at(tournament), self.now()),
            "standings": table, "podium": table[:PODIUM] if tournament.status == "finished"
            else [],
            "games": [_game(game, names) for game in games if game.status != Status.FINISHED],
            "me": _me(user, entries, games),
        }


def rules_of(tournament: Tournament) -> dict[str, Any]:
    """Either kind's rules: an arena's minutes and end, a Swiss event's rounds (the other
    kind's are null)."""
    clock = tournament.time_control()
    end = ends_at(tournament)
    return {
        "id": tournament.id, "kind": tournament.kind, "name": tournament.name,
        "ruleset": tournament.ruleset, "clock": wire(clock), "clock_label": clock_label(clock),
        "opening": tournament.opening, "rated": tournament.rated, "minutes": tournament.minutes,
        "rounds": tournament.rounds, "min_players": tournament.min_players,
        "starts_at": tournament.starts_at.isoformat() + "Z",
        "ends_at": None if end is None else end.isoformat() + "Z",
        # Who created it, as they are called now (the host's own: the name stored).
        "created_by": tournament.creator_name,
    }


def seconds_until(when: datetime | None, now: datetime) -> int | None:
    return None if when is None else max(0, round((when - now).total_seconds()))


def names_of(ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    return {user_id: name for user_id, name in db.session.execute(
        select(User.id, User.username).where(User.id.in_(ids)))}


def _row(row: ArenaStanding, names: dict[int, str],
         entries: dict[int, TournamentPlayer]) -> dict[str, Any]:
    entry = entries.get(int(row.id))
    return {
        "rank": row.rank, "id": row.id, "username": names.get(int(row.id), "?"),
        "points": row.points, "performance": row.performance, "rating": row.rating,
        "on_fire": row.sheet.on_fire, "withdrawn": bool(entry and entry.withdrawn),
        "marks": [{"points": mark.points, "outcome": mark.outcome, "on_fire": mark.on_fire,
                   "berserk": mark.berserk_point} for mark in row.sheet.marks],
    }


def _game(game: Played, names: dict[int, str]) -> dict[str, Any]:
    return {"game_id": game.game_id,
            "black": {"id": game.black, "username": names.get(game.black, "?")},
            "white": {"id": game.white, "username": names.get(game.white, "?")}}


def _me(user: User | None, entries: dict[int, TournamentPlayer],
        games: list[Played]) -> dict[str, Any] | None:
    if user is None:
        return None
    entry = entries.get(user.id)
    current = next((game.game_id for game in games if game.status != Status.FINISHED
                    and user.id in (game.black, game.white)), None)
    return {"joined": entry is not None and not entry.withdrawn,
            "withdrawn": bool(entry and entry.withdrawn), "game_id": current}
