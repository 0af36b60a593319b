"""The built-in gomoku engine and the adapter that drives any Gomocup protocol engine.

Layers: this package uses only the standard library and the public names of
`gobang.rules`; it knows nothing of Flask, Socket.IO or eventlet.
"""

from .adapter import (
    EngineAdapter,
    EngineFailure,
    EngineMove,
    Swap2Answer,
    Swap2Refused,
    builtin_argv,
)
from .levels import LEVELS, TOP_LEVEL, Level, level
from .openings import decide
from .player import BuiltinPlayer, position_of
from .search import NoLegalMove

__all__ = [
    "LEVELS",
    "TOP_LEVEL",
    "BuiltinPlayer",
    "EngineAdapter",
    "EngineFailure",
    "EngineMove",
    "Level",
    "NoLegalMove",
    "Swap2Answer",
    "Swap2Refused",
    "builtin_argv",
    "decide",
    "level",
    "position_of",
]
