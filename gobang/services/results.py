"""Saving a game's end: result, Elo changes and the players' counters, exactly once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import update

from gobang.extensions import db
from gobang.models import Game, User, utcnow
from gobang.rules import BLACK, WHITE
from gobang.services.ratings import elo

UNSCORED_REASONS = frozenset({"aborted"})


@dataclass(frozen=True)
class Ending:
    winner: str | None  # colour, or None for a draw or an abort
    reason: str
    line: list[list[int]] | None = None


def _points(winner: str | None) -> float:
    if winner is None:
        return 0.5
    return 1.0 if winner == BLACK else 0.0


def _counter_updates(color: str, winner: str | None) -> dict[str, Any]:
    if winner is None:
        return {"draws": User.draws + 1}
    return {"wins": User.wins + 1} if winner == color else {"losses": User.losses + 1}


def save_result(
    game_id: int, black_id: int, white_id: int, ending: Ending, k: int,
    clocks: dict[str, int] | None,
) -> dict[str, Any] | None:
    """Write the end of a game in one transaction. Returns the contract's Result, or None when
    the game had already ended (so a second ending, from any race, changes nothing)."""
    try:
        before = {
            BLACK: db.session.get(User, black_id).score,
            WHITE: db.session.get(User, white_id).score,
        }
        scored = ending.reason not in UNSCORED_REASONS
        after = dict(before)
        if scored:
            points = _points(ending.winner)
            after[BLACK], after[WHITE] = elo(before[BLACK], before[WHITE], points, k)
        winner_id = {BLACK: black_id, WHITE: white_id}.get(ending.winner or "")
        claimed = db.session.execute(
            update(Game)
            .where(Game.id == game_id, Game.status != "finished")
            .values(
                status="finished", winner=ending.winner, winner_id=winner_id,
                reason=ending.reason, line=ending.line, ended_at=utcnow(),
                black_score_before=before[BLACK], black_score_after=after[BLACK],
                white_score_before=before[WHITE], white_score_after=after[WHITE],
                **({"black_ms": clocks["black_ms"], "white_ms": clocks["white_ms"]}
                   if clocks else {}),
            )
        )
        if claimed.rowcount != 1:
            db.session.rollback()
            return None
        if scored:
            for color, user_id in ((BLACK, black_id), (WHITE, white_id)):
                db.session.execute(
                    update(User).where(User.id == user_id).values(
                        score=after[color], games=User.games + 1,
                        **_counter_updates(color, ending.winner),
                    )
                )
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return result_payload(ending, winner_id, before, after)


def result_payload(
    ending: Ending, winner_id: int | None, before: dict[str, int], after: dict[str, int]
) -> dict[str, Any]:
    return {
        "winner": ending.winner,
        "winner_id": winner_id,
        "reason": ending.reason,
        "line": ending.line,
        "scores": {
            BLACK: {"before": before[BLACK], "after": after[BLACK]},
            WHITE: {"before": before[WHITE], "after": after[WHITE]},
        },
    }
