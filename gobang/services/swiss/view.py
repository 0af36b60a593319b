"""A Swiss event as its page and `GET /api/tournaments/<id>` show it (docs/protocol.md,
"Tournaments"): the arenas' keys (rules, times, standings, podium, games in play, me), and the
round in play or last played of all the rounds, its boards, the seconds until the next round
is paired, and standings with Buchholz, Sonneborn-Berger and a mark per round. Also the
tournaments a player entered, of either kind, with their place (a profile's list)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from gobang.extensions import db
from gobang.models import Tournament, TournamentPlayer, User
from gobang.services.arenas.schedule import FINISHED, RUNNING, SWISS, Now
from gobang.services.arenas.standings import table_of
from gobang.services.arenas.view import PODIUM, names_of, rules_of, seconds_until
from gobang.services.swiss.director import SwissDirector
from gobang.services.swiss.rounds import Rounds, StoredBoard, rounds_of
from gobang.services.tournaments.swiss_event import Standing

# A board's result as written on it, from black's and white's points.
SCORES = {(1.0, 0.0): "1-0", (0.0, 1.0): "0-1", (0.5, 0.5): "½-½", (0.0, 0.0): "0-0"}
OUTCOMES = {1.0: "win", 0.5: "draw", 0.0: "loss"}


class SwissView:
    def __init__(self, now: Now, director: SwissDirector) -> None:
        self.now = now
        # Says when the next round is due (the pause after the last game).
        self.director = director

    def summary(self, tournament: Tournament, user: User | None) -> dict[str, Any]:
        rounds = rounds_of(tournament.id)
        entries = {entry.user_id: entry for entry in db.session.scalars(
            select(TournamentPlayer).where(TournamentPlayer.tournament_id == tournament.id))}
        names = names_of(set(entries))
        table = [_row(row, names, entries, rounds) for row in rounds.event().standings()]
        current = rounds.current()
        return {
            **rules_of(tournament), "status": tournament.status,
            "seconds_to_start": seconds_until(tournament.starts_at, self.now()),
            "seconds_to_end": None,
            "standings": table, "podium": table[:PODIUM] if tournament.status == FINISHED
            else [],
            "games": [_game(board, names) for board in current
                      if board.game_id is not None and not board.done],
            "me": _me(user, entries, current),
            "round": rounds.played,
            "seconds_to_next_round": self._to_next_round(tournament, rounds),
            "boards": [_board(board, names) for board in current],
        }

    def _to_next_round(self, tournament: Tournament, rounds: Rounds) -> int | None:
        """While the pause after a round runs; None otherwise."""
        if tournament.status != RUNNING or not rounds.played or not rounds.round_over() \
                or rounds.played >= (tournament.rounds or 0):
            return None
        return seconds_until(self.director.next_round_at(rounds), self.now())


def _player(user_id: int | None, names: dict[int, str]) -> dict[str, Any] | None:
    return None if user_id is None else {"id": user_id, "username": names.get(user_id, "?")}


def _board(board: StoredBoard, names: dict[int, str]) -> dict[str, Any]:
    return {"board": board.board, "black": _player(board.black, names),
            "white": _player(board.white, names), "game_id": board.game_id,
            "result": None if board.points is None else SCORES[board.points]}


def _game(board: StoredBoard, names: dict[int, str]) -> dict[str, Any]:
    return {"game_id": board.game_id, "black": _player(board.black, names),
            "white": _player(board.white, names)}


def _row(row: Standing, names: dict[int, str], entries: dict[int, TournamentPlayer],
         rounds: Rounds) -> dict[str, Any]:
    user_id = int(row.id)
    entry = entries.get(user_id)
    return {
        "rank": row.rank, "id": user_id, "username": names.get(user_id, "?"),
        "points": row.points, "buchholz": row.buchholz,
        "sonneborn_berger": row.sonneborn_berger, "rating": row.rating,
        "withdrawn": bool(entry and entry.withdrawn),
        "marks": [_mark(user_id, number, rounds) for number in range(1, rounds.played + 1)],
    }


def _mark(user_id: int, number: int, rounds: Rounds) -> dict[str, Any]:
    """The player's round: a win, draw or loss against an opponent, the bye, absent, or a
    game still in play (no points yet)."""
    board = next((b for b in rounds.of_round(number) if user_id in b.players()), None)
    if board is None:
        return {"round": number, "outcome": "absent", "points": 0.0, "opponent": None}
    if board.bye:
        return {"round": number, "outcome": "bye", "points": 1.0, "opponent": None}
    opponent = board.white if user_id == board.black else board.black
    if board.points is None:
        return {"round": number, "outcome": "playing", "points": None, "opponent": opponent}
    points = board.points[0] if user_id == board.black else board.points[1]
    return {"round": number, "outcome": OUTCOMES[points], "points": points,
            "opponent": opponent}


def _me(user: User | None, entries: dict[int, TournamentPlayer],
        current: list[StoredBoard]) -> dict[str, Any] | None:
    if user is None:
        return None
    entry = entries.get(user.id)
    game = next((board.game_id for board in current if board.game_id is not None
                 and not board.done and user.id in board.players()), None)
    return {"joined": entry is not None and not entry.withdrawn,
            "withdrawn": bool(entry and entry.withdrawn), "game_id": game}


def of_player(user_id: int, limit: int = 10) -> list[dict[str, Any]]:
    """The tournaments a player joined, latest first, with their place: each kind ranked by
    its own standings (a profile's list)."""
    found = db.session.scalars(select(Tournament).join(
        TournamentPlayer, TournamentPlayer.tournament_id == Tournament.id).where(
        TournamentPlayer.user_id == user_id).order_by(Tournament.starts_at.desc(),
                                                      Tournament.id.desc()).limit(limit))
    rows = []
    for tournament in found:
        places = ([(row.id, row.rank, row.points) for row in
                   rounds_of(tournament.id).event().standings()]
                  if tournament.kind == SWISS else
                  [(row.id, row.rank, row.points) for row in table_of(tournament.id)])
        mine = next((place for place in places if place[0] == user_id), None)
        rows.append({"tournament": tournament, "rank": mine[1] if mine else None,
                     "points": mine[2] if mine else 0})
    return rows
