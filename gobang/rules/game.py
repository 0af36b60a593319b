"""A game in progress: the board, the move list, whose turn it is, and how it ended.

Only board outcomes (a five, a full board) are known here; resignation, timeouts and
whether take-backs are allowed are the server's business.
"""

from collections.abc import Iterable, Sequence

from .board import Board
from .errors import ForbiddenMove, GameOver, NotYourTurn, OutOfRange
from .geometry import BLACK, CELLS, WHITE
from .notation import from_notation
from .outcome import Outcome
from .rulesets import Freestyle, ruleset_named


class Game:
    """Black moves first and colours alternate; ``moves[i]`` was played by
    `color_of_move(i)`."""

    __slots__ = ("_rules", "_board", "_moves", "_outcome")

    def __init__(self, ruleset: str = Freestyle.name) -> None:
        """``ruleset`` is one of `RULESETS`; UnknownRuleset (a ValueError) otherwise."""
        self._rules = ruleset_named(ruleset)
        self._board = Board()
        self._moves: list[tuple[int, int]] = []
        self._outcome: Outcome | None = None

    @classmethod
    def replay(cls, moves: Iterable[Sequence[int] | str], ruleset: str = Freestyle.name) -> "Game":
        """Rebuild a game from a stored move list of ``(row, col)`` pairs (lists are fine,
        as is notation like ``"h8"``). Raises the first IllegalMove met; an item that is
        not a pair raises OutOfRange, bad notation a plain ValueError."""
        game = cls(ruleset)
        for move in moves:
            if isinstance(move, str):
                row, col = from_notation(move)
            else:
                try:
                    row, col = move
                except (TypeError, ValueError):
                    raise OutOfRange(f"not a (row, col) pair: {move!r}") from None
            game.place(row, col)
        return game

    @property
    def ruleset(self) -> str:
        """The ruleset's name, as stored and sent to clients."""
        return self._rules.name

    @property
    def board(self) -> Board:
        """The live board. Treat it as read-only; take `Board.copy` to experiment."""
        return self._board

    @property
    def moves(self) -> list[tuple[int, int]]:
        """A copy of the moves played so far, oldest first."""
        return list(self._moves)

    @property
    def last_move(self) -> tuple[int, int] | None:
        return self._moves[-1] if self._moves else None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def to_move(self) -> str | None:
        """``"black"`` or ``"white"``, or None once the game is over."""
        if self._outcome is not None:
            return None
        return BLACK if len(self._moves) % 2 == 0 else WHITE

    @staticmethod
    def color_of_move(index: int) -> str:
        """Colour that plays (or played) move number ``index``, counting from 0."""
        if type(index) is not int or index < 0:
            raise ValueError(f"move index must be a non-negative int, not {index!r}")
        return BLACK if index % 2 == 0 else WHITE

    def place(self, row: int, col: int, color: str | None = None) -> Outcome | None:
        """Play the side to move at ``(row, col)`` and return the outcome, if the game ended.

        ``color``, when given, must be the side to move. Checks run in this order, errors
        about the game state before errors about the point: GameOver, NotYourTurn,
        OutOfRange (non-int, bool or off-board coordinates), Occupied, ForbiddenMove
        (renju black only).
        """
        if self._outcome is not None:
            raise GameOver(row=None, col=None)
        moves = self._moves
        to_move = BLACK if len(moves) % 2 == 0 else WHITE
        if color is not None and color != to_move:
            raise NotYourTurn(f"it is {to_move}'s turn, not {color!r}'s")
        rules = self._rules
        board = self._board
        # A ruleset that forbids points checks the point itself first (OutOfRange,
        # Occupied); for the others `put` does, so the documented order holds either way.
        kind = rules.forbidden_kind(board, row, col, to_move)
        if kind is not None:
            raise ForbiddenMove(kind, row=row, col=col)
        runs = board.put(row, col, to_move)
        moves.append((row, col))
        # Every stone on the game's board is one of its moves, so counting moves tells
        # whether the board is full without another call on every move.
        full = len(moves) == CELLS
        if runs or full:
            self._outcome = rules.outcome(to_move, runs, full)
        return self._outcome

    def undo(self, n: int = 1) -> list[tuple[int, int]]:
        """Take back the last ``n`` moves and return them, oldest first.

        Undoing reopens a finished game: every earlier position was still in play.
        ``n == 0`` changes nothing. Raises ValueError if ``n`` is not a non-negative int
        or exceeds the moves played.
        """
        if type(n) is not int or n < 0:
            raise ValueError(f"n must be a non-negative int, not {n!r}")
        if n > len(self._moves):
            raise ValueError(f"cannot undo {n} moves; only {len(self._moves)} played")
        if n == 0:
            return []
        taken = self._moves[-n:]
        del self._moves[-n:]
        for row, col in reversed(taken):
            self._board.remove(row, col)
        self._outcome = None
        return taken

    def __repr__(self) -> str:
        return (
            f"<Game {self._rules.name} moves={len(self._moves)} to_move={self.to_move} "
            f"outcome={self._outcome}>"
        )
