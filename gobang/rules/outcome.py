"""What a move does to the game: a five (with its line), a full-board draw, or nothing."""

from dataclasses import dataclass

from .board import Board
from .errors import Occupied
from .geometry import (
    BLACK,
    BLACK_STONE,
    CELLS,
    COLOR_OF,
    EMPTY,
    RAYS,
    SIZE,
    point_index,
    stone_of,
)
from .renju import forbidden_kind

FREESTYLE = "freestyle"
STANDARD = "standard"
RENJU = "renju"
RULESETS = (FREESTYLE, STANDARD, RENJU)

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
    line: tuple[tuple[int, int], ...] | None = None

    @property
    def result(self) -> str:
        """``"black_win"``, ``"white_win"`` or ``"draw"``, as `outcome_after` reports it."""
        if self.winner is None:
            return DRAW
        return BLACK_WIN if self.winner == BLACK else WHITE_WIN


def check_ruleset(ruleset: str) -> str:
    if ruleset not in RULESETS:
        raise ValueError(f"unknown ruleset {ruleset!r}; expected one of {RULESETS}")
    return ruleset


def _wins(length: int, stone: int, ruleset: str) -> bool:
    if length < 5:
        return False
    if length == 5 or ruleset == FREESTYLE:
        return True
    # Six or more: no win in standard, nor for black in renju; white wins with it in renju.
    return ruleset == RENJU and stone != BLACK_STONE


def winning_line(cells: bytearray, index: int, ruleset: str) -> tuple[tuple[int, int], ...] | None:
    """The winning run through the stone at ``index`` (already placed), or None.

    When one move completes several winning lines the first of horizontal, vertical,
    diagonal, anti-diagonal is reported.
    """
    stone = cells[index]
    for forward, backward in RAYS[index]:
        ahead = 0
        for j in forward:
            if cells[j] != stone:
                break
            ahead += 1
        behind = 0
        for j in backward:
            if cells[j] != stone:
                break
            behind += 1
        if ahead + behind >= 4 and _wins(ahead + behind + 1, stone, ruleset):
            run = [*backward[:behind][::-1], index, *forward[:ahead]]
            return tuple(sorted(divmod(i, SIZE) for i in run))
    return None


def evaluate(cells: bytearray, count: int, index: int, ruleset: str) -> Outcome | None:
    """Outcome once the stone at ``index`` has been placed and ``count`` stones are down.

    Callers are trusted to have rejected forbidden renju moves already.
    """
    line = winning_line(cells, index, ruleset)
    if line is not None:
        return Outcome(COLOR_OF[cells[index]], FIVE, line)
    if count == CELLS:
        return Outcome(None, BOARD_FULL, None)
    return None


def outcome_after(board: Board, row: int, col: int, color: str, ruleset: str) -> str:
    """The result of ``color`` playing at the empty point ``(row, col)``:
    ``"black_win"``, ``"white_win"``, ``"draw"`` (the move fills the board with no win)
    or ``"none"`` (play on). ``board`` is not modified.

    A renju black move that is forbidden (and so makes no five) reports ``"none"``, even
    on the last empty point: such a move is not playable, which `Game.place` enforces by
    raising ForbiddenMove before it ever asks for an outcome.
    """
    index = point_index(row, col)
    stone = stone_of(color)
    check_ruleset(ruleset)
    if board._cells[index] != EMPTY:
        raise Occupied(row=row, col=col)
    cells = bytearray(board._cells)
    cells[index] = stone
    outcome = evaluate(cells, board.stone_count + 1, index, ruleset)
    if outcome is None:
        return NONE
    if (
        outcome.winner is None
        and ruleset == RENJU
        and stone == BLACK_STONE
        and forbidden_kind(board, row, col) is not None
    ):
        return NONE
    return outcome.result
