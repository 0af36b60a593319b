"""Game records as the contract's GameRecord."""

from __future__ import annotations


def game_record(game_id: int) -> dict | None:
    return None
