"""What a Result's `ratings` says after two newcomers' first game (docs/protocol.md)."""

from __future__ import annotations

from gobang.services.ratings.glicko2 import Result, new_rating, rate


def first_game_ratings(category: str, winner: str | None) -> dict:
    start = new_rating()
    points = {"black": 1.0, "white": 0.0, None: 0.5}[winner]
    lines = {}
    for color, scored in (("black", points), ("white", 1.0 - points)):
        after = rate(start, [Result(start, scored)])
        lines[color] = {"before": 1500, "after": round(after.rating),
                        "rd": round(after.deviation), "provisional": True}
    return {"category": category, **lines}
