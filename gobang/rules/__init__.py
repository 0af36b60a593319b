"""Gomoku rules: board, moves, outcomes and renju forbidden moves. Standard library only."""

from .board import Board
from .errors import ForbiddenMove, GameOver, IllegalMove, NotYourTurn, Occupied, OutOfRange
from .game import Game
from .geometry import BLACK, COLORS, SIZE, WHITE, opponent
from .notation import from_notation, to_notation
from .outcome import RULESETS, Outcome, outcome_after
from .renju import FORBIDDEN_KINDS, forbidden_kind

__all__ = [
    "BLACK",
    "COLORS",
    "FORBIDDEN_KINDS",
    "RULESETS",
    "SIZE",
    "WHITE",
    "Board",
    "ForbiddenMove",
    "Game",
    "GameOver",
    "IllegalMove",
    "NotYourTurn",
    "Occupied",
    "OutOfRange",
    "Outcome",
    "forbidden_kind",
    "from_notation",
    "opponent",
    "outcome_after",
    "to_notation",
]
