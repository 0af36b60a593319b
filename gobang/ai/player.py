"""The built-in engine behind a plain call: a `Game` in, a point out."""

import random
import time
from collections.abc import Callable

from gobang.rules import SIZE, Game

from .levels import TOP_LEVEL, level
from .position import Position
from .search import Engine


def position_of(game: Game) -> Position:
    """The engine's view of a rules-engine game, same ruleset and move order."""
    pos = Position(game.ruleset)
    for row, col in game.moves:
        pos.play(row * SIZE + col)
    return pos


class BuiltinPlayer:
    """Plays the side to move of a `Game` at one level; the adapter's fallback."""

    def __init__(
        self,
        number: int = TOP_LEVEL,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._engine = Engine(level(number), rng or random.Random(0), clock)

    def __call__(self, game: Game) -> tuple[int, int]:
        if game.is_over:
            raise ValueError("the game is over")
        index = self._engine.choose(position_of(game))
        return divmod(index, SIZE)
