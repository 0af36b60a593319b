"""Rulesets as objects that own their differences, the way python-chess's variants do.

`Ruleset` holds the rules every ruleset shares and is itself standard gomoku; each other
ruleset is a subclass overriding the one or two rules it changes (what wins, what is
forbidden). `Game` and `outcome_after` ask the ruleset and never branch on its name.
"""

from collections.abc import Sequence

from . import renju
from .board import Board, Line
from .errors import UnknownRuleset
from .geometry import BLACK
from .outcome import BOARD_FULL, FIVE, NONE, Outcome


class Ruleset:
    """Standard gomoku: a line of exactly five wins for either colour, an overline
    (six or more) wins nothing, and every empty point is playable."""

    name = "standard"

    def wins(self, length: int, color: str) -> bool:
        """Whether an unbroken line of ``length`` stones of ``color`` wins."""
        return length == 5

    def forbids(self, color: str) -> bool:
        """Whether any point can ever be forbidden to ``color``: lets callers skip asking
        `forbidden_kind` point by point."""
        return False

    def forbidden_kind(self, board: Board, row: int, col: int, color: str) -> str | None:
        """Why ``color`` may not play at the empty point ``(row, col)`` (one of
        `FORBIDDEN_KINDS`), or None if the move is allowed. Rulesets without forbidden
        points answer None without looking at the board; `Board.put` checks the point."""
        return None

    def outcome(self, color: str, runs: Sequence[Line], board_full: bool) -> Outcome | None:
        """The outcome once ``color`` has made ``runs`` (as `Board.put` returns them) with
        the move just played, or None if play goes on. When one move completes several
        winning lines the first of horizontal, vertical, diagonal, anti-diagonal is reported.
        """
        for run in runs:
            if self.wins(len(run), color):
                return Outcome(color, FIVE, run)
        if board_full:
            return Outcome(None, BOARD_FULL, None)
        return None

    def outcome_after(self, board: Board, row: int, col: int, color: str) -> str:
        """The result of ``color`` playing at the empty point ``(row, col)``:
        ``"black_win"``, ``"white_win"``, ``"draw"`` (the move fills the board with no win)
        or ``"none"`` (play on). ``board`` is not modified.

        A forbidden move (which makes no win) reports ``"none"``, even on the last empty
        point: such a move is not playable, which `Game.place` enforces by raising
        ForbiddenMove before it ever asks for an outcome.
        """
        after = board.copy()
        outcome = self.outcome(color, after.put(row, col, color), after.is_full)
        if outcome is None:
            return NONE
        if outcome.winner is None and self.forbidden_kind(board, row, col, color) is not None:
            return NONE
        return outcome.result

    def __repr__(self) -> str:
        return f"<Ruleset {self.name}>"


class Standard(Ruleset):
    """Standard gomoku, exactly as the base class plays it."""


class Freestyle(Ruleset):
    """Freestyle gomoku: five or more in a row wins, overlines included."""

    name = "freestyle"

    def wins(self, length: int, color: str) -> bool:
        return length >= 5


class Renju(Ruleset):
    """Renju (RIF rules): black, who moves first and so has the edge, must make exactly
    five and may not play a double-three, double-four or overline; white wins with five
    or more and is never restricted."""

    name = "renju"

    def wins(self, length: int, color: str) -> bool:
        return length == 5 or (length > 5 and color != BLACK)

    def forbids(self, color: str) -> bool:
        return color == BLACK

    def forbidden_kind(self, board: Board, row: int, col: int, color: str) -> str | None:
        if color != BLACK:
            return None
        return renju.forbidden_kind(board, row, col)


_BY_NAME: dict[str, Ruleset] = {r.name: r for r in (Freestyle(), Standard(), Renju())}

# The names the rest of the server stores, validates and offers to players.
RULESETS: tuple[str, ...] = tuple(_BY_NAME)


def ruleset_named(name: str) -> Ruleset:
    """The ruleset called ``name`` (one of `RULESETS`); UnknownRuleset (a ValueError)
    for anything else."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise UnknownRuleset(name, RULESETS) from None


def outcome_after(board: Board, row: int, col: int, color: str, ruleset: str) -> str:
    """`Ruleset.outcome_after` for the ruleset called ``ruleset``."""
    return ruleset_named(ruleset).outcome_after(board, row, col, color)
