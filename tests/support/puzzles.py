"""Puzzle positions built by hand, and games with a stored analysis that yields them."""

from __future__ import annotations

from collections.abc import Sequence

from flask import Flask

from gobang.services.analysis.stored import save_analysis
from tests.support.analysis import MISSED_VCF
from tests.support.games import add_user, finish_game

Point = tuple[int, int]

# Black to move at move 11 with a four-three at (7, 8): a VCF (tests/support/analysis.py).
VCF_POSITION: list[Point] = MISSED_VCF[:10]
VCF_MISSED_AT = 11
# The VCF's line as the threat search finds it: (7, 8) four-three, white's forced block
# (7, 9), (4, 8) an open four; then a five at (3, 8) or (8, 8).
VCF_LINE: list[Point] = [(7, 8), (7, 9), (4, 8)]

# Renju: the same four-three for black, and (11, 11) a double three (forbidden to black).
RENJU_POSITION: list[Point] = [
    (7, 5), (7, 4), (7, 6), (0, 0), (7, 7), (0, 3), (5, 8), (14, 14), (6, 8), (14, 11),
    (11, 9), (0, 6), (11, 10), (0, 9), (9, 11), (2, 14), (10, 11), (4, 14),
]
RENJU_FORBIDDEN: Point = (11, 11)
FAR: Point = (0, 13)


def analysed_game(app: Flask, moves: Sequence[Point], missed_at: int,
                  ruleset: str = "freestyle", names: tuple[str, str] = ("ann", "bo"),
                  ) -> tuple[int, int, int]:
    """A finished game of `moves` (the position, then a far move) between two new players,
    and a stored analysis saying move `missed_at` missed a VCF: (black, white, game)."""
    black, white = add_user(app, names[0]), add_user(app, names[1])
    played = [*moves, FAR]
    game_id = finish_game(app, black, white, "black", "resign", moves=played, ruleset=ruleset)
    reviews = [{"number": n, "color": "black" if n % 2 else "white", "move": list(p),
                "before": 0.0, "after": 0.0, "best": None, "label": None,
                "missed_win": {"kind": "vcf", "line": [list(FAR)]} if n == missed_at else None}
               for n, p in enumerate(played, start=1)]
    with app.app_context():
        save_analysis(game_id, {"moves": reviews, "players": {}})
    return black, white, game_id

# Freestyle, black to move: (7, 7) makes two open threes at once (row 7 and column 7), a VCT
# with no four in it (tests/ai/test_evaluation.py's double three).
VCT_POSITION: list[Point] = [
    (7, 5), (0, 0), (7, 6), (0, 3), (5, 7), (14, 14), (6, 7), (14, 11)]
