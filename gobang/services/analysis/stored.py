"""Stored analyses: read for the API and the records, written whole in one transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from gobang.ai.evaluation import ENGINE_NAME, ENGINE_VERSION
from gobang.extensions import db
from gobang.models import GameAnalysis


def stored_analysis(game_id: int) -> dict[str, Any] | None:
    """The game's Analysis as docs/protocol.md has it, or None when it has none."""
    row = db.session.scalar(select(GameAnalysis).where(GameAnalysis.game_id == game_id))
    if row is None:
        return None
    return {"engine": f"{row.engine} {row.engine_version}", "moves": row.moves,
            "players": row.players}


def save_analysis(game_id: int, result: dict[str, Any]) -> None:
    """Store a worker's finished analysis: the row and all of its moves in one commit, so a
    reader sees all of it or none. A second analysis of the same game (two processes each
    finishing one) keeps the first. ValueError for a result that is not an analysis."""
    moves, players = result.get("moves"), result.get("players")
    if not isinstance(moves, list) or not isinstance(players, dict):
        raise ValueError("not an analysis: moves must be a list and players an object")
    db.session.add(GameAnalysis(game_id=game_id, engine=ENGINE_NAME,
                                engine_version=ENGINE_VERSION, moves=moves, players=players))
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()  # already analysed: the stored one stands
