"""Gomoku rules: board, moves, outcomes, rulesets and renju forbidden moves.
Standard library only."""

from .board import Board, Line
from .errors import (
    ForbiddenMove,
    GameOver,
    IllegalMove,
    NotYourTurn,
    Occupied,
    OutOfRange,
    UnknownRuleset,
)
from .game import Game
from .geometry import BLACK, COLORS, SIZE, WHITE, opponent
from .notation import from_notation, to_notation
from .outcome import Outcome
from .renju import FORBIDDEN_KINDS, forbidden_kind
from .rulesets import (
    RULESETS,
    Freestyle,
    Renju,
    Ruleset,
    Standard,
    outcome_after,
    ruleset_named,
)

__all__ = [
    "BLACK",
    "COLORS",
    "FORBIDDEN_KINDS",
    "RULESETS",
    "SIZE",
    "WHITE",
    "Board",
    "ForbiddenMove",
    "Freestyle",
    "Game",
    "GameOver",
    "IllegalMove",
    "Line",
    "NotYourTurn",
    "Occupied",
    "OutOfRange",
    "Outcome",
    "Renju",
    "Ruleset",
    "Standard",
    "UnknownRuleset",
    "forbidden_kind",
    "from_notation",
    "opponent",
    "outcome_after",
    "ruleset_named",
    "to_notation",
]
