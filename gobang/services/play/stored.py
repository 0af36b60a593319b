"""Games as the contract describes them, built from the database."""

from __future__ import annotations

from typing import Any

from gobang.extensions import db
from gobang.models import Game
from gobang.rules import BLACK, WHITE
from gobang.rules import Game as RulesGame
from gobang.services.openings.stored import opening_of, opening_state
from gobang.services.play.results import Ending, result_payload
from gobang.services.ratings.stored import rating_payload


def _iso(moment) -> str | None:
    return moment.isoformat() + "Z" if moment else None


def stored_result(game: Game) -> dict[str, Any] | None:
    if game.status != "finished":
        return None
    before = {BLACK: game.black_score_before, WHITE: game.white_score_before}
    after = {BLACK: game.black_score_after, WHITE: game.white_score_after}
    ending = Ending(game.winner, game.reason or "", game.line, game.abort_detail)
    return result_payload(ending, game.winner_id, before, after, game.category,
                          _rating_lines(game))


def _rating_lines(game: Game) -> dict[str, dict[str, Any]] | None:
    if game.black_rating_after is None or game.white_rating_after is None:
        return None
    return {
        BLACK: rating_payload(game.black_rating_before, game.black_rating_after,
                              game.black_deviation_after),
        WHITE: rating_payload(game.white_rating_before, game.white_rating_after,
                              game.white_deviation_after),
    }


def _player(user, score: int | None, rating: float | None = None) -> dict[str, Any]:
    found = {"id": user.id, "username": user.username,
             "score": score if score is not None else user.score}
    if rating is not None:  # the rating in the game's category as it began (a rated game)
        found["rating"] = round(rating)
    if user.computer_level is not None:
        found["computer"] = user.computer_level  # as in a live game's Player
    return found


def stored_state(game: Game) -> dict[str, Any]:
    """GameState (without "you") of a game as the database holds it."""
    moves = [[m.row, m.col] for m in game.moves]
    to_move = None
    if game.status != "finished":
        to_move = RulesGame.color_of_move(len(moves))
    clocks = None
    if game.black_ms is not None and game.white_ms is not None:
        clocks = {"black_ms": game.black_ms, "white_ms": game.white_ms}
    return {
        "game_id": game.id,
        "ruleset": game.ruleset,
        "status": game.status,
        "black": _player(game.black, game.black_score_before, game.black_rating_before),
        "white": _player(game.white, game.white_score_before, game.white_rating_before),
        "moves": moves,
        "to_move": to_move,
        "clocks": clocks,
        "clock": _wire(game.time_control()),
        "rated": game.rated,
        "opening": opening_state(opening_of(game), game.black_id, game.white_id,
                                 finished=game.status == "finished"),
        "result": stored_result(game),
    }


def _wire(time_control: tuple[int, int] | None) -> list[int] | None:
    return list(time_control) if time_control else None


def game_record(game_id: int) -> dict[str, Any] | None:
    game = db.session.get(Game, game_id)
    if game is None:
        return None
    record = stored_state(game)
    record["started_at"] = _iso(game.started_at)
    record["ended_at"] = _iso(game.ended_at)
    return record
