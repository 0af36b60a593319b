"""How a game ended on the board: a five (with its line) or a full-board draw."""

from dataclasses import dataclass

from .board import Line
from .geometry import BLACK

FIVE = "five"
BOARD_FULL = "board_full"

BLACK_WIN = "black_win"
WHITE_WIN = "white_win"
DRAW = "draw"
NONE = "none"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended on the board.

    ``winner`` is ``"black"``, ``"white"`` or None for a draw; ``reason`` is ``"five"`` or
    ``"board_full"``; ``line`` holds the winning stones sorted from one end to the other
    (every stone of the run, so an overline win lists six or more), None for a draw.
    """

    winner: str | None
    reason: str
    line: Line | None = None

    @property
    def result(self) -> str:
        """``"black_win"``, ``"white_win"`` or ``"draw"``, as `outcome_after` reports it."""
        if self.winner is None:
            return DRAW
        return BLACK_WIN if self.winner == BLACK else WHITE_WIN
